"""The state database as a file, in SQLite's terms: opening it writable or read-only, telling
damage from a database that merely cannot be written (and saying which), a connection that
reports its own errors, and the mark that spares an unchanged file its quick check. The copies
kept next to it (backups, damaged files moved aside) are ``copies``; migrating is ``database``.

SQLite's own error codes decide: only SQLITE_CORRUPT, SQLITE_NOTADB or a failing quick check
mean "damaged". "database is locked", a permission or a read-only file system never do, so a
healthy database is never moved aside.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import weakref
from collections.abc import Callable
from pathlib import Path

from prep.errors import StateError, StateReadOnly

BUSY_TIMEOUT_MS = 10_000  # another prep process may hold the write lock briefly

# Primary result codes (https://sqlite.org/rescode.html); extended codes keep them in the low byte.
SQLITE_PERM, SQLITE_READONLY, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_NOTADB = 3, 8, 11, 14, 26


def error_code(exc: BaseException) -> int | None:
    """The primary SQLite result code of an error, if SQLite reported one."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_corruption(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.DatabaseError) and error_code(exc) in (SQLITE_CORRUPT, SQLITE_NOTADB)


def is_not_writable(exc: BaseException) -> bool:
    """The file (or its directory) cannot be written or created: read-only, permissions."""
    return isinstance(exc, sqlite3.DatabaseError) and error_code(exc) in (
        SQLITE_READONLY,
        SQLITE_CANTOPEN,
        SQLITE_PERM,
    )


def read_only_error(path: Path) -> StateError:
    return StateReadOnly(
        f"cannot write the state database {path}: read-only",
        hint="commands that only read (stats, history, next, state export, state check) still work",
    )


def write_error(path: Path, exc: sqlite3.Error) -> StateError:
    """A write transaction could not start: read-only, or the lock stayed taken too long."""
    if is_not_writable(exc):
        return read_only_error(path)
    return StateError(f"the state database is busy: {exc}", hint="is another prep writing?")


def cannot_create_error(path: Path, exc: BaseException) -> StateError:
    if path.is_dir():
        return StateError(
            f"{path} is a directory, not a state database file",
            hint=f"name a file in it, e.g. {path / 'state.sqlite3'}",
        )
    blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        return StateError(f"cannot create the state database {path}: {blocking} is a file, not a directory")
    if path.parent.is_dir() and not os.access(path.parent, os.W_OK):
        return StateReadOnly(f"cannot create the state database {path}: its directory is read-only")
    return StateError(f"cannot create the state database {path}: {getattr(exc, 'strerror', None) or exc}")


def damaged_error(
    path: Path, detail: str, *, moved: Path | None = None, failure: OSError | None = None
) -> StateError:
    if moved is None:
        return StateError(
            f"the state database {path} is damaged ({detail}) and could not be moved aside: "
            f"{getattr(failure, 'strerror', None) or failure}",
            hint="run `prep state check` for what to do",
        )
    return StateError(
        f"the state database {path} is damaged ({detail}); it was moved aside to {moved.name}",
        hint="the next run starts a fresh one; `prep state check` says how to restore your history",
    )


def foreign_database_error(path: Path, tables: list[str]) -> StateError:
    shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
    return StateError(
        f"{path} is not a prep state database (it holds {shown}); prep leaves it as it is",
        hint="point --state or $PREP_STATE at a file of prep's own, or at a new one",
    )


SQLITE_HEADER = b"SQLite format 3\x00"


def not_sqlite_error(path: Path) -> StateError | None:
    """A StateError for a file that was never an SQLite database (notes, an archive: a wrong
    --state), which prep must not take for a damaged one and move aside; None otherwise.
    SQLite writes its header with the first commit, so every state file prep made has it."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError:
        return None  # not a readable regular file: the open that follows says what is wrong
    if not head or head == SQLITE_HEADER:
        return None
    return StateError(
        f"{path} is not an SQLite database, so not a prep state file; prep leaves it as it is",
        hint="point --state or $PREP_STATE at your state file; if this was it and it is "
        "damaged beyond recognition, move it away and run `prep state check`",
    )


def foreign_tables(db: sqlite3.Connection) -> list[str]:
    """What marks a database as some other program's: its schema objects (tables, views ...)
    when none is prep's record of migrations, or an application id or user version it set.
    Empty for a new, blank file or a prep database.

    Every statement is read to its end (fetchall), so that no read lock is still held when the
    caller switches the file to WAL: two first opens holding one each would deadlock."""
    objects = sorted(
        f"{r[0]} {r[1]}"
        for r in db.execute("SELECT type, name FROM sqlite_master").fetchall()
        if not r[1].startswith("sqlite_")
    )
    if any(o == "table schema_migrations" for o in objects):
        return []
    marks = [
        f"{pragma} {value}"
        for pragma in ("application_id", "user_version")
        if (value := db.execute(f"PRAGMA {pragma}").fetchall()[0][0])
    ]
    return objects + marks


def newer_schema_error(path: Path, schema: int, known: int) -> StateError:
    return StateError(
        f"{path} was written by a newer prep (schema {schema}, this prep knows {known})",
        hint="upgrade prep to use this state file",
    )


class Cursor(sqlite3.Cursor):
    """Hands every SQLite error to the connection's ``on_error`` (see ``Connection``)."""

    connection: Connection

    def execute(self, sql, parameters=()):  # type: ignore[no-untyped-def, override]
        try:
            return super().execute(sql, parameters)
        except sqlite3.DatabaseError as exc:
            self.connection.failed(exc)
            raise

    def executemany(self, sql, seq_of_parameters):  # type: ignore[no-untyped-def, override]
        try:
            return super().executemany(sql, seq_of_parameters)
        except sqlite3.DatabaseError as exc:
            self.connection.failed(exc)
            raise

    def fetchone(self):  # type: ignore[no-untyped-def]
        try:
            return super().fetchone()
        except sqlite3.DatabaseError as exc:
            self.connection.failed(exc)
            raise

    def fetchmany(self, size: int | None = None):  # type: ignore[no-untyped-def, override]
        try:
            return super().fetchmany(self.arraysize if size is None else size)
        except sqlite3.DatabaseError as exc:
            self.connection.failed(exc)
            raise

    def fetchall(self):  # type: ignore[no-untyped-def]
        try:
            return super().fetchall()
        except sqlite3.DatabaseError as exc:
            self.connection.failed(exc)
            raise

    def __iter__(self):  # type: ignore[no-untyped-def]
        while rows := self.fetchmany(512):
            yield from rows


class Connection(sqlite3.Connection):
    """A connection whose errors, wherever they surface (a statement, a fetch, a commit), go to
    ``on_error`` first: the store turns corruption into "moved aside" and a refused write into
    "read-only". Cursors are tracked so that all of them can be closed before the file moves."""

    on_error: Callable[[sqlite3.DatabaseError], None] | None = None
    is_closed = False

    def cursor(self, factory=Cursor):  # type: ignore[no-untyped-def, override]
        cursor = super().cursor(factory)
        if not hasattr(self, "_cursors"):
            self._cursors: weakref.WeakSet[sqlite3.Cursor] = weakref.WeakSet()
        self._cursors.add(cursor)
        return cursor

    def execute(self, sql, parameters=()):  # type: ignore[no-untyped-def, override]
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql, seq_of_parameters):  # type: ignore[no-untyped-def, override]
        return self.cursor().executemany(sql, seq_of_parameters)

    def failed(self, exc: sqlite3.DatabaseError) -> None:
        if self.on_error is not None and not self.is_closed:
            self.on_error(exc)  # raises its own error, or returns to let *exc* through

    def close(self) -> None:
        """Close every cursor first, so that SQLite really closes the file now."""
        for cursor in list(getattr(self, "_cursors", ())):
            try:
                cursor.close()
            except sqlite3.Error:
                pass
        self.is_closed = True
        super().close()


def _uri(path: Path, options: str) -> str:
    from urllib.parse import quote  # only the rarer read-only opens need it

    return f"file:{quote(os.path.abspath(path))}?{options}"


def _connect(target: str | Path, *, uri: bool = False) -> Connection:
    db = sqlite3.connect(
        target, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, uri=uri, factory=Connection
    )
    db.row_factory = sqlite3.Row
    return db


def open_writable(path: Path) -> Connection:
    """Open (or create) the database for writing, in WAL mode with full syncs."""
    db = _connect(path)
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        tables = foreign_tables(db)  # before WAL mode, which would change the file
        if tables:
            raise foreign_database_error(path, tables)
        _switch_to_wal(db)
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        db.close()
        raise
    return db


SQLITE_BUSY = 5


def _switch_to_wal(db: sqlite3.Connection) -> None:
    """PRAGMA journal_mode = WAL, retried while another process opening the same new file holds
    its lock: SQLite reports that race as "database is locked" at once, without waiting out the
    busy timeout (seen with several first opens of one file at the same moment)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    delay = 0.005
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL").fetchall()
            return
        except sqlite3.OperationalError as exc:
            if error_code(exc) != SQLITE_BUSY or time.monotonic() + delay > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


class UnreadableWal(Exception):
    """A read-only database whose WAL holds changes that only a writable open could read."""


def open_read_only(path: Path) -> Connection:
    """Open an existing database without writing anything: ``mode=ro`` (which still needs the
    WAL index file, -shm, to exist or be creatable), else ``immutable=1`` when there is no WAL
    content it would skip. Raises sqlite3 errors as SQLite reports them."""
    try:
        db = _connect(_uri(path, "mode=ro"), uri=True)
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # reads: opens the WAL index
        except BaseException:
            db.close()
            raise
        return db
    except sqlite3.DatabaseError as exc:
        if not is_not_writable(exc):
            raise
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise UnreadableWal(
                f"its write-ahead log {wal.name} holds changes, and reading them needs write "
                "access (to create its index, -shm)"
            ) from exc
    return _connect(_uri(path, "immutable=1"), uri=True)


def _signature(path: Path) -> list[int] | None:
    """What identifies this version of the file: inode, size and modification time. None while a
    write-ahead log holds changes (the main file alone does not say what the database holds)."""
    try:
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            return None
        stat = path.stat()
    except OSError:
        return None
    return [stat.st_ino, stat.st_size, stat.st_mtime_ns]


def _checks_file() -> Path:
    from prep.paths import cache_dir

    return cache_dir() / "state-checks.json"


def unchanged_since_check(path: Path) -> bool:
    """Whether the file is byte for byte the one a quick check last passed (same inode, size and
    modification time, nothing in its log): a command that only reads need not check it again.
    Any write, by prep or anything else, changes the signature, so the next open checks."""
    signature = _signature(path)
    if signature is None:
        return False
    try:
        known = json.loads(_checks_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(known, dict) and known.get(str(path.resolve())) == signature


def mark_checked(path: Path) -> None:
    """Remember that this version of the file passed a quick check (best effort: a cache)."""
    signature = _signature(path)
    if signature is None:
        return
    target = _checks_file()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({str(path.resolve()): signature}), encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        pass


def quick_check(db: sqlite3.Connection) -> str | None:
    """None if SQLite's quick check passes, else its first complaint (a corrupt file may also
    make it raise sqlite3.DatabaseError)."""
    rows = db.execute("PRAGMA quick_check").fetchall()
    if len(rows) == 1 and rows[0][0] == "ok":
        return None
    return " ".join(str(rows[0][0] if rows else "no result").split())  # one line


def probe_write(db: sqlite3.Connection) -> None:
    """Raise SQLite's error if this connection cannot write: rewrite the header's user_version
    with its own value inside a transaction that is rolled back, so nothing changes."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(f"PRAGMA user_version = {version}")
    finally:
        if db.in_transaction:
            db.execute("ROLLBACK")


def writable(path: Path) -> bool:
    """Whether a healthy database can be written (what `prep state check` reports), asked of
    SQLite itself with the same harmless probe the store uses."""
    try:
        db = sqlite3.connect(_uri(path, "mode=rw"), uri=True, timeout=1, isolation_level=None)
    except sqlite3.DatabaseError as exc:
        if is_not_writable(exc):
            return False
        raise
    try:
        probe_write(db)
    except sqlite3.DatabaseError as exc:
        return not is_not_writable(exc)  # busy: writable, just not this second
    finally:
        db.close()
    return True
