"""A card's schedule as the replay of its reviews in time order: what an undo, an import and
taking in another device's events leave, so that every device holding the same reviews holds
the same schedule. The scheduler itself is the review layer's: it is passed in as a ``Replay``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from prep.state.cards import CardState, parse_time
from prep.state.rows import save_card_row
from prep.state.sqlite import Connection

# (question id, its reviews as (time, rating) in time order) -> the card after each review.
Replay = Callable[[str, Sequence[tuple[datetime, int]]], list[CardState]]


def rebuild(
    db: Connection,
    bank_key: str,
    question_id: str,
    replay: Replay,
    *,
    given: tuple[CardState, str | None] | None = None,
) -> CardState | None:
    """Make the bank's card of *question_id* the replay of the reviews it sees (its own and the
    unassigned ones), in time order (ties by event id, the same on every device), and each
    review's ``card_before`` the card as the replay had it then. No review left: no card.

    *given*: a card state (and content hash; None: the last review's) known for it, kept as it
    is when it reflects the same reviews (as many, the last at the same time), so that an export
    made under other settings imports its schedule unchanged, and an undo of the last review
    gives back the card as it was. Returns the card saved."""
    rows = db.execute(
        "SELECT id, reviewed_at, rating, content_hash, card_before FROM reviews"
        " WHERE bank IN (?, '') AND question_id = ? ORDER BY reviewed_at, event",
        (bank_key, question_id),
    ).fetchall()
    if not rows:
        db.execute("DELETE FROM cards WHERE bank = ? AND question_id = ?", (bank_key, question_id))
        return None
    states = replay(question_id, [(parse_time(row[1]), row[2]) for row in rows])
    final = states[-1]
    if given is not None and _reflects_same_reviews(given[0], final):
        save_card_row(db, bank_key, given[0], rows[-1][3] if given[1] is None else given[1])
        return given[0]
    befores = [None, *states[:-1]]
    changed = [
        (text, row[0])
        for row, before in zip(rows, befores)
        if (text := json.dumps(before.to_dict()) if before else None) != row[4]
    ]
    if changed:
        db.executemany("UPDATE reviews SET card_before = ? WHERE id = ?", changed)
    save_card_row(db, bank_key, final, rows[-1][3])
    return final


def _reflects_same_reviews(card: CardState, replayed: CardState) -> bool:
    return card.reps == replayed.reps and card.last_review == replayed.last_review


@dataclass(frozen=True)
class Mismatch:
    """A card whose schedule does not reflect the reviews it sees (their number and the last),
    as the replay of those reviews would: or reviews with no card, or a card with none."""

    bank: str
    question_id: str
    reps: int | None  # None: no card
    reviews: int
    last_review: str | None
    last_reviewed: str | None  # the last review's time

    def __str__(self) -> str:
        if self.reps is None:
            return f"{self.question_id}: {self.reviews} review(s) but no schedule"
        return (
            f"{self.question_id}: its schedule reflects {self.reps} review(s)"
            f"{f' (the last at {self.last_review})' if self.last_review else ''}, its history holds"
            f" {self.reviews}{f' (the last at {self.last_reviewed})' if self.last_reviewed else ''}"
        )


def mismatches(db: Connection) -> list[Mismatch]:
    """Every card (of every bank) that is not what replaying its reviews gives, in what does not
    depend on the scheduler's settings: as many reviews, the last at the same time; and every
    question with reviews of its own bank but no card there. Read-only."""
    cards = db.execute(
        "SELECT c.bank, c.question_id, c.reps, c.last_review, COUNT(r.id), MAX(r.reviewed_at) FROM cards c"
        " LEFT JOIN reviews r ON r.question_id = c.question_id AND r.bank IN (c.bank, '')"
        " GROUP BY c.bank, c.question_id ORDER BY c.question_id, c.bank"
    ).fetchall()
    found = [Mismatch(*row) for row in cards if row[2] != row[4] or row[3] != row[5]]
    orphans = db.execute(
        "SELECT r.bank, r.question_id, NULL, COUNT(*), NULL, MAX(r.reviewed_at) FROM reviews r"
        " WHERE NOT EXISTS (SELECT 1 FROM cards c WHERE c.question_id = r.question_id"
        " AND (c.bank = r.bank OR r.bank = '')) GROUP BY r.bank, r.question_id ORDER BY r.question_id, r.bank"
    ).fetchall()
    return found + [Mismatch(*row) for row in orphans]
