"""The review-state database: SQLite (stdlib), WAL, ordered migrations, an append-only log.

Every rating is one short transaction (review row + card row) committed before the next card
is shown, so a crash or SIGKILL loses nothing that was rated. Each review row keeps the card
state from before it, which makes undo exact.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from prep.errors import StateError
from prep.state.cards import CardState, format_time, parse_time
from prep.state.database import StateDatabase
from prep.state.reports import ReportQueries
from prep.state.sqlite import Connection

# The columns of a review and of a practice answer that move with an export (not the row id).
REVIEW_FIELDS = (
    "question_id",
    "reviewed_at",
    "rating",
    "suggested",
    "score",
    "elapsed_seconds",
    "answer",
    "mode",
    "content_hash",
    "verdict",
    "card_before",
)
PRACTICE_FIELDS = (
    "question_id",
    "practiced_at",
    "mode",
    "rating",
    "score",
    "verdict",
    "elapsed_seconds",
    "answer",
)


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


class Store(StateDatabase, ReportQueries):
    """The review state: cards, the review log, practice answers and settings. Every SQL
    statement prep runs on it is a named method here (or in its report queries)."""

    # --- cards ---------------------------------------------------------------------------

    def card(self, question_id: str) -> CardState | None:
        row = self.db.execute("SELECT * FROM cards WHERE question_id = ?", (question_id,)).fetchone()
        return _card(row) if row else None

    def cards(self) -> dict[str, CardState]:
        return {row["question_id"]: _card(row) for row in self.db.execute("SELECT * FROM cards")}

    def due_ids(self, now: datetime, limit: int | None = None) -> list[tuple[str, datetime]]:
        """Question ids due at *now*, most overdue first (uses the due index)."""
        sql = "SELECT question_id, due FROM cards WHERE due <= ? ORDER BY due, question_id"
        params: tuple = (format_time(now),)
        if limit is not None:
            sql += " LIMIT ?"
            params += (limit,)
        return [(r[0], parse_time(r[1])) for r in self.db.execute(sql, params)]

    def next_due(self) -> datetime | None:
        row = self.db.execute("SELECT MIN(due) FROM cards").fetchone()
        return parse_time(row[0]) if row and row[0] else None

    def content_hashes(self) -> dict[str, str | None]:
        return {r[0]: r[1] for r in self.db.execute("SELECT question_id, content_hash FROM cards")}

    def new_cards_since(self, since: datetime) -> int:
        """How many cards had their first review since *since* (the new-per-day budget)."""
        row = self.db.execute(
            "SELECT COUNT(*) FROM reviews WHERE card_before IS NULL AND reviewed_at >= ?",
            (format_time(since),),
        ).fetchone()
        return int(row[0])

    # --- the review log --------------------------------------------------------------------

    def record(
        self,
        before: CardState | None,
        after: CardState,
        *,
        reviewed_at: datetime,
        rating: int,
        **details: Any,
    ) -> int:
        """Append a review and save the card's new state, atomically. Returns the review id."""
        with self.transaction() as db:
            return _append_review(db, before, after, reviewed_at, rating, **details)

    def review(
        self,
        question_id: str,
        schedule: Callable[[CardState | None], CardState],
        *,
        reviewed_at: datetime,
        rating: int,
        **details: Any,
    ) -> tuple[int, CardState]:
        """Read the card, schedule it and record the review in one write transaction, so two
        processes rating the same card at once each build on the other's rating, not on the
        state both read before. Returns the review id and the card's new state."""
        with self.transaction() as db:
            row = db.execute("SELECT * FROM cards WHERE question_id = ?", (question_id,)).fetchone()
            before = _card(row) if row else None
            after = schedule(before)
            return _append_review(db, before, after, reviewed_at, rating, **details), after

    def undo(self, review_id: int) -> str:
        """Remove a review and restore the card as it was before it. Returns the question id."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT question_id, card_before FROM reviews WHERE id = ?", (review_id,)
            ).fetchone()
            if row is None:
                raise StateError(f"review {review_id} is not in the database (already undone?)")
            db.execute("DELETE FROM reviews WHERE id = ?", (review_id,))
            if row["card_before"] is None:
                db.execute("DELETE FROM cards WHERE question_id = ?", (row["question_id"],))
            else:
                before = CardState.from_dict(json.loads(row["card_before"]))
                previous_hash = db.execute(
                    "SELECT content_hash FROM reviews WHERE question_id = ? ORDER BY id DESC LIMIT 1",
                    (row["question_id"],),
                ).fetchone()
                _save_card(db, before, previous_hash[0] if previous_hash else None)
            return str(row["question_id"])

    def reviews(self, question_id: str | None = None, since: datetime | None = None) -> list[Review]:
        sql, params = "SELECT * FROM reviews WHERE 1=1", []
        if question_id is not None:
            sql += " AND question_id = ?"
            params.append(question_id)
        if since is not None:
            sql += " AND reviewed_at >= ?"
            params.append(format_time(since))
        sql += " ORDER BY reviewed_at, id"
        return [_review(r) for r in self.db.execute(sql, params)]

    def review_count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0])

    def history_ids(self) -> set[str]:
        """Every question id the history has a card, a review or a practice answer for."""
        return {
            r[0]
            for r in self.db.execute(
                "SELECT question_id FROM cards UNION SELECT question_id FROM reviews UNION SELECT "
                "question_id FROM practice"
            )
        }

    def has_history(self, question_id: str) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM cards WHERE question_id = ? UNION SELECT 1 FROM reviews WHERE question_id = ?"
            " UNION SELECT 1 FROM practice WHERE question_id = ? LIMIT 1",
            (question_id, question_id, question_id),
        ).fetchone()
        return row is not None

    # --- practice: cram and unrecorded mock answers, kept but never scheduled ----------------

    def log_practice(
        self,
        question_id: str,
        *,
        practiced_at: datetime,
        mode: str,
        rating: int | None = None,
        score: int | None = None,
        verdict: str | None = None,
        elapsed_seconds: float | None = None,
        answer: str | None = None,
    ) -> int:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO practice (question_id, practiced_at, mode, rating, score, verdict, "
                "elapsed_seconds, answer)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    question_id,
                    format_time(practiced_at),
                    mode,
                    rating,
                    score,
                    verdict,
                    elapsed_seconds,
                    answer,
                ),
            )
            return int(cursor.lastrowid)

    def forget_practice(self, practice_id: int) -> None:
        """Undo of a cram rating: the practice row it kept goes too."""
        with self.transaction() as db:
            db.execute("DELETE FROM practice WHERE id = ?", (practice_id,))

    def practice(self, question_id: str) -> list[sqlite3.Row]:
        return list(
            self.db.execute(
                "SELECT * FROM practice WHERE question_id = ? ORDER BY practiced_at, id", (question_id,)
            )
        )

    @contextmanager
    def renaming(self, old: str, new: str) -> Iterator[tuple[int, int]]:
        """Move a question's history to a new id; commits only if the caller's block succeeds
        (so the bank files and the database change together). Yields the reviews and the
        practice answers moved."""
        with self.transaction() as db:
            if self.has_history(new):
                raise StateError(f"the state database already has history for {new!r}")
            db.execute("UPDATE cards SET question_id = ? WHERE question_id = ?", (new, old))
            practice = db.execute(
                "UPDATE practice SET question_id = ? WHERE question_id = ?", (new, old)
            ).rowcount
            yield (
                db.execute("UPDATE reviews SET question_id = ? WHERE question_id = ?", (new, old)).rowcount,
                practice,
            )

    # --- settings --------------------------------------------------------------------------

    def get_setting(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def fsrs_parameters(self) -> tuple[float, ...] | None:
        """Personal FSRS weights saved by `prep optimize`, if any."""
        raw = self.get_setting("fsrs_parameters")
        return tuple(json.loads(raw)) if raw else None

    def set_fsrs_parameters(self, parameters: list[float]) -> None:
        self.set_setting("fsrs_parameters", json.dumps(list(parameters)))

    def save_card(self, card: CardState, content_hash: str | None = None) -> None:
        """Write one card's state as it is (no review): for tools that build a history."""
        with self.transaction() as db:
            _save_card(db, card, content_hash)

    # --- moving history in and out (`prep state export|import|prune`) ------------------------

    def export_rows(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """("card" | "review" | "practice", fields) in a fixed order: cards by id, then reviews and
        practice answers by time, so that the same history always exports the same way."""
        hashes = self.content_hashes()
        for qid, card in sorted(self.cards().items()):
            yield "card", {**card.to_dict(), "content_hash": hashes.get(qid)}
        for row in self.db.execute(
            f"SELECT {', '.join(REVIEW_FIELDS)} FROM reviews ORDER BY reviewed_at, question_id, id"
        ):
            yield "review", {k: row[k] for k in REVIEW_FIELDS}
        for row in self.db.execute(
            f"SELECT {', '.join(PRACTICE_FIELDS)} FROM practice ORDER BY practiced_at, question_id, id"
        ):
            yield "practice", {k: row[k] for k in PRACTICE_FIELDS}

    def merge(
        self,
        cards: list[tuple[CardState, str | None]],
        reviews: list[dict[str, Any]],
        practice: list[dict[str, Any]],
    ) -> dict[str, int]:
        """Add what the state does not have yet, in one transaction: reviews and practice answers by
        (question, time), cards where the incoming one was reviewed later. Returns the counts."""
        counts = dict.fromkeys(
            (
                "reviews_added",
                "reviews_present",
                "cards_added",
                "cards_updated",
                "cards_kept",
                "practice_added",
                "practice_present",
            ),
            0,
        )
        with self.transaction() as db:
            for table, rows, stamp, fields in (
                ("reviews", reviews, "reviewed_at", REVIEW_FIELDS),
                ("practice", practice, "practiced_at", PRACTICE_FIELDS),
            ):
                for row in rows:
                    if db.execute(
                        f"SELECT 1 FROM {table} WHERE question_id = ? AND {stamp} = ?",
                        (row["question_id"], row[stamp]),
                    ).fetchone():
                        counts[f"{table}_present"] += 1
                        continue
                    db.execute(
                        f"INSERT INTO {table} ({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})",
                        tuple(row[k] for k in fields),
                    )
                    counts[f"{table}_added"] += 1
            for card, content in cards:
                row = db.execute(
                    "SELECT last_review FROM cards WHERE question_id = ?", (card.question_id,)
                ).fetchone()
                if row is None:
                    counts["cards_added"] += 1
                elif row[0] is None or (card.last_review and card.last_review > parse_time(row[0])):
                    counts["cards_updated"] += 1
                else:
                    counts["cards_kept"] += 1
                    continue
                _save_card(db, card, content)
        return counts

    def prune(self, keep: set[str]) -> dict[str, int]:
        """Delete the history of every question id not in *keep*."""
        with self.transaction() as db:
            gone = sorted(self.history_ids() - keep)
            reviews = cards = practice = 0
            for qid in gone:
                reviews += db.execute("DELETE FROM reviews WHERE question_id = ?", (qid,)).rowcount
                cards += db.execute("DELETE FROM cards WHERE question_id = ?", (qid,)).rowcount
                practice += db.execute("DELETE FROM practice WHERE question_id = ?", (qid,)).rowcount
        return {"questions": len(gone), "reviews": reviews, "cards": cards, "practice": practice}


def _append_review(
    db: Connection,
    before: CardState | None,
    after: CardState,
    reviewed_at: datetime,
    rating: int,
    *,
    suggested: int | None = None,
    score: int | None = None,
    elapsed_seconds: float | None = None,
    answer: str | None = None,
    mode: str | None = None,
    content_hash: str | None = None,
    verdict: str | None = None,
) -> int:
    cursor = db.execute(
        "INSERT INTO reviews (question_id, reviewed_at, rating, suggested, score,"
        " elapsed_seconds, answer, mode, content_hash, card_before, verdict)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            after.question_id,
            format_time(reviewed_at),
            rating,
            suggested,
            score,
            elapsed_seconds,
            answer,
            mode,
            content_hash,
            json.dumps(before.to_dict()) if before else None,
            verdict,
        ),
    )
    _save_card(db, after, content_hash)
    return int(cursor.lastrowid)


def _save_card(db: sqlite3.Connection, card: CardState, content_hash: str | None) -> None:
    db.execute(
        "INSERT OR REPLACE INTO cards (question_id, due, state, step, stability, difficulty,"
        " last_review, reps, lapses, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
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


def _card(row: sqlite3.Row) -> CardState:
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


def _review(row: sqlite3.Row) -> Review:
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
    )
