"""Pure scheduling: a thin, serialisable wrapper over the `fsrs` package.

Time is always passed in; nothing here reads the clock, the database or the config file.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

RatingName = Literal["again", "hard", "good", "easy"]
RATINGS: tuple[RatingName, ...] = ("again", "hard", "good", "easy")
RATING_VALUE = {name: i + 1 for i, name in enumerate(RATINGS)}  # FSRS: Again=1 .. Easy=4
STATE_NAMES = {1: "learning", 2: "review", 3: "relearning"}


@dataclass(frozen=True)
class SchedulerConfig:
    desired_retention: float = 0.9
    learning_steps: tuple[timedelta, ...] = (timedelta(minutes=1), timedelta(minutes=10))
    relearning_steps: tuple[timedelta, ...] = (timedelta(minutes=10),)
    maximum_interval_days: int = 36500
    fuzz: bool = True  # spread due dates a little; tests turn it off for determinism
    parameters: tuple[float, ...] | None = None  # personal FSRS weights, else the defaults


@dataclass(frozen=True)
class CardState:
    """Everything FSRS knows about one question, plus counters for stats."""

    question_id: str
    due: datetime
    state: int = 1  # 1 learning, 2 review, 3 relearning (fsrs.State)
    step: int | None = 0
    stability: float | None = None
    difficulty: float | None = None
    last_review: datetime | None = None
    reps: int = 0
    lapses: int = 0

    @property
    def state_name(self) -> str:
        return STATE_NAMES.get(self.state, str(self.state))

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["due"] = format_time(self.due)
        data["last_review"] = format_time(self.last_review) if self.last_review else None
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CardState:
        values = dict(data)
        values["due"] = parse_time(values["due"])
        values["last_review"] = parse_time(values["last_review"]) if values.get("last_review") else None
        return cls(**values)


def new_card(question_id: str, now: datetime) -> CardState:
    return CardState(question_id=question_id, due=_utc(now))


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

    def review(self, card: CardState, rating: RatingName, now: datetime) -> CardState:
        """The card after answering it with *rating* at *now* (pure: same inputs, same output
        when fuzzing is off)."""
        fs_card = self._to_fsrs(card)
        updated, _log = self._scheduler.review_card(
            fs_card, self._fsrs.Rating(RATING_VALUE[rating]), review_datetime=_utc(now)
        )
        lapsed = rating == "again" and card.state == 2
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
        return float(self._scheduler.get_card_retrievability(self._to_fsrs(card), current_datetime=_utc(now)))

    def _to_fsrs(self, card: CardState):  # type: ignore[no-untyped-def]
        return self._fsrs.Card(
            card_id=1,
            state=self._fsrs.State(card.state),
            step=card.step,
            stability=card.stability,
            difficulty=card.difficulty,
            due=_utc(card.due),
            last_review=_utc(card.last_review) if card.last_review else None,
        )


# One fixed, sortable text form for times in the database: lexical order == time order.
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def format_time(moment: datetime) -> str:
    return _utc(moment).strftime(_TIME_FORMAT)


def parse_time(text: str) -> datetime:
    # fromisoformat is C code and reads our format (trailing Z included) ~10x faster than strptime.
    return _utc(datetime.fromisoformat(text))


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
