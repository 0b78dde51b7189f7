"""Pure scheduling: a thin, serialisable wrapper over the `fsrs` package.

Time is always passed in; nothing here reads the clock, the database or the config file. The
fuzz that spreads due dates is drawn from the question and the review's time, not from a random
generator, so that replaying a card's reviews gives the schedule the reviews gave when they were
made, on any device.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from prep.config import SchedulerConfig
from prep.rating import Rating
from prep.state.cards import CardState, new_card, utc


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
        self._scheduler = _seeded_scheduler_class()(**kwargs)

    def review(self, card: CardState, rating: Rating, now: datetime) -> CardState:
        """The card after answering it with *rating* at *now* (pure: same inputs, same output,
        fuzz included)."""
        fs_card = self._to_fsrs(card)
        self._scheduler.fuzz_of = (card.question_id, now)
        updated, _log = self._scheduler.review_card(
            fs_card, self._fsrs.Rating(rating.value), review_datetime=utc(now)
        )
        lapsed = rating == Rating.AGAIN and card.state == 2
        return CardState(  # not dataclasses.replace: a replay makes thousands
            question_id=card.question_id,
            due=updated.due,
            state=int(updated.state),
            step=updated.step,
            stability=updated.stability,
            difficulty=updated.difficulty,
            last_review=updated.last_review,
            reps=card.reps + 1,
            lapses=card.lapses + (1 if lapsed else 0),
        )

    def replay(self, question_id: str, reviews: Sequence[tuple[datetime, int]]) -> list[CardState]:
        """The card after each of its reviews ((time, rating), in time order), from a new card:
        what the reviews give, wherever and in whichever order they were recorded."""
        states: list[CardState] = []
        card: CardState | None = None
        for when, rating in reviews:
            card = self.review(card or new_card(question_id, when), Rating(rating), when)
            states.append(card)
        return states

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


def _fuzz_draw(question_id: str, now: datetime) -> float:
    """A number in [0, 1) fixed by the question and the moment of its review: the fuzz of that
    review, the same each time it is replayed (the moment as whole microseconds: exact)."""
    micros = (utc(now) - _EPOCH) // timedelta(microseconds=1)
    digest = hashlib.sha256(f"{question_id}|{micros}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SEEDED: type | None = None


def _seeded_scheduler_class() -> type:
    """fsrs.Scheduler whose fuzz takes ``fuzz_draw`` for the random number fsrs would draw:
    the same fuzz ranges, a reproducible point in them."""
    global _SEEDED
    if _SEEDED is None:
        import fsrs
        from fsrs.scheduler import FUZZ_RANGES

        class SeededScheduler(fsrs.Scheduler):
            fuzz_of: tuple[str, datetime] = ("", datetime(2000, 1, 1))  # the review being made

            def _get_fuzzed_interval(self, *, interval: timedelta) -> timedelta:
                days = interval.days
                if days < 2.5:  # fsrs leaves short intervals as they are
                    return interval
                delta = 1.0 + sum(
                    r["factor"] * max(min(float(days), r["end"]) - r["start"], 0.0) for r in FUZZ_RANGES
                )
                high = min(round(days + delta), self.maximum_interval)
                low = min(max(2, round(days - delta)), high)
                fuzzed = _fuzz_draw(*self.fuzz_of) * (high - low + 1) + low
                return timedelta(days=min(round(fuzzed), self.maximum_interval))

        _SEEDED = SeededScheduler
    return _SEEDED


def with_parameters(config: SchedulerConfig, parameters: tuple[float, ...] | None) -> Scheduler:
    """The scheduler of *config*, with the personal FSRS weights `prep optimize` saved, if any."""
    return Scheduler(replace(config, parameters=parameters) if parameters else config)
