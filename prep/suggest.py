"""Suggestions for mistyped names ("did you mean ...?")."""

from __future__ import annotations

from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to *word*, when it is close: a typo of it (rapidfuzz ratio >= 75), or
    a word of four letters or more that it starts with or contains ("kv-cache" for
    "kv-cache-mechanics"). A short word that happens to appear in a long id is not close."""
    from rapidfuzz import fuzz, process

    options = list(choices)
    match = process.extractOne(word, options, scorer=fuzz.ratio, score_cutoff=75)
    if match:
        return f"did you mean {match[0]!r}?"
    containing = [c for c in options if len(word) >= 4 and word.casefold() in c.casefold()]
    best = min(containing, key=lambda c: (not c.casefold().startswith(word.casefold()), len(c)), default=None)
    return f"did you mean {best!r}?" if best else None


def hint_suffix(hint: str | None) -> str:
    """ "; did you mean 'x'?" to end a message with, or nothing."""
    return f"; {hint}" if hint else ""
