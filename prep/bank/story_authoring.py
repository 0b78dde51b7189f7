"""Adding a story to the story bank, and naming it in the prepared answers it fits: validated
first, written atomically, every other byte of each file kept (as ``authoring`` does for
questions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prep.bank.authoring import Change, read_source, validate_texts
from prep.bank.contents import Bank
from prep.bank.naming import make_id
from prep.bank.stories import STAR_FIELDS
from prep.bank.yamlsplice import EditError, append_to_sequence, apply, items_by, set_entries
from prep.errors import UsageError, display_path
from prep.files import write_files
from prep.paths import BankLocation

STORIES_FILE = "stories.yaml"  # where the first story of a bank goes


def add_story(
    location: BankLocation,
    bank: Bank,
    *,
    title: str,
    parts: dict[str, str],
    metrics: list[str] = (),  # type: ignore[assignment]
    story_id: str | None = None,
    covers: list[str] = (),  # type: ignore[assignment]
) -> Change:
    """Append a story (its STAR *parts* by name) to the answers file that holds the bank's
    stories (answers/stories.yaml for the first), and add its id to the `stories` list of the
    prepared answer of each question in *covers*."""
    item = _story_item(bank, title, parts, metrics, story_id)
    texts: dict[Path, str] = {}
    path = next(iter(bank.story_origin.values())).file if bank.stories else location.answers / STORIES_FILE
    try:
        texts[path] = append_to_sequence(read_source(path), "stories", item)
    except EditError as exc:
        raise UsageError(f"{display_path(path)}: {exc.message}") from None
    for question_id in dict.fromkeys(covers):
        _name_in_answer(bank, texts, question_id, item["id"])
    created = [p for p in texts if not p.exists()]
    location.answers.mkdir(parents=True, exist_ok=True)
    validate_texts(location, dict(texts))
    write_files(texts)
    detail = {"story": item["id"], "covers": list(dict.fromkeys(covers))}
    return Change(item["id"], list(texts), created, detail)


def _story_item(
    bank: Bank, title: str, parts: dict[str, str], metrics: list[str], story_id: str | None
) -> dict[str, Any]:
    """The story as the file will hold it; a value the bank would refuse is refused here, by name."""
    from pydantic import ValidationError

    from prep.bank.authoring import FieldRejected
    from prep.bank.messages import validation_message
    from prep.bank.schema import Story

    if not title.strip():
        raise FieldRejected("title", "the title is empty")
    missing = [name for name in STAR_FIELDS if not (parts.get(name) or "").strip()]
    if missing:
        raise FieldRejected(missing[0], f"the story has no {missing[0]}")
    item: dict[str, Any] = {"id": make_id(title, set(bank.stories), story_id), "title": title.strip()}
    item.update({name: _text(parts[name]) for name in STAR_FIELDS})
    if metrics:
        item["metrics"] = [m.strip() for m in metrics if m.strip()]
    try:
        Story.model_validate(item)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise FieldRejected(str(error["loc"][0]), validation_message(error, Story)) from None
    return item


def _text(value: str) -> str:
    """One paragraph stays one line; text written over several lines keeps its lines."""
    value = value.strip()
    return value + "\n" if "\n" in value else value


def check_cover(bank: Bank, question_id: str) -> None:
    """A story can be named in the prepared answer of a behavioral question."""
    question = bank.question(question_id)
    if question.kind != "behavioral":
        raise UsageError(f"{question.id!r} is a {question.kind} question: stories are for behavioral ones")
    if question.id not in bank.answers:
        raise UsageError(
            f"{question.id!r} has no prepared answer to name the story in",
            hint=f"write one first with `prep answer {question.id}`",
        )


def _name_in_answer(bank: Bank, texts: dict[Path, str], question_id: str, story_id: str) -> None:
    """Add *story_id* to the `stories` list of the question's prepared answer, in *texts*."""
    check_cover(bank, question_id)
    question = bank.question(question_id)
    origin = bank.answer_origin[question.id]
    text = texts[origin.file] if origin.file in texts else read_source(origin.file)
    node = items_by(text, "answers", "question").get(question.id)
    if node is None:
        raise UsageError(f"{display_path(origin.file)}: the answer to {question.id!r} cannot be found")
    named = list(bank.stories_of(question.id))
    if story_id in named:
        return
    try:
        texts[origin.file] = apply(text, set_entries(text, node, {"stories": [*named, story_id]}))
    except EditError as exc:
        raise UsageError(f"{display_path(origin.file)}: {exc.message}") from None
