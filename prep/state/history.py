"""A bank's review history as a whole: which questions it covers, renaming a question, carrying
it over to a copy of the bank, the JSON Lines export and the import that merges one, and pruning
the history of questions gone from the bank. Functions over a ``Store`` (its connection and its
bank's key); what a line of an export may hold is checked in ``records``.

The export is deterministic (sorted, no timestamps of its own), so export -> import into an
empty state -> export gives byte-identical files, and it diffs well in git.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prep.errors import StateError
from prep.state.cards import CardState
from prep.state.merge import ImportReport, merge
from prep.state.records import FORMAT, FORMAT_VERSION, parse_export
from prep.state.replay import Mismatch, Replay, mismatches, rebuild
from prep.state.rows import scope
from prep.state.sqlite import Connection

if TYPE_CHECKING:
    from prep.state.store import Store


# The columns of each kind of event that move with an export (not the row id): an event's own
# fields, and the bank it belongs to and (a review) the card before it, which the state derives.
REVIEW_FIELDS = (
    "event", "question_id", "reviewed_at", "rating", "suggested", "score", "elapsed_seconds", "answer",
    "mode", "content_hash", "verdict", "ticked", "decided_by", "card_before", "bank",
)  # fmt: skip
PRACTICE_FIELDS = (
    "event", "question_id", "practiced_at", "mode", "rating", "score", "verdict", "elapsed_seconds", "answer",
    "decided_by", "bank",
)  # fmt: skip
TEACHING_FIELDS = ("event", "question_id", "point", "phrasing", "taught_at", "via", "bank")
UNDO_FIELDS = ("event", "undoes", "question_id", "undone_at", "bank")
DERIVED_FIELDS = ("card_before", "bank")  # what a device file leaves out: not part of the event
# Each table of history that moves row by row: (table, record type, time column, fields).
_ROW_TABLES = (
    ("reviews", "review", "reviewed_at", REVIEW_FIELDS),
    ("practice", "practice", "practiced_at", PRACTICE_FIELDS),
    ("teachings", "teaching", "taught_at", TEACHING_FIELDS),
    ("undos", "undo", "undone_at", UNDO_FIELDS),
)
_CARD_COLUMNS = (
    "question_id, due, state, step, stability, difficulty, last_review, reps, lapses, content_hash"
)


def history_ids(store: Store, *, unassigned: bool = False) -> set[str]:
    """The question ids this bank's history has a card, a review, a practice answer or a teaching for;
    with *unassigned*, also those only history from before banks were recorded has."""
    where, args = scope(store.bank_key, unassigned=unassigned)
    return {
        r[0]
        for r in store.db.execute(
            f"SELECT question_id FROM cards WHERE {where} UNION SELECT question_id FROM reviews"
            f" WHERE {where}"
            f" UNION SELECT question_id FROM practice WHERE {where}"
            f" UNION SELECT question_id FROM teachings WHERE {where}",
            args * 4,
        )
    }


def has_history(store: Store, question_id: str) -> bool:
    """Whether this bank sees any history for the id (its own or unassigned)."""
    where, args = scope(store.bank_key)
    row = store.db.execute(
        f"SELECT 1 FROM cards WHERE {where} AND question_id = ? UNION SELECT 1 FROM reviews WHERE {where}"
        f" AND question_id = ? UNION SELECT 1 FROM practice WHERE {where} AND question_id = ? LIMIT 1",
        (*args, question_id) * 3,
    ).fetchone()
    return row is not None


@contextmanager
def renaming(store: Store, old: str, new: str) -> Iterator[tuple[int, int]]:
    """Move a question's history to a new id; commits only if the caller's block succeeds
    (so the bank files and the database change together). Unassigned history is copied to
    the new id as this bank's, and stays where other banks see it. Yields the reviews and
    the practice answers moved."""
    with store.transaction() as db:
        if has_history(store, new):
            raise StateError(f"the state database already has history for {new!r}")
        _copy_unassigned(store, db, old)
        db.execute(
            "UPDATE cards SET question_id = ? WHERE bank = ? AND question_id = ?",
            (new, store.bank_key, old),
        )
        practice = db.execute(
            "UPDATE practice SET question_id = ? WHERE bank = ? AND question_id = ?",
            (new, store.bank_key, old),
        ).rowcount
        reviews = db.execute(
            "UPDATE reviews SET question_id = ? WHERE bank = ? AND question_id = ?",
            (new, store.bank_key, old),
        ).rowcount
        db.execute(
            "UPDATE teachings SET question_id = ? WHERE bank = ? AND question_id = ?",
            (new, store.bank_key, old),
        )
        yield reviews, practice


def _copy_unassigned(store: Store, db: Connection, question_id: str) -> None:
    """Make this bank's own copy of a question's unassigned history (not already its own)."""
    if not store.bank_key:
        return
    fields = [f for f in REVIEW_FIELDS if f != "bank"]
    db.execute(
        f"INSERT INTO reviews (bank, {', '.join(fields)}) SELECT ?, {', '.join(fields)} FROM reviews"
        " WHERE bank = '' AND question_id = ?",
        (store.bank_key, question_id),
    )
    fields = [f for f in PRACTICE_FIELDS if f != "bank"]
    db.execute(
        f"INSERT INTO practice (bank, {', '.join(fields)}) SELECT ?, {', '.join(fields)} FROM practice"
        " WHERE bank = '' AND question_id = ?",
        (store.bank_key, question_id),
    )
    db.execute(
        f"INSERT OR IGNORE INTO cards (bank, {_CARD_COLUMNS}) SELECT ?, {_CARD_COLUMNS} FROM cards"
        " WHERE bank = '' AND question_id = ?",
        (store.bank_key, question_id),
    )


def carry_over(store: Store, source: str) -> int:
    """Copy another bank's history into this one (a bank copied with `prep init` starts with
    the progress made on the one it was copied from). Returns the reviews copied."""
    with store.transaction() as db:
        for table, _, _, fields in _ROW_TABLES:
            own = [f for f in fields if f != "bank"]
            copied = db.execute(
                f"INSERT INTO {table} (bank, {', '.join(own)}) SELECT ?, {', '.join(own)} FROM {table}"
                " WHERE bank = ?",
                (store.bank_key, source),
            ).rowcount
            if table == "reviews":
                reviews = copied
        db.execute(
            f"INSERT OR IGNORE INTO cards (bank, {_CARD_COLUMNS}) SELECT ?, {_CARD_COLUMNS} FROM cards"
            " WHERE bank = ?",
            (store.bank_key, source),
        )
    return reviews


def export_rows(store: Store, *, all_banks: bool = False) -> Iterator[tuple[str, dict[str, Any]]]:
    """("card" | "review" | "practice" | "teaching" | "undo", fields) of this bank's history (its
    own rows and the unassigned ones; every bank's with *all_banks*) in a fixed order, so that
    the same history always exports the same way. A row of this bank names no bank (its path
    is this device's), but with *all_banks*."""
    where, args = scope(None if all_banks else store.bank_key)
    own = None if all_banks else store.bank_key

    def located(record: dict[str, Any]) -> dict[str, Any]:
        if own is not None and record["bank"] == own:
            del record["bank"]
        return record

    for row in store.db.execute(
        f"SELECT bank, {_CARD_COLUMNS} FROM cards WHERE {where} ORDER BY question_id, bank", args
    ):
        record = dict(row)
        content = record.pop("content_hash")
        bank = record.pop("bank")
        yield (
            "card",
            located({**CardState.from_dict(record).to_dict(), "content_hash": content, "bank": bank}),
        )
    for table, kind, stamp, fields in _ROW_TABLES:
        for row in store.db.execute(
            f"SELECT {', '.join(fields)} FROM {table} WHERE {where}"
            f" ORDER BY {stamp}, question_id, event, bank",
            args,
        ):
            yield kind, located({k: row[k] for k in fields})


def export_lines(store: Store, *, all_banks: bool = False) -> Iterable[str]:
    yield json.dumps({"type": FORMAT, "version": FORMAT_VERSION}, sort_keys=True)
    for kind, fields in export_rows(store, all_banks=all_banks):
        yield json.dumps({"type": kind, **fields}, sort_keys=True)


def import_lines(store: Store, path: Path, replay: Replay, *, keep_banks: bool = False) -> ImportReport:
    """Merge an export (or a device file of a shared history: the same format) into the state,
    as taking in a device file does (``merge``): events by id, or by question and time;
    undos; the cards of the questions whose reviews changed replayed with *replay*.

    The history becomes this bank's (a bank exported on one machine is at another path on the
    next), but for unassigned rows; with *keep_banks* every row keeps the bank it names (a
    backup of every bank, made with `state export --all-banks`). Idempotent: importing the same
    file twice changes nothing the second time. The whole file is checked before anything is
    written, and written in one transaction.
    """
    return merge(store, parse_export(path), replay, keep_banks=keep_banks)


def rebuild_mismatched(store: Store, replay: Replay) -> list[Mismatch]:
    """Replay every card (of every bank) whose schedule is not the replay of its reviews, as
    `prep state check` finds them, in one transaction; those it found."""
    with store.transaction() as db:
        found = mismatches(db)
        for mismatch in found:
            rebuild(db, mismatch.bank, mismatch.question_id, replay)
    return found


def prune(store: Store, keep: set[str], *, unassigned: bool = False) -> dict[str, int]:
    """Delete this bank's history of every question id not in *keep*; with *unassigned*, also
    history from before banks were recorded of ids not in *keep*."""
    where, args = scope(store.bank_key, unassigned=unassigned)
    with store.transaction() as db:
        gone = sorted(history_ids(store, unassigned=unassigned) - keep)
        counts = {"reviews": 0, "cards": 0, "practice": 0, "teachings": 0}
        for qid in gone:
            for table in counts:
                counts[table] += db.execute(
                    f"DELETE FROM {table} WHERE {where} AND question_id = ?", (*args, qid)
                ).rowcount
    return {"questions": len(gone), **counts}


def orphans(store: Store, keep: set[str], *, unassigned: bool = False) -> list[str]:
    return sorted(history_ids(store, unassigned=unassigned) - keep)
