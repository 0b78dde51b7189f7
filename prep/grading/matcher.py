"""Finding claims in an attempt: the word-level matching behind the grader.

Each claim (a key point's text or alias, a pitfall, a sentence of the prepared answer) is looked
for in *windows* of the attempt: runs of consecutive words inside one sentence, about twice as
long as the claim. A window's coverage of a claim is the weighted share of the claim's content
words it says (stemmed, typo-tolerant), counting only windows that say the claim with its
polarity and its numbers. All claims of a question are laid out once, and all windows are
scored at once from one similarity matrix. Where the prompt contrasts subjects, a key point
about one counts only the words said of it. docs/grading.md explains the choices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Prefix

from prep.bank.schema import Claim
from prep.grading.layout import layout_of, range_max_table
from prep.grading.point import PointResult
from prep.grading.subjects import FOILS
from prep.text import CLAUSE_BREAK, OPPOSITES, key_set, ordered_keys, stem, tokenize

if TYPE_CHECKING:
    from prep.grading.settings import Settings

__all__ = ["Matcher", "PointResult"]


class Matcher:
    """One attempt, compared against many short claims with a single similarity matrix.

    A claim is looked for in *windows* of the attempt: runs of consecutive words inside one
    sentence, about twice as long as the claim. A claim's words scattered along a long sentence
    are not the claim, any more than scattered across sentences."""

    def __init__(self, attempt: str, prompt: str, settings: Settings) -> None:
        self.attempt = attempt
        self.settings = settings
        self.tokens = tokenize(attempt)
        self.prompt_keys = key_set(prompt)
        n = len(self.tokens)
        # Tokens come in sentence order, so each sentence is a contiguous run of columns.
        sentence_ids = np.array([t.sentence for t in self.tokens], dtype=np.intp)
        last = np.flatnonzero(np.append(sentence_ids[1:] != sentence_ids[:-1], True)) if n else sentence_ids
        self.sentence_end = np.repeat(last + 1, np.diff(np.append(-1, last))) if n else sentence_ids
        self.negated = np.array([t.negated for t in self.tokens], dtype=bool)
        self.sim = np.zeros((0, n), dtype=np.float32)
        self.layout = layout_of((), frozenset(), settings.window_min, settings.window_factor)
        self._table = np.zeros((1, n, 0), dtype=np.float32)
        self._polar = False
        self._windowed: tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, tuple[int, int]]] | None = None
        self._whole: np.ndarray | None = None
        self._best: tuple[np.ndarray, np.ndarray] | None = None
        self._subject_of: dict[str, str] = {}
        self._said_of, self._bit = np.zeros(0, dtype=np.int64), {}
        self._mine: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._order_cache: dict[tuple[str, int, int], float] = {}
        self._flips: tuple[np.ndarray, np.ndarray] | None = None
        self.opposite = np.zeros((0, n), dtype=np.float32)  # claim words met by their opposite
        self._polar_keys = np.zeros(0, dtype=np.intp)  # claim words met negated or by an opposite

    def prepare(self, phrasings: list[str], wrong: frozenset[str] = frozenset()) -> None:
        """Compute word similarities of every claim word against every attempt word at once."""
        self.layout = layout_of(
            tuple(phrasings),
            self.prompt_keys,
            self.settings.window_min,
            self.settings.window_factor,
            wrong,
            self.settings.pitfall_window_factor,
        )
        keys = self.layout.keys
        if not self.tokens or not keys:
            return
        # Each distinct (word, is content) of the attempt is compared once.
        distinct: dict[tuple[str, bool], int] = {}
        column = np.array([distinct.setdefault((t.key, t.content), len(distinct)) for t in self.tokens])
        words = [w for w, _ in distinct]
        content = np.array([c for _, c in distinct])
        key_index = {k: i for i, k in enumerate(keys)}
        exact = np.zeros((len(keys), len(words)), dtype=bool)
        for j, w in enumerate(words):
            if w in key_index:
                exact[key_index[w], j] = True
        sim = exact.astype(np.float32)
        # Small words of the attempt only count, exactly, for claims made of small words.
        said = [w for w, c in distinct if c]
        if said:
            fuzzy = process.cdist(
                keys, said, scorer=fuzz.ratio, score_cutoff=self.settings.word_similarity, dtype=np.float32
            ) / np.float32(100.0)
            # One word a prefix of the other ("reus" / "reusabl"): the same root, derived differently.
            common = process.cdist(keys, said, scorer=Prefix.similarity, dtype=np.int32)
            key_len = np.array([len(k) for k in keys])[:, None]
            word_len = np.array([len(w) for w in said])[None, :]
            derived = (common >= self.settings.min_root) & (common == np.minimum(key_len, word_len))
            fuzzy = np.maximum(
                fuzzy, np.where(derived, np.float32(self.settings.root_similarity), np.float32(0.0))
            )
            # Short words must match exactly: "tp" is not "dp", "pp" is not "ppo".
            short = (key_len < self.settings.exact_below) | (word_len < self.settings.exact_below)
            fuzzy[short & ~exact[:, content]] = 0.0
            sim[:, content] = fuzzy
        sim = sim[:, column]
        self._join_compounds(sim)
        self.sim = sim
        by_polarity = self._by_polarity(sim, keys)
        widest = max(self.layout.width.values(), default=1)
        self._table = range_max_table(np.ascontiguousarray(by_polarity), widest)

    def _by_polarity(self, sim: np.ndarray, keys: tuple[str, ...]) -> np.ndarray:
        """Each claim word's matches by polarity, attempt words as rows (see prepare)."""
        # Said plainly, and under a negation; attempt words as rows (words x [any | plain |
        # negated | ...] claim words) so a window's rows are read at once. An attempt that negates
        # nothing and says no opposite says every word plainly: the any-polarity rows suffice.
        opposite = self._opposites(keys)
        # Only the claim words met under a negation or by an opposite have a polarity to check;
        # the rest are said plainly wherever they are said (most words of most answers).
        self._polar_keys = np.flatnonzero((sim * self.negated).any(axis=1) | opposite.any(axis=1))
        self._polar = bool(len(self._polar_keys))
        if self._polar:
            # A claim word met by its opposite ("raising" for "lower") is met with the other polarity.
            plain, negated = ~self.negated, self.negated
            self.opposite = opposite
            ks = self._polar_keys
            by_polarity = np.concatenate(
                [
                    np.maximum(sim, opposite),
                    np.maximum(sim[ks] * plain, opposite[ks] * negated),
                    np.maximum(sim[ks] * negated, opposite[ks] * plain),
                ]
            ).T
        else:
            by_polarity = sim.T
        return by_polarity

    def _opposites(self, keys: tuple[str, ...]) -> np.ndarray:
        """Claim words (rows) met by their opposite in the attempt (columns): exact keys only."""
        columns: dict[str, list[int]] = {}
        for j, token in enumerate(self.tokens):
            if token.content:
                columns.setdefault(token.key, []).append(j)
        opposite = np.zeros((len(keys), len(self.tokens)), dtype=np.float32)
        for row, key in enumerate(keys):
            if key in self.layout.contrasted:
                continue
            for other in OPPOSITES.get(key, ()):
                opposite[row, columns.get(other, [])] = 1.0
        return opposite

    def _join_compounds(self, sim: np.ndarray) -> None:
        """A hyphenated claim word met by consecutive words of one sentence of the attempt: each
        of them counts as saying it."""
        if not self.layout.compounds:
            return
        for parts in sorted({p for _, p in self.layout.compounds}):
            starts, joined = self._runs(parts)
            if not starts:
                continue
            columns = [c for c, p in self.layout.compounds if p == parts]
            keys = [self.layout.keys[c] for c in columns]
            scores = process.cdist(
                keys, joined, scorer=fuzz.ratio, score_cutoff=self.settings.word_similarity
            )
            for row, col in zip(*np.nonzero(scores)):
                value = scores[row, col] / 100
                at = starts[col]
                sim[columns[row], at : at + parts] = np.maximum(sim[columns[row], at : at + parts], value)

    def _runs(self, parts: int) -> tuple[list[int], list[str]]:
        """Each run of *parts* consecutive written words within a sentence, as one joined word."""
        words = [i for i, t in enumerate(self.tokens) if i == 0 or t.start != self.tokens[i - 1].start]
        starts, joined = [], []
        for k in range(len(words) - parts + 1):
            run = [self.tokens[i] for i in words[k : k + parts]]
            if run[0].sentence == run[-1].sentence:
                starts.append(words[k])
                joined.append(stem("".join(t.text for t in run)))
        return starts, joined

    def set_subjects(
        self, subjects: tuple[str | None, ...], claims: list[Claim], aliases: dict[str, str] | None = None
    ) -> None:
        """Tie each key point about one of the subjects a question contrasts to that subject, and
        work out which subject each word of the attempt is said of (by any of its names)."""
        self._subject_of = {c.text: s for s, c in zip(subjects, claims) if s}
        aliases = aliases or {}
        names = tuple(dict.fromkeys(self._subject_of.values()))
        if not names or not self.tokens:
            return
        # Each word is said of the subject(s) that opened its clause, or an earlier clause of its
        # sentence: "X and Y do Z" names both, and a name further into a clause ("splits the
        # whole sequence") or after a foil ("Y, unlike X, does Z") is not a new subject.
        breaks = [m.start() for m in CLAUSE_BREAK.finditer(self.attempt)] + [len(self.attempt) + 1]
        glue = self.prompt_keys | {"and", "or"}  # "strong and weak scaling", "SP or CP"
        said_of = np.zeros(len(self.tokens), dtype=np.int64)
        current, sentence, last, opened, b = 0, -1, -1, False, 0
        for i, token in enumerate(self.tokens):
            if token.sentence != sentence:
                current, sentence, last, opened = 0, token.sentence, -1, False
            while breaks[b] < token.start:
                b, opened = b + 1, False  # a new clause
            if last >= 0 and token.start == self.tokens[last].start:
                pass  # another reading of the name just seen ("TP" is "tensor parallel")
            elif aliases.get(token.key, token.key) in names:
                start = self.tokens[last].start if last >= 0 else -1
                joined = last >= 0 and {t.key for t in self.tokens[last + 1 : i] if t.start != start} <= glue
                if joined or (not opened and not self._after_foil(i)):
                    bit = 1 << names.index(aliases.get(token.key, token.key))
                    current = current | bit if joined else bit
                    last = i
            elif token.content:
                opened = True
            said_of[i] = current
        self._said_of = said_of
        self._bit = {name: 1 << k for k, name in enumerate(names)}

    def _after_foil(self, i: int) -> bool:
        """Whether one of the two words written before token *i*, in its sentence, is a foil."""
        before: dict[int, str] = {}  # start -> word: one written word can be several tokens
        for token in reversed(self.tokens[:i]):
            if token.sentence != self.tokens[i].sentence or (len(before) == 2 and token.start not in before):
                break
            before[token.start] = token.text.casefold()
        return not FOILS.isdisjoint(before.values())

    def _words_of(self, subject: str) -> tuple[np.ndarray, np.ndarray]:
        """Which words may count for a claim about *subject*, and a running count of the others."""
        if subject not in self._mine:
            mine = (self._said_of == 0) | ((self._said_of & self._bit[subject]) != 0)
            self._mine[subject] = (mine, np.concatenate(([0], np.cumsum(~mine))))
        return self._mine[subject]

    def _best_window_of(self, phrasing: str, subject: str, floor: float) -> tuple[float, int | None]:
        """The phrasing's best window counting only words said of its subject (or of none)."""
        coverage, lo, hi, slices = self._all_coverage()
        a, b = slices[self.layout.width[phrasing]]
        row, rows = self.layout.place[phrasing], self.layout.rows[phrasing]
        weights = self.layout.weights[row, rows]
        mine, others_before = self._words_of(subject)
        part = coverage[row, a:b]

        def own(w: int) -> float:  # the window's coverage without the words said of others
            start, stop = int(lo[a + w]), int(hi[a + w])
            if others_before[stop] == others_before[start]:
                return float(part[w])  # no word of the window is said of another subject
            said = (self.sim[rows, start:stop] * mine[start:stop]).max(axis=1)
            return min(float(part[w]), float(weights @ said))

        first = int(part.argmax())
        best, chosen = own(first), first
        if best < float(part[first]):  # the best window borrows words said of another subject
            for w in np.argsort(-part, kind="stable"):
                if float(part[w]) <= best:
                    break  # the words of other subjects only ever take away
                value = own(int(w))
                if value > best:
                    best, chosen = value, int(w)
        if best * 100 <= floor or best == 0:
            return 0.0, None
        return best, a + chosen

    def _windows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, tuple[int, int]]]:
        """Every window to look in, for every width the question's phrasings ask for at once:
        token ranges [lo, hi) (each run of *width* tokens within a sentence), each claim word's
        best similarity inside each of them (windows x [any | plain | negated] claim words), and
        which slice of the windows belongs to which width."""
        n = len(self.tokens)
        widths = np.array(sorted(set(self.layout.width.values())), dtype=np.intp)
        lo = np.broadcast_to(np.arange(n, dtype=np.intp), (len(widths), n))
        hi = np.minimum(lo + widths[:, None], self.sentence_end[None, :])
        # A window that ends where the one before it ends is inside it: skip it.
        keep = np.ones_like(hi, dtype=bool)
        keep[:, 1:] = hi[:, 1:] != hi[:, :-1]
        ends = np.cumsum(keep.sum(axis=1))
        slices = {int(w): (int(a), int(b)) for w, a, b in zip(widths, np.append(0, ends[:-1]), ends)}
        lo, hi = lo[keep], hi[keep]
        level = np.log2(hi - lo).astype(np.intp)  # a sparse-table range maximum: two lookups
        best = np.maximum(self._table[level, lo], self._table[level, hi - (1 << level)])
        return lo, hi, best, slices

    def _all_coverage(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, tuple[int, int]]]:
        """How much of each phrasing each window says (phrasings x windows), counting only
        windows that say it with the claim's polarity and its numbers; computed once for all
        phrasings and widths, since a few large products beat many small ones."""
        if self._windowed is None:
            lo, hi, best, slices = self._windows()
            k = len(self.layout.keys)
            said = best[:, :k] > 0
            coverage = self.layout.weights @ best[:, :k].T
            # A word matched only with the opposite polarity flips the claim ("does not reduce");
            # a word said both ways ("across GPUs ... not one GPU") cannot flip it. And "13% MFU"
            # is not "40% MFU", however many other words agree.
            plain, negated = said.copy(), np.zeros_like(said)
            if self._polar:  # only the words with a polarity to check have their own columns
                p = len(self._polar_keys)
                plain[:, self._polar_keys] = best[:, k : k + p] > 0
                negated[:, self._polar_keys] = best[:, k + p : k + 2 * p] > 0
            wrong = np.concatenate([said & ~plain, said & ~negated, ~said], axis=1)
            refuting = wrong[:, self.layout.refuting].astype(np.float32)
            refuted = refuting @ self.layout.against
            if self._polar:  # where a claim may be said the other way round (see contradicted)
                polar = self.layout.refuting < 2 * k
                self._flips = (coverage.copy(), (refuting[:, polar] @ self.layout.against[polar]).T > 0)
            coverage[refuted.T > 0] = 0.0
            self._windowed = (coverage, lo, hi, slices)
        return self._windowed

    def _coverage(self, phrasing: str, whole: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Coverage of the phrasing in each of its windows, the windows, and its word rows."""
        row, rows = self.layout.place[phrasing], self.layout.rows[phrasing]
        if whole:  # the whole attempt is one window
            if self._whole is None:
                self._whole = self.layout.weights @ self.sim.max(axis=1)
            n = len(self.tokens)
            return self._whole[row : row + 1], np.zeros(1, dtype=np.intp), np.full(1, n, dtype=np.intp), rows
        coverage, lo, hi, slices = self._all_coverage()
        a, b = slices[self.layout.width[phrasing]]
        return coverage[row, a:b], lo[a:b], hi[a:b], rows

    def _best_windows(self) -> tuple[np.ndarray, np.ndarray]:
        """Each phrasing's best coverage and the window that gives it, for all phrasings at once."""
        if self._best is None:
            coverage, _, _, slices = self._all_coverage()
            value = np.zeros(coverage.shape[0], dtype=np.float32)
            window = np.zeros(coverage.shape[0], dtype=np.intp)
            for width, rows in self.layout.by_width.items():
                a, b = slices[width]
                if b > a:
                    part = coverage[rows, a:b]
                    best = part.argmax(axis=1)
                    window[rows] = best + a
                    value[rows] = part[np.arange(len(rows)), best]
            self._best = (value, window)
        return self._best

    def match(self, claim: Claim, whole: bool = False, taught: bool = True) -> PointResult:
        """What the attempt says of *claim*: its best phrasing in its best window (*taught*: the
        phrasings taught from the user's answers count too)."""
        if not self.tokens:
            return PointResult(claim.text, 0.0, False, phrasings=len(claim.written))
        subject = None if whole else self._subject_of.get(claim.text)
        score, chosen, window = 0.0, None, None
        values, windows = (None, None) if whole else self._best_windows()
        for phrasing in claim.phrasings:
            if phrasing not in self.layout.place or (not taught and phrasing in claim.taught):
                continue  # no content words at all, or not to be counted
            if values is None:
                value, w = float(self._coverage(phrasing, whole)[0][0]), None
            else:
                value, w = (
                    float(values[self.layout.place[phrasing]]),
                    int(windows[self.layout.place[phrasing]]),
                )
            if value * 100 <= score or value == 0:
                continue  # another phrasing already did better
            if subject is not None:
                free = value, w
                value, w = self._best_window_of(phrasing, subject, score)
                verbatim = free[0] >= self.settings.taught_verbatim
                if phrasing in claim.taught and verbatim and (w is None or value < free[0]):
                    # The user's own words for this point, said again as they taught them: whatever
                    # the sentence around them seems to be about.
                    value, w = free
                if w is None:
                    continue
            if phrasing in claim.taught and not self._said_again(phrasing, value, w):
                continue  # one answer's own wording counts when it is said again, not in part
            if w is not None and not self._beyond_prompt(phrasing, w):
                continue  # only the words the question itself says: "when the queue is full, the producer"
            score, chosen, window = round(value * 100, 1), phrasing, w
        if chosen is None:
            return PointResult(claim.text, 0.0, False, phrasings=len(claim.written))
        if window is None:
            span_of = (0, len(self.tokens))
        else:
            _, lo, hi, _ = self._all_coverage()
            span_of = (int(lo[window]), int(hi[window]))
        cols = self._hit_columns(self.layout.rows[chosen], span_of)
        span = (self.tokens[min(cols)].start, self.tokens[max(cols)].end) if cols else None
        excerpt = self.attempt[span[0] : span[1]] if span else None
        matched = score >= self.settings.point_matched * 100
        return PointResult(claim.text, score, matched, chosen, span, excerpt, len(claim.written))

    def _said_again(self, phrasing: str, value: float, window: int | None) -> bool:
        """Whether a taught phrasing (one answer's own wording) is said again: nearly in full and
        in its order ("K, V <- decoder states" is not "Q <- decoder states" said again)."""
        if value < self.settings.taught_match:
            return False
        if window is None:
            return True
        _, lo, hi, _ = self._all_coverage()
        return self._order(phrasing, (int(lo[window]), int(hi[window]))) >= self.settings.taught_order

    def _beyond_prompt(self, phrasing: str, window: int) -> bool:
        """Whether the window says one of the claim's own words, not only those the prompt says."""
        own, (_, lo, hi, _) = self.layout.own.get(phrasing), self._all_coverage()
        return own is None or bool(self.sim[own, int(lo[window]) : int(hi[window])].any())

    def _order(self, phrasing: str, window: tuple[int, int]) -> float:
        """Order-aware similarity of a claim's words to a stretch's content words."""
        cached = self._order_cache.get((phrasing, *window))
        if cached is None:
            claim = ordered_keys(phrasing)
            said = " ".join(t.key for t in self.tokens[window[0] : window[1]] if t.content)
            cached = fuzz.partial_ratio(claim, said) if len(claim) <= len(said) else fuzz.ratio(claim, said)
            self._order_cache[(phrasing, *window)] = cached
        return cached

    def _hit_columns(self, rows: np.ndarray, window: tuple[int, int]) -> list[int]:
        lo, hi = window
        part = self.sim[rows, lo:hi]
        found = part.max(axis=1) > 0
        return sorted({lo + int(j) for j in part.argmax(axis=1)[found]})
