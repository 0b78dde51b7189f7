"""A bare list of keywords makes no claim: "NCCL, all-reduce, ring, bandwidth" names the right
terms and says nothing about them, so it cannot pass however many it names."""

from __future__ import annotations

import re

from prep.grading.settings import Settings
from prep.text import Token, word_count


def is_keyword_list(attempt: str, tokens: list[Token], settings: Settings) -> bool:
    """Bare terms separated by commas or lines: almost no item states anything.

    An item states something when it has a few words ("GIL serializes threads") or a relation
    written as notation ("DP = 256/32", "grads -> all-reduce"); terse notes are full of such
    items, a keyword list has none. Prose glue words are the second signal.
    """
    if not tokens:
        return False
    function_share = sum(not t.content for t in tokens) / len(tokens)
    if function_share >= settings.list_max_function_share:
        return False  # prose: cheap to tell, so told first
    items = [i for i in _LIST_ITEM.split(attempt) if i.strip()]
    if len(items) < 3:
        return False
    lengths = [word_count(i) for i in items]
    if sum(n >= settings.list_sentence_words for n in lengths) >= 2:
        return False  # "Record the lockfile of all deps, image digest, ..." enumerates inside a claim
    claims = sum(1 for i, n in zip(items, lengths) if n >= settings.list_claim_words or _RELATION.search(i))
    return claims / len(items) < settings.list_max_claim_share


_RELATION = re.compile(r"=|->|→|=>|<|>|~|≈|\bvs\b|\bx\b|\d\s*[*/+]\s*\d")
_LIST_ITEM = re.compile(r"[,;\n/|•]+|\.\s|\s-\s|\band\b")
