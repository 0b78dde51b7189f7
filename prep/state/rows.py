"""Rows of the state database as objects, and the one writer of a card row."""

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
    )
