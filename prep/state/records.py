"""What a line of a state export (`prep state export`, JSON Lines) or of a device file of a
shared history (the same format, events only) may hold: one record type per line type, every
value checked before anything is written (``merge``)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from prep.bank.messages import dotted_path, validation_message
from prep.bank.naming import ID_PATTERN
from prep.errors import InvalidInput, Problem, StateError, display_path
from prep.state.cards import CardState, format_time, parse_time
from prep.state.events import FORMAT, FORMAT_VERSION, legacy_event_ids

# "words", "judge:<model id>" or "ticks" (state.migrations._m006_judge)
DECIDED_BY = r"^(words|ticks|judge:\S.*)$"


@dataclass
class Incoming:
    """What the lines of an export or a device file hold, each checked: card states (an export's)
    and events in the order of the file. A bank of None is the file's own bank."""

    cards: list[tuple[CardState, str | None, str | None]] = field(default_factory=list)
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (kind, fields)
    problems: list[Problem] = field(default_factory=list)
    version: int | None = None  # the header's; None: no header read

    @property
    def complete(self) -> bool:
        """Every line was read: no header problem (a newer format) stopped the reading."""
        return self.version is not None and self.version <= FORMAT_VERSION


def parse_export(path: Path) -> Incoming:
    """Every record of an export (or a device file), every line checked; raises InvalidInput
    listing each bad line, so that an import writes nothing from a file with one."""
    display = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StateError(f"cannot read {display}: {exc}") from None
    incoming = parse_lines(enumerate(text.splitlines(), 1), display)
    if incoming.problems:
        raise InvalidInput(incoming.problems)
    return incoming


def parse_lines(numbered: Iterable[tuple[int, str]], display: str) -> Incoming:
    """The records of numbered lines, the first non-blank one being the header; a line that is
    not a valid record is a problem (file and line) and is left out."""
    incoming = Incoming()
    for number, line in numbered:
        if not line.strip():
            continue
        record = _json_object(line, display, number, incoming.problems)
        if record is None:
            continue
        if incoming.version is None:
            if not _header(record, display, number, incoming):
                break
            continue
        kind = record.pop("type", None)
        model = _RECORDS.get(kind)
        if model is None:
            incoming.problems.append(Problem(display, number, 1, f"unknown record type {kind!r}"))
            continue
        try:
            fields = model.model_validate(record).model_dump()
        except ValidationError as exc:
            incoming.problems.extend(
                Problem(
                    display, number, 1, f"bad {kind}: {dotted_path(e['loc'])}: {validation_message(e, model)}"
                )
                for e in exc.errors(include_url=False)
            )
            continue
        if fields["bank"] is None and incoming.version < 5:
            fields["bank"] = ""  # before version 5, a record naming no bank was unassigned
        if kind == "card":
            content, bank = fields.pop("content_hash"), fields.pop("bank")
            incoming.cards.append((CardState.from_dict(fields), content, bank))
        else:
            incoming.events.append((kind, fields))
    if incoming.version is None:
        incoming.problems.insert(
            0, Problem(display, 1, 1, f"not a prep state export (the first line must have type {FORMAT!r})")
        )
    _name_old_events(incoming.events)
    return incoming


def _header(record: dict[str, Any], display: str, number: int, incoming: Incoming) -> bool:
    """Take the header's version; False (and a problem) when the lines cannot be read on."""
    version = record.get("version")
    if record.get("type") != FORMAT:
        return False
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        version = 1  # the first exports wrote no usable version: read them as version 1
    incoming.version = version
    if version > FORMAT_VERSION:
        incoming.problems.append(
            Problem(
                display, number, 1,
                f"written by a newer prep (format {version}; this prep reads up to {FORMAT_VERSION}):"
                " upgrade prep",
            )
        )  # fmt: skip
        return False
    return True


def _json_object(line: str, display: str, number: int, problems: list[Problem]) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except ValueError as exc:
        problems.append(Problem(display, number, 1, f"not a JSON object: {exc}"))
        return None
    if not isinstance(record, dict):
        problems.append(Problem(display, number, 1, "not a JSON object"))
        return None
    return record


_TIME_OF = {"review": "reviewed_at", "practice": "practiced_at", "teaching": "taught_at"}


def _name_old_events(events: list[tuple[str, dict[str, Any]]]) -> None:
    """Give the events of an export from before version 4 the ids their rows got when the
    state holding them was upgraded (``events.legacy_event_ids``)."""
    for kind, time in _TIME_OF.items():
        unnamed = [fields for k, fields in events if k == kind and fields["event"] is None]
        extra = ("point", "phrasing") if kind == "teaching" else ()
        rows = [(f["bank"], f["question_id"], f[time], *(f[x] for x in extra)) for f in unnamed]
        for fields, event in zip(unnamed, legacy_event_ids(kind, rows)):
            fields["event"] = event


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
EventId = Annotated[str, Field(pattern=r"^[A-Za-z0-9-]{1,64}$")]


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
    event: EventId | None = None  # absent before version 5
    bank: str | None = None  # the bank it was made in ('': unassigned); absent: the file's own


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
    decided_by: str | None = Field(default=None, pattern=DECIDED_BY)
    event: EventId | None = None
    bank: str | None = None


class _TeachingRecord(BaseModel):
    """One line of type "teaching": a phrasing the user taught a key point."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question_id: str = Field(pattern=ID_PATTERN)
    point: int = Field(ge=1)
    phrasing: str = Field(min_length=1)
    taught_at: Timestamp
    via: Literal["drill", "command"]
    event: EventId | None = None
    bank: str | None = None


class _UndoRecord(BaseModel):
    """One line of type "undo": a review or a practice answer taken back."""

    model_config = ConfigDict(extra="forbid", strict=True)

    event: EventId
    undoes: EventId
    question_id: str = Field(pattern=ID_PATTERN)
    undone_at: Timestamp
    bank: str | None = None


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
    bank: str | None = None


_RECORDS: dict[Any, type[BaseModel]] = {
    "card": _CardRecord,
    "review": _ReviewRecord,
    "practice": _PracticeRecord,
    "teaching": _TeachingRecord,
    "undo": _UndoRecord,
}
