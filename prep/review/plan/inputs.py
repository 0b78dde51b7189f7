"""The plan's inputs, read from the review state: card states as the day began, the user's own
answering times, how often a first answer fails, what was answered today and personal FSRS
parameters; and each question's predicted recall on the day. Time is passed in; the planning
itself is ``plan.make_plan``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import TYPE_CHECKING

from prep.errors import UsageError
from prep.rating import Rating
from prep.review.plan.memory import MemoryModel
from prep.review.plan.plan import (
    FIRST_FAIL,
    Memory,
    Plan,
    PlanInput,
    PlanItem,
    answer_seconds,
    as_now,
    gc_paused,
    make_plan,
)
from prep.review.queue import start_of_day
from prep.state import reports
from prep.state.cards import parse_time

if TYPE_CHECKING:
    from prep.config import InterviewConfig
    from prep.state.reports import DayAnswer, RecentAnswer
    from prep.state.store import Store

RECENT_ANSWERS = 1000  # the answers the user's times and first-answer failures are read from
MIN_FIRST_ANSWERS = 20  # first answers needed before their failure rate replaces the default


def today_of(now: datetime) -> date:
    """The local calendar day of *now*: the plan's days are the user's days."""
    return start_of_day(now).date()


def interview_plan(
    store: Store,
    questions: Sequence[PlanItem],
    interview: InterviewConfig,
    now: datetime,
    *,
    at_risk_below: float = 0.9,
) -> Plan:
    """The plan for *questions* (in bank order) from today to the day before the interview."""
    today = today_of(now)
    if (interview.date - today).days > 365:
        raise UsageError(
            f"{interview.origin}the interview date {interview.date.isoformat()} is more than a year away",
            hint="set it again with `prep plan --interview DATE --save`",
        )
    with gc_paused():
        return _plan(store, questions, interview, now, today, at_risk_below)


def _plan(
    store: Store,
    questions: Sequence[PlanItem],
    interview: InterviewConfig,
    now: datetime,
    today: date,
    at_risk_below: float,
) -> Plan:
    """The plan made from the cards and answers as the day began, so that today's part of it
    stays put while it is answered (changing only with the date, the minutes or the
    questions); its figures "now" from the cards as they are."""
    start = start_of_day(now)
    earlier = reports.recent_answers(store, RECENT_ANSWERS, before=start)
    own = own_seconds(earlier)
    answered = reports.answers_since(store, start)
    current = memories(store)
    data = PlanInput(
        items=questions,
        cards=at_start(current, answered),
        today=today,
        interview=interview.date,
        minutes_per_day=interview.minutes_per_day,
        own_seconds=own,
        spent_today=sum(a.seconds or own.get(a.question_id, 60.0) for a in answered) / 60,
        first_fail=first_fail(earlier),
        at_risk_below=at_risk_below,
        done=frozenset(a.question_id for a in answered),
    )
    model = MemoryModel(store.fsrs_parameters())
    answered_now = _recall(model, current, data.done, interview.date, today)
    plan = as_now(make_plan(data, model), questions, answered_now)
    if not plan.days:
        return plan
    target = {item.id: item.target_seconds for item in questions}
    again = due_again(store, target, now, data.done)
    return replace(plan, again={qid: answer_seconds(own.get(qid), target[qid]) for qid in again})


def due_again(store: Store, ids: Iterable[str], now: datetime, answered_today: Collection[str]) -> list[str]:
    """Of *ids*, the questions in FSRS's learning steps and due now, most overdue first, that
    were answered today or last answered Again. The plan counts on an answer settling a
    question for the day (a failed one answered again), as a drill does before it ends: one
    answered today and due again, or failed in a session left early, is never hidden."""
    wanted = set(ids)
    due = [qid for qid, _due in store.due_ids(now, learning=True) if qid in wanted]
    last = store.last_ratings([qid for qid in due if qid not in answered_today])
    return [qid for qid in due if qid in answered_today or last.get(qid) == Rating.AGAIN]


def memories(store: Store) -> dict[str, Memory]:
    """The memory state of every card of the bank, its last review as a local calendar day."""
    days: dict[str, date] = {}  # by the hour it was stored in: local days change on the hour
    found = {}
    for qid, (stability, difficulty, last) in store.memories().items():
        hour = last[:13]
        if hour not in days:
            days[hour] = parse_time(last).astimezone().date()
        found[qid] = Memory(stability, difficulty or 5.0, days[hour])
    return found


def at_start(current: Mapping[str, Memory], answered: Sequence[DayAnswer]) -> dict[str, Memory]:
    """The memory states as they were before *answered* (a day's answers, oldest first): each
    card answered as its first answer found it, or unseen."""
    found = dict(current)
    for qid, before in {a.question_id: a.card_before for a in reversed(answered)}.items():
        card = json.loads(before) if before else {}
        found.pop(qid, None)
        if card.get("stability") is not None and card.get("last_review"):
            last = parse_time(card["last_review"]).astimezone().date()
            found[qid] = Memory(card["stability"], card.get("difficulty") or 5.0, last)
    return found


def own_seconds(answers: Iterable[RecentAnswer]) -> dict[str, float]:
    """Each question's mean answering time over the recent answers that were timed."""
    times: dict[str, list[float]] = {}
    for answer in answers:
        if answer.seconds:
            times.setdefault(answer.question_id, []).append(answer.seconds)
    return {qid: sum(t) / len(t) for qid, t in times.items()}


def first_fail(answers: Sequence[RecentAnswer]) -> float:
    """How often a new card's first answer was rated Again, over the recent first answers; the
    default (FSRS's simulator) until there are MIN_FIRST_ANSWERS of them."""
    firsts = [a.rating for a in answers if a.first]
    if len(firsts) < MIN_FIRST_ANSWERS:
        return FIRST_FAIL
    return sum(1 for rating in firsts if rating == Rating.AGAIN) / len(firsts)


def recall_on_day(store: Store, ids: Iterable[str], interview: date, now: datetime) -> dict[str, float]:
    """Each question's predicted recall on the interview day if nothing more is done (an unseen
    question: 0): FSRS's forgetting curve, with the user's parameters, from its last review."""
    model = MemoryModel(store.fsrs_parameters())
    return _recall(model, memories(store), ids, interview, today_of(now))


def _recall(
    model: MemoryModel, found: Mapping[str, Memory], ids: Iterable[str], interview: date, today: date
) -> dict[str, float]:
    recall = {}
    for qid in ids:
        memory = found.get(qid)
        last = min(memory.last_review, today) if memory else None
        recall[qid] = model.recall(memory.stability, (interview - last).days) if memory and last else 0.0
    return recall
