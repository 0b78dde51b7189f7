"""The search behind the interview plan: which days each card is introduced and reviewed on.

``Planner`` holds the schedule being built (review days per card) and the time each day has
left; ``plan.make_plan`` drives it. docs/interview.md explains the method and why.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left
from collections.abc import Iterable, Iterator

from prep.review.plan.memory import MemoryModel
from prep.review.plan.value import Card, Outcome, outcome

INTRO_LEAD = 3  # a question is introduced by this many days before the interview: two reviews fit
MAX_REVIEWS = 8  # planned reviews of one card; more would gain next to nothing
FULL = 32  # reviews in a row that no day at all has time for: the days are full
Days = tuple[int, ...]


class Planner:
    """*cards*: the cards seen so far; those introduced join them."""

    def __init__(
        self, model: MemoryModel, cards: dict[str, Card], horizon: int, budget: list[float], first_fail: float
    ) -> None:
        self.model, self.cards, self.horizon, self.first_fail = model, dict(cards), horizon, first_fail
        self.budget = budget  # seconds on each day, today first
        self.used = [0.0] * horizon  # expected seconds planned on each day
        self.spread = [0.0] * horizon  # ... and their variance
        self.rooms = list(budget)  # room(day), kept up to date
        self.most = max(budget, default=0.0)  # the most room any day has
        self.crowded = False  # the last review placed found no day at all with time for one like it
        self.days: dict[str, Days] = dict.fromkeys(cards, ())
        self.outcomes: dict[str, Outcome] = {}
        self._memo: dict[Days, Outcome] = {}  # unseen cards share one memory: an outcome per schedule
        self._intros: dict[float, Outcome] = {}  # an introduction's outcome, by seconds per answer

    def outcome(self, qid: str, days: Days) -> Outcome:
        card = self.cards[qid]
        if not card.new:
            return outcome(self.model, card, days, self.horizon, self.first_fail)
        if days not in self._memo:
            self._memo[days] = outcome(self.model, Card(1.0), days, self.horizon, self.first_fail)
        return self._memo[days].scaled(card.seconds)

    def room(self, day: int) -> float:
        """Seconds a day has left, keeping a standard deviation of its planned time in hand
        (failed answers are answered again), so that a day runs over its budget rarely."""
        return self.rooms[day]

    def fits(self, day: int, seconds: float, variance: float) -> bool:
        if self.rooms[day] < seconds:  # the room keeps a deviation in hand already: no need to look
            return False
        spread = self.spread[day] + variance
        return self.used[day] + seconds + math.sqrt(spread if spread > 0 else 0.0) <= self.budget[day]

    def take(self, qid: str, days: Days) -> None:
        """Give card *qid* the schedule *days*, in place of the one it had."""
        old = self.outcomes.get(qid)
        if old is not None:
            for day, seconds, variance in zip(self.days.get(qid, ()), old.seconds, old.variance):
                self.used[day] -= seconds
                self.spread[day] -= variance
        new = self.outcome(qid, days)
        for day, seconds, variance in zip(days, new.seconds, new.variance):
            self.used[day] += seconds
            self.spread[day] += variance
        for day in {*days, *self.days.get(qid, ())}:
            spread = self.spread[day]
            self.rooms[day] = self.budget[day] - self.used[day] - math.sqrt(spread if spread > 0 else 0.0)
        self.days[qid], self.outcomes[qid] = days, new

    # --- introductions -------------------------------------------------------------------

    def introduce(self, order: list[tuple[str, float]], early: list[float] | None = None) -> None:
        """Each unseen question ((id, seconds per answer), in *order*) on its day of an even
        spread up to INTRO_LEAD days before the interview, or the first day after that with time
        left; none if no day has. *early*: seconds that days were left idle by a first pass,
        given to the next questions first."""
        last = max(0, self.horizon - INTRO_LEAD)
        idle = {d: seconds for d, seconds in enumerate(early or ()) if seconds > 0}  # by day, in order
        least = min((seconds for _qid, seconds in order), default=0.0)
        open_days = list(range(self.horizon))  # days an introduction may still fit on, in order
        stuck: dict[float, int] = {}  # seconds per answer -> the earliest start no day after had room for
        count = len(order)
        for k, (qid, per_answer) in enumerate(order):
            start = k * (last + 1) // count
            if not idle and (open_days[-1] < start or stuck.get(per_answer, self.horizon) <= start):
                continue  # days only fill up: no day from here on has room for this one
            intro = self._intros.get(per_answer) or self._intro(per_answer)
            seconds, variance = intro.seconds[0], intro.variance[0]
            day = None
            if idle:
                day = next(
                    (d for d in idle if d < start and idle[d] >= seconds and self.fits(d, seconds, variance)),
                    None,
                )
            if day is not None:
                idle[day] -= seconds
                if idle[day] < least:
                    del idle[day]
            else:
                after = open_days[bisect_left(open_days, start) :]
                day = next((d for d in after if self.fits(d, seconds, variance)), None)
            if day is None:
                stuck[per_answer] = min(stuck.get(per_answer, self.horizon), start)
                continue
            self.cards[qid] = Card(per_answer)
            self.take(qid, (day,))
            if self.rooms[day] < least and day in open_days:
                open_days.remove(day)
                if not open_days:
                    return

    def _intro(self, seconds: float) -> Outcome:
        intro = self._intros[seconds] = outcome(
            self.model, Card(seconds), (0,), self.horizon, self.first_fail
        )
        return intro

    def idle(self, least: float) -> list[float]:
        """Seconds each day before the last introduction day keeps unused, where an
        introduction of *least* seconds fits."""
        last = max(0, self.horizon - INTRO_LEAD)
        return [self.rooms[d] if d < last and self.rooms[d] >= least else 0.0 for d in range(self.horizon)]

    # --- reviews -------------------------------------------------------------------------

    def add_reviews(self, now: dict[str, float]) -> None:
        """Add reviews one at a time, the largest gain in expected recall on the day per second
        first, as each review would gain on its best day: the day before the interview for a
        card's last review, the middle of the longest gap for one between two others. Each is
        placed on the best day that still has time for it (the latest; the nearest to the
        middle) and kept if it still gains there. Ranked by their best days, the reviews need
        no second look as days fill up: a plan costs about two evaluations per review.

        *now*: each seen card's predicted recall on the day without more reviews."""
        version = dict.fromkeys(self.cards, 0)
        # A card enters with a bound on its gain per second (all it could still gain, in one
        # answer's time) and is evaluated when the bound comes first: a large bank with few
        # minutes left costs little.
        outcomes = self.outcomes
        heap: list[tuple[float, int, str, str, int, float, float]] = [
            (
                ((outcomes[qid].recall if qid in outcomes else now[qid]) - 1) / card.seconds,
                i,
                qid,
                "",
                0,
                0.0,
                0.0,
            )
            for i, (qid, card) in enumerate(self.cards.items())
        ]
        heapq.heapify(heap)
        least = min((card.seconds for card in self.cards.values()), default=0.0)
        self.most = max(self.rooms, default=0.0)
        crowded = 0  # reviews in a row that no day had time for
        while heap and self.most >= least and crowded < FULL:
            _ratio, _tie, qid, kind, seen, seconds, variance = heapq.heappop(heap)
            if seen != version[qid]:
                continue
            if not kind:
                self._push(heap, qid, now.get(qid, 0.0), version[qid])
                continue
            placed = self._place(qid, kind, now.get(qid, 0.0), seconds, variance)
            if placed is None:  # no day has time for it, or it gains nothing where there is
                crowded = crowded + 1 if self.crowded else 0
                continue
            crowded = 0
            self.take(qid, placed)
            self.most = max(self.rooms)
            version[qid] += 1
            if len(placed) < MAX_REVIEWS:
                self._push(heap, qid, now.get(qid, 0.0), version[qid])

    def _current(self, qid: str, now: float) -> float:
        return self.outcomes[qid].recall if qid in self.outcomes else now

    def _push(self, heap: list, qid: str, now: float, version: int) -> None:  # type: ignore[type-arg]
        """Queue each kind of review card *qid* could have next, by its gain per second on its
        best day, if it gains at all."""
        card, days, current = self.cards[qid], self.days[qid], self._current(qid, now)
        for kind in ("last", "gap"):
            day = next(iter(self._days_for(card, days, kind)), None)
            if day is None:
                continue
            candidate = tuple(sorted((*days, day)))
            result = self.outcome(qid, candidate)
            index = candidate.index(day)
            ratio = (result.recall - current) / result.seconds[index]
            if ratio > 1e-9:
                entry = (-ratio, len(heap), qid, kind, version, result.seconds[index], result.variance[index])
                heapq.heappush(heap, entry)

    def _place(self, qid: str, kind: str, now: float, seconds: float, variance: float) -> Days | None:
        """The card's schedule with a review of this kind on the best day with time for it, if
        it still gains there; the days further from its best gain less. *seconds* and
        *variance*: the review's time on its best day, to pass over days without room for it.
        ``crowded`` says afterwards whether no day at all (in its window or not) had the room."""
        card, days, current = self.cards[qid], self.days[qid], self._current(qid, now)
        self.crowded = False
        for day in self._days_for(card, days, kind):
            if not self.fits(day, seconds, variance):
                continue
            candidate = tuple(sorted((*days, day)))
            result = self.outcome(qid, candidate)
            if result.recall <= current + 1e-9:
                return None
            index = candidate.index(day)
            if self.fits(day, result.seconds[index], result.variance[index]):
                return candidate
        self.crowded = not any(self.fits(day, seconds, variance) for day in range(self.horizon))
        return None

    def _days_for(self, card: Card, days: Days, kind: str) -> Iterable[int]:
        """The days a review of this kind could go on, best first: after the card's last review,
        from the day before the interview back; or in the longest gap between two of its
        reviews, from the middle outwards."""
        if kind == "last":
            return range(self.horizon - 1, (days[-1] + 1 if days else max(0, card.day + 1)) - 1, -1)
        anchors = ([] if card.new else [card.day]) + list(days)
        gaps = [(b - a, a, b) for a, b in zip(anchors, anchors[1:]) if max(a + 1, 0) <= b - 1]
        if not gaps:
            return ()
        _width, a, b = max(gaps)
        return _around((a + b) // 2, max(a + 1, 0), b - 1)  # lazily: the first days are what is asked


def _around(centre: int, low: int, high: int) -> Iterator[int]:
    """Days from *centre* outwards, within [low, high]."""
    centre = min(max(centre, low), high)
    yield centre
    for step in range(1, high - low + 1):
        for day in (centre + step, centre - step):
            if low <= day <= high:
                yield day
