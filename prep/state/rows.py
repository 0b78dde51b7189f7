"""Rows of the state database as objects, the rows a bank sees (``scope``), and the one writer
of a card row."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime

from prep.state.cards import CardState, format_time, parse_time


@dataclass(frozen=True)
class Review:
    id: int
    question_id: str
    reviewed_at: datetime
    rating: int
    suggested: int | None
    score: int | None
    elapsed_seconds: float | None
    answer: str | None
    mode: str | None
    content_hash: str | None
    verdict: str | None = None  # the grader's own verdict
    ticked: tuple[int, ...] | None = None  # the key points the user ticked instead (`t`), if any
    decided_by: str | None = None  # "words", "judge:<model>" or "ticks" (migrations._m006_judge)


@dataclass(frozen=True)
class Practice:
    """An answer kept but never scheduled: from a cram or a mock interview without --record, or
    typed in a drill and then skipped or quit before a rating (mode "drill")."""

    id: int
    question_id: str
    practiced_at: datetime
    mode: str
    rating: int | None
    score: int | None
    verdict: str | None
    elapsed_seconds: float | None
    answer: str | None
    decided_by: str | None = None


def practice_of(row: sqlite3.Row) -> Practice:
    values = {name: row[name] for name in Practice.__dataclass_fields__}
    return Practice(**{**values, "practiced_at": parse_time(row["practiced_at"])})


def scope(bank_key: str | None, *, unassigned: bool = True) -> tuple[str, tuple]:
    """A WHERE clause for the rows a bank sees: its own, and (*unassigned*) those recorded before
    prep kept track of banks (''). A store opened with no bank (tools, tests) sees every row."""
    if bank_key is None:
        return "1", ()
    return ("bank IN (?, '')", (bank_key,)) if unassigned else ("bank = ?", (bank_key,))


def save_card_row(db: sqlite3.Connection, bank_key: str, card: CardState, content_hash: str | None) -> None:
    db.execute(
        "INSERT OR REPLACE INTO cards (bank, question_id, due, state, step, stability, difficulty,"
        " last_review, reps, lapses, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            bank_key,
            card.question_id,
            format_time(card.due),
            card.state,
            card.step,
            card.stability,
            card.difficulty,
            format_time(card.last_review) if card.last_review else None,
            card.reps,
            card.lapses,
            content_hash,
        ),
    )


def card_of(row: sqlite3.Row) -> CardState:
    return CardState(
        question_id=row["question_id"],
        due=parse_time(row["due"]),
        state=row["state"],
        step=row["step"],
        stability=row["stability"],
        difficulty=row["difficulty"],
        last_review=parse_time(row["last_review"]) if row["last_review"] else None,
        reps=row["reps"],
        lapses=row["lapses"],
    )


def review_of(row: sqlite3.Row) -> Review:
    return Review(
        id=row["id"],
        question_id=row["question_id"],
        reviewed_at=parse_time(row["reviewed_at"]),
        rating=row["rating"],
        suggested=row["suggested"],
        score=row["score"],
        elapsed_seconds=row["elapsed_seconds"],
        answer=row["answer"],
        mode=row["mode"],
        content_hash=row["content_hash"],
        verdict=row["verdict"],
        ticked=tuple(json.loads(row["ticked"])) if row["ticked"] else None,
        decided_by=row["decided_by"],
    )
