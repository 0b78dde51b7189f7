"""The copies kept next to the state database: backups made before a migration, and damaged
files moved aside. Each is named ``NAME.LABEL-YYYYmmdd-HHMMSS[-N]`` and never overwritten."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime
from pathlib import Path

SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's files next to a database, named after it
_STAMP = re.compile(r"(\d{8}-\d{6})(?:-(\d+))?$")


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def _free_name(path: Path, label: str) -> Path:
    """``NAME.LABEL-STAMP``, with -2, -3... if that name (or its WAL files) is taken."""
    base = f"{path.name}.{label}-{_stamp()}"
    candidate, n = path.with_name(base), 1
    while any(Path(f"{candidate}{s}").exists() for s in ("", *SIDE_FILES)):
        n += 1
        candidate = path.with_name(f"{base}-{n}")
    return candidate


def quarantine(path: Path) -> Path:
    """Move a damaged database and its WAL files aside (never over an earlier copy); the caller
    has closed every connection to it. Raises OSError if the directory cannot be written."""
    target = _free_name(path, "damaged")
    for suffix in ("", *SIDE_FILES):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(Path(f"{target}{suffix}"))
    return target


def backup(db: sqlite3.Connection, path: Path, label: str) -> Path:
    """A consistent copy of the open database next to it (SQLite's online backup API)."""
    target = _free_name(path, f"backup-{label}")
    copy = sqlite3.connect(target)
    try:
        db.backup(copy)
    finally:
        copy.close()
    return target


def kept_copies(path: Path, kind: str) -> list[Path]:
    """The copies of one *kind* ("backup" or "damaged") next to the database, newest first;
    their -wal/-shm files are not copies of their own."""
    if not path.parent.is_dir():
        return []
    found = [
        p
        for p in path.parent.glob(f"{path.name}.{kind}-*")
        if not p.name.endswith(SIDE_FILES) and p.is_file()
    ]

    def newest(p: Path) -> tuple[str, int, float]:
        match = _STAMP.search(p.name)
        return (
            (match.group(1), int(match.group(2) or 1), p.stat().st_mtime)
            if match
            else ("", 0, p.stat().st_mtime)
        )

    return sorted(found, key=newest, reverse=True)
