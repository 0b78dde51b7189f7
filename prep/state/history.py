"""Moving a bank's history: renaming a question, exporting, merging an export, pruning the
history of questions gone from the bank, and carrying history over to a copy of the bank.

Mixed into ``Store``: ``db`` is its connection and ``bank_key`` the key of its bank.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prep.errors import StateError
from prep.state.cards import CardState, parse_time
from prep.state.rows import save_card_row
from prep.state.sqlite import Connection


def scope(bank_key: str | None, *, unassigned: bool = True) -> tuple[str, tuple]:
    """A WHERE clause for the rows a bank sees: its own, and (*unassigned*) those recorded before
    prep kept track of banks (''). A store opened with no bank (tools, tests) sees every row."""
    if bank_key is None:
        return "1", ()
    return ("bank IN (?, '')", (bank_key,)) if unassigned else ("bank = ?", (bank_key,))


# The columns of a review and of a practice answer that move with an export (not the row id).
REVIEW_FIELDS = (
    "question_id", "reviewed_at", "rating", "suggested", "score", "elapsed_seconds", "answer", "mode",
    "content_hash", "verdict", "card_before", "bank", "ticked",
)  # fmt: skip
PRACTICE_FIELDS = (
    "question_id", "practiced_at", "mode", "rating", "score", "verdict", "elapsed_seconds", "answer", "bank",
)  # fmt: skip
TEACHING_FIELDS = ("question_id", "point", "phrasing", "taught_at", "via", "bank")
# Each table of history that moves row by row: (table, record type, time column, fields, the
# columns that make a row the same row when merging).
_ROW_TABLES = (
    ("reviews", "review", "reviewed_at", REVIEW_FIELDS, ("bank", "question_id", "reviewed_at")),
    ("practice", "practice", "practiced_at", PRACTICE_FIELDS, ("bank", "question_id", "practiced_at")),
    ("teachings", "teaching", "taught_at", TEACHING_FIELDS,
     ("bank", "question_id", "taught_at", "point", "phrasing")),
)  # fmt: skip
_CARD_COLUMNS = (
    "question_id, due, state, step, stability, difficulty, last_review, reps, lapses, content_hash"
)


class HistoryMoves:
    db: Connection
    bank_key: str | None

    def cards(self) -> dict[str, CardState]: ...  # provided by Store
    def content_hashes(self) -> dict[str, str | None]: ...  # provided by Store
    def transaction(self): ...  # type: ignore[no-untyped-def]  # provided by StateDatabase

    def history_ids(self, *, unassigned: bool = False) -> set[str]:
        """The question ids this bank's history has a card, a review, a practice answer or a teaching for;
        with *unassigned*, also those only history from before banks were recorded has."""
        where, args = scope(self.bank_key, unassigned=unassigned)
        return {
            r[0]
            for r in self.db.execute(
                f"SELECT question_id FROM cards WHERE {where} UNION SELECT question_id FROM reviews"
                f" WHERE {where}"
                f" UNION SELECT question_id FROM practice WHERE {where}"
                f" UNION SELECT question_id FROM teachings WHERE {where}",
                args * 4,
            )
        }

    def has_history(self, question_id: str) -> bool:
        """Whether this bank sees any history for the id (its own or unassigned)."""
        where, args = scope(self.bank_key)
        row = self.db.execute(
            f"SELECT 1 FROM cards WHERE {where} AND question_id = ? UNION SELECT 1 FROM reviews WHERE {where}"
            f" AND question_id = ? UNION SELECT 1 FROM practice WHERE {where} AND question_id = ? LIMIT 1",
            (*args, question_id) * 3,
        ).fetchone()
        return row is not None

    @contextmanager
    def renaming(self, old: str, new: str) -> Iterator[tuple[int, int]]:
        """Move a question's history to a new id; commits only if the caller's block succeeds
        (so the bank files and the database change together). Unassigned history is copied to
        the new id as this bank's, and stays where other banks see it. Yields the reviews and
        the practice answers moved."""
        with self.transaction() as db:
            if self.has_history(new):
                raise StateError(f"the state database already has history for {new!r}")
            self._copy_unassigned(db, old)
            db.execute(
                "UPDATE cards SET question_id = ? WHERE bank = ? AND question_id = ?",
                (new, self.bank_key, old),
            )
            practice = db.execute(
                "UPDATE practice SET question_id = ? WHERE bank = ? AND question_id = ?",
                (new, self.bank_key, old),
            ).rowcount
            reviews = db.execute(
                "UPDATE reviews SET question_id = ? WHERE bank = ? AND question_id = ?",
                (new, self.bank_key, old),
            ).rowcount
            db.execute(
                "UPDATE teachings SET question_id = ? WHERE bank = ? AND question_id = ?",
                (new, self.bank_key, old),
            )
            yield reviews, practice

    def _copy_unassigned(self, db: Connection, question_id: str) -> None:
        """Make this bank's own copy of a question's unassigned history (not already its own)."""
        if not self.bank_key:
            return
        fields = [f for f in REVIEW_FIELDS if f != "bank"]
        db.execute(
            f"INSERT INTO reviews (bank, {', '.join(fields)}) SELECT ?, {', '.join(fields)} FROM reviews"
            " WHERE bank = '' AND question_id = ?",
            (self.bank_key, question_id),
        )
        fields = [f for f in PRACTICE_FIELDS if f != "bank"]
        db.execute(
            f"INSERT INTO practice (bank, {', '.join(fields)}) SELECT ?, {', '.join(fields)} FROM practice"
            " WHERE bank = '' AND question_id = ?",
            (self.bank_key, question_id),
        )
        db.execute(
            f"INSERT OR IGNORE INTO cards (bank, {_CARD_COLUMNS}) SELECT ?, {_CARD_COLUMNS} FROM cards"
            " WHERE bank = '' AND question_id = ?",
            (self.bank_key, question_id),
        )

    def carry_over(self, source: str) -> int:
        """Copy another bank's history into this one (a bank copied with `prep init` starts with
        the progress made on the one it was copied from). Returns the reviews copied."""
        with self.transaction() as db:
            for table, _, _, fields, _ in _ROW_TABLES:
                own = [f for f in fields if f != "bank"]
                copied = db.execute(
                    f"INSERT INTO {table} (bank, {', '.join(own)}) SELECT ?, {', '.join(own)} FROM {table}"
                    " WHERE bank = ?",
                    (self.bank_key, source),
                ).rowcount
                if table == "reviews":
                    reviews = copied
            db.execute(
                f"INSERT OR IGNORE INTO cards (bank, {_CARD_COLUMNS}) SELECT ?, {_CARD_COLUMNS} FROM cards"
                " WHERE bank = ?",
                (self.bank_key, source),
            )
        return reviews

    def export_rows(self, *, all_banks: bool = False) -> Iterator[tuple[str, dict[str, Any]]]:
        """("card" | "review" | "practice" | "teaching", fields) of this bank's history (its own rows and the
        unassigned ones; every bank's with *all_banks*) in a fixed order, so that the same history
        always exports the same way."""
        where, args = scope(None if all_banks else self.bank_key)
        for row in self.db.execute(
            f"SELECT bank, {_CARD_COLUMNS} FROM cards WHERE {where} ORDER BY question_id, bank", args
        ):
            record = dict(row)
            content = record.pop("content_hash")
            bank = record.pop("bank")
            yield "card", {**CardState.from_dict(record).to_dict(), "content_hash": content, "bank": bank}
        for table, kind, stamp, fields, _ in _ROW_TABLES:
            for row in self.db.execute(
                f"SELECT {', '.join(fields)} FROM {table} WHERE {where}"
                f" ORDER BY {stamp}, question_id, bank, id",
                args,
            ):
                yield kind, {k: row[k] for k in fields}

    def merge(
        self,
        cards: list[tuple[CardState, str | None, str]],
        rows_by_kind: dict[str, list[dict[str, Any]]],
    ) -> dict[str, int]:
        """Add what the state does not have yet, in one transaction: reviews, practice answers and
        teachings by (bank, question, time), cards where the incoming one was reviewed later.
        Each row keeps the bank it was made in. Returns the counts."""
        counts = dict.fromkeys(
            ("reviews_added", "reviews_present", "cards_added", "cards_updated", "cards_kept",
             "practice_added", "practice_present", "teachings_added", "teachings_present"),
            0,
        )  # fmt: skip
        with self.transaction() as db:
            for table, kind, _, fields, same in _ROW_TABLES:
                for row in rows_by_kind.get(kind, []):
                    if db.execute(
                        f"SELECT 1 FROM {table} WHERE {' AND '.join(f'{c} = ?' for c in same)}",
                        tuple(row[c] for c in same),
                    ).fetchone():
                        counts[f"{table}_present"] += 1
                        continue
                    db.execute(
                        f"INSERT INTO {table} ({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})",
                        tuple(row[k] for k in fields),
                    )
                    counts[f"{table}_added"] += 1
            for card, content, bank in cards:
                counts[_merge_card(db, card, content, bank)] += 1
        return counts

    def prune(self, keep: set[str], *, unassigned: bool = False) -> dict[str, int]:
        """Delete this bank's history of every question id not in *keep*; with *unassigned*, also
        history from before banks were recorded of ids not in *keep*."""
        where, args = scope(self.bank_key, unassigned=unassigned)
        with self.transaction() as db:
            gone = sorted(self.history_ids(unassigned=unassigned) - keep)
            counts = {"reviews": 0, "cards": 0, "practice": 0, "teachings": 0}
            for qid in gone:
                for table in counts:
                    counts[table] += db.execute(
                        f"DELETE FROM {table} WHERE {where} AND question_id = ?", (*args, qid)
                    ).rowcount
        return {"questions": len(gone), **counts}


def _merge_card(db: Connection, card: CardState, content: str | None, bank_key: str) -> str:
    """Save an imported card unless the state has one reviewed as late; which count it adds to."""
    row = db.execute(
        "SELECT last_review FROM cards WHERE bank = ? AND question_id = ?", (bank_key, card.question_id)
    ).fetchone()
    if (
        row is not None
        and row[0] is not None
        and not (card.last_review and card.last_review > parse_time(row[0]))
    ):
        return "cards_kept"
    save_card_row(db, bank_key, card, content)
    return "cards_added" if row is None else "cards_updated"
