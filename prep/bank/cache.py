"""A cache of parsed, validated bank files, so unchanged YAML is never parsed twice.

One SQLite file per bank directory, in the user cache dir. A file's entry is trusted while its
size and mtime are unchanged (or, when only the mtime moved, its SHA-256 is); then neither
libyaml nor pydantic runs for it. It also keeps a small index (id, category, kind, tags,
prompt) so `prep next` can answer from SQL without building the bank at all. A cache that
cannot be read is deleted and rebuilt: it only ever holds what the YAML already says.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from prep import __version__
from prep.paths import BankLocation, cache_dir

# Bump when what is stored changes shape; a mismatch empties the cache.
CACHE_FORMAT = f"7/{__version__}"
_TAG_SEPARATOR = "\x1f"  # a control character no tag uses; cheaper than JSON per row


class IndexRow(NamedTuple):  # a tuple, straight from SQLite: 10,000 are built on every `prep next`
    id: str
    category: str
    kind: str
    tags_text: str  # tags joined by _TAG_SEPARATOR; split only when a tag filter asks
    prompt: str
    content_hash: str = ""  # of prompt + key points: stats flags cards reviewed under other wording
    category_title: str = ""
    target_seconds: int = 60  # how long an answer should take: the interview plan's time per card

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.tags_text.split(_TAG_SEPARATOR)) if self.tags_text else ()

    @classmethod
    def of(cls, question, category: str, title: str) -> IndexRow:  # type: ignore[no-untyped-def]
        from prep.bank.schema import content_hash  # pydantic: only once a bank is loaded anyway

        return cls(
            question.id,
            category,
            question.kind,
            _TAG_SEPARATOR.join(question.tags),
            question.prompt,
            content_hash(question),
            title,
            question.target_seconds,
        )


def file_signature(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


class BankCache:
    def __init__(self, location: BankLocation, directory: Path | None = None) -> None:
        root = str(location.root.resolve())
        name = hashlib.sha256(root.encode()).hexdigest()[:16]
        self.path = (directory or cache_dir()) / f"bank-{name}.sqlite3"
        self.db: sqlite3.Connection | None = None
        try:
            self._open()
        except (sqlite3.DatabaseError, OSError):
            self._reset()

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=5, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")  # a lost cache write is only re-parsing
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        row = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if row is None or row[0] != CACHE_FORMAT:  # another shape: start empty, tables and all
            self.db.executescript("DELETE FROM meta; DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS qindex")
            self.db.execute("INSERT INTO meta VALUES ('format', ?)", (CACHE_FORMAT,))
        self.db.executescript(
            """
            CREATE TABLE IF NOT EXISTS files (
                path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, sha256 TEXT, payload TEXT);
            CREATE TABLE IF NOT EXISTS qindex (
                id TEXT, file TEXT, ord INTEGER, category TEXT, kind TEXT, tags TEXT, prompt TEXT,
                content_hash TEXT, category_title TEXT, target_seconds INTEGER);
            CREATE INDEX IF NOT EXISTS qindex_file ON qindex(file, ord);
            """
        )

    def _reset(self) -> None:
        """Throw a damaged cache away and start empty (it holds nothing the YAML does not)."""
        if self.db is not None:
            self.db.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        try:
            self._open()
        except (sqlite3.DatabaseError, OSError):
            self.db = None  # no cache at all: everything is parsed, nothing breaks

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    # --- per-file entries ------------------------------------------------------------------

    def get(self, path: Path, read: Callable[[], bytes | None]) -> dict[str, Any] | None:
        """The cached payload of *path* if it is still what the file says, else None.

        *read* gives the file's bytes; it is called only when the size and mtime do not settle
        the question, so an unchanged bank is never read at all.
        """
        if self.db is None:
            return None
        signature = file_signature(path)
        try:
            row = self.db.execute(
                "SELECT size, mtime_ns, sha256, payload FROM files WHERE path = ?", (str(path),)
            ).fetchone()
            if row is None or signature is None:
                return None
            if (row[0], row[1]) == signature:
                return json.loads(row[3])
            raw = read() if row[0] == signature[0] else None
            if raw is not None and row[0] == len(raw) and row[2] == hashlib.sha256(raw).hexdigest():
                # Touched but unchanged (a checkout, an editor that saved without edits).
                self.db.execute("UPDATE files SET mtime_ns = ? WHERE path = ?", (signature[1], str(path)))
                return json.loads(row[3])
        except (sqlite3.DatabaseError, ValueError):
            self._reset()
        return None

    def put(self, path: Path, raw: bytes, payload: dict[str, Any], index: list[IndexRow]) -> None:
        if self.db is None:
            return
        signature = file_signature(path)
        if signature is None:
            return
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
                (str(path), *signature, hashlib.sha256(raw).hexdigest(), json.dumps(payload, default=str)),
            )
            self.db.execute("DELETE FROM qindex WHERE file = ?", (str(path),))
            self.db.executemany(
                "INSERT INTO qindex VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        r.id,
                        str(path),
                        i,
                        r.category,
                        r.kind,
                        r.tags_text,
                        r.prompt,
                        r.content_hash,
                        r.category_title,
                        r.target_seconds,
                    )
                    for i, r in enumerate(index)
                ],
            )
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError:
            self._reset()

    def forget_others(self, paths: list[Path]) -> None:
        """Drop entries of files that no longer exist in the bank."""
        if self.db is None:
            return
        keep = {str(p) for p in paths}
        try:
            stale = [r[0] for r in self.db.execute("SELECT path FROM files") if r[0] not in keep]
            for path in stale:
                self.db.execute("DELETE FROM files WHERE path = ?", (path,))
                self.db.execute("DELETE FROM qindex WHERE file = ?", (path,))
        except sqlite3.DatabaseError:
            self._reset()

    # --- the index, for commands that need no question bodies -------------------------------

    def mark_valid(self, paths: list[Path], valid: bool) -> None:
        """Remember whether the whole bank, as these files are now, passed every check."""
        if self.db is None:
            return
        try:
            if valid:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('valid', ?)", (_bank_signature(paths),))
            else:
                self.db.execute("DELETE FROM meta WHERE key = 'valid'")
        except sqlite3.DatabaseError:
            self._reset()

    def fresh_index(self, paths: list[Path]) -> list[IndexRow] | None:
        """The question index, if the bank is unchanged since it last validated cleanly."""
        return self._fresh(
            paths,
            lambda db: list(
                map(
                    IndexRow._make,
                    db.execute(
                        "SELECT id, category, kind, tags, prompt, content_hash, category_title,"
                        " target_seconds FROM qindex ORDER BY file, ord"
                    ),
                )
            ),
        )

    def fresh_matches(self, paths: list[Path], column: str, prefix: str) -> list[tuple[str, str]] | None:
        """What Tab completes, if the bank is unchanged since it last validated cleanly: (id,
        prompt) of the questions whose id starts with *prefix* (*column* "id"), or (category,
        title) of the categories that do ("category"), in bank order. SQLite picks them out of
        the index: a Tab builds no 10,000 rows to keep a hundred."""
        sql = _MATCHES[column]
        return self._fresh(paths, lambda db: db.execute(sql, (len(prefix), prefix)).fetchall())

    def _fresh(self, paths: list[Path], read: Callable[[sqlite3.Connection], Any]) -> Any:
        """What *read* gets from the index, if the bank is unchanged since it last validated
        cleanly; None otherwise."""
        if self.db is None:
            return None
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = 'valid'").fetchone()
            if row is None or row[0] != _bank_signature(paths):
                return None
            return read(self.db)
        except (sqlite3.DatabaseError, ValueError):
            self._reset()
            return None


_MATCHES = {
    "id": "SELECT id, prompt FROM qindex WHERE substr(id, 1, ?) = ? ORDER BY file, ord",
    "category": "SELECT category, category_title FROM qindex WHERE substr(category, 1, ?) = ?"
    " GROUP BY category ORDER BY MIN(file), MIN(ord)",
}


def _bank_signature(paths: list[Path]) -> str:
    parts = [f"{p}\0{file_signature(p)}" for p in sorted(paths)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def cache_enabled() -> bool:
    return os.environ.get("PREP_NO_CACHE", "") in ("", "0")
