"""Suggestions for mistyped names ("did you mean ...?")."""

from __future__ import annotations

from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    from rapidfuzz import process

    match = process.extractOne(word, list(choices), score_cutoff=75)
    return f"did you mean {match[0]!r}?" if match else None


def hint_suffix(hint: str | None) -> str:
    """ "; did you mean 'x'?" to end a message with, or nothing."""
    return f"; {hint}" if hint else ""
