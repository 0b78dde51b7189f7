"""What a schedule of reviews is worth: a card's expected recall on the interview day, and the
time each planned review is expected to take, under the FSRS memory model (``memory``).

A review a day or more after the last one is recalled with FSRS's predicted probability. The
plan counts on the earlier reviews of a schedule being recalled (re-planning at every session
deals with the ones that are not) and takes the last one in expectation: recalled, or
forgotten and answered again at the end of the same session, as `prep drill` brings it back.
A failed answer costs a second answer that day. A new card's first answer fails with the
probability the user's history shows (``first_fail``).

Pure: no clock, no database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from prep.rating import Rating

if TYPE_CHECKING:
    from prep.review.plan.memory import MemoryModel


class Card:
    """A card as the plan sees it: seconds per answer, and its memory (none when unseen) as
    its last review left it, on day *day* (0 today, negative before). A plain class with
    slots: a plan builds one per question, 10,000 of them for a large bank."""

    __slots__ = ("seconds", "stability", "difficulty", "day", "new")

    def __init__(self, seconds: float, stability: float | None = None, difficulty: float = 5.0, day: int = 0):
        self.seconds, self.stability, self.difficulty, self.day = seconds, stability, difficulty, day
        self.new = stability is None


class Outcome(NamedTuple):
    """What a schedule is worth: the expected recall on the day, and for each planned review
    (in the schedule's order) its expected seconds and their variance (a failed answer is
    answered again)."""

    recall: float
    seconds: tuple[float, ...]
    variance: tuple[float, ...]

    def scaled(self, seconds: float) -> Outcome:
        """The same schedule for a card whose answers take *seconds* instead of one."""
        square = seconds * seconds
        return Outcome(
            self.recall,
            tuple([s * seconds for s in self.seconds]),
            tuple([v * square for v in self.variance]),
        )


def outcome(
    model: MemoryModel, card: Card, days: tuple[int, ...], horizon: int, first_fail: float
) -> Outcome:
    """What reviewing *card* on *days* (ascending; today is 0) is worth on day *horizon*; for an
    unseen card the first of the days introduces it."""
    if not card.new:
        assert card.stability is not None
        recall, fails = _follow(model, card.stability, card.difficulty, card.day, days, horizon)
        return _timed(recall, fails, card.seconds)
    if not days:
        return Outcome(0.0, (), ())
    intro, rest = days[0], days[1:]
    good = _follow(model, *model.first(Rating.GOOD), intro, rest, horizon)
    bad = _follow(model, *model.again_today(*model.first(Rating.AGAIN)), intro, rest, horizon)
    p = first_fail
    fails = [p] + [(1 - p) * g + p * b for g, b in zip(good[1], bad[1])]
    return _timed((1 - p) * good[0] + p * bad[0], fails, card.seconds)


def _timed(recall: float, fails: list[float], seconds: float) -> Outcome:
    square = seconds * seconds
    return Outcome(
        recall, tuple([seconds * (1 + f) for f in fails]), tuple([square * f * (1 - f) for f in fails])
    )


def _follow(
    model: MemoryModel, stability: float, difficulty: float, last: int, days: tuple[int, ...], horizon: int
) -> tuple[float, list[float]]:
    """(expected recall on day *horizon*, the chance each review fails), from the memory a
    review on day *last* left."""
    fails = []
    for k, day in enumerate(days):
        recall = model.recall(stability, day - last)
        fails.append(1 - recall)
        if k == len(days) - 1:
            kept = model.kept(stability, difficulty, recall)
            relearned = model.relearned(stability, difficulty, recall)
            left = horizon - day
            return recall * model.recall(kept, left) + (1 - recall) * model.recall(relearned, left), fails
        stability, difficulty = model.after_review(stability, difficulty, recall, Rating.GOOD)
        last = day
    return model.recall(stability, horizon - last), fails
