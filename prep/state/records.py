"""What a line of a state export (`prep state export`, JSON Lines) may hold: one record type
per line type, every value checked before an import writes anything (``history.import_lines``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from prep.bank.messages import dotted_path, validation_message
from prep.bank.naming import ID_PATTERN
from prep.errors import InvalidInput, Problem, StateError, display_path
from prep.state.cards import CardState, format_time, parse_time

FORMAT = "prep-state"
# 2: each record names its bank (a record without one is unassigned); 3: "teaching" records
# and a review's ticked key points; 4: who decided the verdict of a review or practice answer.
FORMAT_VERSION = 4
# "words", "judge:<model id>" or "ticks" (state.migrations._m006_judge)
DECIDED_BY = r"^(words|ticks|judge:\S.*)$"


def parse_export(
    path: Path,
) -> tuple[list[tuple[CardState, str | None, str]], dict[str, list[dict[str, Any]]]]:
    """The cards (with their content hash and bank) of an export and its other records by type
    (review, practice, teaching), every line checked; raises InvalidInput listing each bad line."""
    display = display_path(path)
    problems: list[Problem] = []
    records = _json_records(path, display, problems)
    if not records or records[0][1].get("type") != FORMAT:
        problems.insert(
            0, Problem(display, 1, 1, f"not a prep state export (the first line must have type {FORMAT!r})")
        )
    cards: list[tuple[CardState, str | None, str]] = []
    rows: dict[str, list[dict[str, Any]]] = {}
    for number, record in records[1:]:
        kind = record.pop("type", None)
        model = _RECORDS.get(kind)
        if model is None:
            problems.append(Problem(display, number, 1, f"unknown record type {kind!r}"))
            continue
        try:
            fields = model.model_validate(record).model_dump()
        except ValidationError as exc:
            problems.extend(
                Problem(
                    display, number, 1, f"bad {kind}: {dotted_path(e['loc'])}: {validation_message(e, model)}"
                )
                for e in exc.errors(include_url=False)
            )
            continue
        if kind == "card":
            content, bank = fields.pop("content_hash"), fields.pop("bank")
            cards.append((CardState.from_dict(fields), content, bank))
        else:
            rows.setdefault(kind, []).append(fields)
    if problems:
        raise InvalidInput(problems)
    return cards, rows


def _json_records(path: Path, display: str, problems: list[Problem]) -> list[tuple[int, dict[str, Any]]]:
    """Each non-blank line of the file as a JSON object, with its line number."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise StateError(f"cannot read {display}: {exc}") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            problems.append(Problem(display, number, 1, f"not a JSON object: {exc}"))
            continue
        if not isinstance(record, dict):
            problems.append(Problem(display, number, 1, "not a JSON object"))
            continue
        records.append((number, record))
    return records


def _timestamp(value: Any) -> str:
    """A time as the database stores it (UTC, microseconds, trailing Z), so that times sort as
    text and a re-import finds what an earlier one added."""
    if not isinstance(value, str):
        raise ValueError("expected an ISO date-time string")  # noqa: TRY004 (pydantic reports ValueError)
    try:
        stored = format_time(parse_time(value))
        parse_time(stored)
    except (ValueError, OverflowError):
        raise ValueError(f"{value!r} is not an ISO date-time") from None
    return stored


def _card_before(value: Any) -> str | None:
    if value is None:
        return None
    try:
        CardState.from_dict(
            _CardRecord.model_validate(json.loads(value)).model_dump(exclude={"content_hash", "bank"})
        )
    except (TypeError, ValueError) as exc:
        raise ValueError("expected the JSON of a card") from exc
    return str(value)


Timestamp = Annotated[str, BeforeValidator(_timestamp)]


class _ReviewRecord(BaseModel):
    """One line of type "review": the fields a review row has, with the values it may hold."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question_id: str = Field(pattern=ID_PATTERN)
    reviewed_at: Timestamp
    rating: int = Field(ge=1, le=4)
    suggested: int | None = Field(default=None, ge=1, le=4)
    score: int | None = Field(default=None, ge=0, le=100)
    elapsed_seconds: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    answer: str | None = None
    mode: Literal["type", "flip", "mock"] | None = None
    content_hash: str | None = None
    verdict: Literal["pass", "partial", "fail", "unsure"] | None = None
    ticked: str | None = None  # the key points the user ticked over the grader (JSON list)
    decided_by: str | None = Field(default=None, pattern=DECIDED_BY)
    card_before: Annotated[str | None, BeforeValidator(_card_before)] = None
    bank: str = ""  # the bank it was made in; '' (or absent, in a version 1 export): unassigned


class _PracticeRecord(BaseModel):
    """One line of type "practice": an answer from a cram or an unrecorded mock interview."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question_id: str = Field(pattern=ID_PATTERN)
    practiced_at: Timestamp
    mode: Literal["cram", "mock", "drill"]  # drill: typed, then skipped or quit before a rating
    rating: int | None = Field(default=None, ge=1, le=4)
    score: int | None = Field(default=None, ge=0, le=100)
    verdict: Literal["pass", "partial", "fail", "unsure"] | None = None
    elapsed_seconds: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    answer: str | None = None
    bank: str = ""
    decided_by: str | None = Field(default=None, pattern=DECIDED_BY)


class _TeachingRecord(BaseModel):
    """One line of type "teaching": a phrasing the user taught a key point."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question_id: str = Field(pattern=ID_PATTERN)
    point: int = Field(ge=1)
    phrasing: str = Field(min_length=1)
    taught_at: Timestamp
    via: Literal["drill", "command"]
    bank: str = ""


class _CardRecord(BaseModel):
    """One line of type "card": the scheduler's state of one question."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question_id: str = Field(pattern=ID_PATTERN)
    due: Timestamp
    state: int = Field(ge=1, le=3)
    step: int | None = Field(default=0, ge=0)
    stability: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    difficulty: float | None = Field(
        default=None, ge=1, le=10, allow_inf_nan=False
    )  # FSRS keeps it in [1, 10]
    last_review: Timestamp | None = None
    reps: int = Field(default=0, ge=0)
    lapses: int = Field(default=0, ge=0)
    content_hash: str | None = None
    bank: str = ""


_RECORDS: dict[Any, type[BaseModel]] = {
    "card": _CardRecord,
    "review": _ReviewRecord,
    "practice": _PracticeRecord,
    "teaching": _TeachingRecord,
}
