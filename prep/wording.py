"""Small wording helpers for messages (no heavy imports: used by every command)."""

from __future__ import annotations


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """"1 question", "2 questions", "1 category", "3 categories"."""
    if n == 1:
        return f"{n} {singular}"
    return f"{n} {plural or (singular[:-1] + 'ies' if singular.endswith('y') else singular + 's')}"
