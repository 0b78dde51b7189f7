"""Moving review history in and out of the state database: JSON Lines export, merging import,
pruning, and a health check that says how to restore.

The export is deterministic (sorted, no timestamps of its own), so export -> import into an
empty state -> export gives byte-identical files, and it diffs well in git.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InvalidInput, Problem, StateError, display_path
from .scheduler import CardState
from .store import SCHEMA_VERSION, Store, _save_card, backups

FORMAT = "prep-state"
FORMAT_VERSION = 1
REVIEW_FIELDS = ("question_id", "reviewed_at", "rating", "suggested", "score", "elapsed_seconds", "answer",
                 "mode", "content_hash", "verdict", "card_before")


def export_lines(store: Store) -> Iterable[str]:
    yield json.dumps({"type": FORMAT, "version": FORMAT_VERSION}, sort_keys=True)
    hashes = store.content_hashes()
    for qid, card in sorted(store.cards().items()):
        yield json.dumps({"type": "card", **card.to_dict(), "content_hash": hashes.get(qid)}, sort_keys=True)
    for row in store.db.execute(
        f"SELECT {', '.join(REVIEW_FIELDS)} FROM reviews ORDER BY reviewed_at, question_id, id"
    ):
        yield json.dumps({"type": "review", **{k: row[k] for k in REVIEW_FIELDS}}, sort_keys=True)


@dataclass
class ImportReport:
    reviews_added: int = 0
    reviews_present: int = 0
    cards_added: int = 0
    cards_updated: int = 0
    cards_kept: int = 0

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
            if not isinstance(record, dict):
                raise ValueError("not an object")
        except ValueError as exc:
            problems.append(Problem(display, number, 1, f"not a JSON object: {exc}"))
            continue
        records.append((number, record))
    if not records or records[0][1].get("type") != FORMAT:
        problems.insert(0, Problem(display, 1, 1, f"not a prep state export (the first line must have type {FORMAT!r})"))
    cards: list[tuple[CardState, str | None]] = []
    reviews: list[dict[str, Any]] = []
    for number, record in records[1:]:
        kind = record.pop("type", None)
        try:
            if kind == "card":
                content = record.pop("content_hash", None)
                cards.append((CardState.from_dict(record), content))
            elif kind == "review":
                if set(record) - set(REVIEW_FIELDS) or not {"question_id", "reviewed_at", "rating"} <= set(record):
                    raise ValueError(f"expected the fields {', '.join(REVIEW_FIELDS)}")
                reviews.append({k: record.get(k) for k in REVIEW_FIELDS})
            else:
                raise ValueError(f"unknown record type {kind!r}")
        except (TypeError, ValueError, KeyError) as exc:
            problems.append(Problem(display, number, 1, f"bad {kind or 'record'}: {exc}"))
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


def _iso(stored: str) -> str:
    from .scheduler import parse_time

    return parse_time(stored).isoformat()


def prune(store: Store, keep: set[str]) -> dict[str, int]:
    """Delete the history of question ids that are no longer in the bank."""
    with store.transaction() as db:
        gone = [r[0] for r in db.execute("SELECT DISTINCT question_id FROM reviews UNION SELECT question_id FROM cards")
                if r[0] not in keep]
        reviews = cards = 0
        for qid in gone:
            reviews += db.execute("DELETE FROM reviews WHERE question_id = ?", (qid,)).rowcount
            cards += db.execute("DELETE FROM cards WHERE question_id = ?", (qid,)).rowcount
    return {"questions": len(gone), "reviews": reviews, "cards": cards}


def orphans(store: Store, keep: set[str]) -> list[str]:
    return sorted(r[0] for r in store.db.execute("SELECT DISTINCT question_id FROM reviews UNION "
                                                  "SELECT question_id FROM cards") if r[0] not in keep)


@dataclass
class Health:
    path: Path
    exists: bool
    ok: bool
    detail: str
    schema: int | None = None
    reviews: int | None = None
    cards: int | None = None
    backups: list[Path] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "exists": self.exists, "ok": self.ok, "detail": self.detail,
                "schema": self.schema, "reviews": self.reviews, "cards": self.cards,
                "backups": [str(p) for p in self.backups]}


def check(path: Path) -> Health:
    """Open the database read-only and run SQLite's integrity check; list kept backups."""
    kept = backups(path) if path.parent.exists() else []
    if not path.exists():
        return Health(path, False, True, "no state database yet (it is created by the first rating)", backups=kept)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = db.execute("PRAGMA integrity_check").fetchone()[0]
            schema = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0]
            reviews = db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
            cards = db.execute("SELECT COUNT(*) FROM cards").fetchone()[0]
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return Health(path, True, False, f"damaged: {exc}", backups=kept)
    ok = result == "ok"
    detail = "ok" if ok else f"integrity check failed: {result}"
    if ok and schema is not None and schema < SCHEMA_VERSION:
        detail = f"ok (schema {schema}; it is upgraded to {SCHEMA_VERSION} on the next run, after a backup)"
    return Health(path, True, ok, detail, schema, reviews, cards, kept)
