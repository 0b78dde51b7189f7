"""A record of an import file (CSV or Anki's text export), checked against the bank's schema."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from prep.bank.messages import dotted_path, validation_message
from prep.bank.schema import Question
from prep.errors import Problem
from prep.exchange.ankinote import PrepNote


@dataclass(frozen=True)
class ImportRow:
    """One record of an import file, checked against the schema (an empty prompt is not checked:
    such rows are skipped)."""

    line: int  # physical line of the file where the record starts
    prompt: str
    answer: str = ""
    answer_source: str = "own"
    key_points: tuple[str | dict[str, Any], ...] = ()
    pitfalls: tuple[str | dict[str, Any], ...] = ()
    tags: tuple[str, ...] = ()
    kind: str = "technical"
    difficulty: int = 2
    target_seconds: int = 60
    follow_ups: tuple[str, ...] = ()
    notes: str | None = None
    formerly: tuple[str, ...] = ()
    id: str | None = None
    category: str | None = None
    category_title: str | None = None
    note: PrepNote | None = None  # one of prep's Anki notes: it updates the question its id names


@dataclass(frozen=True)
class ImportFile:
    file: str  # as shown in messages
    rows: list[ImportRow]  # the valid ones
    problems: list[Problem]  # of the others, each at its line: the import is refused when there are any
    invalid_ids: frozenset[str] = frozenset()  # ids of the rows with problems


def checked_row(
    display: str,
    line: int,
    fields: dict[str, Any],
    answer: str,
    source: str,
    qid: str | None,
    problems: list[Problem],
) -> ImportRow | None:
    """The row checked against the bank's schema: each problem as FILE:LINE: column: message."""
    if not fields["prompt"].strip():
        return ImportRow(line, "")  # skipped later, and reported as such
    try:
        q = Question.model_validate({**fields, "id": qid or "placeholder"})
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            problems.append(
                Problem(display, line, 0, validation_message(error, Question), dotted_path(error["loc"]))
            )
        return None
    return ImportRow(
        line,
        q.prompt,
        answer.strip(),
        source,
        tuple(k.entry for k in q.key_points),
        tuple(p.entry for p in q.pitfalls),
        q.tags,
        q.kind,
        q.difficulty,
        q.target_seconds,
        q.follow_ups,
        q.notes,
        q.formerly,
        qid,
    )
