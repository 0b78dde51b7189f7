"""Today's part of the interview plan, as the queue a drill follows (and `prep next` reads):
the questions failed earlier and due again, today's planned reviews, then today's new ones."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from prep.rating import Rating
from prep.review.plan.inputs import interview_plan, today_of
from prep.review.plan.plan import Plan, PlanItem
from prep.review.queue import QueueItem

if TYPE_CHECKING:
    from prep.config import InterviewConfig
    from prep.state.store import Store


def ahead(interview: InterviewConfig | None, now: datetime) -> bool:
    """Whether there is an interview to prepare for: a date after today. On the day and after
    it, drill is plain FSRS again (every review made meanwhile is in the history it uses)."""
    return interview is not None and interview.date > today_of(now)


def todays_plan(
    store: Store,
    questions: Sequence[PlanItem],
    interview: InterviewConfig,
    now: datetime,
    *,
    at_risk_below: float,
    new: int | None = None,
    limit: int | None = None,
    shuffle: bool = False,
    rng: random.Random | None = None,
) -> tuple[Plan, list[QueueItem]]:
    """The plan for *questions*, and what a drill asks today by it (see ``plan_queue``)."""
    plan = interview_plan(store, questions, interview, now, at_risk_below=at_risk_below)
    again = again_due(store, (item.id for item in questions), now)
    return plan, plan_queue(plan, again=again, new=new, limit=limit, shuffle=shuffle, rng=rng)


def plan_queue(
    plan: Plan,
    *,
    again: Sequence[str] = (),
    new: int | None = None,
    limit: int | None = None,
    shuffle: bool = False,
    rng: random.Random | None = None,
) -> list[QueueItem]:
    """What a drill asks today by the plan: the questions *again* (failed in an earlier session
    and due again, see ``again_due``), its reviews (least likely recalled on the day first), then
    its new questions; *new* caps the new ones (``drill --new``)."""
    reviews, fresh = plan.today_ids()
    if again:
        first = dict.fromkeys(again)
        reviews = list(first) + [qid for qid in reviews if qid not in first]
        fresh = [qid for qid in fresh if qid not in first]
    if new is not None:
        fresh = fresh[:new]
    if shuffle:
        rng = rng or random.Random()
        rng.shuffle(reviews)
        rng.shuffle(fresh)
    items = [QueueItem(qid, "due") for qid in reviews] + [QueueItem(qid, "new") for qid in fresh]
    return items[:limit] if limit else items


def again_due(store: Store, ids: Iterable[str], now: datetime) -> list[str]:
    """Of *ids*, the questions last answered Again and due again now, most overdue first: the
    plan counts on a failed answer being answered again the same day, as a drill does before it
    ends, and a session quit early leaves them for the next one."""
    wanted = set(ids)
    due = [qid for qid, _due in store.due_ids(now, learning=True) if qid in wanted]
    last = store.last_ratings(due)
    return [qid for qid in due if last.get(qid) == Rating.AGAIN]
