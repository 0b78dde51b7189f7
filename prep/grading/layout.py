"""How a question's claims are laid out for matching: every claim word and every phrasing as
matrices, computed once per question, and the sparse table of range maxima that lets every
window of an attempt be scored at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from prep.text import NUMBER, OPPOSITES, negation_heads, phrase_keys, phrase_length, tokenize


@dataclass(frozen=True)
class Layout:
    """Every claim word and every phrasing of a question, laid out once per question as
    matrices over the claim words: each phrasing's word weights (phrasings x words), and the
    words whose polarity or absence refutes it."""

    keys: tuple[str, ...]
    rows: dict[str, np.ndarray]  # phrasing -> its words' columns
    place: dict[str, int]  # phrasing -> its row
    by_width: dict[int, np.ndarray]  # window width -> the rows of the phrasings looked for in it
    width: dict[str, int]  # phrasing -> the window width it is looked for in
    weights: np.ndarray
    # The columns of [words said plainly | said negated | numbers] (3 x words) that any phrasing
    # has, and each such column's phrasings: most claims negate nothing and state no number.
    refuting: np.ndarray
    against: np.ndarray  # refuting columns x phrasings
    # Said the other way round (Matcher.contradicted): a word the phrasing says plainly, met
    # negated or by its opposite; or a word it denies first ("need" of "needs no"), met plainly.
    plain: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    negated_heads: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    # Claim words whose opposite another phrasing says beside them ("keep recent checkpoints
    # local and older ones remote"): an opposite there is the claim's own contrast.
    contrasted: frozenset[str] = frozenset()
    compounds: tuple[tuple[int, int], ...] = ()  # (key column, words) of claim words written hyphenated
    # phrasing -> the columns of its own words, where some of its words are the prompt's (context)
    own: dict[str, np.ndarray] = field(default_factory=dict)


@lru_cache(maxsize=512)
def layout_of(
    phrasings: tuple[str, ...],
    prompt_keys: frozenset[str],
    window_min: int,
    window_factor: float,
    wrong: frozenset[str] = frozenset(),
    wrong_factor: float = 0.0,
) -> Layout:
    phrasings = tuple(p for p in dict.fromkeys(phrasings) if phrase_keys(p)[0])
    keys = tuple(dict.fromkeys(k for p in phrasings for k in phrase_keys(p)[0]))
    index = {k: i for i, k in enumerate(keys)}
    rows = {p: np.array([index[k] for k in phrase_keys(p)[0]], dtype=np.intp) for p in phrasings}
    shape = (len(phrasings), len(keys))
    weights, plain, negated, numbers, heads = (np.zeros(shape, dtype=np.float32) for _ in range(5))
    own: dict[str, np.ndarray] = {}
    contrasted: set[str] = set()
    for i, p in enumerate(phrasings):
        words, negations = phrase_keys(p)
        figures = required_figures(p, prompt_keys)
        # Words the prompt already says are context, not the claim: they count half; so does a
        # count of things the prompt names ("the two phases").
        context = [k in prompt_keys or (NUMBER.fullmatch(k) and k not in figures) for k in words]
        w = np.array([0.5 if c else 1.0 for c in context], dtype=np.float32)
        if any(context) and not all(context):
            own[p] = rows[p][~np.array([bool(c) for c in context])]
        weights[i, rows[p]] = w / w.sum()
        neg = np.array([k in negations for k in words])
        negated[i, rows[p][neg]] = 1.0
        plain[i, rows[p][~neg]] = 1.0
        contrasted |= {k for k in words if OPPOSITES.get(k, frozenset()) & set(words)}
        numbers[i, rows[p][[k in figures for k in words]]] = 1.0
        heads[i, rows[p][[k in negations and k in negation_heads(p) for k in words]]] = 1.0
    width = {
        p: max(window_min, round((wrong_factor if p in wrong else window_factor) * phrase_length(p)))
        for p in phrasings
    }
    against = np.concatenate([plain, negated, numbers], axis=1)
    refuting = np.flatnonzero(against.any(axis=0))
    by_width: dict[int, list[int]] = {}
    for i, p in enumerate(phrasings):
        by_width.setdefault(width[p], []).append(i)
    found = compounds(phrasings, keys)
    return Layout(
        keys,
        rows,
        {p: i for i, p in enumerate(phrasings)},
        {w: np.array(r, dtype=np.intp) for w, r in by_width.items()},
        width,
        weights,
        refuting,
        np.ascontiguousarray(against[:, refuting].T),
        plain,
        heads,
        frozenset(contrasted),
        found,
        own,
    )


def compounds(phrasings: tuple[str, ...], keys: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """Claim words written with hyphens ("memory-bandwidth-bound"), which a claim keeps as one
    word: an attempt may write them as two or three ("memory bandwidth bound")."""
    index = {k: i for i, k in enumerate(keys)}
    found = {}
    for p in phrasings:
        for token in tokenize(p, claim=True):
            parts = [part for part in token.text.split("-") if part]
            if token.content and 2 <= len(parts) <= 3 and token.key in index:
                found[index[token.key]] = len(parts)
    return tuple(sorted(found.items()))


def required_figures(phrasing: str, prompt_keys: frozenset[str]) -> set[str]:
    """The numbers a claim states that an attempt must say: not one the prompt already gives, nor a
    small count of things the prompt names ("the two phases" of a prompt about prefill and decode
    phases): those count what the question fixed, they are not the answer."""
    tokens = [t for t in tokenize(phrasing, claim=True) if t.content]
    required = set()
    for i, token in enumerate(tokens):
        if not NUMBER.fullmatch(token.key) or token.key in prompt_keys:
            continue
        counted = tokens[i + 1].key if i + 1 < len(tokens) else None
        if int(token.key) <= 3 and counted in prompt_keys:
            continue
        required.add(token.key)
    return required


def range_max_table(sim: np.ndarray, widest: int) -> np.ndarray:
    """Sparse table for range maxima along the first axis, for ranges up to *widest* long:
    level k holds max(sim[j : j + 2**k])."""
    n = sim.shape[0]
    levels = max(1, min(widest, n).bit_length())
    table = np.empty((levels, *sim.shape), dtype=sim.dtype)  # level k is read only below n - 2**k + 1
    table[0] = sim
    for k in range(1, levels):
        span = 1 << (k - 1)
        table[k, : n - 2 * span + 1] = np.maximum(
            table[k - 1, : n - 2 * span + 1], table[k - 1, span : n - span + 1]
        )
    return table
