"""A card's scheduling state as the state database stores it, and the one text form of times.

Plain data with no FSRS import: the store reads and writes it, the scheduler computes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

STATE_NAMES = {1: "learning", 2: "review", 3: "relearning"}


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
        # Field by field, not dataclasses.asdict, which deep-copies each value: a replay of a
        # shared history writes thousands of these.
        data = {name: getattr(self, name) for name in _FIELDS}
        data["due"] = format_time(self.due)
        data["last_review"] = format_time(self.last_review) if self.last_review else None
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CardState:
        values = dict(data)
        values["due"] = parse_time(values["due"])
        values["last_review"] = parse_time(values["last_review"]) if values.get("last_review") else None
        return cls(**values)


_FIELDS = tuple(CardState.__dataclass_fields__)


def new_card(question_id: str, now: datetime) -> CardState:
    return CardState(question_id=question_id, due=utc(now))


# One fixed, sortable text form for times in the database: lexical order == time order
# ("2026-03-02T09:00:00.000000Z").


def format_time(moment: datetime) -> str:
    # isoformat is C code and several times faster than strftime (a replay formats thousands).
    return utc(moment).isoformat(timespec="microseconds")[:-6] + "Z"


def parse_time(text: str) -> datetime:
    # fromisoformat is C code and reads our format (trailing Z included) ~10x faster than strptime.
    return utc(datetime.fromisoformat(text))


def utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
