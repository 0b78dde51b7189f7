"""The memory model the interview plan predicts with: FSRS, in whole days.

A card's memory is its stability (days until recall falls to 90%) and difficulty; how likely it
is to be recalled *t* days after its last review is FSRS's forgetting curve. The parameters are
those of the `fsrs` package's scheduler (the one `prep drill` schedules with, with the user's
own after `prep optimize`), which validates them and derives the curve's constants.

Each step is the one the `fsrs` scheduler takes (``Scheduler._next_stability``,
``_short_term_stability``, ``_next_difficulty``, ``get_card_retrievability``), written out over
its parameters: a plan of a large bank evaluates them a hundred thousand times, and the fsrs
methods, with their keyword arguments, clamps and rating enums, cost five times as much. The
tests hold every step equal to fsrs's own, for default and for fitted parameters.

Pure: no clock, no database.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from prep.rating import Rating

STABILITY_MIN, DIFFICULTY_MIN, DIFFICULTY_MAX = 0.001, 1.0, 10.0  # fsrs's clamps


class MemoryModel:
    """FSRS at day resolution."""

    def __init__(self, parameters: Sequence[float] | None = None) -> None:
        import fsrs

        kwargs = {"parameters": tuple(parameters)} if parameters else {}
        self.scheduler = fsrs.Scheduler(**kwargs, enable_fuzzing=False)  # validates the parameters
        w = self.w = self.scheduler.parameters
        self.decay: float = self.scheduler._DECAY
        self.factor: float = self.scheduler._FACTOR
        self._recall_scale = math.exp(w[8])
        self._easiest = w[4] - math.exp(w[5] * 3) + 1  # the initial difficulty of Easy, unclamped
        self._lapse_cap = math.exp(w[17] * w[18])

    def recall(self, stability: float, days: int) -> float:
        """Retrievability *days* whole days after a review that left *stability*
        (``get_card_retrievability``)."""
        return (1 + self.factor * (days if days > 0 else 0) / stability) ** self.decay

    def first(self, rating: Rating = Rating.GOOD) -> tuple[float, float]:
        """Stability and difficulty after a new card's first answer."""
        w = self.w
        stability = max(w[rating - 1], STABILITY_MIN)
        return stability, _clamp(w[4] - math.exp(w[5] * (rating - 1)) + 1)

    def again_today(
        self, stability: float, difficulty: float, rating: Rating = Rating.GOOD
    ) -> tuple[float, float]:
        """After answering once more the same day (a card rated Again comes back at the end of
        the session): FSRS's short-term stability."""
        return self._same_day(stability, rating), self.difficulty(difficulty, rating)

    def after_review(
        self, stability: float, difficulty: float, recall: float, rating: Rating = Rating.GOOD
    ) -> tuple[float, float]:
        """After a review a day or more later, answered with *rating* when recall was *recall*."""
        if rating == Rating.AGAIN:
            return self._forgot(stability, difficulty, recall), self.difficulty(difficulty, rating)
        return self._recalled(stability, difficulty, recall, rating), self.difficulty(difficulty, rating)

    def lapse(self, stability: float, difficulty: float, recall: float) -> tuple[float, float]:
        """Forgotten at a review (Again), then answered Good when it comes back the same day."""
        return self.again_today(*self.after_review(stability, difficulty, recall, Rating.AGAIN))

    # The stability alone, for a last review (no later review needs its difficulty).

    def kept(self, stability: float, difficulty: float, recall: float) -> float:
        """``after_review(...)[0]`` for an answer rated Good."""
        return self._recalled(stability, difficulty, recall, Rating.GOOD)

    def relearned(self, stability: float, difficulty: float, recall: float) -> float:
        """``lapse(...)[0]``."""
        return self._same_day(self._forgot(stability, difficulty, recall), Rating.GOOD)

    # --- fsrs's steps ----------------------------------------------------------------------

    def difficulty(self, difficulty: float, rating: Rating) -> float:
        """``_next_difficulty``: a step by rating, damped near 10, reverting to Easy's."""
        w = self.w
        damped = difficulty + (10.0 - difficulty) * -(w[6] * (rating - 3)) / 9.0
        return _clamp(w[7] * self._easiest + (1 - w[7]) * damped)

    def _recalled(self, stability: float, difficulty: float, recall: float, rating: Rating) -> float:
        """``_next_stability`` for Hard, Good or Easy (``_next_recall_stability``)."""
        w = self.w
        bonus = w[15] if rating == Rating.HARD else w[16] if rating == Rating.EASY else 1
        grown = stability * (
            1
            + self._recall_scale
            * (11 - difficulty)
            * stability ** -w[9]
            * (math.exp((1 - recall) * w[10]) - 1)
            * bonus
        )
        return grown if grown > STABILITY_MIN else STABILITY_MIN

    def _forgot(self, stability: float, difficulty: float, recall: float) -> float:
        """``_next_stability`` for Again (``_next_forget_stability``)."""
        w = self.w
        long_term = (
            w[11] * difficulty ** -w[12] * ((stability + 1) ** w[13] - 1) * math.exp((1 - recall) * w[14])
        )
        forgot = min(long_term, stability / self._lapse_cap)
        return forgot if forgot > STABILITY_MIN else STABILITY_MIN

    def _same_day(self, stability: float, rating: Rating) -> float:
        """``_short_term_stability``."""
        w = self.w
        increase = math.exp(w[17] * (rating - 3 + w[18])) * stability ** -w[19]
        if rating != Rating.AGAIN and increase < 1.0:
            increase = 1.0
        after = stability * increase
        return after if after > STABILITY_MIN else STABILITY_MIN


def _clamp(difficulty: float) -> float:
    return min(max(difficulty, DIFFICULTY_MIN), DIFFICULTY_MAX)
