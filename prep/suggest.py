"""Suggestions for mistyped names ("did you mean ...?")."""

from __future__ import annotations

from collections.abc import Iterable

# The kinds of question; here (not in models) so light modules can use them without pydantic.
KINDS: tuple[str, ...] = ("technical", "behavioral", "strategy", "ask")


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    from rapidfuzz import process

    match = process.extractOne(word, list(choices), score_cutoff=75)
    return f"did you mean {match[0]!r}?" if match else None
