"""`prep state check`: how the state database is, without changing it, and how to restore it.

Opens the file read-only and asks SQLite (quick and full integrity checks, whether it can be
written); lists the kept copies; says only restore steps that apply.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prep.paths import state_path
from prep.state.copies import kept_copies
from prep.state.migrations import SCHEMA_VERSION
from prep.state.replay import Mismatch, mismatches
from prep.state.sqlite import (
    Connection,
    UnreadableWal,
    foreign_tables,
    is_corruption,
    not_sqlite_error,
    open_read_only,
    quick_check,
    writable,
)


@dataclass
class Health:
    """What `prep state check` found. *status*: "missing", "ok", "read-only" (healthy, but it
    cannot be written), "inconsistent" (a card's schedule is not the replay of its reviews),
    "damaged" or "unusable" (cannot be opened, for another reason)."""

    path: Path
    exists: bool
    ok: bool
    status: str
    detail: str
    schema: int | None = None
    reviews: int | None = None
    cards: int | None = None
    backups: list[Path] = field(default_factory=list)
    damaged: list[Path] = field(default_factory=list)
    mismatched: list[Mismatch] = field(default_factory=list)  # schedules that are not their replay
    moved_next: bool = False  # damaged in a way that makes the next prep command move it aside
    note: str | None = None  # what happens next
    restore: list[tuple[str, str]] = field(default_factory=list)  # (what it does, shell command)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "exists": self.exists,
            "ok": self.ok,
            "status": self.status,
            "read_only": self.status == "read-only",
            "detail": self.detail,
            "moved_aside_next": self.moved_next,
            "note": self.note,
            "schema": self.schema,
            "reviews": self.reviews,
            "cards": self.cards,
            "mismatched": [
                {"bank": m.bank, "question": m.question_id, "problem": str(m)} for m in self.mismatched
            ],
            "backups": [str(p) for p in self.backups],
            "damaged_copies": [str(p) for p in self.damaged],
            "restore": [{"step": step, "command": command} for step, command in self.restore],
        }


def check(path: Path) -> Health:
    """Look at the database without changing it: SQLite's quick check (what prep runs when it
    opens the file) and full integrity check, whether it can be written, the kept copies, and
    the restore steps that apply."""
    health = Health(
        path,
        path.exists(),
        True,
        "missing",
        "no state database yet (it is created by the first rating)",
        backups=kept_copies(path, "backup"),
        damaged=kept_copies(path, "damaged"),
    )
    if health.exists:
        _inspect(health)
    elif health.damaged:
        health.detail = (
            "no state database now: the last one was found damaged and moved aside; prep starts a fresh one"
        )
    health.restore = _restore_steps(health)
    return health


def _inspect(health: Health) -> None:
    path = health.path
    if not_sqlite_error(path) is not None:
        health.ok, health.status = False, "not prep's"
        health.detail = "not an SQLite database, so not a prep state file; prep leaves it as it is"
        return
    try:
        db = open_read_only(path)
    except UnreadableWal as exc:
        health.ok, health.status, health.detail = False, "unusable", f"cannot be read: {exc}"
        return
    except sqlite3.DatabaseError as exc:
        _failed(health, exc)
        return
    try:
        quick = quick_check(db)
        full = " ".join(str(db.execute("PRAGMA integrity_check").fetchone()[0]).split())  # one line
        foreign = foreign_tables(db)
        _count(health, db)
    except sqlite3.DatabaseError as exc:
        _failed(health, exc)
        return
    finally:
        db.close()
    if quick is not None:
        _damaged(health, f"quick check: {quick}")
        return
    if full != "ok":
        health.ok, health.status, health.detail = False, "damaged", f"damaged: integrity check failed: {full}"
        health.note = "prep still opens it (its quick check passes): usually only an index is inconsistent"
        return
    if foreign:
        health.ok, health.status = False, "not prep's"
        health.detail = (
            f"not a prep state database: another program's ({', '.join(foreign[:5])}); "
            "prep leaves it as it is"
        )
        return
    current = health.schema == SCHEMA_VERSION
    if health.mismatched:
        _inconsistent(health)
        return
    if writable(path):
        health.status, health.detail = "ok", "ok"
        if not current:
            health.detail = (
                f"ok (schema {health.schema}; it is upgraded to {SCHEMA_VERSION} on the next run, after a "
                "backup)"
                if health.schema
                else "ok (empty; prep sets it up on the next run)"
            )
    elif current:
        health.status, health.detail = (
            "read-only",
            (
                "ok, but read-only: prep can read it (stats, history, next, "
                "state export) but cannot record reviews in it"
            ),
        )
    else:
        health.ok, health.status = False, "read-only"
        health.detail = (
            f"read-only, and at schema {health.schema or 0}: prep must upgrade it to {SCHEMA_VERSION} "
            "before using it, which needs write access"
        )


def _count(health: Health, db: Connection) -> None:
    """The schema, reviews and cards, and the cards whose schedule is not their reviews' replay."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_migrations" in tables:
        health.schema = int(db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0] or 0)
    if {"reviews", "cards"} <= tables:
        health.reviews = db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
        health.cards = db.execute("SELECT COUNT(*) FROM cards").fetchone()[0]
        if (health.schema or 0) >= 4:  # banks are recorded from schema 4 on
            health.mismatched = mismatches(db)


def _inconsistent(health: Health) -> None:
    """Some card's schedule is not the replay of its reviews: say which, and that nothing is lost."""
    count = len(health.mismatched)
    health.ok, health.status = False, "inconsistent"
    health.detail = (
        f"{count} card{'s' if count != 1 else ''}' schedule{'s' if count != 1 else ''} not the replay of"
        f" {'their' if count != 1 else 'its'} reviews: "
        + "; ".join(str(m) for m in health.mismatched[:5])
        + ("; ..." if count > 5 else "")
    )
    health.note = "nothing is lost: replaying the reviews rebuilds each schedule"


def _damaged(health: Health, detail: str) -> None:
    """Damaged the way prep's own open detects: the next command moves it aside, if it can."""
    health.ok, health.status, health.detail = False, "damaged", f"damaged: {detail}"
    if os.access(health.path.parent, os.W_OK):
        health.moved_next = True
        health.note = (
            f"the next prep command that opens it (e.g. `{_prep(health.path)} next`) moves it aside to "
            f"{health.path.name}.damaged-<time>, with its WAL files, and the one after that starts a "
            "fresh database; the steps below apply then"
        )
    else:
        health.note = (
            "its directory is read-only, so prep cannot move it aside: copy it (with any -wal file) "
            "somewhere writable and run `prep --state COPY state check` there"
        )


def _failed(health: Health, exc: sqlite3.DatabaseError) -> None:
    if is_corruption(exc):
        _damaged(health, str(exc))
    else:  # permissions, a lock held too long...: the file itself may well be fine
        health.ok, health.status, health.detail = False, "unusable", f"cannot be opened: {exc}"


def _restore_steps(health: Health) -> list[tuple[str, str]]:
    """Only steps that exist: a backup to copy back if there is one, a damaged copy to salvage if
    there is one, an export to merge once the database can take it."""
    if health.status == "inconsistent":
        return [
            (
                "make each of those schedules the replay of its reviews",
                f"{_prep(health.path)} state rebuild",
            )
        ]
    in_place = health.status == "damaged"
    if not (in_place or health.damaged or (health.status == "missing" and health.backups)):
        return []
    path = health.path
    if in_place and not health.moved_next:
        if not os.access(path.parent, os.W_OK):
            return []  # the note says what to do first
        # Only the full integrity check fails: usually an index is inconsistent with its table.
        return [
            (
                "rebuild its indexes (with no prep running), then check again",
                f"sqlite3 {_q(path)} 'REINDEX' && {_prep(path)} state check",
            )
        ]
    steps: list[tuple[str, str]] = []
    if health.backups:
        what = "copy the newest backup back (reviews made after it are not in it)"
        if health.status not in ("missing", "damaged"):
            what += ", replacing the current database; with no prep running"
        steps.append((what, f"cp {_q(health.backups[0])} {_q(path)}"))
    damaged = f"{path}.damaged-<time>" if in_place else health.damaged[0] if health.damaged else None
    if damaged:
        recovered = f"{path}.recovered"
        steps.append(
            (
                (
                    "salvage what the damaged copy still holds, with the sqlite3 shell "
                    "(if its .recover fails, .dump in its place salvages less, but works in every build)"
                ),
                f"sqlite3 {_q(damaged)} .recover | sqlite3 {_q(recovered)}",
            )
        )
        steps.append(
            (
                "then merge what was salvaged into your history",
                (
                    f"prep --state {_q(recovered)} state export {_q(recovered + '.jsonl')} && "
                    f"{_prep(path)} state import {_q(recovered + '.jsonl')}"
                ),
            )
        )
    steps.append(
        (
            "merge an export written earlier by `prep state export` (repeating it is harmless)",
            f"{_prep(path)} state import FILE.jsonl",
        )
    )
    return steps


def _q(path: Path | str) -> str:
    return shlex.quote(str(path))


def _prep(path: Path) -> str:
    """`prep`, with --state unless *path* is where prep looks anyway."""
    return "prep" if path.absolute() == state_path().absolute() else f"prep --state {_q(path)}"
