"""Key points turned around: the claim with one of its words replaced by its opposite.

"In ACT the oldest prediction gets the largest weight" said as "the newest prediction gets the
largest weight, and the oldest the least" says "oldest" too, so no word of the claim is missing
or negated; the turned claim ("in ACT the newest prediction gets ...") is what those words say
in their order. Each turned claim is looked for like a pitfall: said almost in full, and more
closely in word order than any key point.
"""

from __future__ import annotations

import re
from functools import lru_cache

from prep.text import OPPOSITE_WORD, OPPOSITES, stem

_WORD = re.compile(r"[^\W_](?:[\w'’\-]*[^\W_])?")
_SOME = frozenset({"few", "little"})


@lru_cache(maxsize=4096)
def turned(phrasing: str) -> tuple[tuple[str, str], ...]:
    """The phrasing with each word that has an opposite replaced by it, one at a time, and the key
    of the word written in; not a word whose opposite the phrasing also says ("keep recent
    checkpoints local and older ones remote")."""
    words = list(_WORD.finditer(phrasing))
    keys = [stem(w.group()) for w in words]
    present = set(keys)
    variants: dict[str, str] = {}
    for n, (word, key) in enumerate(zip(words, keys)):
        if n and words[n - 1].group().casefold() == "a" and word.group().casefold() in _SOME:
            continue  # "a few" is some, not "few": no direction to turn
        if key in OPPOSITES and not OPPOSITES[key] & present:
            written = OPPOSITE_WORD[key]
            variants.setdefault(phrasing[: word.start()] + written + phrasing[word.end() :], stem(written))
    return tuple(variants.items())
