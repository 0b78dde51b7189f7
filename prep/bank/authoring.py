"""Adding, answering, renaming and removing questions: validated first, written atomically.

Each operation computes the new text of every file it touches, validates the whole bank as it
would be, and only then writes (each file via temp file + fsync + os.replace). Edits are made
to the text itself (see ``yamledit``), so comments and formatting elsewhere stay byte-identical.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from prep.bank.contents import Bank
from prep.bank.load import check_bank
from prep.bank.naming import ID_PATTERN, KINDS, check_category_name, make_id, prompt_key
from prep.bank.yamlsource import oversized
from prep.bank.yamlsplice import (
    Edit,
    EditError,
    append_to_sequence,
    apply,
    block_text,
    compose,
    dump,
    items_by,
    line_start,
    mapping_value,
    next_line,
    scalar,
    sequence_item_span,
    set_entries,
)
from prep.errors import BankInvalid, NotFound, UsageError, WriteFailed, display_path
from prep.files import write_files
from prep.paths import BankLocation

if TYPE_CHECKING:
    from prep.bank.schema import Question


@dataclass
class Change:
    """What an operation wrote: for messages and for --json."""

    question_id: str
    files: list[Path] = field(default_factory=list)
    created: list[Path] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.question_id,
            "files": [display_path(p) for p in self.files],
            "created": [display_path(p) for p in self.created],
            **self.detail,
        }


def validate_texts(location: BankLocation, overrides: dict[Path, str | None]) -> Bank:
    refuse_oversized(overrides)
    bank, problems = check_bank(location, overrides)
    if problems:
        raise BankInvalid(problems)
    return bank


def refuse_oversized(texts: dict[Path, str | None]) -> None:
    """Nothing is written that the loader would refuse: a bank file over the size limit would make
    every later command fail, including the one that could shrink it."""
    for problem in oversized(texts):
        raise WriteFailed(
            f"{problem.file} would be too large ({problem.message}); nothing was written",
            hint="shorten the text, or split it across files",
        )


def read_source(path: Path) -> str:
    return path.read_text(encoding="utf-8-sig") if path.exists() else ""


def _claims(items: list[str]) -> list[Any]:
    """'text | alias | alias' strings -> bank entries (plain text when there is no alias)."""
    result: list[Any] = []
    for item in items:
        parts = [p.strip() for p in item.split("|")]
        text, aliases = parts[0], [a for a in parts[1:] if a]
        if not text:
            raise UsageError(f"empty key point or pitfall in {item!r}")
        result.append({"text": text, "aliases": aliases} if aliases else text)
    return result


def add_question(
    location: BankLocation,
    bank: Bank,
    *,
    category: str,
    prompt: str,
    key_points: list[str] = (),  # type: ignore[assignment]
    pitfalls: list[str] = (),  # type: ignore[assignment]
    tags: list[str] = (),  # type: ignore[assignment]
    kind: str = "technical",
    difficulty: int = 2,
    target_seconds: int = 60,
    follow_ups: list[str] = (),  # type: ignore[assignment]
    question_id: str | None = None,
    title: str | None = None,
    retired: frozenset[str] = frozenset(),
) -> Change:
    """Append a question to questions/<category>.yaml (created if new), validated first.
    *retired*: ids that only the review history still has, which a new question must not take."""
    check_category_name(category)
    if not prompt.strip():
        raise UsageError("the prompt is empty")
    if kind not in KINDS:
        raise UsageError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
    key = prompt_key(prompt)
    same = next((q.id for q in bank.questions.values() if prompt_key(q.prompt) == key), None)
    if same is not None:
        raise UsageError(f"question {same!r} already asks this", hint=f"see it with `prep show {same}`")
    former = bank.former_ids()
    if question_id in former:
        raise UsageError(f"id {question_id!r} was the id of {former[question_id]!r} (its formerly list)")
    qid = make_id(prompt, set(bank.questions) | set(former), question_id, retired)
    item: dict[str, Any] = {"id": qid, "prompt": prompt.strip(), "kind": kind, "difficulty": difficulty}
    if tags:
        item["tags"] = list(tags)
    item["target_seconds"] = target_seconds
    if key_points:
        item["key_points"] = _claims(list(key_points))
    if pitfalls:
        item["pitfalls"] = _claims(list(pitfalls))
    if follow_ups:
        item["follow_ups"] = list(follow_ups)
    check_new_question(item)

    existing = bank.categories.get(category)
    created = []
    if existing is not None:
        if title is not None and title != existing.title:
            raise UsageError(
                f"category {category!r} already exists, titled {existing.title!r}; --title only "
                "names a new category (edit the file to rename it)"
            )
        path = existing.file
        try:
            text = append_to_sequence(read_source(path), "questions", item)
        except EditError as exc:
            raise UsageError(f"{display_path(path)}: {exc.message}") from None
    else:
        path = location.questions / f"{category}.yaml"
        if path.exists():
            raise UsageError(f"{display_path(path)} exists but does not define category {category!r}")
        header = dump({"category": category, "title": title or category.replace("-", " ").capitalize()})
        text = header + "questions:\n" + _indent_items(dump([item]))
        created.append(path)
    validate_texts(location, {path: text})
    write_files({path: text})
    return Change(
        qid, [path], created, {"category": category, "similar_to": most_similar_prompt(bank, prompt)}
    )


class FieldRejected(UsageError):
    """A value given for a new question that the bank would refuse; *field* is its YAML key."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}; nothing was written")
        self.field, self.reason = field, message


def check_new_question(item: dict[str, Any]) -> None:
    """Refuse a value the loader would refuse, naming its field, before any file is touched (the
    bank's own check would name a line of a file that was never written)."""
    from pydantic import ValidationError

    from prep.bank.messages import validation_message
    from prep.bank.schema import Question

    try:
        Question.model_validate(item)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise FieldRejected(str(error["loc"][0]), validation_message(error, Question)) from None


def most_similar_prompt(bank: Bank, prompt: str) -> dict[str, Any] | None:
    """The existing question whose prompt is nearly this text (as `prep validate` judges it)."""
    from rapidfuzz import fuzz, process, utils

    from prep.bank.lint import NEAR_DUPLICATE_CUTOFF

    ids = list(bank.questions)
    found = process.extractOne(
        utils.default_process(prompt),
        [utils.default_process(bank.questions[i].prompt) for i in ids],
        scorer=fuzz.ratio,
        score_cutoff=NEAR_DUPLICATE_CUTOFF,
    )
    return {"id": ids[found[2]], "similarity": round(found[1])} if found else None


def _indent_items(dumped: str) -> str:
    return "".join(("  " + line if line.strip() else "") + "\n" for line in dumped.rstrip("\n").splitlines())


def set_answer(
    location: BankLocation, bank: Bank, question_id: str, text: str, source: str = "own"
) -> Change:
    """Write or replace the answer to a question, keeping the rest of the answers file as it was."""
    bank.question(question_id)
    if not text.strip():
        raise UsageError("the answer is empty; nothing was written")
    origin = bank.answer_origin.get(question_id)
    if origin is None:
        path = location.answers / f"{bank.category_of[question_id]}.yaml"
        new = append_to_sequence(
            read_source(path),
            "answers",
            {"question": question_id, "source": source, "answer": text.strip() + "\n"},
        )
        created = [] if path.exists() else [path]
    else:
        path = origin.file
        old = read_source(path)
        node = _answer_node(old, question_id)
        answer_value = mapping_value(node, "answer")
        source_value = mapping_value(node, "source")
        if answer_value is None:
            raise UsageError(f"{display_path(path)}: the answer to {question_id!r} has no answer field")
        indent = node.start_mark.column + 2
        block = block_text(text, indent, node.start_mark.column)
        end = answer_value.end_mark.index
        if node.flow_style:  # `- {question: q, answer: text}`: a block cannot go inside braces
            block = json.dumps(text.strip(), ensure_ascii=False)  # a JSON string is a one-line YAML one
        elif answer_value.style in ("|", ">"):
            # A block value's span runs over the blank lines and comments after it: keep those.
            while end > answer_value.start_mark.index:
                previous = line_start(old, end - 1)
                line = old[previous:end]
                if line.strip() and not (
                    line.lstrip().startswith("#") and len(line) - len(line.lstrip()) < indent
                ):
                    break
                end = previous
            if end and old[end - 1] != "\n":
                end = next_line(old, end)
            block += "\n"
        elif end >= len(old) or old[end] != "\n":  # a one-line value: its line's newline stays
            block += "\n"
        edits = [Edit(answer_value.start_mark.index, end, block)]
        if source_value is not None:
            edits.append(Edit(source_value.start_mark.index, source_value.end_mark.index, scalar(source)))
        new = apply(old, edits)
        created = []
    location.answers.mkdir(parents=True, exist_ok=True)
    validate_texts(location, {path: new})
    write_files({path: new})
    return Change(question_id, [path], created, {"source": source, "changed": True})


def _answer_node(text: str, question_id: str) -> yaml.MappingNode:
    node = items_by(text, "answers", "question").get(question_id)
    if node is None:
        raise NotFound(f"no answer to {question_id!r} in the answers file")
    return node


def rename_question(location: BankLocation, bank: Bank, old: str, new: str) -> Change:
    """Rename an id in its definition, in answers and in every follow-up list (text edits only)."""
    bank.question(old)
    if not re.fullmatch(ID_PATTERN, new):
        raise UsageError(f"id {new!r} is not kebab-case (lowercase letters, digits, single hyphens)")
    if new in bank.questions:
        raise UsageError(f"id {new!r} is already used")
    owner = bank.former_ids().get(new, old)
    if owner != old:
        raise UsageError(f"id {new!r} was the id of {owner!r} (its formerly list); choose another")
    formerly = _formerly_after_rename(bank.questions[old], new)
    definition = bank.question_origin[old].file
    texts: dict[Path, str | None] = {}
    files = [c.file for c in bank.categories.values()] + sorted({o.file for o in bank.answer_origin.values()})
    for path in files:
        text = texts.get(path, read_source(path))
        edits = [Edit(n.start_mark.index, n.end_mark.index, scalar(new)) for n in _id_nodes(text, old)]
        if path == definition:  # the old id is kept in the question: its identity outside the bank
            try:
                edits += set_entries(text, _question_node(text, old), {"formerly": formerly or None})
            except EditError as exc:
                raise UsageError(f"{display_path(path)}: {exc.message}") from None
        if edits:
            texts[path] = apply(text, edits)
    validate_texts(location, texts)
    write_files(texts)  # type: ignore[arg-type]
    return Change(new, list(texts), [], {"old_id": old})


def _formerly_after_rename(question: Question, new: str) -> list[str]:
    """The former ids of *question* once it is called *new*: its id now is added, and *new* is
    never among them. Given back the id it was created with, it is the question it was before
    its renames (the Anki note it is kept in is named by that id), so the list is emptied."""
    if new == question.first_id:
        return []
    formerly = [former for former in question.formerly if former != new]
    return formerly if question.id in formerly else [*formerly, question.id]


def _question_node(text: str, qid: str) -> yaml.MappingNode:
    node = items_by(text, "questions", "id").get(qid)
    if node is None:
        raise NotFound(f"no question {qid!r} in the file")
    return node


def _id_nodes(text: str, qid: str) -> list[yaml.ScalarNode]:
    """Scalar nodes holding *qid* as a question id, answer reference or follow-up."""
    root = compose(text)
    found: list[yaml.ScalarNode] = []

    def is_id(node: Any) -> bool:
        return isinstance(node, yaml.ScalarNode) and node.value == qid

    for item in getattr(mapping_value(root, "questions"), "value", []) if root is not None else []:
        for key in ("id",):
            node = mapping_value(item, key)
            if is_id(node):
                found.append(node)
        for node in getattr(mapping_value(item, "follow_ups"), "value", []):
            if is_id(node):
                found.append(node)
    for item in getattr(mapping_value(root, "answers"), "value", []) if root is not None else []:
        node = mapping_value(item, "question")
        if is_id(node):
            found.append(node)
    return found


def remove_question(location: BankLocation, bank: Bank, question_id: str) -> Change:
    """Remove a question, its answer, and references to it in other questions' follow-ups."""
    question = bank.question(question_id)
    texts: dict[Path, str | None] = {}
    definition = bank.question_origin[question_id].file
    files = [c.file for c in bank.categories.values()] + sorted({o.file for o in bank.answer_origin.values()})
    for path in dict.fromkeys(files):
        text = read_source(path)
        new = _remove_from(text, question_id, is_definition=path == definition)
        if new != text:
            texts[path] = new
    validate_texts(location, texts)
    write_files(texts)  # type: ignore[arg-type]
    return Change(question_id, list(texts), [], {"prompt": question.prompt, "removed": True})


def _remove_from(text: str, qid: str, is_definition: bool) -> str:
    root = compose(text)
    if root is None:
        return text
    edits: list[Edit] = []
    questions = mapping_value(root, "questions")
    for index, item in enumerate(getattr(questions, "value", [])):
        ident = mapping_value(item, "id")
        if is_definition and isinstance(ident, yaml.ScalarNode) and ident.value == qid:
            edits.append(_item_removal(text, questions, index))
            continue
        follow = mapping_value(item, "follow_ups")
        if isinstance(follow, yaml.SequenceNode) and any(n.value == qid for n in follow.value):
            remaining = [n.value for n in follow.value if n.value != qid]
            if follow.flow_style:
                edits.append(
                    Edit(
                        follow.start_mark.index,
                        follow.end_mark.index,
                        "[" + ", ".join(scalar(v) for v in remaining) + "]",
                    )
                )
            elif not remaining:  # a block list losing its only items: `follow_ups: []`
                start = sequence_item_span(text, follow, 0)[0]
                end = sequence_item_span(text, follow, len(follow.value) - 1)[1]
                key = next(k for k, v in item.value if v is follow)
                colon = text.index(":", key.end_mark.index) + 1
                edits += [Edit(colon, colon, " []"), Edit(start, end, "")]
            else:
                for i, n in enumerate(follow.value):
                    if n.value == qid:
                        edits.append(_item_removal(text, follow, i))
    answers = mapping_value(root, "answers")
    for index, item in enumerate(getattr(answers, "value", [])):
        ref = mapping_value(item, "question")
        if isinstance(ref, yaml.ScalarNode) and ref.value == qid:
            edits.append(_item_removal(text, answers, index))
    new = apply(text, edits)
    # Removing the last item of a block list leaves `key:` with nothing: make it an empty list.
    for key in ("questions", "answers"):
        node = mapping_value(compose(new), key) if compose(new) is not None else None
        if isinstance(node, yaml.ScalarNode) and node.value == "":
            new = re.sub(rf"(?m)^{key}:[ \t]*$", f"{key}: []", new, count=1)
    return new


def _item_removal(text: str, seq: yaml.SequenceNode, index: int) -> Edit:
    if seq.flow_style:
        raise UsageError("cannot remove an item from a [flow, list] of questions; edit the file by hand")
    start, end = sequence_item_span(text, seq, index)
    return Edit(start, end, "")


def copy_bundled_bank(target: Path) -> list[Path]:
    """Copy the bundled questions/ and answers/ into *target*; never over existing folders."""
    import shutil

    from prep.paths import ANSWERS_DIR, QUESTIONS_DIR, bundled_bank_root

    source = bundled_bank_root()
    folders = [name for name in (QUESTIONS_DIR, ANSWERS_DIR) if (source / name).is_dir()]
    for name in folders:
        if (target / name).exists():
            raise UsageError(
                f"{display_path(target / name)} already exists; prep init never overwrites it",
                hint="choose another folder, or use the bank that is there",
            )
    if target.exists() and not target.is_dir():
        raise UsageError(
            f"{display_path(target)} is a file, not a folder: prep init copies the bank into a folder"
        )
    created = []
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name in folders:
            shutil.copytree(source / name, target / name)
            created.append(target / name)
    except OSError as error:
        raise WriteFailed(f"cannot create {display_path(target)}: {error.strerror or error}") from error
    return created
