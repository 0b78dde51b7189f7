"""Pure scheduling: a thin, serialisable wrapper over the `fsrs` package.

Time is always passed in; nothing here reads the clock, the database or the config file.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from prep.config import SchedulerConfig
from prep.rating import Rating
from prep.state.cards import CardState, utc


@dataclass
class Scheduler:
    config: SchedulerConfig = field(default_factory=SchedulerConfig)

    def __post_init__(self) -> None:
        import fsrs  # deferred: only commands that schedule pay for the import

        kwargs: dict[str, Any] = {
            "desired_retention": self.config.desired_retention,
            "learning_steps": self.config.learning_steps,
            "relearning_steps": self.config.relearning_steps,
            "maximum_interval": self.config.maximum_interval_days,
            "enable_fuzzing": self.config.fuzz,
        }
        if self.config.parameters:
            kwargs["parameters"] = self.config.parameters
        self._fsrs = fsrs
        self._scheduler = fsrs.Scheduler(**kwargs)

    def review(self, card: CardState, rating: Rating, now: datetime) -> CardState:
        """The card after answering it with *rating* at *now* (pure: same inputs, same output
        when fuzzing is off)."""
        fs_card = self._to_fsrs(card)
        updated, _log = self._scheduler.review_card(
            fs_card, self._fsrs.Rating(rating.value), review_datetime=utc(now)
        )
        lapsed = rating == Rating.AGAIN and card.state == 2
        return replace(
            card,
            due=updated.due,
            state=int(updated.state),
            step=updated.step,
            stability=updated.stability,
            difficulty=updated.difficulty,
            last_review=updated.last_review,
            reps=card.reps + 1,
            lapses=card.lapses + (1 if lapsed else 0),
        )

    def retrievability(self, card: CardState, now: datetime) -> float:
        """Probability of recalling the card now (0 for a card never reviewed)."""
        if card.last_review is None:
            return 0.0
        return float(self._scheduler.get_card_retrievability(self._to_fsrs(card), current_datetime=utc(now)))

    def _to_fsrs(self, card: CardState):  # type: ignore[no-untyped-def]
        return self._fsrs.Card(
            card_id=1,
            state=self._fsrs.State(card.state),
            step=card.step,
            stability=card.stability,
            difficulty=card.difficulty,
            due=utc(card.due),
            last_review=utc(card.last_review) if card.last_review else None,
        )
