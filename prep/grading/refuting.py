"""Finding claims said wrongly: a Matcher that also looks for known wrong claims (pitfalls), key
points said of another subject (swapped) and key points said the other way round
(contradicted). The credit a key point earns is the Matcher's; these say where it is wrong.
"""

from __future__ import annotations

import numpy as np

from prep.bank.schema import Claim
from prep.grading.matcher import Matcher
from prep.grading.point import PointResult
from prep.text import OPPOSITES, is_abbreviation, phrase_keys


class RefutingMatcher(Matcher):
    """A Matcher that also finds what an attempt says wrongly (mistakes.py decides what counts)."""

    _suspects: set[int] | None = None  # rows of phrasings with a window said other than plainly

    def swapped(self, claim: Claim, rivals: list[str] = ()) -> PointResult | None:  # type: ignore[assignment]
        """A key point about one subject said, almost in full, of another one: "the target model
        proposes tokens" for "the draft model proposes tokens". Only words said of another
        subject count (not of its own, nor of none), and the stretch must say it more closely
        (in word order) than any of *rivals*, the phrasings of key points the attempt was
        credited with: "data parallel copies the model to every GPU and splits the batch" says
        the replica and the batch, not "model parallelism splits the model"."""
        subject = self._subject_of.get(claim.text)
        if subject is None or not self.tokens:
            return None
        others = (self._said_of != 0) & ((self._said_of & self._bit[subject]) == 0)
        if not others.any():
            return None
        coverage, lo, hi, _ = self._all_coverage()
        for phrasing in claim.phrasings:
            if phrasing not in self.layout.place:
                continue
            a, b = self._slice_of(phrasing)
            row, rows = self.layout.place[phrasing], self.layout.rows[phrasing]
            weights = self.layout.weights[row, rows]
            for w in np.flatnonzero(coverage[row, a:b] >= self.settings.pitfall_hit):
                start, stop = int(lo[a + w]), int(hi[a + w])
                said = (self.sim[rows, start:stop] * others[start:stop]).max(axis=1)
                if float(weights @ said) < self.settings.pitfall_hit:
                    continue
                mine = self._order(phrasing, (start, stop))
                if rivals and max(self._order(r, (start, stop)) for r in rivals) > mine:
                    continue  # these words say a point the attempt was credited with, more closely
                cols = self._hit_columns(rows, (start, stop))
                span = (self.tokens[min(cols)].start, self.tokens[max(cols)].end)
                score = round(float(weights @ said) * 100, 1)
                return PointResult(claim.text, score, True, phrasing, span, self.attempt[span[0] : span[1]])
        return None

    def contradicted(
        self,
        claim: Claim,
        rivals: list[str],
        threshold: float,
        credited: tuple[int, int] | None = None,
        parts: tuple[str, ...] = (),
    ) -> PointResult | None:
        """The claim said the other way round: a stretch that says its words (*threshold* of them
        or more, and as much of those not turned), an odd number of them turned: negated where
        the claim says them plainly, or met by their opposite ("raising the temperature sharpens"
        for "a lower temperature sharpens"), or said plainly where the claim denies them. Not
        when that sentence also says the claim as fully with its own polarity, nor when those
        words say one of *rivals* (phrasings of other key points) as closely in word order.
        *parts*: parts of the claim's phrasings, each looked for on its own too; *credited*: where
        the claim was credited, if it was (said right in another sentence, it is not denied)."""
        if not self.tokens or not self._polar:
            return None
        _, lo, hi, _ = self._all_coverage()
        raw, suspect = self._flips  # type: ignore[misc]
        if self._suspects is None:  # the phrasings said other than plainly, nearly in full
            self._suspects = set(np.flatnonzero((suspect & (raw >= threshold)).any(axis=1)).tolist())
        subject = self._subject_of.get(claim.text)
        for phrasing in (claim.text, *claim.aliases, *parts):
            if self.layout.place.get(phrasing, -1) not in self._suspects:
                continue
            a, b = self._slice_of(phrasing)
            row = self.layout.place[phrasing]
            windows = np.flatnonzero(suspect[row, a:b] & (raw[row, a:b] >= threshold))
            for w in windows[np.argsort(-raw[row, a + windows], kind="stable")]:
                start, stop = int(lo[a + w]), int(hi[a + w])
                disputed = self._turned(phrasing, start, stop, threshold)
                if not disputed:
                    continue
                if subject is not None and self._bit and not self._words_of(subject)[0][start:stop].all():
                    continue  # said of another thing: judged as a swap, if at all
                sentence = self._sentence_range(start)
                if credited is not None and not self._within(credited, sentence):
                    # Said right elsewhere: this is the other case explained ("virtual calls cost
                    # a vtable lookup"), not the claim denied.
                    return None
                said = float(raw[row, a + w])
                if any(self._says(p, sentence, said) for p in claim.phrasings):
                    continue  # the sentence says the claim as fully the right way round
                mine = self._order(phrasing, sentence)
                if any(self._says(r, sentence) and self._order(r, sentence) >= mine for r in rivals):
                    continue
                cols = self._hit_columns(self.layout.rows[phrasing], (start, stop))
                span = (self.tokens[min(cols)].start, self.tokens[max(cols)].end)
                return PointResult(
                    claim.text, round(said * 100, 1), True, phrasing, span, self.attempt[span[0] : span[1]]
                )
        return None

    def _turned(self, phrasing: str, start: int, stop: int, threshold: float) -> frozenset[str]:
        """The words (and their opposites) that tokens [start, stop) turn, when they turn the
        phrasing an odd number of times (turned twice is said the same way: "too short to hide"
        the gathers of a small micro-batch says what "a larger micro-batch overlaps them" says)
        and say enough of its other words; else nothing."""
        row, rows = self.layout.place[phrasing], self.layout.rows[phrasing]
        sim, opposite = self.sim[rows, start:stop], self.opposite[rows, start:stop]
        strong = sim >= np.float32(self.settings.root_similarity)  # a typo apart is too loose to turn
        tokens = self.tokens[start:stop]
        heads = np.array([t.head for t in tokens], dtype=bool)
        hedged = np.array([t.hedged for t in tokens], dtype=bool)
        said = ((sim > 0) | (opposite > 0)).any(axis=1)
        free = (strong & ~hedged).any(axis=1)  # met with no negator earlier in its clause
        opposite = (opposite > 0).any(axis=1)
        # met where a negation starts, by the word or its opposite
        heads = ((strong | (self.opposite[rows, start:stop] > 0)) & heads).any(axis=1)
        # Each turn: a word the claim denies first said plainly (no negator before it in its
        # clause), one it says plainly met where a negation of the stretch starts, and an opposite
        # of a claim word; a word also said plainly is said both ways and turns nothing. "Does
        # not lower" is turned twice, as is "don't expect equality" for "expect differences".
        denies = self.layout.negated_heads[row, rows] > 0
        turns = (denies & free & ~heads).astype(int) + (~denies & heads & ~free) + (opposite & ~free)
        turned = turns > 0
        weights = self.layout.weights[row, rows]
        rest = float(weights @ ~turned)
        if int(turns.sum()) % 2 == 0 or rest == 0 or float(weights @ (said & ~turned)) / rest < threshold:
            return frozenset()
        keys = {self.layout.keys[r] for r in rows[turned]}
        return frozenset(keys | {o for key in keys for o in OPPOSITES.get(key, ())})

    def _within(self, span: tuple[int, int], sentence: tuple[int, int]) -> bool:
        """Whether a character span overlaps a sentence (a token range)."""
        first, last = self.tokens[sentence[0]].start, self.tokens[sentence[1] - 1].end
        return span[0] < last and span[1] > first

    def says_one_way(self, span: tuple[int, int], key: str) -> bool:
        """Whether a word written within a character span reads as *key* and not also as one of
        its opposites ("a few" reads as few and as several: it says neither way)."""
        readings: dict[int, set[str]] = {}
        for t in self.tokens:
            if span[0] <= t.start and t.end <= span[1] and not is_abbreviation(t.text):
                readings.setdefault(t.start, set()).add(t.key)
        return any(key in keys and not keys & OPPOSITES.get(key, frozenset()) for keys in readings.values())

    def _slice_of(self, phrasing: str) -> tuple[int, int]:
        return self._all_coverage()[3][self.layout.width[phrasing]]

    def pitfall(self, claim: Claim, rivals: list[str]) -> PointResult | None:
        """A pitfall is hit when a stretch of the attempt says it almost in full, and says it
        more closely (in word order) than it says any key point: "model parallelism splits the
        model" is not the pitfall "data parallelism splits the model"."""
        if not self.tokens:
            return None
        for phrasing in claim.phrasings:
            if not phrase_keys(phrasing)[0]:
                continue
            coverage, lo, hi, rows = self._coverage(phrasing, whole=False)
            for w in np.flatnonzero(coverage >= self.settings.pitfall_hit):
                window = int(lo[w]), int(hi[w])
                # Word order is judged on the whole sentence: a window can cut off the subject.
                sentence = self._sentence_range(window[0])
                mine = self._order(phrasing, sentence)
                if any(self._order(rival, sentence) >= mine for rival in rivals):
                    continue
                cols = self._hit_columns(rows, window)
                span = (self.tokens[min(cols)].start, self.tokens[max(cols)].end)
                return PointResult(
                    claim.text,
                    round(float(coverage[w]) * 100, 1),
                    True,
                    phrasing,
                    span,
                    self.attempt[span[0] : span[1]],
                )
        return None

    def _says(self, phrasing: str, sentence: tuple[int, int], at_least: float = 0.0) -> bool:
        """Whether a window of this sentence says the claim, with its polarity and numbers (and at
        least *at_least* of it): a key point the attempt denies there is no rival to a wrong claim
        said there."""
        if phrasing not in self.layout.place:
            return False
        coverage, lo, _, _ = self._coverage(phrasing, whole=False)
        inside = (lo >= sentence[0]) & (lo < sentence[1])
        return bool(inside.any() and coverage[inside].max() >= max(self.settings.point_full, at_least))

    def middle(self, phrasing: str, span: tuple[int, int]) -> int:
        """Where (in characters) the middle one of a claim's words found in *span* is written."""
        inside = [i for i, t in enumerate(self.tokens) if span[0] <= t.start and t.end <= span[1]]
        cols = self._hit_columns(self._coverage(phrasing, whole=False)[3], (inside[0], inside[-1] + 1))
        return self.tokens[cols[len(cols) // 2]].start

    def _sentence_range(self, column: int) -> tuple[int, int]:
        end, start = int(self.sentence_end[column]), column
        while start > 0 and self.sentence_end[start - 1] == end:
            start -= 1
        return start, end
