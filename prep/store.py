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
from pathlib import Path

from .errors import StateError
from .scheduler import CardState, format_time, parse_time

BUSY_TIMEOUT_MS = 10_000  # another prep process may hold the write lock briefly


def _script(db: sqlite3.Connection, sql: str) -> None:
    """Run several statements inside the current transaction (executescript would commit)."""
    statement = ""
    for line in sql.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""


def _m001_initial(db: sqlite3.Connection) -> None:
    _script(
        db,
        """
        CREATE TABLE cards (
            question_id TEXT PRIMARY KEY,
            due TEXT NOT NULL,              -- UTC, fixed-width text: sorts as time
            state INTEGER NOT NULL,         -- fsrs.State: 1 learning, 2 review, 3 relearning
            step INTEGER,
            stability REAL,
            difficulty REAL,
            last_review TEXT,
            reps INTEGER NOT NULL DEFAULT 0,
            lapses INTEGER NOT NULL DEFAULT 0,
            content_hash TEXT               -- prompt + key points when last reviewed
        );
        CREATE INDEX cards_due ON cards(due);
        CREATE TABLE reviews (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            question_id TEXT NOT NULL,
            reviewed_at TEXT NOT NULL,
            rating INTEGER NOT NULL,        -- chosen: 1 again, 2 hard, 3 good, 4 easy
            suggested INTEGER,              -- what the grader suggested (NULL: self-graded)
            score INTEGER,
            elapsed_seconds REAL,
            answer TEXT,
            mode TEXT,
            content_hash TEXT,
            card_before TEXT                -- JSON card state before this review; NULL if new
        );
        CREATE INDEX reviews_question ON reviews(question_id, reviewed_at);
        CREATE INDEX reviews_time ON reviews(reviewed_at);
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """
    )


def _m002_review_verdict(db: sqlite3.Connection) -> None:
    # The grader's verdict (pass/partial/fail) next to the chosen rating: pass rates in stats
    # should mean "the answer passed", not "the user pressed Good".
    db.execute("ALTER TABLE reviews ADD COLUMN verdict TEXT")


# Ordered: append new migrations, never edit or reorder applied ones.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_m001_initial, _m002_review_verdict)
SQLITE_CORRUPT, SQLITE_NOTADB = 11, 26
SCHEMA_VERSION = len(MIGRATIONS)


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
    """A connection to the state database, migrated on open."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            self.db.row_factory = sqlite3.Row
            self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            if getattr(exc, "sqlite_errorcode", None) in (SQLITE_CORRUPT, SQLITE_NOTADB):
                moved = quarantine(self.path)
                raise StateError(
                    f"the state database {self.path} is damaged ({exc}); it was moved aside to {moved.name}",
                    hint="the next run starts a fresh one; `prep state check` says how to restore your history",
                ) from exc
            raise StateError(
                f"cannot use the state database {self.path}: {exc}",
                hint="run `prep state check` for what to do",
            ) from exc
        except OSError as exc:
            raise StateError(f"cannot create the state database {self.path}: {exc.strerror or exc}") from exc

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A short write transaction; BEGIN IMMEDIATE takes the write lock up front."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StateError(f"the state database is busy: {exc}", hint="is another prep writing?") from exc
        try:
            yield self.db
        except BaseException:
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
            raise StateError(
                f"{self.path} was written by a newer prep (schema {current}, this prep knows {SCHEMA_VERSION})",
                hint="upgrade prep to use this state file",
            )
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

    def record(
        self,
        before: CardState | None,
        after: CardState,
        *,
        reviewed_at: datetime,
        rating: int,
        suggested: int | None = None,
        score: int | None = None,
        elapsed_seconds: float | None = None,
        answer: str | None = None,
        mode: str | None = None,
        content_hash: str | None = None,
        verdict: str | None = None,
    ) -> int:
        """Append a review and save the card's new state, atomically. Returns the review id."""
        with self.transaction() as db:
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

    def has_history(self, question_id: str) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM cards WHERE question_id = ? UNION SELECT 1 FROM reviews WHERE question_id = ? LIMIT 1",
            (question_id, question_id),
        ).fetchone()
        return row is not None

    @contextmanager
    def renaming(self, old: str, new: str) -> Iterator[int]:
        """Move a question's history to a new id; commits only if the caller's block succeeds
        (so the bank files and the database change together). Yields the reviews moved."""
        with self.transaction() as db:
            if self.has_history(new):
                raise StateError(f"the state database already has history for {new!r}")
            db.execute("UPDATE cards SET question_id = ? WHERE question_id = ?", (new, old))
            yield db.execute("UPDATE reviews SET question_id = ? WHERE question_id = ?", (new, old)).rowcount

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


def quarantine(path: Path) -> Path:
    """Move a damaged database (and its WAL files) aside, keeping it for recovery."""
    from datetime import datetime as _dt

    stamp = _dt.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.replace(Path(f"{target}{suffix}"))
    return target


def backup(db: sqlite3.Connection, path: Path, label: str) -> Path:
    """A consistent copy of the open database next to it (SQLite's online backup API)."""
    from datetime import datetime as _dt

    target = path.with_name(f"{path.name}.backup-{label}-{_dt.now().strftime('%Y%m%d-%H%M%S')}")
    copy = sqlite3.connect(target)
    try:
        db.backup(copy)
    finally:
        copy.close()
    return target


def backups(path: Path) -> list[Path]:
    """Backups and damaged copies kept next to the state database, newest first."""
    return sorted(path.parent.glob(f"{path.name}.*-*"), key=lambda p: p.stat().st_mtime, reverse=True)
