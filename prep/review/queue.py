"""What a drill asks, in order: due cards, today's new ones, a cram or a mock interview.

Light on purpose: `prep next` builds a queue from cached index rows, without pydantic or numpy.
Time is passed in.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from prep.review.interleave import interleave

if TYPE_CHECKING:  # annotations only: `prep next` must not pay for pydantic or numpy
    from prep.bank.contents import Bank
    from prep.bank.schema import Question
    from prep.review.scheduler import Scheduler
    from prep.state.cards import CardState
    from prep.state.store import Store


@dataclass(frozen=True)
class QueueItem:
    question_id: str
    reason: Literal["due", "new", "cram", "mock", "follow-up", "again"]
    due: datetime | None = None


def start_of_day(now: datetime) -> datetime:
    """Local midnight of *now*'s day: the new-cards budget resets then."""
    local = now.astimezone()
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def build_queue(
    bank: Bank | None,
    store: Store,
    scheduler: Scheduler | None,
    now: datetime,
    questions: Sequence[Question],
    *,
    new_per_day: int,
    limit: int | None = None,
    shuffle: bool = False,
    cram: bool = False,
    rng: random.Random | None = None,
) -> list[QueueItem]:
    """Due cards first (most overdue first), then new ones within today's budget, mixed across
    categories (see ``mixed_new``).

    With ``cram``, every selected question, weakest first (lowest recall probability, then
    most lapses; never-seen questions after those reviewed).
    """
    rng = rng or random.Random()
    wanted = {q.id for q in questions}
    if cram:
        assert scheduler is not None, "cram ordering needs the scheduler"
        ordered = weakest_first(questions, store.cards(), scheduler, now)
        if shuffle:
            rng.shuffle(ordered)
        items = [QueueItem(q.id, "cram") for q in ordered]
        return items[:limit] if limit else items

    due = [QueueItem(qid, "due", when) for qid, when in store.due_ids(now) if qid in wanted]
    known = set(store.content_hashes())
    budget = max(0, new_per_day - store.new_cards_since(start_of_day(now)))
    fresh = mixed_new(questions, known, bank)
    if shuffle:
        rng.shuffle(due)
        rng.shuffle(fresh)
    items = due + [QueueItem(qid, "new") for qid in fresh[:budget]]
    return items[:limit] if limit else items


def mixed_new(questions: Sequence[Question], known: Collection[str], bank: Bank | None) -> list[str]:
    """The questions not in *known* (never seen), mixed across their categories: the next one
    always from the category with the smallest share of its questions seen so far, categories
    alike taking turns in bank order, a category's own questions in bank order (as the
    interview plan introduces them, by weakness on the day). So ten new a day go over the whole
    bank a few from each category, never one category after another. *questions* are index
    rows (which know their category) when *bank* is None."""
    sizes: dict[str, int] = {}
    seen: dict[str, int] = {}
    fresh: dict[str, list[str]] = {}
    for q in questions:
        category = bank.category_of[q.id] if bank is not None else q.category  # type: ignore[attr-defined]
        sizes[category] = sizes.get(category, 0) + 1
        if q.id in known:
            seen[category] = seen.get(category, 0) + 1
        else:
            fresh.setdefault(category, []).append(q.id)
    return interleave(
        {category: fresh[category] for category in sizes if category in fresh},  # in bank order
        {category: seen.get(category, 0) / size for category, size in sizes.items()},
        {category: 1 / size for category, size in sizes.items()},
    )


def weakest_first(
    questions: Sequence[Question],
    cards: dict[str, CardState],
    scheduler: Scheduler,
    now: datetime,
    *,
    unseen_first: bool = False,
) -> list[Question]:
    """Reviewed questions by lowest recall probability now, then lowest stability, then most
    lapses; unseen ones last (a cram drill goes over what was learned), or first with
    *unseen_first* (a cram sheet of the weakest: nothing is weaker than a question never seen).

    FSRS counts elapsed time in whole days, so every card reviewed today has a recall
    probability of 1; among those, stability is what tells the card failed an hour ago from
    the one rated Easy."""

    def weakness(q: Question) -> tuple:
        card = cards.get(q.id)
        if card is None:
            return (0 if unseen_first else 2, 0.0, 0.0, 0)
        return (1, scheduler.retrievability(card, now), card.stability or 0.0, -card.lapses)

    return sorted(questions, key=weakness)


def mock_queue(questions: Sequence[Question], bank: Bank, count: int, rng: random.Random) -> list[QueueItem]:
    """N questions mixed across categories: round-robin over shuffled categories."""
    by_category: dict[str, list[Question]] = {}
    for q in questions:
        by_category.setdefault(bank.category_of[q.id], []).append(q)
    pools = list(by_category.values())
    for pool in pools:
        rng.shuffle(pool)
    rng.shuffle(pools)
    picked: list[QueueItem] = []
    while len(picked) < count and any(pools):
        for pool in pools:
            if pool and len(picked) < count:
                picked.append(QueueItem(pool.pop().id, "mock"))
    return picked


def due_outlook(
    store: Store, bank: Bank, now: datetime, scope: Collection[str] | None = None
) -> tuple[int, datetime | None]:
    """How many of the bank's cards (or of the *scope* ids: a drill's -c/--tag selection) are
    due at *now*, and when the next one after that falls due. Cards of questions no longer in
    the bank are not counted (their history is kept)."""
    dues = [
        card.due
        for qid, card in store.cards().items()
        if qid in bank.questions and (scope is None or qid in scope)
    ]
    return sum(1 for due in dues if due <= now), min((due for due in dues if due > now), default=None)
