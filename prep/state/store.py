"""The review-state database: SQLite (stdlib), WAL, ordered migrations, an append-only log.

Every rating is one short transaction (review row + card row) committed before the next card
is shown, so a crash or SIGKILL loses nothing that was rated. Each review row keeps the card
state from before it, which makes undo exact.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Self

from prep.errors import StateError
from prep.state.migrations import MIGRATIONS, SCHEMA_VERSION
from prep.review.scheduler import CardState, format_time, parse_time
from prep.state.sqlite import (
    SQLITE_READONLY,
    Connection,
    UnreadableWal,
    backup,
    cannot_create_error,
    damaged_error,
    error_code,
    foreign_database_error,
    foreign_tables,
    is_corruption,
    is_not_writable,
    mark_checked,
    newer_schema_error,
    not_sqlite_error,
    open_read_only,
    open_writable,
    probe_write,
    quarantine,
    quick_check,
    read_only_error,
    unchanged_since_check,
    write_error,
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


class Store:
    """A connection to the state database, migrated on open.

    ``write=True`` (commands that record or change history) refuses a database that cannot be
    written, up front. ``write=False`` (commands that only read) opens it read-only when it
    cannot be written, without migrations or WAL setup. Either way, a database SQLite reports
    as damaged, now or later, is closed and moved aside, once, and a StateError says where.
    """

    def __init__(self, path: Path, *, write: bool = True) -> None:
        # A symlinked state file is used where it points: SQLite keeps its log next to the
        # target, and a damaged database is the target, not the link.
        self.path = Path(os.path.realpath(path)) if Path(path).is_symlink() else Path(path)
        self.read_only = False
        self.damaged_copy: Path | None = None
        self.db: Connection = None  # type: ignore[assignment]  # set by _open_*
        try:
            self._open(write)
            self.db.on_error = self._failed
            if write:
                self.require_write()
        except BaseException:
            self._close_quietly()
            raise

    def _open(self, write: bool) -> None:
        if self.path.is_file() and (error := not_sqlite_error(self.path)) is not None:
            raise error
        if not write and (not self.path.exists() or (self.path.is_file() and self.path.stat().st_size == 0)):
            # Reading a history that does not exist yet: an empty one in memory, so that
            # `prep next` or `prep stats` (or a typo in --state) leaves no file behind.
            self.db = open_writable(Path(":memory:"))
            self._migrate()
            return
        check = write or not unchanged_since_check(self.path)
        try:
            self._open_writable(check)
            if check and not write:
                mark_checked(self.path)  # a reading command skips the check until the file changes
        except sqlite3.DatabaseError as exc:
            self._close_quietly()
            if is_corruption(exc):
                raise self._damaged(str(exc)) from exc
            if not is_not_writable(exc):
                raise StateError(f"cannot use the state database {self.path}: {exc}",
                                 hint="run `prep state check` for what to do") from exc
            if not self.path.is_file():
                raise cannot_create_error(self.path, exc) from exc
            if write:
                raise read_only_error(self.path) from exc
            self._open_read_only()
        except OSError as exc:
            raise cannot_create_error(self.path, exc) from exc

    def _open_writable(self, check: bool = True) -> None:
        """*check*: run SQLite's quick check first; a command that only reads skips it when the
        file is exactly the one that last passed (warm `prep next` is a shell-prompt command)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = open_writable(self.path)
        problem = quick_check(self.db) if check else None
        if problem is not None:
            self._close_quietly()
            raise self._damaged(f"quick check: {problem}")
        self._migrate()

    def _open_read_only(self) -> None:
        try:
            self.db = open_read_only(self.path)
            problem = quick_check(self.db)
            tables = foreign_tables(self.db)
            if tables:
                self._close_quietly()
                raise foreign_database_error(self.path, tables)
            schema = self._read_only_schema()
        except UnreadableWal as exc:
            raise StateError(f"cannot read the state database {self.path}: {exc}",
                             hint="open it once where it can be written") from None
        except sqlite3.DatabaseError as exc:
            self._close_quietly()
            if is_corruption(exc):
                raise self._damaged(str(exc)) from exc
            raise StateError(f"cannot open the state database {self.path}: {exc}") from exc
        if problem is not None:
            self._close_quietly()
            raise self._damaged(f"quick check: {problem}")
        self.read_only = True
        if schema > SCHEMA_VERSION:
            self._close_quietly()
            raise newer_schema_error(self.path, schema, SCHEMA_VERSION)
        if schema < SCHEMA_VERSION:
            self._close_quietly()
            raise StateError(f"cannot write the state database {self.path}: read-only",
                             hint=f"it is at schema {schema} and needs an upgrade to {SCHEMA_VERSION}, "
                                  "which writes to it; open it once where it can be written")

    def _read_only_schema(self) -> int:
        if not self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").fetchone():
            return 0
        return self.schema_version()

    def _damaged(self, detail: str) -> StateError:
        """Close, move the file and its WAL files aside (once), and say so; the caller raises."""
        self._close_quietly()
        if self.damaged_copy is None:
            try:
                self.damaged_copy = quarantine(self.path)
            except OSError as exc:
                return damaged_error(self.path, detail, failure=exc)
        return damaged_error(self.path, detail, moved=self.damaged_copy)

    def _failed(self, exc: sqlite3.DatabaseError) -> None:
        """Every SQLite error after opening: corruption moves the file aside; a refused write is
        "read-only"; anything else (e.g. busy) goes through unchanged."""
        if is_corruption(exc):
            raise self._damaged(str(exc)) from exc
        if error_code(exc) == SQLITE_READONLY:
            self.read_only = True
            raise read_only_error(self.path) from exc

    def require_write(self) -> None:
        """Raise StateError now if the database cannot be written (before any work is done)."""
        if self.read_only:
            raise read_only_error(self.path)
        try:
            probe_write(self.db)
        except sqlite3.OperationalError as exc:  # e.g. busy for longer than the timeout
            raise write_error(self.path, exc) from exc

    def _close_quietly(self) -> None:
        if self.db is not None:
            try:
                self.db.close()
            except sqlite3.Error:
                pass

    def close(self) -> None:
        self._close_quietly()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A short write transaction; BEGIN IMMEDIATE takes the write lock up front."""
        if self.read_only:
            raise read_only_error(self.path)
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise write_error(self.path, exc) from exc
        try:
            yield self.db
        except BaseException:
            if not self.db.is_closed and self.db.in_transaction:  # closed: moved aside as damaged
                self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")

    def _migrate(self) -> None:
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        current = self.schema_version()
        if current > SCHEMA_VERSION:
            raise newer_schema_error(self.path, current, SCHEMA_VERSION)
        if 0 < current < SCHEMA_VERSION:
            backup(self.db, self.path, f"before-v{SCHEMA_VERSION}")  # an upgrade never risks history
        for version in range(current + 1, SCHEMA_VERSION + 1):
            migration = MIGRATIONS[version - 1]
            with self.transaction() as db:
                if self.schema_version() >= version:
                    continue  # another prep process applied it while we waited for the lock
                migration(db)
                db.execute(
                    "INSERT INTO schema_migrations VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ','now'))",
                    (version, migration.__name__.lstrip("_")),
                )

    def schema_version(self) -> int:
        row = self.db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
        return int(row[0] or 0)

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

    def record(self, before: CardState | None, after: CardState, *, reviewed_at: datetime, rating: int,
               **details: Any) -> int:
        """Append a review and save the card's new state, atomically. Returns the review id."""
        with self.transaction() as db:
            return _append_review(db, before, after, reviewed_at, rating, **details)

    def review(self, question_id: str, schedule: Callable[[CardState | None], CardState], *,
               reviewed_at: datetime, rating: int, **details: Any) -> tuple[int, CardState]:
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
            row = db.execute("SELECT question_id, card_before FROM reviews WHERE id = ?", (review_id,)).fetchone()
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
        return {r[0] for r in self.db.execute(
            "SELECT question_id FROM cards UNION SELECT question_id FROM reviews UNION SELECT question_id FROM practice")}

    def has_history(self, question_id: str) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM cards WHERE question_id = ? UNION SELECT 1 FROM reviews WHERE question_id = ?"
            " UNION SELECT 1 FROM practice WHERE question_id = ? LIMIT 1",
            (question_id, question_id, question_id),
        ).fetchone()
        return row is not None

    # --- practice: cram and unrecorded mock answers, kept but never scheduled ----------------

    def log_practice(self, question_id: str, *, practiced_at: datetime, mode: str, rating: int | None = None,
                     score: int | None = None, verdict: str | None = None, elapsed_seconds: float | None = None,
                     answer: str | None = None) -> int:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO practice (question_id, practiced_at, mode, rating, score, verdict, elapsed_seconds, answer)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (question_id, format_time(practiced_at), mode, rating, score, verdict, elapsed_seconds, answer),
            )
            return int(cursor.lastrowid)

    def forget_practice(self, practice_id: int) -> None:
        """Undo of a cram rating: the practice row it kept goes too."""
        with self.transaction() as db:
            db.execute("DELETE FROM practice WHERE id = ?", (practice_id,))

    def practice(self, question_id: str) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM practice WHERE question_id = ? ORDER BY practiced_at, id",
                                    (question_id,)))

    @contextmanager
    def renaming(self, old: str, new: str) -> Iterator[tuple[int, int]]:
        """Move a question's history to a new id; commits only if the caller's block succeeds
        (so the bank files and the database change together). Yields the reviews and the
        practice answers moved."""
        with self.transaction() as db:
            if self.has_history(new):
                raise StateError(f"the state database already has history for {new!r}")
            db.execute("UPDATE cards SET question_id = ? WHERE question_id = ?", (new, old))
            practice = db.execute("UPDATE practice SET question_id = ? WHERE question_id = ?", (new, old)).rowcount
            yield db.execute("UPDATE reviews SET question_id = ? WHERE question_id = ?", (new, old)).rowcount, practice

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


def _append_review(db: Connection, before: CardState | None, after: CardState, reviewed_at: datetime, rating: int,
                   *, suggested: int | None = None, score: int | None = None, elapsed_seconds: float | None = None,
                   answer: str | None = None, mode: str | None = None, content_hash: str | None = None,
                   verdict: str | None = None) -> int:
    cursor = db.execute(
        "INSERT INTO reviews (question_id, reviewed_at, rating, suggested, score,"
        " elapsed_seconds, answer, mode, content_hash, card_before, verdict)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (after.question_id, format_time(reviewed_at), rating, suggested, score, elapsed_seconds, answer, mode,
         content_hash, json.dumps(before.to_dict()) if before else None, verdict),
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

