"""The review-state database: SQLite (stdlib), WAL, ordered migrations, an append-only log.

Every rating is one short transaction (review row + card row) committed before the next card
is shown, so a crash or SIGKILL loses nothing that was rated. Each review row keeps the card
state from before it, which makes undo exact.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prep.errors import StateError
from prep.state.cards import CardState, format_time, parse_time, utc
from prep.state.database import StateDatabase
from prep.state.events import new_event_id
from prep.state.rows import Practice, Review, card_of, practice_of, review_of, save_card_row, scope
from prep.state.sqlite import Connection

if TYPE_CHECKING:
    from prep.state.replay import Replay


class Store(StateDatabase):
    """The review state of one bank: cards, the review log, practice answers and settings. Every
    SQL statement prep runs on them is a named method here, but for the aggregate queries of
    ``reports`` and the moves of a whole history in ``history``, functions over a store.

    *bank_key* is the key of the bank the rows belong to (``BankLocation.key``). A bank sees its own
    rows and the unassigned ones ('', recorded before prep kept track of banks) for the ids it
    has; new rows are its own. Tools that give no bank see every row and write unassigned ones."""

    def __init__(self, path: Path, *, write: bool = True, bank_key: str | None = None) -> None:
        self.bank_key = bank_key
        super().__init__(path, write=write)

    # --- cards ---------------------------------------------------------------------------

    def card(self, question_id: str) -> CardState | None:
        where, args = scope(self.bank_key)
        row = self.db.execute(
            f"SELECT * FROM cards WHERE {where} AND question_id = ? ORDER BY bank = '' LIMIT 1",
            (*args, question_id),
        ).fetchone()
        return card_of(row) if row else None

    def cards(self) -> dict[str, CardState]:
        # The bank's own card wins over an unassigned one of the same id: it comes last.
        where, args = scope(self.bank_key)
        rows = self.db.execute(f"SELECT * FROM cards WHERE {where} ORDER BY bank != ''", args)
        return {row["question_id"]: card_of(row) for row in rows}

    def memories(self) -> dict[str, tuple[float, float | None, str]]:
        """(stability, difficulty, last review as stored) of every card that holds a memory:
        what the interview plan reads, without building 10,000 card states."""
        where, args = scope(self.bank_key)
        rows = self.db.execute(
            "SELECT question_id, stability, difficulty, last_review FROM cards"
            f" WHERE {where} AND stability IS NOT NULL AND last_review IS NOT NULL ORDER BY bank != ''",
            args,
        )
        return {qid: (stability, difficulty, last) for qid, stability, difficulty, last in rows}

    def due_ids(
        self, now: datetime, limit: int | None = None, *, learning: bool = False
    ) -> list[tuple[str, datetime]]:
        """Question ids due at *now*, most overdue first (uses the due index): the bank's own
        cards, and unassigned ones of ids it has no card of its own for. *learning*: only those
        in a (re)learning step, answered Again or new a moment ago."""
        stamp = format_time(now)
        step = " AND state != 2" if learning else ""  # fsrs.State.Review is 2
        sql = f"SELECT question_id, due FROM cards WHERE due <= ?{step} ORDER BY due, question_id"
        params: tuple = (stamp,)
        if self.bank_key is not None:
            sql = (
                f"SELECT question_id, due FROM cards WHERE bank = ? AND due <= ?{step}"
                " UNION ALL SELECT question_id, due"
                f" FROM cards WHERE bank = '' AND due <= ?{step} AND question_id NOT IN"
                " (SELECT question_id FROM cards WHERE bank = ?) ORDER BY due, question_id"
            )
            params = (self.bank_key, stamp, stamp, self.bank_key)
        if limit is not None:
            sql += " LIMIT ?"
            params += (limit,)
        return [(r[0], parse_time(r[1])) for r in self.db.execute(sql, params)]

    def last_ratings(self, question_ids: list[str]) -> dict[str, int]:
        """The rating of each question's latest review (one query; ids with none are left out)."""
        if not question_ids:
            return {}
        where, args = scope(self.bank_key)
        marks = ",".join("?" * len(question_ids))
        rows = self.db.execute(
            f"SELECT question_id, rating FROM reviews WHERE {where} AND question_id IN ({marks})"
            " ORDER BY reviewed_at, id",
            (*args, *question_ids),
        )
        return dict(rows.fetchall())  # later rows overwrite earlier ones: the last review wins

    def content_hashes(self) -> dict[str, str | None]:
        where, args = scope(self.bank_key)
        rows = self.db.execute(
            f"SELECT question_id, content_hash FROM cards WHERE {where} ORDER BY bank != ''", args
        )
        return {r[0]: r[1] for r in rows}

    def new_cards_since(self, since: datetime) -> int:
        """How many cards had their first review since *since* (the new-per-day budget)."""
        where, args = scope(self.bank_key)
        row = self.db.execute(  # by the time index: today's reviews are few, a bank's are many
            "SELECT COUNT(*) FROM reviews INDEXED BY reviews_time"
            f" WHERE reviewed_at >= ? AND card_before IS NULL AND {where}",
            (format_time(since), *args),
        ).fetchone()
        return int(row[0])

    # --- the review log --------------------------------------------------------------------

    def record(
        self,
        before: CardState | None,
        after: CardState,
        *,
        reviewed_at: datetime,
        rating: int,
        **details: Any,
    ) -> int:
        """Append a review and save the card's new state as given, atomically: for tools that
        build a history. Returns the review id."""
        with self.transaction() as db:
            fields = _review_fields(after.question_id, reviewed_at, rating, details)
            return self._append_review(db, before, after, fields)

    def rate(
        self,
        question_id: str,
        schedule: Callable[[CardState | None, datetime], CardState],
        *,
        reviewed_at: datetime,
        rating: int,
        **details: Any,
    ) -> tuple[int, CardState]:
        """Read the card, schedule it and record the review in one write transaction, so two
        processes rating the same card at once each build on the other's rating, not on the
        state both read before. *schedule* gets the card and the time the review is recorded
        at: *reviewed_at*, or just after the card's last review if that is later (a clock set
        back, or another device's ahead), so that the card's reviews in time order are the
        order they were made in. Returns the review id and the card's new state."""
        with self.transaction() as db:
            before = self.card(question_id)
            at = utc(reviewed_at)
            if before is not None and before.last_review is not None and before.last_review >= at:
                at = before.last_review + timedelta(microseconds=1)
            after = schedule(before, at)
            fields = _review_fields(question_id, at, rating, details)
            return self._append_review(db, before, after, fields), after

    def _append_review(
        self, db: Connection, before: CardState | None, after: CardState, fields: dict[str, Any]
    ) -> int:
        bank = self.bank_key or ""
        card_before = json.dumps(before.to_dict()) if before else None
        row_id = _insert(db, "reviews", bank, {**fields, "card_before": card_before})
        save_card_row(db, bank, after, fields["content_hash"])
        self._share("review", fields)
        return row_id

    def undo(self, review_id: int, replay: Replay, *, undone_at: datetime) -> str:
        """Take back a review: remove it, record the undo (an event, so that it undoes on every
        device sharing the history) and make the card the replay of the reviews left, which
        keeps any made since by another drill. The card as it was before the review, when that
        is what the reviews left give (the review was the last), comes back exactly. Returns
        the question id."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT question_id, bank, event, card_before FROM reviews WHERE id = ?", (review_id,)
            ).fetchone()
            if row is None:
                raise StateError(f"review {review_id} is not in the database (already undone?)")
            db.execute("DELETE FROM reviews WHERE id = ?", (review_id,))
            qid, bank = str(row["question_id"]), row["bank"]
            self._append_undo(db, bank, row["event"], qid, undone_at)
            before = CardState.from_dict(json.loads(row["card_before"])) if row["card_before"] else None
            from prep.state.replay import rebuild  # deferred: commands that only read never undo

            rebuild(db, bank, qid, replay, given=(before, None) if before else None)
            return qid

    def _share(self, kind: str, fields: dict[str, Any]) -> None:
        """Append an event just recorded to this device's file of a shared history, if any."""
        from prep.state import sharing  # deferred: commands that only read record nothing

        sharing.append_event(self, kind, fields)

    def _append_undo(self, db: Connection, bank: str, event: str, question_id: str, at: datetime) -> None:
        fields = {
            "event": new_event_id(),
            "undoes": event,
            "question_id": question_id,
            "undone_at": format_time(at),
        }
        db.execute(
            "INSERT INTO undos (bank, event, undoes, question_id, undone_at) VALUES (?, ?, ?, ?, ?)",
            (bank, *fields.values()),
        )
        self._share("undo", fields)

    def reviews(self, question_id: str | None = None, since: datetime | None = None) -> list[Review]:
        where, args = scope(self.bank_key)
        sql, params = f"SELECT * FROM reviews WHERE {where}", list(args)
        if question_id is not None:
            sql += " AND question_id = ?"
            params.append(question_id)
        if since is not None:
            sql += " AND reviewed_at >= ?"
            params.append(format_time(since))
        sql += " ORDER BY reviewed_at, id"
        return [review_of(r) for r in self.db.execute(sql, params)]

    def review_count(self) -> int:
        where, args = scope(self.bank_key)
        return int(self.db.execute(f"SELECT COUNT(*) FROM reviews WHERE {where}", args).fetchone()[0])

    # --- practice: cram and unrecorded mock answers, kept but never scheduled ----------------

    def log_practice(
        self,
        question_id: str,
        *,
        practiced_at: datetime,
        mode: str,
        rating: int | None = None,
        score: int | None = None,
        verdict: str | None = None,
        elapsed_seconds: float | None = None,
        answer: str | None = None,
        decided_by: str | None = None,
    ) -> int:
        fields = {
            "event": new_event_id(), "question_id": question_id, "practiced_at": format_time(practiced_at),
            "mode": mode, "rating": rating, "score": score, "verdict": verdict,
            "elapsed_seconds": elapsed_seconds, "answer": answer, "decided_by": decided_by,
        }  # fmt: skip
        with self.transaction() as db:
            row_id = _insert(db, "practice", self.bank_key or "", fields)
            self._share("practice", fields)
            return row_id

    def forget_practice(self, practice_id: int, *, undone_at: datetime) -> None:
        """Undo of a cram rating: the practice row it kept goes too (an undo event)."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT question_id, bank, event FROM practice WHERE id = ?", (practice_id,)
            ).fetchone()
            if row is None:
                return
            db.execute("DELETE FROM practice WHERE id = ?", (practice_id,))
            self._append_undo(db, row["bank"], row["event"], row["question_id"], undone_at)

    def practice(self, question_id: str) -> list[Practice]:
        where, args = scope(self.bank_key)
        rows = self.db.execute(
            f"SELECT * FROM practice WHERE {where} AND question_id = ? ORDER BY practiced_at, id",
            (*args, question_id),
        )
        return [practice_of(row) for row in rows]

    # --- teaching: the user's own words added to key points ---------------------------------

    def log_teaching(
        self, question_id: str, point: int, phrasing: str, *, taught_at: datetime, via: str
    ) -> None:
        fields = {
            "event": new_event_id(), "question_id": question_id, "point": point, "phrasing": phrasing,
            "taught_at": format_time(taught_at), "via": via,
        }  # fmt: skip
        with self.transaction() as db:
            _insert(db, "teachings", self.bank_key or "", fields)
            self._share("teaching", fields)

    # --- the judge's replies: a cache, so that grading an answer again asks the model nothing ----

    def judge_reply(self, model: str, question_hash: str, answer: str) -> str | None:
        row = self.db.execute(
            "SELECT reply FROM judge_replies WHERE model = ? AND question_hash = ? AND answer = ?",
            (model, question_hash, answer),
        ).fetchone()
        return row[0] if row else None

    def save_judge_reply(
        self, model: str, question_hash: str, answer: str, reply: str, *, replied_at: datetime
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO judge_replies (model, question_hash, answer, reply, replied_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (model, question_hash, answer, reply, format_time(replied_at)),
            )

    # --- settings --------------------------------------------------------------------------

    def get_setting(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def fsrs_parameters(self) -> tuple[float, ...] | None:
        """Personal FSRS weights saved by `prep optimize`, if any."""
        raw = self.get_setting("fsrs_parameters")
        return tuple(json.loads(raw)) if raw else None

    def set_fsrs_parameters(self, parameters: list[float]) -> None:
        self.set_setting("fsrs_parameters", json.dumps(list(parameters)))

    def save_card(self, card: CardState, content_hash: str | None = None) -> None:
        """Write one card's state as it is (no review): for tools that build a history."""
        with self.transaction() as db:
            save_card_row(db, self.bank_key or "", card, content_hash)


def _insert(db: Connection, table: str, bank: str, fields: dict[str, Any]) -> int:
    """Insert a row of the bank's history; its row id."""
    cursor = db.execute(
        f"INSERT INTO {table} (bank, {', '.join(fields)}) VALUES (?, {', '.join('?' * len(fields))})",
        (bank, *fields.values()),
    )
    return int(cursor.lastrowid)


def _review_fields(
    question_id: str, reviewed_at: datetime, rating: int, details: dict[str, Any]
) -> dict[str, Any]:
    """A new review's columns, as its event carries them (what the review log keeps besides the
    bank and the card before it). *details*: suggested, score, elapsed_seconds, answer, mode,
    content_hash, verdict, ticked, decided_by (each None when not given)."""
    unknown = set(details) - set(REVIEW_DETAILS)
    if unknown:
        raise TypeError(f"unknown review fields: {', '.join(sorted(unknown))}")
    return {
        "event": new_event_id(),
        "question_id": question_id,
        "reviewed_at": format_time(reviewed_at),
        "rating": int(rating),
        **{name: details.get(name) for name in REVIEW_DETAILS},
        "suggested": None if details.get("suggested") is None else int(details["suggested"]),
    }


REVIEW_DETAILS = (
    "suggested",
    "score",
    "elapsed_seconds",
    "answer",
    "mode",
    "content_hash",
    "verdict",
    "ticked",
    "decided_by",
)
