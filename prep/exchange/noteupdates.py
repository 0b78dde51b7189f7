"""Questions updated in place by prep's own Anki notes in an import file.

A note whose Id names a question of the bank, or one of its former ids (``formerly``), updates
that question where it is: prompt, key points, pitfalls and tags in its question file, the
answer in its answers file (or a new answer in ``answers/<category>.yaml``). Only what changed
is edited, as text, so the rest of every file stays as it was. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from prep.bank.contents import Bank
from prep.bank.naming import prompt_key
from prep.bank.yamlsplice import Edit, EditError, apply, items_by, mapping_value, replace_items, set_entries
from prep.errors import Problem, UsageError, display_path
from prep.exchange.ankinote import NoteError, note_values, text_of
from prep.exchange.rows import ImportRow
from prep.paths import BankLocation

QUESTION_FIELDS = ("prompt", "key_points", "pitfalls", "tags")
CLAIM_LISTS = ("key_points", "pitfalls")  # changed item by item: the items that stay keep their text


@dataclass
class Update:
    row: ImportRow
    qid: str
    fields: dict[str, Any] = field(default_factory=dict)  # entries of the question that change
    was: dict[str, Any] = field(default_factory=dict)  # ... and what they are in the bank
    answer: str | None = None  # the new answer, when it changes

    @property
    def changed(self) -> bool:
        return bool(self.fields) or self.answer is not None


@dataclass
class Plan:
    rows: list[ImportRow] = field(default_factory=list)  # to add, prep notes with their values
    updates: list[Update] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    prompts: dict[str, str] = field(default_factory=dict)  # prompt keys an update gives its question


def plan(bank: Bank, rows: list[ImportRow], category: str, file: str, problems: list[Problem]) -> Plan:
    """Which rows update a question (prep notes naming one) and which are added; a note's fields
    read against the question it names (problems are added to *problems*)."""
    former = bank.former_ids()
    owner = {prompt_key(q.prompt): q.id for q in bank.questions.values()}
    result = Plan()
    first: dict[str, int] = {}
    for row in rows:
        note = row.note
        qid = None if note is None else note.id if note.id in bank.questions else former.get(note.id)
        question = bank.questions.get(qid) if qid else None
        if note is None or not row.prompt:
            result.rows.append(row)
            continue
        if note.guessed and question is None:  # perhaps not prep's note: its first two fields
            result.rows.append(
                replace(row, note=None, id=None, answer=text_of(note.fields["KeyPoints"], False))
            )
            continue
        try:
            home = bank.category_of[qid] if qid else category
            values = note_values(note, question, bank.answer_text(qid) if qid else None, home)
        except NoteError as exc:
            problems.append(Problem(file, row.line, 0, exc.message, exc.field))
            continue
        if question is None:
            given = {key: values[key] for key in QUESTION_FIELDS}
            result.rows.append(replace(row, **given, answer=values["answer"] or ""))
            continue
        if qid in first:
            result.skipped.append((row.line, f"a second note for {qid!r} (the first at line {first[qid]})"))
            continue
        first[qid] = row.line
        update = _update(row, qid, values, bank)
        taken = owner.get(prompt_key(values["prompt"]), qid)
        if "prompt" in update.fields and taken != qid:
            result.skipped.append(
                (row.line, f"duplicate prompt (same as {taken!r}): {values['prompt'][:60]}")
            )
            continue
        result.prompts[prompt_key(values["prompt"])] = qid
        result.updates.append(update)
    return result


def _update(row: ImportRow, qid: str, values: dict[str, Any], bank: Bank) -> Update:
    question = bank.questions[qid]
    now = {
        "prompt": question.prompt,
        "key_points": tuple(k.entry for k in question.key_points),
        "pitfalls": tuple(p.entry for p in question.pitfalls),
        "tags": question.tags,
    }
    update = Update(row, qid)
    for key in QUESTION_FIELDS:
        new = values[key] if values[key] is not None else now[key]
        if new != now[key]:
            update.fields[key] = new if isinstance(new, str) else (list(new) or None)
            update.was[key] = now[key]
    if values["answer"] is not None and values["answer"] != bank.answer_text(qid):
        update.answer = values["answer"]
    return update


def edit_texts(
    location: BankLocation, bank: Bank, updates: list[Update], texts: dict[Path, str]
) -> dict[Path, list[tuple[ImportRow, dict[str, Any]]]]:
    """Edit the question and answers files of *updates* in *texts* (read when not there yet);
    the answers that are new, to append (with the row each comes from), by the file they go to."""
    edits: dict[Path, list[tuple[str, str, dict[str, Any], dict[str, Any]]]] = {}
    appends: dict[Path, list[tuple[ImportRow, dict[str, Any]]]] = {}
    for update in updates:
        if update.fields:
            where = bank.question_origin[update.qid].file
            edits.setdefault(where, []).append(("questions", update.qid, update.fields, update.was))
        if update.answer is None:
            continue
        origin = bank.answer_origin.get(update.qid)
        if origin is not None:
            entry = ("answers", update.qid, {"answer": update.answer + "\n"}, {})
            edits.setdefault(origin.file, []).append(entry)
        else:
            path = location.answers / f"{bank.category_of[update.qid]}.yaml"
            item = {"question": update.qid, "source": "own", "answer": update.answer + "\n"}
            appends.setdefault(path, []).append((update.row, item))
    for path, wanted in edits.items():
        text = texts[path] if path in texts else _read(path)
        nodes = {key: items_by(text, key, ref) for key, ref in (("questions", "id"), ("answers", "question"))}
        try:
            changes = [
                e
                for key, qid, values, was in wanted
                for e in _entry_edits(text, nodes[key][qid], values, was)
            ]
        except EditError as exc:
            raise UsageError(f"{display_path(path)}: {exc.message}") from None
        texts[path] = apply(text, changes)
    return appends


def _entry_edits(
    text: str, node: yaml.MappingNode, values: dict[str, Any], was: dict[str, Any]
) -> list[Edit]:
    """set_entries, except that a block list of key points or pitfalls changes only from its
    first changed item to its last: the items before and after keep their text, comments and
    style (a taught list written a phrasing a line stays so)."""
    whole = dict(values)
    by_item: list[Edit] = []
    for key in CLAIM_LISTS:
        seq, old, new = mapping_value(node, key), list(was.get(key) or ()), list(values.get(key) or ())
        if not (isinstance(seq, yaml.SequenceNode) and not seq.flow_style and old and new):
            continue
        if len(seq.value) == len(old):
            first, last_old, last_new = _changed_span(old, new)
            by_item.append(replace_items(text, seq, first, last_old, new[first:last_new]))
            del whole[key]
    # A new entry goes after the last one, where items appended to the last list also go: of
    # edits at one place, those applied first end up last.
    return set_entries(text, node, whole) + by_item


def _changed_span(old: list[Any], new: list[Any]) -> tuple[int, int, int]:
    """Where two lists differ: from their first unequal item to the end of the old and of the
    new list less their common tail."""
    first = 0
    while first < min(len(old), len(new)) and old[first] == new[first]:
        first += 1
    tail = 0
    while tail < min(len(old), len(new)) - first and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return first, len(old) - tail, len(new) - tail


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8-sig") if path.exists() else ""
