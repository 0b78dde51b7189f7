"""Merging events into the state: what `prep state import` does with an export and what taking
in a device file of a shared history does with its new lines (one code for both).

An event the state already has (the same id, or the same question and time) counts once; an
event already undone stays undone; an undo removes what it names. The cards of the questions
whose reviews changed become the replay of their reviews, so that every state holding the same
events holds the same schedule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prep.state.records import Incoming
from prep.state.replay import Replay, rebuild
from prep.state.rows import save_card_row
from prep.state.sqlite import Connection

if TYPE_CHECKING:
    from prep.state.store import Store

# Each kind of event kept row by row: its table, and the columns that make two rows the same
# event when one of them has no id of its own (a hand-written export, a copy made by a tool).
_TABLES = {
    "review": ("reviews", ("question_id", "reviewed_at")),
    "practice": ("practice", ("question_id", "practiced_at")),
    "teaching": ("teachings", ("question_id", "taught_at", "point", "phrasing")),
}


@dataclass
class ImportReport:
    reviews_added: int = 0
    reviews_present: int = 0
    cards_added: int = 0
    cards_updated: int = 0
    cards_kept: int = 0
    practice_added: int = 0
    practice_present: int = 0
    teachings_added: int = 0
    teachings_present: int = 0
    undos_added: int = 0
    undos_present: int = 0

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)

    @property
    def added(self) -> int:
        """Events added (an undo taken in is one)."""
        return self.reviews_added + self.practice_added + self.teachings_added + self.undos_added


def merge(
    store: Store,
    incoming: Incoming,
    replay: Replay,
    *,
    keep_banks: bool = False,
    finish: Callable[[Connection], None] | None = None,
) -> ImportReport:
    """Add what the state does not have yet, in one transaction (*finish* runs last in it).

    Events become this bank's, but unassigned ones; with *keep_banks* each keeps the bank it
    names (a backup of every bank). An export's card states are kept as they are where they
    reflect the reviews now held (``replay.rebuild``), and added for questions with no card."""
    with store.transaction() as db:
        events = _Events(db)
        for kind, fields in incoming.events:
            events.merge(kind, {**fields, "bank": _bank(fields["bank"], store, keep_banks)})
        events.flush()
        counts, affected = events.counts, events.affected
        if store.bank_key:  # an unassigned review is also one of the reviews the bank's own card reflects
            affected |= {
                (store.bank_key, qid)
                for bank, qid in affected
                if bank == "" and _has_card(db, store.bank_key, qid)
            }
        given = {
            (_bank(bank, store, keep_banks), card.question_id): (card, content)
            for card, content, bank in incoming.cards
        }
        for bank, qid in sorted(affected):
            had = _has_card(db, bank, qid)
            if rebuild(db, bank, qid, replay, given=given.pop((bank, qid), None)) is not None:
                counts["cards_updated" if had else "cards_added"] += 1
        for (bank, _), (card, content) in sorted(given.items()):
            if _has_card(db, bank, card.question_id):
                counts["cards_kept"] += 1
            else:
                save_card_row(db, bank, card, content)
                counts["cards_added"] += 1
        if finish is not None:
            finish(db)
    return ImportReport(**counts)


def unseen(store: Store, events: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """How many of *events* (reviews, practice answers, teachings) this bank does not hold, as
    `merge` would count them: those it would add."""
    return sum(
        1
        for kind, fields in events
        if kind in _TABLES
        and not _present(store.db, *_TABLES[kind], {**fields, "bank": _bank(fields["bank"], store, False)})
    )


def _bank(value: str | None, store: Store, keep_banks: bool) -> str:
    """The bank a record lands in: the store's for the file's own records (None) and, but with
    *keep_banks*, for records naming another bank; '' (unassigned) stays so."""
    if value == "":
        return ""
    if value is not None and keep_banks:
        return value
    return store.bank_key or ""


class _Events:
    """Events merged one by one, in the order of the file: what each adds is inserted in
    batches (flushed before an undo, which may name one of them), and the undone events are
    known up front (they are few), so that a merge of thousands asks one query of each."""

    def __init__(self, db: Connection) -> None:
        self.db = db
        self.counts: Counter[str] = Counter()
        self.affected: set[tuple[str, str]] = set()
        self.undone = {(bank, event) for bank, event in db.execute("SELECT bank, undoes FROM undos")}
        self.added: set[tuple[str, str]] = set()  # (bank, event) of the rows waiting to be inserted
        self.waiting: dict[tuple[str, tuple[str, ...]], list[tuple[Any, ...]]] = {}

    def merge(self, kind: str, row: dict[str, Any]) -> None:
        if kind == "undo":
            self.flush()
            self._undo(row)
            return
        table, same = _TABLES[kind]
        bank, event = row["bank"], row["event"]
        if self._is_undone(bank, event) or (bank, event) in self.added or _present(self.db, table, same, row):
            self.counts[f"{table}_present"] += 1
            return
        self.waiting.setdefault((table, tuple(row)), []).append(tuple(row.values()))
        self.added.add((bank, event))
        self.counts[f"{table}_added"] += 1
        if kind == "review":
            self.affected.add((bank, row["question_id"]))

    def flush(self) -> None:
        for (table, columns), rows in self.waiting.items():
            self.db.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows
            )
        self.waiting.clear()
        self.added.clear()

    def _is_undone(self, bank: str, event: str) -> bool:
        return (bank, event) in self.undone or ("", event) in self.undone

    def _undo(self, row: dict[str, Any]) -> None:
        bank, target = row["bank"], row["undoes"]
        if self._is_undone(bank, target):
            self.counts["undos_present"] += 1
            return
        self.db.execute(
            "INSERT INTO undos (bank, event, undoes, question_id, undone_at) VALUES (?, ?, ?, ?, ?)",
            (bank, row["event"], target, row["question_id"], row["undone_at"]),
        )
        self.undone.add((bank, target))
        self.counts["undos_added"] += 1
        for table, _ in _TABLES.values():
            removed = self.db.execute(
                f"DELETE FROM {table} WHERE event = ? AND bank IN (?, '')", (target, bank)
            ).rowcount
            if removed and table == "reviews":
                self.affected.add((bank, row["question_id"]))


def _present(db: Connection, table: str, same: tuple[str, ...], row: dict[str, Any]) -> bool:
    """The bank sees this event already: by its id, or by its question and time (one lookup in
    the question's rows, by the bank index)."""
    question, when, *rest = same
    extra = "".join(f" AND {c} = ?" for c in rest)
    found = db.execute(
        f"SELECT 1 FROM {table} WHERE bank IN (?, '') AND {question} = ?"
        f" AND (event = ? OR ({when} = ?{extra})) LIMIT 1",
        (row["bank"], row[question], row["event"], row[when], *(row[c] for c in rest)),
    ).fetchone()
    return found is not None


def _has_card(db: Connection, bank: str, question_id: str) -> bool:
    return (
        db.execute("SELECT 1 FROM cards WHERE bank = ? AND question_id = ?", (bank, question_id)).fetchone()
        is not None
    )
