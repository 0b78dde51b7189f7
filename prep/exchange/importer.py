"""`prep import`: the rows of an import file appended to one category, validated, written once.

Ids come from the file's id column when free, else from the prompt. A prompt already in the
bank (or earlier in the file) is skipped and reported. Follow-ups name questions by the ids the
file uses, so they keep pointing at the right question when one is given another id or skipped
as a duplicate. The whole bank as it would be is validated once before anything is written,
and a problem in what was appended is reported at the line of the import file it came from.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prep.bank.authoring import refuse_oversized
from prep.bank.contents import Bank
from prep.bank.load import check_bank
from prep.bank.naming import check_category_name, make_id, prompt_key
from prep.bank.yamlsplice import EditError, append_items, dump
from prep.errors import (
    BankInvalid,
    ImportInvalid,
    InvalidInput,
    Problem,
    UsageError,
    display_path,
)
from prep.exchange import noteupdates
from prep.exchange.rows import ImportFile, ImportRow
from prep.files import write_files
from prep.paths import BankLocation
from prep.suggest import did_you_mean


@dataclass
class ImportResult:
    added: list[str] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line, reason)
    renamed: list[tuple[int, str, str]] = field(default_factory=list)  # (line, id in the file, id given)
    # (line, question, follow-up, "did you mean" or ""): links to questions neither in the bank nor
    # in the file, left out
    dropped: list[tuple[int, str, str, str]] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # questions an Anki note of prep's changed
    unchanged: list[str] = field(default_factory=list)  # ... and those it left as they were
    files: list[Path] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "skipped": [{"line": line, "reason": why} for line, why in self.skipped],
            "renamed": [{"line": line, "from": old, "to": new} for line, old, new in self.renamed],
            "dropped_follow_ups": [
                {"line": line, "question": qid, "follow_up": target} for line, qid, target, _ in self.dropped
            ],
            "updated": self.updated,
            "unchanged": self.unchanged,
            "files": [display_path(p) for p in self.files],
        }


def import_rows(
    location: BankLocation,
    bank: Bank,
    source: ImportFile,
    category: str,
    title: str | None = None,
    retired: frozenset[str] = frozenset(),
) -> ImportResult:
    """Append the rows of *source* as questions of *category* (created if new, titled *title*, else
    the title the file gives that category, else one made from its name), with their answers."""
    check_category_name(category)
    existing = bank.categories.get(category)
    qpath = existing.file if existing else location.questions / f"{category}.yaml"
    apath = location.answers / f"{category}.yaml"
    if existing is None and qpath.exists():
        raise UsageError(f"{display_path(qpath)} exists but does not define category {category!r}")
    if existing is not None and title is not None and title.strip() != existing.title:
        raise UsageError(
            f"category {category!r} exists, titled {existing.title!r}; --title names a new category"
        )

    result = ImportResult()
    problems = list(source.problems)
    planned = noteupdates.plan(bank, source.rows, category, source.file, problems)
    result.skipped += planned.skipped
    added, id_map = _assign_ids(bank, planned.rows, result, retired, planned.prompts)
    questions = [
        _question_item(row, qid, _follow_ups(source, row, qid, id_map, bank, problems, result))
        for row, qid in added
    ]
    if problems:
        raise ImportInvalid(source.file, problems)
    updates = [u for u in planned.updates if u.changed]
    result.unchanged = [u.qid for u in planned.updates if not u.changed]
    if not added and not updates:
        return result
    texts: dict[Path, str] = {}
    appends = noteupdates.edit_texts(location, bank, updates, texts)
    if added:
        header = dump({"category": category, "title": (title or "").strip() or _title(source.rows, category)})
        texts[qpath] = texts.get(qpath, _read(qpath) if existing else header)
        for row, qid in added:
            if row.answer:
                item = {"question": qid, "source": row.answer_source, "answer": row.answer + "\n"}
                appends.setdefault(apath, []).append((row, item))
    spans = [_append_to(texts, qpath, "questions", list(zip([r for r, _ in added], questions, strict=True)))]
    spans += [_append_to(texts, path, "answers", items) for path, items in appends.items()]
    refuse_oversized(dict(texts))
    _, problems = check_bank(location, dict(texts))
    if problems:
        raise _located(problems, source.file, spans)
    if appends:
        location.answers.mkdir(parents=True, exist_ok=True)
    write_files(dict(texts))
    result.added = [qid for _, qid in added]
    result.updated = [u.qid for u in updates]
    result.files = list(texts)
    return result


def _append_to(
    texts: dict[Path, str], path: Path, key: str, items: list[tuple[ImportRow, dict[str, Any]]]
) -> tuple[Path, list[int], list[ImportRow]]:
    """Append *items* (each with the row it came from) to *key* of the file's text in *texts*."""
    if not items:
        return path, [], []
    texts[path], lines = _append(
        path, texts[path] if path in texts else _read(path), key, [i for _, i in items]
    )
    return path, lines, [row for row, _ in items]


def _assign_ids(
    bank: Bank,
    rows: list[ImportRow],
    result: ImportResult,
    retired: frozenset[str] = frozenset(),
    prompts: dict[str, str] | None = None,
) -> tuple[list[tuple[ImportRow, str]], dict[str, str]]:
    """The rows to add with their ids, and what each id used in the file now names. An id only
    the review history still has (a removed question's) is renamed like one in use. *prompts*:
    prompt keys that questions updated by the import are given."""
    owner = {prompt_key(q.prompt): q.id for q in bank.questions.values()} | (prompts or {})
    used = set(bank.questions) | set(bank.former_ids()) | retired
    avoid = used | {row.id for row in rows if row.id}  # ids the file asks for stay free for their rows
    id_map: dict[str, str] = {}
    added = []
    for row in rows:
        key = prompt_key(row.prompt)
        if not key:
            result.skipped.append((row.line, "empty prompt"))
            continue
        if key in owner:
            result.skipped.append((row.line, f"duplicate prompt (same as {owner[key]!r}): {row.prompt[:60]}"))
            if row.id:
                id_map.setdefault(row.id, owner[key])
            continue
        qid = row.id if row.id and row.id not in used else make_id(row.prompt, avoid)
        if row.id and qid != row.id:
            result.renamed.append((row.line, row.id, qid))
        used.add(qid)
        avoid.add(qid)
        owner[key] = qid
        if row.id:
            id_map.setdefault(row.id, qid)
        added.append((row, qid))
    return added, id_map


def _follow_ups(
    source: ImportFile,
    row: ImportRow,
    qid: str,
    id_map: dict[str, str],
    bank: Bank,
    problems: list[Problem],
    result: ImportResult,
) -> list[str]:
    """The row's follow-ups as ids of the bank after the import. One naming a question that is
    neither in the bank nor in the file (an export of one category links to others) is left
    out and reported in *result*; one naming an invalid row of the file goes with that row."""
    resolved = []
    for index, target in enumerate(row.follow_ups):
        found = id_map.get(target) or (target if target in bank.questions else None)
        if found is None and target not in source.invalid_ids:
            hint = did_you_mean(target, [*id_map, *bank.questions]) or ""
            result.dropped.append((row.line, qid, target, hint))
        elif found == qid:
            where = f"follow_ups[{index}]"
            problems.append(Problem(source.file, row.line, 0, "a question cannot follow up on itself", where))
        elif found is not None:
            resolved.append(found)
    return resolved


def _question_item(row: ImportRow, qid: str, follow_ups: list[str]) -> dict[str, Any]:
    """The question as `prep add` writes it: the bank's field order, defaults left out."""
    item: dict[str, Any] = {"id": qid, "prompt": row.prompt, "kind": row.kind, "difficulty": row.difficulty}
    if row.tags:
        item["tags"] = list(row.tags)
    item["target_seconds"] = row.target_seconds
    if row.key_points:
        item["key_points"] = list(row.key_points)
    if row.pitfalls:
        item["pitfalls"] = list(row.pitfalls)
    if follow_ups:
        item["follow_ups"] = follow_ups
    if row.notes:
        item["notes"] = row.notes
    if row.formerly:
        item["formerly"] = list(row.formerly)
    return item


def _title(rows: list[ImportRow], category: str) -> str:
    """The title the file gives *category* (the category_title of its rows), else one from its name."""
    given = next(
        (row.category_title for row in rows if row.category == category and row.category_title), None
    )
    return given or category.replace("-", " ").capitalize()


def _append(path: Path, text: str, key: str, items: list[dict[str, Any]]) -> tuple[str, list[int]]:
    try:
        return append_items(text, key, items)
    except EditError as exc:
        raise UsageError(f"{display_path(path)}: {exc.message}") from None


def _located(
    problems: list[Problem], file: str, spans: list[tuple[Path, list[int], list[ImportRow]]]
) -> InvalidInput:
    """Problems of the bank as it would be: those in appended text moved to the import file's lines."""
    located = []
    elsewhere = False
    for problem in problems:
        for path, lines, rows in spans:
            if lines and problem.file == display_path(path) and problem.line >= lines[0]:
                row = rows[bisect_right(lines, problem.line) - 1]
                name = problem.path.partition(".")[2]  # questions[3].key_points[0] -> key_points[0]
                located.append(Problem(file, row.line, 0, problem.message, _COLUMN_OF.get(name, name)))
                break
        else:
            located.append(problem)
            elsewhere = True
    return BankInvalid(located) if elsewhere else ImportInvalid(file, located)


_COLUMN_OF = {"source": "answer_source", "question": "id"}  # fields of an answer, as CSV columns


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8-sig") if path.exists() else ""
