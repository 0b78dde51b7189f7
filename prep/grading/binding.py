"""Claims bound to their thing: a key point about one of the things a question gives roles to,
credited from a clause that names another of them and not its own, is said of the wrong thing.

"Only the online branch has a predictor head" is credited, word for word, by "the predictor head
is attached to the target network"; the clause names the target network, not the online one.
The clause is the one holding most of the claim's words; where it names no thing and opens with
them ("..., blocking whenever the queue is full"), the clause before it in its sentence names what
it is said of. Only a claim that opens with its thing is about it: "older GPUs lack BF16" is not
a claim about BF16 that "use FP16 on older GPUs" says of FP16.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from prep.grading.swaps import Thing, acts, after_foil, governed, names_in
from prep.text import CLAUSE_BREAK, Token, phrase_keys, sentence_start, stem

_OPENER_KEYS = frozenset(stem(w) for w in ("only", "each", "every", "both", "all"))
_HOME_SHARE = 0.6  # the clause must hold this share of the claim's own words (two at least)


def bound_elsewhere(
    attempt: str,
    tokens: list[Token],
    span: tuple[int, int],
    phrasing: str,
    named: tuple[Thing, ...],
    owner: str | None = None,
) -> str | None:
    """The clause of *attempt* that says *phrasing* (found at character *span*), or a part of it
    ("retrieve with the bi-encoder, then re-rank with the cross-encoder"), of another thing than
    the one thing that part says acts; or None. A phrasing that names no thing (a user's own
    words, "saves activations") is about the thing its key point, *owner*, is about."""
    name_keys = {k for thing in named for k in thing.name} | _OPENER_KEYS
    inherited = _acting(owner, named) if owner and not names_in(phrasing, named) else set()
    for part in _PARTS.split(phrasing):
        acting = _acting(part, named) or inherited
        if len(acting) != 1:
            continue  # only a thing that acts is what a claim is about ("older GPUs lack BF16" is not)
        keys = set(phrase_keys(part)[0]) - name_keys
        said = [t for t in tokens if span[0] <= t.start and t.end <= span[1] and t.content and t.key in keys]
        clause = _said_of_other(attempt, tokens, said, keys, acting, named) if said else None
        if clause is not None:
            return clause
    return None


def _acting(text: str, named: tuple[Thing, ...]) -> set[int]:
    """The one thing a claim names and says acts ({} when it names none or several)."""
    spans = names_in(text, named)
    acting = {k for start, _, k in spans if acts(text, start)}
    return acting if len(acting) == 1 and len({k for _, _, k in spans}) == 1 else set()


def _said_of_other(
    attempt: str,
    tokens: list[Token],
    said: list[Token],
    keys: set[str],
    own: set[int],
    named: tuple[Thing, ...],
) -> str | None:
    """The clause holding most of the words *said* of a claim, when it (or, if it names no thing
    and opens with them, the clause before it in its sentence) names another thing, not *own*."""
    bounds = _clauses(attempt)
    found: dict[int, set[str]] = {}
    for token in said:
        found.setdefault(bisect_right(bounds, token.start) - 1, set()).add(token.key)
    home = max(found, key=lambda i: (len(found[i]), -i))
    if len(found[home]) < max(2, _HOME_SHARE * len(keys)):
        return None  # the clause says too little of the claim to be where it is said
    start = sentence_start(attempt, said[0].start)
    for index in range(home, -1, -1):
        a, b = max(bounds[index], start), bounds[index + 1] if index + 1 < len(bounds) else len(attempt)
        if b <= start:
            break
        clause = attempt[a:b]
        # The things the clause speaks of: "subtracting ... from the weights" is not about weights.
        present = {
            k for s, _, k in names_in(clause, named) if not after_foil(clause, s) and not governed(clause, s)
        }
        if present:
            return clause.strip(" ,;:") if not present & own else None  # names only other things
        first = next((t for t in tokens if t.start >= a and t.content), None)
        if index != home or first is None or first.key not in keys:
            return None  # the clause has a subject of its own that names no thing
    return None


@lru_cache(maxsize=4096)
def claim_parts(phrasing: str) -> tuple[str, ...]:
    """The parts of a claim that are claims of their own ("the teacher is frozen; only the
    student is updated"), when it has more than one; each with two content words at least."""
    pieces = [p.strip() for p in _PARTS.split(phrasing) if p and p.strip()]
    if len(pieces) < 2:
        return ()
    return tuple(p for p in pieces if len(phrase_keys(p)[0]) >= 2)


# Where a claim's parts meet: "...; the target gets no gradients", "..., then re-rank them".
_PARTS = re.compile(r";|,\s*(?:then|while|whereas|but)\b|\s+(?:then|while|whereas)\s+", re.IGNORECASE)


@lru_cache(maxsize=256)
def _clauses(text: str) -> list[int]:
    """Where each clause of the text starts (sentence and clause breaks), in order."""
    starts = {0} | {m.end() for m in CLAUSE_BREAK.finditer(text)} | {m.end() for m in _ENDS.finditer(text)}
    return sorted(starts)


_ENDS = re.compile(r"""(?<=[.!?])["'”’)\]]*\s+|[;\n\r•]+|\s[-–—]\s""")
