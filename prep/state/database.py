"""Opening the state database: migrated on open, damage moved aside once, writes refused up front
when the file cannot take them, and short write transactions.

``StateDatabase`` owns the connection; ``prep.state.store.Store`` adds the named queries.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Self

from prep.errors import StateError
from prep.state.copies import backup, quarantine
from prep.state.migrations import MIGRATIONS, SCHEMA_VERSION
from prep.state.sqlite import (
    SQLITE_READONLY,
    Connection,
    UnreadableWal,
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
    quick_check,
    read_only_error,
    unchanged_since_check,
    write_error,
)


class StateDatabase:
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
                raise StateError(
                    f"cannot use the state database {self.path}: {exc}",
                    hint="run `prep state check` for what to do",
                ) from exc
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
            raise StateError(
                f"cannot read the state database {self.path}: {exc}",
                hint="open it once where it can be written",
            ) from None
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
            raise StateError(
                f"cannot write the state database {self.path}: read-only",
                hint=f"it is at schema {schema} and needs an upgrade to {SCHEMA_VERSION}, "
                "which writes to it; open it once where it can be written",
            )

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
