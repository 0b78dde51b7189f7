"""Today's part of the interview plan, as the queue a drill follows (and `prep next` reads):
the questions answered before and due again, then what is left of today's planned reviews and
new questions; and how far today's part is, after a drill."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from prep.review.plan.inputs import due_again, interview_plan, today_of
from prep.review.plan.plan import Plan, PlanItem
from prep.review.queue import QueueItem, start_of_day
from prep.state import reports

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
    return plan, plan_queue(plan, again=list(plan.again), new=new, limit=limit, shuffle=shuffle, rng=rng)


def plan_queue(
    plan: Plan,
    *,
    again: Sequence[str] = (),
    new: int | None = None,
    limit: int | None = None,
    shuffle: bool = False,
    rng: random.Random | None = None,
) -> list[QueueItem]:
    """What a drill asks today by the plan: the questions *again* (answered and due again, see
    ``due_again``), what is left of today's reviews (least likely recalled on the day first),
    then of its new questions; *new* caps the new ones (``drill --new``)."""
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


@dataclass(frozen=True)
class Progress:
    """How far today's part of a plan is: its questions, how many of them are answered, what a
    drill would still ask (questions due again included), and when the next is due (now, when
    anything is left; else the next learning step due today, or tomorrow's part)."""

    share: int
    answered: int
    left: int
    next_due: datetime


def progress(store: Store, plan: Plan, ids: Iterable[str], now: datetime) -> Progress:
    """Today's part of *plan* (for the questions *ids*) as the review state now has it."""
    wanted = set(ids)
    answered = frozenset(a.question_id for a in reports.answers_since(store, start_of_day(now)))
    current = replace(plan, done=answered)
    left = len(plan_queue(current, again=due_again(store, wanted, now, answered)))
    share = plan.share()
    following = now
    if not left:
        tomorrow = start_of_day(now) + timedelta(days=1)
        steps = [
            due for qid, due in store.due_ids(tomorrow, learning=True) if qid in answered and qid in wanted
        ]
        following = min(steps, default=tomorrow)
    return Progress(len(share), sum(1 for qid in share if qid in answered), left, following)
