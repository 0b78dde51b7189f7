"""The interview plan: which questions to introduce and review on each day before an interview,
so that as much as possible is remembered on the day, within a daily budget of minutes.

Pure: the questions (id, category, seconds per answer), their card states, today, the interview
date, the budget and the memory model (FSRS, with the user's parameters) in; a ``Plan`` out.
The search is in ``search``, what a schedule is worth in ``value``; docs/interview.md
explains the method and why.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from prep.review.interleave import interleave
from prep.review.plan.search import Planner
from prep.review.plan.value import Card, outcome

if TYPE_CHECKING:
    from prep.bank.cache import IndexRow
    from prep.review.plan.memory import MemoryModel
    from prep.state.cards import CardState

FIRST_FAIL = 0.24  # a new card's first answer is Again this often (FSRS's simulator), until history says
MIN_SHARE_OF_TARGET = 0.25  # the least of its target time an answer is planned to take


class PlanItem(NamedTuple):
    """A question the plan covers: its id, its category and how long an answer should take."""

    id: str
    category: str
    target_seconds: float


def items_of(rows: Iterable[IndexRow]) -> list[PlanItem]:
    """The plan's items for rows of the question index."""
    return [PlanItem(r.id, r.category, r.target_seconds) for r in rows]


class Memory(NamedTuple):
    """A card's state as the plan needs it: FSRS's stability and difficulty, and the local
    calendar day of its last review."""

    stability: float
    difficulty: float
    last_review: date


def memory_of(card: CardState) -> Memory | None:
    """The plan's view of a card state (None for a card that holds no memory yet)."""
    if card.stability is None or card.last_review is None:
        return None
    return Memory(card.stability, card.difficulty or 5.0, card.last_review.astimezone().date())


@dataclass(frozen=True)
class PlanInput:
    items: Sequence[PlanItem]  # the selected questions, in bank order
    cards: Mapping[str, Memory]  # memory states (an unseen question has none)
    today: date  # the local calendar day of "now"
    interview: date
    minutes_per_day: float
    own_seconds: Mapping[str, float] = field(default_factory=dict)  # the user's time per answer, where known
    # Minutes already spent answering today, and the questions answered: shown as today's
    # progress, never taken off today's share (it is planned from the cards as the day began).
    spent_today: float = 0.0
    done: frozenset[str] = frozenset()
    first_fail: float = FIRST_FAIL
    at_risk_below: float = 0.9  # predicted recall on the day under which a question is at risk


@dataclass
class PlanDay:
    date: date
    new: list[str] = field(default_factory=list)
    reviews: list[str] = field(default_factory=list)
    seconds: float = 0.0  # expected: failed answers are answered again
    new_seconds: float = 0.0  # ... of which introducing the new questions

    @property
    def minutes(self) -> float:
        return self.seconds / 60


@dataclass(frozen=True)
class CategoryReadiness:
    category: str
    questions: int
    unseen: int
    now: float  # mean predicted recall on the day if nothing more is done
    with_plan: float  # ... and if the plan is followed


class TodayPart(NamedTuple):
    """Today's part of a plan as `prep plan`, `prep next` and a drill's opening line count it:
    its reviews and new questions as planned when the day began, how many of them are answered,
    and the questions answered before and due again that a drill asks on top of them, with the
    minutes those take."""

    reviews: int
    new: int
    minutes: float
    answered: int
    due_again: int
    due_again_minutes: float

    def counts(self) -> dict[str, int]:
        """What `prep next --json` says of it."""
        keys = ("reviews", "new", "answered", "due_again")
        return {key: getattr(self, key) for key in keys}


@dataclass
class Plan:
    today: date
    interview: date
    minutes_per_day: float
    questions: int
    unseen: int
    days: list[PlanDay]  # today to the day before the interview
    schedule: dict[str, tuple[date, ...]]  # the days the plan reviews a question (absent: none)
    recall_now: dict[str, float]  # predicted recall on the day if nothing more is done (absent: 0)
    recall_planned: dict[str, float]  # ... and if the plan is followed (absent: 0)
    categories: list[CategoryReadiness]
    at_risk: list[str]  # under at_risk_below with the plan, lowest first
    spent_today: float = 0.0  # minutes already answered today
    at_risk_below: float = 0.9
    done: frozenset[str] = frozenset()  # questions answered today: today's share less these is left
    # Questions answered before and due again now (FSRS's learning steps), with the seconds an
    # answer takes: a drill asks them first, on top of what is left of today's share.
    again: dict[str, float] = field(default_factory=dict)

    @property
    def days_left(self) -> int:
        return (self.interview - self.today).days

    @property
    def expected_now(self) -> float:
        """Mean predicted recall on the day over all the questions, an unseen one counting 0."""
        return sum(self.recall_now.values()) / self.questions if self.questions else 0.0

    @property
    def expected_with_plan(self) -> float:
        return sum(self.recall_planned.values()) / self.questions if self.questions else 0.0

    def share(self) -> list[str]:
        """Today's part of the plan, answered or not: its reviews, then its new questions."""
        return [*self.days[0].reviews, *self.days[0].new] if self.days else []

    def today_ids(self) -> tuple[list[str], list[str]]:
        """What is left of today's part: its reviews not answered yet, the least likely to be
        recalled on the day first, and its new questions not answered yet, weakest category
        first."""
        if not self.days:
            return [], []
        done, now = self.done, self.recall_now
        reviews = sorted(
            (qid for qid in self.days[0].reviews if qid not in done), key=lambda q: now.get(q, 0.0)
        )
        return reviews, [qid for qid in self.days[0].new if qid not in done]

    def again_extra(self) -> dict[str, float]:
        """The questions due again that what is left of today's part does not hold: what a
        drill asks on top of it (one that is also a planned question is asked once, as such)."""
        pending = set(self.share()) - self.done
        return {qid: seconds for qid, seconds in self.again.items() if qid not in pending}

    def today_part(self) -> TodayPart:
        """Today's part, as it is shown (see ``TodayPart``)."""
        today = self.days[0] if self.days else PlanDay(self.today)
        extra = self.again_extra()
        answered = sum(1 for qid in self.share() if qid in self.done)
        return TodayPart(
            len(today.reviews), len(today.new), today.minutes, answered, len(extra), sum(extra.values()) / 60
        )

    def to_dict(self) -> dict[str, Any]:
        """`prep plan --json`, and the `interview` object of `prep stats --json`."""
        today = self.today_part()
        return {
            "interview": self.interview.isoformat(),
            "days_left": self.days_left,
            "minutes_per_day": self.minutes_per_day,
            "questions": self.questions,
            "unseen": self.unseen,
            "expected_recall_on_day": {
                "now": round(self.expected_now, 4),
                "with_plan": round(self.expected_with_plan, 4),
            },
            "days": [
                {
                    "date": d.date.isoformat(),
                    "new": len(d.new),
                    "reviews": len(d.reviews),
                    "minutes": round(d.minutes, 1),
                }
                for d in self.days
            ],  # fmt: skip
            "at_risk": list(self.at_risk),
            "due_again": {"questions": today.due_again, "minutes": round(today.due_again_minutes, 1)},
        }


@dataclass
class _Scan:
    """The questions as the planner starts from them, read in one pass."""

    seen: dict[str, Card] = field(default_factory=dict)
    now: dict[str, float] = field(default_factory=dict)  # seen cards' recall on the day, as they are
    unseen: list[tuple[str, str, float]] = field(default_factory=list)  # id, category, seconds; bank order
    category_of: dict[str, str] = field(default_factory=dict)
    figures: dict[str, list[float]] = field(
        default_factory=dict
    )  # questions, unseen, recall now: per category


@contextmanager
def gc_paused() -> Iterator[None]:
    """Planning allocates many small objects that hold no cycles; the cyclic garbage collector
    would scan them (and the bank's 10,000 index rows) again and again and free nothing."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def make_plan(data: PlanInput, model: MemoryModel) -> Plan:
    """The plan from *data*'s today to the day before the interview.

    1. Unseen questions are introduced by INTRO_LEAD days before the interview, spread evenly,
       weakest category first; a day left idle by a first pass takes the next ones early.
    2. Reviews are added greedily where they raise the expected recall on the day the most per
       second, each day holding its budget (see ``search``).
    """
    with gc_paused():
        return _make_plan(data, model)


def _make_plan(data: PlanInput, model: MemoryModel) -> Plan:
    horizon = max(0, (data.interview - data.today).days)
    scan = _scan(data, model, horizon)
    budget = [data.minutes_per_day * 60.0] * horizon
    # What an introduction is worth on the day, with no review after it: what a category gains
    # by one more of its questions, in the order of introductions.
    order = _intro_order(
        scan, outcome(model, Card(1.0), (0,), horizon, data.first_fail).recall if horizon else 0
    )
    planner = Planner(model, scan.seen, horizon, budget, data.first_fail)
    if horizon:
        planner.introduce(order)
        planner.add_reviews(scan.now)
        idle = planner.idle(min((seconds for _qid, seconds in order), default=0.0))
        if order and any(idle):  # start again, with the idle time given to new questions
            planner = Planner(model, scan.seen, horizon, budget, data.first_fail)
            planner.introduce(order, idle)
            planner.add_reviews(scan.now)
    return _result(data, scan, planner)


def _scan(data: PlanInput, model: MemoryModel, horizon: int) -> _Scan:
    """The questions read once: each seen one's card (time per answer: the user's own, else its
    target) and recall on the day as it is, the unseen ones, and each category's figures. Bulk
    passes where they can be: a large bank is mostly questions nobody has seen yet."""
    items, memories, own = data.items, data.cards, data.own_seconds
    category_of = dict(map(itemgetter(0, 1), items))
    scan = _Scan(category_of=category_of)
    scan.unseen = [
        (qid, category, answer_seconds(own.get(qid), target))
        for qid, category, target in items
        if qid not in memories
    ]
    never = Counter(map(itemgetter(1), scan.unseen))
    scan.figures = {
        category: [n, never[category], 0.0] for category, n in Counter(category_of.values()).items()
    }
    today, recall, figures = data.today.toordinal(), model.recall, scan.figures
    for qid, category, target in (item for item in items if item[0] in memories):
        memory = memories[qid]
        day = min(0, memory.last_review.toordinal() - today)
        scan.seen[qid] = Card(answer_seconds(own.get(qid), target), memory.stability, memory.difficulty, day)
        figures[category][2] += (now := recall(memory.stability, horizon - day))
        scan.now[qid] = now
    return scan


def answer_seconds(own: float | None, target: float) -> float:
    """Time per answer: the user's own, but not under a quarter of the target, where one quick
    skip or "no idea" would make the question look nearly free."""
    return max(own, target * MIN_SHARE_OF_TARGET) if own else float(target)


def _intro_order(scan: _Scan, value: float) -> list[tuple[str, float]]:
    """Unseen questions (id, seconds per answer) in the order they are introduced: the next one
    always of the category weakest on the day so far, its recall now (an unseen question
    counting 0) plus *value* for each of its questions already in the order, over its number of
    questions. Categories equally weak take turns, in bank order; a category's own questions
    come in bank order. A category a few questions into its preparation waits only until the
    others have caught up with it, and a plan that cannot introduce every question leaves out
    the last ones of every category alike, never one category's whole remainder."""
    waiting: dict[str, list[tuple[str, float]]] = {}
    for qid, category, seconds in scan.unseen:
        waiting.setdefault(category, []).append((qid, seconds))
    figures = scan.figures
    return interleave(
        {category: waiting[category] for category in figures if category in waiting},
        {category: recall / questions for category, (questions, _unseen, recall) in figures.items()},
        {category: value / questions for category, (questions, _unseen, _recall) in figures.items()},
    )


def _result(data: PlanInput, scan: _Scan, planner: Planner) -> Plan:
    days = [PlanDay(data.today + timedelta(days=d)) for d in range(planner.horizon)]
    planned = dict(scan.now)
    schedule: dict[str, tuple[date, ...]] = {}
    for qid, result in planner.outcomes.items():
        chosen = planner.days[qid]
        planned[qid] = result.recall
        schedule[qid] = tuple(days[d].date for d in chosen)
        for i, (day, seconds) in enumerate(zip(chosen, result.seconds)):
            if i == 0 and qid not in scan.seen:
                days[day].new.append(qid)
                days[day].new_seconds += seconds
            else:
                days[day].reviews.append(qid)
            days[day].seconds += seconds
    return Plan(
        today=data.today,
        interview=data.interview,
        minutes_per_day=data.minutes_per_day,
        questions=len(data.items),
        unseen=len(scan.unseen),
        days=days,
        schedule=schedule,
        recall_now=scan.now,
        recall_planned=planned,
        categories=_categories(scan, planned),
        at_risk=_at_risk((item.id for item in data.items), planned, data.at_risk_below),
        spent_today=data.spent_today,
        at_risk_below=data.at_risk_below,
        done=data.done,
    )


def _at_risk(ids: Iterable[str], planned: Mapping[str, float], below: float) -> list[str]:
    """The questions the plan never reaches (recall 0 on the day), in bank order, then those
    under *below* on the day with the plan, lowest first."""
    never = [qid for qid in ids if qid not in planned]
    return never + sorted((q for q, r in planned.items() if r < below), key=planned.__getitem__)


def as_now(plan: Plan, items: Sequence[PlanItem], changed: Mapping[str, float]) -> Plan:
    """*plan*, made from the cards as the day began (so that today's part stays put while it is
    answered), with its figures "now" as the cards are: *changed* holds the recall on the day,
    if nothing more is done, of each question answered since. What was answered counts in them,
    and in the recall with the plan where it did more than the plan counted on."""
    if not changed:
        return plan
    now, planned = dict(plan.recall_now), dict(plan.recall_planned)
    shift: dict[str, list[float]] = {}  # per category: unseen, now, with plan (the differences)
    for qid, category, _seconds in items:
        if qid not in changed:
            continue
        recall, was_planned = changed[qid], planned.get(qid, 0.0)
        row = shift.setdefault(category, [0, 0.0, 0.0])
        row[0] -= qid not in now
        row[1] += recall - now.get(qid, 0.0)
        now[qid] = recall
        if recall > was_planned:
            planned[qid] = recall
            row[2] += recall - was_planned
    categories = []
    for c in plan.categories:
        unseen, more_now, more_planned = shift.get(c.category, (0, 0.0, 0.0))
        n = c.questions
        categories.append(
            replace(
                c,
                unseen=c.unseen + int(unseen),
                now=c.now + more_now / n,
                with_plan=c.with_plan + more_planned / n,
            )
        )
    return replace(
        plan,
        unseen=plan.unseen + sum(int(row[0]) for row in shift.values()),
        recall_now=now,
        recall_planned=planned,
        categories=categories,
        at_risk=_at_risk((item.id for item in items), planned, plan.at_risk_below),
    )


def _categories(scan: _Scan, planned: Mapping[str, float]) -> list[CategoryReadiness]:
    """Per category, in the order of the scan."""
    with_plan = dict.fromkeys(scan.figures, 0.0)
    for qid, recall in planned.items():
        with_plan[scan.category_of[qid]] += recall
    return [
        CategoryReadiness(category, int(count), int(unseen), now / count, with_plan[category] / count)
        for category, (count, unseen, now) in scan.figures.items()
    ]
