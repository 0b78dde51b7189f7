"""The answer a card is given: Again, Hard, Good or Easy, numbered as FSRS numbers them.

One type from the key press to the scheduler: the grader suggests one, the drill reads one from
the keyboard, the review log stores its number and ``fsrs.Rating`` takes it as it is. It prints
as its lowercase name ("good"), the word prep shows and writes in its JSON.
"""

from __future__ import annotations

from enum import IntEnum


class Rating(IntEnum):
    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:  # f"{rating}" reads "good", not "3"
        return format(str(self), spec)

    @classmethod
    def parse(cls, text: str) -> Rating | None:
        """A rating typed as its number (1-4) or its name ("good"), in any case; else None."""
        text = text.strip().lower()
        if text in {"1", "2", "3", "4"}:
            return cls(int(text))
        return cls.__members__.get(text.upper()) if text.isalpha() else None

    @classmethod
    def name_of(cls, value: int) -> str | int:
        """The name of a rating stored as its number; a number that is no rating as it is."""
        return str(cls(value)) if value in cls._value2member_map_ else value
