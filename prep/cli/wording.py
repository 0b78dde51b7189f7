"""Small wording helpers for messages (no heavy imports: used by every command)."""

from __future__ import annotations


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """"1 question", "2 questions", "1 category", "3 categories"."""
    if n == 1:
        return f"{n} {singular}"
    if plural is None:  # "category" -> "categories", but "day" -> "days"
        consonant_y = singular.endswith("y") and singular[-2:-1] not in ("a", "e", "i", "o", "u")
        plural = singular[:-1] + "ies" if consonant_y else singular + "s"
    return f"{n} {plural}"
