"""Moving review history in and out of the state database: JSON Lines export, merging import,
pruning, and a health check that says how to restore.

The export is deterministic (sorted, no timestamps of its own), so export -> import into an
empty state -> export gives byte-identical files, and it diffs well in git.
"""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from prep.bank.load import dotted_path, validation_message
from prep.errors import InvalidInput, Problem, StateError, display_path
from prep.bank.schema import ID_PATTERN
from prep.review.scheduler import CardState, format_time, parse_time
from prep.state.sqlite import (
    UnreadableWal,
    foreign_tables,
    is_corruption,
    kept_copies,
    not_sqlite_error,
    open_read_only,
    quick_check,
    writable,
)
from prep.state.store import SCHEMA_VERSION, Store, _save_card

FORMAT = "prep-state"
FORMAT_VERSION = 1
REVIEW_FIELDS = ("question_id", "reviewed_at", "rating", "suggested", "score", "elapsed_seconds", "answer",
                 "mode", "content_hash", "verdict", "card_before")
PRACTICE_FIELDS = ("question_id", "practiced_at", "mode", "rating", "score", "verdict", "elapsed_seconds", "answer")


def export_lines(store: Store) -> Iterable[str]:
    yield json.dumps({"type": FORMAT, "version": FORMAT_VERSION}, sort_keys=True)
    hashes = store.content_hashes()
    for qid, card in sorted(store.cards().items()):
        yield json.dumps({"type": "card", **card.to_dict(), "content_hash": hashes.get(qid)}, sort_keys=True)
    for row in store.db.execute(
        f"SELECT {', '.join(REVIEW_FIELDS)} FROM reviews ORDER BY reviewed_at, question_id, id"
    ):
        yield json.dumps({"type": "review", **{k: row[k] for k in REVIEW_FIELDS}}, sort_keys=True)
    for row in store.db.execute(
        f"SELECT {', '.join(PRACTICE_FIELDS)} FROM practice ORDER BY practiced_at, question_id, id"
    ):
        yield json.dumps({"type": "practice", **{k: row[k] for k in PRACTICE_FIELDS}}, sort_keys=True)


@dataclass
class ImportReport:
    reviews_added: int = 0
    reviews_present: int = 0
    cards_added: int = 0
    cards_updated: int = 0
    cards_kept: int = 0
    practice_added: int = 0
    practice_present: int = 0

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


def import_lines(store: Store, path: Path) -> ImportReport:
    """Merge an export into the state: reviews by (question, time), cards by latest review.

    Idempotent: importing the same file twice changes nothing the second time. The whole file
    is checked before anything is written, and written in one transaction.
    """
    display = display_path(path)
    records: list[tuple[int, dict[str, Any]]] = []
    problems: list[Problem] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise StateError(f"cannot read {display}: {exc}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            problems.append(Problem(display, number, 1, f"not a JSON object: {exc}"))
            continue
        if not isinstance(record, dict):
            problems.append(Problem(display, number, 1, "not a JSON object"))
            continue
        records.append((number, record))
    if not records or records[0][1].get("type") != FORMAT:
        problems.insert(0, Problem(display, 1, 1, f"not a prep state export (the first line must have type {FORMAT!r})"))
    cards: list[tuple[CardState, str | None]] = []
    reviews: list[dict[str, Any]] = []
    practice: list[dict[str, Any]] = []
    for number, record in records[1:]:
        kind = record.pop("type", None)
        try:
            if kind == "card":
                card = _CardRecord.model_validate(record).model_dump()
                content = card.pop("content_hash")
                cards.append((CardState.from_dict(card), content))
            elif kind == "review":
                reviews.append(_ReviewRecord.model_validate(record).model_dump())
            elif kind == "practice":
                practice.append(_PracticeRecord.model_validate(record).model_dump())
            else:
                problems.append(Problem(display, number, 1, f"unknown record type {kind!r}"))
        except ValidationError as exc:
            model = {"card": _CardRecord, "review": _ReviewRecord}.get(kind, _PracticeRecord)
            problems.extend(Problem(display, number, 1, f"bad {kind}: {dotted_path(e['loc'])}: {validation_message(e, model)}")
                            for e in exc.errors(include_url=False))
    if problems:
        raise InvalidInput(problems)

    report = ImportReport()
    with store.transaction() as db:
        for review in reviews:
            exists = db.execute("SELECT 1 FROM reviews WHERE question_id = ? AND reviewed_at = ?",
                                (review["question_id"], review["reviewed_at"])).fetchone()
            if exists:
                report.reviews_present += 1
                continue
            db.execute(f"INSERT INTO reviews ({', '.join(REVIEW_FIELDS)}) VALUES ({', '.join('?' * len(REVIEW_FIELDS))})",
                       tuple(review[k] for k in REVIEW_FIELDS))
            report.reviews_added += 1
        for entry in practice:
            if db.execute("SELECT 1 FROM practice WHERE question_id = ? AND practiced_at = ?",
                          (entry["question_id"], entry["practiced_at"])).fetchone():
                report.practice_present += 1
                continue
            db.execute(f"INSERT INTO practice ({', '.join(PRACTICE_FIELDS)}) "
                       f"VALUES ({', '.join('?' * len(PRACTICE_FIELDS))})", tuple(entry[k] for k in PRACTICE_FIELDS))
            report.practice_added += 1
        for card, content in cards:
            row = db.execute("SELECT last_review FROM cards WHERE question_id = ?", (card.question_id,)).fetchone()
            if row is None:
                report.cards_added += 1
            elif row[0] is None or (card.last_review and card.last_review.isoformat() > _iso(row[0])):
                report.cards_updated += 1
            else:
                report.cards_kept += 1
                continue
            _save_card(db, card, content)
    return report


def _timestamp(value: Any) -> str:
    """A time as the database stores it (UTC, microseconds, trailing Z), so that times sort as
    text and a re-import finds what an earlier one added."""
    if not isinstance(value, str):
        raise ValueError("expected an ISO date-time string")  # noqa: TRY004 (pydantic reports ValueError)
    try:
        stored = format_time(parse_time(value))
        parse_time(stored)
    except (ValueError, OverflowError):
        raise ValueError(f"{value!r} is not an ISO date-time") from None
    return stored


def _card_before(value: Any) -> str | None:
    if value is None:
        return None
    try:
        CardState.from_dict(_CardRecord.model_validate(json.loads(value)).model_dump(exclude={"content_hash"}))
    except (TypeError, ValueError) as exc:
        raise ValueError("expected the JSON of a card") from exc
    return str(value)


Timestamp = Annotated[str, BeforeValidator(_timestamp)]


class _ReviewRecord(BaseModel):
    """One line of type "review": the fields a review row has, with the values it may hold."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question_id: str = Field(pattern=ID_PATTERN)
    reviewed_at: Timestamp
    rating: int = Field(ge=1, le=4)
    suggested: int | None = Field(default=None, ge=1, le=4)
    score: int | None = Field(default=None, ge=0, le=100)
    elapsed_seconds: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    answer: str | None = None
    mode: Literal["type", "flip", "mock"] | None = None
    content_hash: str | None = None
    verdict: Literal["pass", "partial", "fail"] | None = None
    card_before: Annotated[str | None, BeforeValidator(_card_before)] = None


class _PracticeRecord(BaseModel):
    """One line of type "practice": an answer from a cram or an unrecorded mock interview."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question_id: str = Field(pattern=ID_PATTERN)
    practiced_at: Timestamp
    mode: Literal["cram", "mock", "drill"]  # drill: typed, then skipped or quit before a rating
    rating: int | None = Field(default=None, ge=1, le=4)
    score: int | None = Field(default=None, ge=0, le=100)
    verdict: Literal["pass", "partial", "fail"] | None = None
    elapsed_seconds: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    answer: str | None = None


class _CardRecord(BaseModel):
    """One line of type "card": the scheduler's state of one question."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question_id: str = Field(pattern=ID_PATTERN)
    due: Timestamp
    state: int = Field(ge=1, le=3)
    step: int | None = Field(default=0, ge=0)
    stability: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    difficulty: float | None = Field(default=None, ge=1, le=10, allow_inf_nan=False)  # FSRS keeps it in [1, 10]
    last_review: Timestamp | None = None
    reps: int = Field(default=0, ge=0)
    lapses: int = Field(default=0, ge=0)
    content_hash: str | None = None


def _iso(stored: str) -> str:
    from prep.review.scheduler import parse_time

    return parse_time(stored).isoformat()


def prune(store: Store, keep: set[str]) -> dict[str, int]:
    """Delete the history of question ids that are no longer in the bank."""
    with store.transaction() as db:
        gone = sorted(store.history_ids() - keep)
        reviews = cards = practice = 0
        for qid in gone:
            reviews += db.execute("DELETE FROM reviews WHERE question_id = ?", (qid,)).rowcount
            cards += db.execute("DELETE FROM cards WHERE question_id = ?", (qid,)).rowcount
            practice += db.execute("DELETE FROM practice WHERE question_id = ?", (qid,)).rowcount
    return {"questions": len(gone), "reviews": reviews, "cards": cards, "practice": practice}


def orphans(store: Store, keep: set[str]) -> list[str]:
    return sorted(store.history_ids() - keep)


@dataclass
class Health:
    """What `prep state check` found. *status*: "missing", "ok", "read-only" (healthy, but it
    cannot be written), "damaged" or "unusable" (cannot be opened, for another reason)."""

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
    moved_next: bool = False  # damaged in a way that makes the next prep command move it aside
    note: str | None = None  # what happens next
    restore: list[tuple[str, str]] = field(default_factory=list)  # (what it does, shell command)

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "exists": self.exists, "ok": self.ok, "status": self.status,
                "read_only": self.status == "read-only", "detail": self.detail,
                "moved_aside_next": self.moved_next, "note": self.note,
                "schema": self.schema, "reviews": self.reviews, "cards": self.cards,
                "backups": [str(p) for p in self.backups], "damaged_copies": [str(p) for p in self.damaged],
                "restore": [{"step": step, "command": command} for step, command in self.restore]}


def check(path: Path) -> Health:
    """Look at the database without changing it: SQLite's quick check (what prep runs when it
    opens the file) and full integrity check, whether it can be written, the kept copies, and
    the restore steps that apply."""
    health = Health(path, path.exists(), True, "missing", "no state database yet (it is created by the first rating)",
                    backups=kept_copies(path, "backup"), damaged=kept_copies(path, "damaged"))
    if health.exists:
        _inspect(health)
    elif health.damaged:
        health.detail = "no state database now: the last one was found damaged and moved aside; prep starts a fresh one"
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
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "schema_migrations" in tables:
            health.schema = int(db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0] or 0)
        if {"reviews", "cards"} <= tables:
            health.reviews = db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
            health.cards = db.execute("SELECT COUNT(*) FROM cards").fetchone()[0]
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
        health.detail = f"not a prep state database: another program's ({', '.join(foreign[:5])}); prep leaves it as it is"
        return
    current = health.schema == SCHEMA_VERSION
    if writable(path):
        health.status, health.detail = "ok", "ok"
        if not current:
            health.detail = (f"ok (schema {health.schema}; it is upgraded to {SCHEMA_VERSION} on the next run, after a backup)"
                             if health.schema else "ok (empty; prep sets it up on the next run)")
    elif current:
        health.status, health.detail = "read-only", ("ok, but read-only: prep can read it (stats, history, next, " \
                                                    "state export) but cannot record reviews in it")
    else:
        health.ok, health.status = False, "read-only"
        health.detail = (f"read-only, and at schema {health.schema or 0}: prep must upgrade it to {SCHEMA_VERSION} "
                         "before using it, which needs write access")


def _damaged(health: Health, detail: str) -> None:
    """Damaged the way prep's own open detects: the next command moves it aside, if it can."""
    health.ok, health.status, health.detail = False, "damaged", f"damaged: {detail}"
    if os.access(health.path.parent, os.W_OK):
        health.moved_next = True
        health.note = (f"the next prep command that opens it (e.g. `{_prep(health.path)} next`) moves it aside to "
                       f"{health.path.name}.damaged-<time>, with its WAL files, and the one after that starts a "
                       "fresh database; the steps below apply then")
    else:
        health.note = ("its directory is read-only, so prep cannot move it aside: copy it (with any -wal file) "
                       "somewhere writable and run `prep --state COPY state check` there")


def _failed(health: Health, exc: sqlite3.DatabaseError) -> None:
    if is_corruption(exc):
        _damaged(health, str(exc))
    else:  # permissions, a lock held too long...: the file itself may well be fine
        health.ok, health.status, health.detail = False, "unusable", f"cannot be opened: {exc}"


def _restore_steps(health: Health) -> list[tuple[str, str]]:
    """Only steps that exist: a backup to copy back if there is one, a damaged copy to salvage if
    there is one, an export to merge once the database can take it."""
    in_place = health.status == "damaged"
    if not (in_place or health.damaged or (health.status == "missing" and health.backups)):
        return []
    path = health.path
    if in_place and not health.moved_next:
        if not os.access(path.parent, os.W_OK):
            return []  # the note says what to do first
        # Only the full integrity check fails: usually an index is inconsistent with its table.
        return [("rebuild its indexes (with no prep running), then check again",
                 f"sqlite3 {_q(path)} 'REINDEX' && {_prep(path)} state check")]
    steps: list[tuple[str, str]] = []
    if health.backups:
        what = "copy the newest backup back (reviews made after it are not in it)"
        if health.status not in ("missing", "damaged"):
            what += ", replacing the current database; with no prep running"
        steps.append((what, f"cp {_q(health.backups[0])} {_q(path)}"))
    damaged = f"{path}.damaged-<time>" if in_place else health.damaged[0] if health.damaged else None
    if damaged:
        recovered = f"{path}.recovered"
        steps.append((("salvage what the damaged copy still holds, with the sqlite3 shell "
                      "(if its .recover fails, .dump in its place salvages less, but works in every build)"),
                      f"sqlite3 {_q(damaged)} .recover | sqlite3 {_q(recovered)}"))
        steps.append(("then merge what was salvaged into your history",
                      (f"prep --state {_q(recovered)} state export {_q(recovered + '.jsonl')} && "
                      f"{_prep(path)} state import {_q(recovered + '.jsonl')}")))
    steps.append(("merge an export written earlier by `prep state export` (repeating it is harmless)",
                  f"{_prep(path)} state import FILE.jsonl"))
    return steps


def _q(path: Path | str) -> str:
    return shlex.quote(str(path))


def _prep(path: Path) -> str:
    """`prep`, with --state unless *path* is where prep looks anyway."""
    from prep.paths import state_path

    return "prep" if path.absolute() == state_path().absolute() else f"prep --state {_q(path)}"
