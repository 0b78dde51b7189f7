"""Pure grading: (question, prepared answer, attempt, elapsed) -> Grade.

What is compared with what (docs/grading.md explains why):
  * each key point, by its text and each alias, against each *sentence* of the attempt: the
    share of the claim's content words (stemmed, typo-tolerant) found in one sentence, with
    the claim's polarity (negation) required to agree;
  * each pitfall the same way, more strictly; a hit caps the verdict at fail;
  * questions without key points fall back to the prepared answer: the share of each of its
    sentences' content words found anywhere in the attempt.
A list of bare keywords makes no claim, so it cannot pass however many terms it names.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
import re
from typing import Literal

import numpy as np
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Prefix

from .models import Claim, Question
from .textmatch import Token, key_set, ordered_keys, phrase_keys, sentences, tokenize, word_count

Verdict = Literal["pass", "partial", "fail"]
Rating = Literal["again", "hard", "good", "easy"]


@dataclass(frozen=True)
class Settings:
    """Thresholds of the grader. Defaults are principled, not tuned per question (see docs)."""

    word_similarity: float = 80.0  # rapidfuzz ratio for two words to count as one (a typo apart)
    exact_below: int = 4  # words shorter than this must match exactly ("tp" is not "dp")
    min_root: int = 4  # a word that starts with another word this long shares its root
    root_similarity: float = 0.9  # credit for such a derived form ("reuse" ~ "reusability")
    point_full: float = 0.65  # share of a claim's words in one sentence for full credit (two in three)
    point_none: float = 0.40  # ... below which the claim gets no credit
    point_matched: float = 0.60  # ... from which the claim is shown as matched
    pitfall_hit: float = 0.80  # a wrong claim must be said almost in full to count
    pass_score: float = 70.0
    partial_score: float = 35.0
    easy_score: float = 85.0  # and within target time, for the rating "easy"
    list_claim_words: int = 3  # an item of this many words says something ("GIL serializes threads")
    list_max_claim_share: float = 0.34  # a keyword list: under a third of its items say anything
    list_max_function_share: float = 0.12  # share of small words below which text is not prose
    fallback_none: float = 0.0  # fallback mode: any overlap with a reference sentence earns some credit
    fallback_full: float = 0.50  # ... and half its content words, anywhere, cover it (paraphrase loses words)


DEFAULT_SETTINGS = Settings()


@dataclass(frozen=True)
class PointResult:
    text: str  # the key point (or reference sentence) as written in the bank
    score: float  # 0-100: how much of it the attempt said
    matched: bool
    phrasing: str | None = None  # the text or alias that matched best
    span: tuple[int, int] | None = None  # character span of the attempt that matched
    excerpt: str | None = None  # the attempt's words at that span


@dataclass(frozen=True)
class Grade:
    score: int  # 0-100
    verdict: Verdict
    rating: Rating  # suggested FSRS rating
    mode: Literal["key_points", "answer", "none"]
    matched: tuple[PointResult, ...] = ()
    missed: tuple[PointResult, ...] = ()
    pitfalls: tuple[PointResult, ...] = ()
    notes: tuple[str, ...] = field(default=())
    words: int = 0
    elapsed_seconds: float | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def grade(
    question: Question,
    candidate_answer: str | None,
    attempt: str,
    elapsed_seconds: float | None = None,
    settings: Settings = DEFAULT_SETTINGS,
) -> Grade:
    """Score a typed attempt against the question's key points (or the prepared answer)."""
    matcher = _Matcher(attempt, question.prompt, settings)
    words = len(matcher.tokens)
    notes: list[str] = []
    if question.key_points:
        mode = "key_points"
        claims = list(question.key_points)
        none, full = settings.point_none, settings.point_full
    elif candidate_answer and sentences(candidate_answer):
        mode = "answer"
        claims = [Claim(text=s) for s in sentences(candidate_answer)]
        none, full = settings.fallback_none, settings.fallback_full
    else:
        return Grade(0, "fail", "again", "none", notes=("nothing to grade against: add key points or an answer",),
                     words=words, elapsed_seconds=elapsed_seconds)

    matcher.prepare([p for c in claims for p in c.phrasings] + [p for c in question.pitfalls for p in c.phrasings])
    results = [matcher.match(claim, whole=(mode == "answer")) for claim in claims]
    credit = [_credit(r.score / 100, none, full) for r in results]
    # In fallback mode longer reference sentences carry more of the answer.
    weights = [len(phrase_keys(r.text)[0]) ** 0.5 or 1.0 for r in results] if mode == "answer" else [1.0] * len(results)
    score = 100.0 * sum(c * w for c, w in zip(credit, weights)) / sum(weights)

    rivals = [p for c in question.key_points for p in c.phrasings]
    hits = tuple(h for h in (matcher.pitfall(p, rivals) for p in question.pitfalls) if h is not None)

    if matcher.tokens and _is_keyword_list(attempt, matcher.tokens, settings):
        notes.append("reads as a list of keywords, not claims: say what each term does")
        score = min(score, settings.partial_score - 1)
    if hits:
        notes.append("states a known wrong claim")
        score = min(score, settings.partial_score - 1)

    verdict: Verdict = (
        "pass" if score >= settings.pass_score else "partial" if score >= settings.partial_score else "fail"
    )
    rating: Rating = {"pass": "good", "partial": "hard", "fail": "again"}[verdict]
    if (
        verdict == "pass"
        and score >= settings.easy_score
        and elapsed_seconds is not None
        and elapsed_seconds <= question.target_seconds
    ):
        rating = "easy"
    return Grade(
        score=int(round(score)),
        verdict=verdict,
        rating=rating,
        mode=mode,
        matched=tuple(r for r in results if r.matched),
        missed=tuple(r for r in results if not r.matched),
        pitfalls=hits,
        notes=tuple(notes),
        words=words,
        elapsed_seconds=elapsed_seconds,
    )


def _credit(value: float, none: float, full: float) -> float:
    if value >= full:
        return 1.0
    if value <= none:
        return 0.0
    return (value - none) / (full - none)


class _Matcher:
    """One attempt, compared against many short claims with a single similarity matrix."""

    def __init__(self, attempt: str, prompt: str, settings: Settings) -> None:
        self.attempt = attempt
        self.settings = settings
        self.tokens = tokenize(attempt)
        self.prompt_keys = key_set(prompt)
        sentence_ids = [t.sentence for t in self.tokens]
        # Tokens come in sentence order, so each sentence is a contiguous run of columns.
        self.starts = np.array(
            [i for i, s in enumerate(sentence_ids) if i == 0 or s != sentence_ids[i - 1]], dtype=np.intp
        )
        self.negated = np.array([t.negated for t in self.tokens], dtype=bool)
        self.sim = np.zeros((0, len(self.tokens)), dtype=np.float32)
        self.key_index: dict[str, int] = {}
        self._plan: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._order_cache: dict[tuple[str, int], float] = {}
        self._sentence_text: dict[int, str] = {}

    def prepare(self, phrasings: list[str]) -> None:
        """Compute word similarities of every claim word against every attempt word at once."""
        if not self.tokens:
            return
        keys = list(dict.fromkeys(k for p in phrasings for k in phrase_keys(p)[0]))
        if not keys:
            return
        words = [t.key for t in self.tokens]
        sim = process.cdist(
            keys, words, scorer=fuzz.ratio, score_cutoff=self.settings.word_similarity, dtype=np.float32
        ) / np.float32(100.0)
        # One word a prefix of the other ("reus" / "reusabl"): the same root, derived differently.
        common = process.cdist(keys, words, scorer=Prefix.similarity, dtype=np.int32)
        key_len = np.array([len(k) for k in keys])[:, None]
        word_len = np.array([len(w) for w in words])[None, :]
        derived = (common >= self.settings.min_root) & (common == np.minimum(key_len, word_len))
        sim = np.maximum(sim, np.where(derived, np.float32(self.settings.root_similarity), np.float32(0.0)))
        # Short words must match exactly: "tp" is not "dp", "pp" is not "ppo".
        key_short = np.array([len(k) < self.settings.exact_below for k in keys])
        word_short = np.array([len(w) < self.settings.exact_below for w in words])
        exact = np.array(keys, dtype=object)[:, None] == np.array(words, dtype=object)[None, :]
        sim[(key_short[:, None] | word_short[None, :]) & ~exact] = 0.0
        # Small words of the attempt only count for claims made of small words.
        content = np.array([t.content for t in self.tokens])
        sim[:, ~content] *= exact[:, ~content]
        self.sim = sim
        self.key_index = {k: i for i, k in enumerate(keys)}

    def _per_sentence(self, phrasing: str, whole: bool) -> tuple[np.ndarray, np.ndarray, bool]:
        """Coverage of the phrasing in each sentence (or the whole attempt) and best columns."""
        keys, negated = phrase_keys(phrasing)
        plan = self._plan.get(phrasing)
        if plan is None:
            rows = np.array([self.key_index[k] for k in keys], dtype=np.intp)
            # Words the prompt already says are context, not the claim: they count half.
            weights = np.array([0.5 if k in self.prompt_keys else 1.0 for k in keys], dtype=np.float32)
            plan = self._plan[phrasing] = (rows, weights / weights.sum())
        rows, weights = plan
        sub = self.sim[rows]  # keys x words
        if whole:
            best = sub.max(axis=1, keepdims=True)
        else:
            best = np.maximum.reduceat(sub, self.starts, axis=1)  # keys x sentences
        coverage = weights @ best
        return coverage, sub, negated

    def match(self, claim: Claim, whole: bool = False) -> PointResult:
        result = PointResult(claim.text, 0.0, False)
        if not self.tokens:
            return result
        for phrasing in claim.phrasings:
            if not phrase_keys(phrasing)[0]:
                continue
            coverage, sub, negated = self._per_sentence(phrasing, whole)
            for s in np.argsort(-coverage, kind="stable"):
                value = float(coverage[s])
                if value * 100 <= result.score or value == 0:
                    break
                cols = self._hit_columns(sub, None if whole else int(s))
                if not whole and self._negation_flips(negated, phrase_keys(phrasing)[0], sub, cols):
                    continue  # this sentence says the opposite; try the next best one
                span = (self.tokens[min(cols)].start, self.tokens[max(cols)].end) if cols else None
                excerpt = self.attempt[span[0]:span[1]] if span else None
                result = PointResult(claim.text, round(value * 100, 1), False, phrasing, span, excerpt)
                break
        matched = result.score >= self.settings.point_matched * 100
        return PointResult(result.text, result.score, matched, result.phrasing, result.span, result.excerpt)

    def pitfall(self, claim: Claim, rivals: list[str]) -> PointResult | None:
        """A pitfall is hit when a sentence says it almost in full, and says it more closely
        (in word order) than it says any key point: "model parallelism splits the model" is
        not the pitfall "data parallelism splits the model"."""
        if not self.tokens:
            return None
        for phrasing in claim.phrasings:
            if not phrase_keys(phrasing)[0]:
                continue
            coverage, sub, negated = self._per_sentence(phrasing, whole=False)
            for s in np.flatnonzero(coverage >= self.settings.pitfall_hit):
                cols = self._hit_columns(sub, int(s))
                if self._negation_flips(negated, phrase_keys(phrasing)[0], sub, cols):
                    continue
                mine = self._order(phrasing, int(s))
                if any(self._order(rival, int(s)) >= mine for rival in rivals):
                    continue
                span = (self.tokens[min(cols)].start, self.tokens[max(cols)].end)
                return PointResult(claim.text, round(float(coverage[s]) * 100, 1), True, phrasing, span,
                                   self.attempt[span[0]:span[1]])
        return None

    def _order(self, phrasing: str, sentence: int) -> float:
        """Order-aware similarity of a claim's words to a sentence's content words."""
        cached = self._order_cache.get((phrasing, sentence))
        if cached is None:
            claim = ordered_keys(phrasing)
            said = self._sentence_text.get(sentence)
            if said is None:
                said = self._sentence_text[sentence] = " ".join(
                    t.key for t in self.tokens if t.sentence == sentence and t.content)
            cached = fuzz.partial_ratio(claim, said) if len(claim) <= len(said) else fuzz.ratio(claim, said)
            self._order_cache[(phrasing, sentence)] = cached
        return cached

    def _range(self, sentence: int | None) -> tuple[int, int]:
        """Token columns [lo, hi) of a sentence (of the whole attempt for None)."""
        if sentence is None:
            return 0, len(self.tokens)
        hi = int(self.starts[sentence + 1]) if sentence + 1 < len(self.starts) else len(self.tokens)
        return int(self.starts[sentence]), hi

    def _hit_columns(self, sub: np.ndarray, sentence: int | None) -> list[int]:
        lo, hi = self._range(sentence)
        part = sub[:, lo:hi]
        found = part.max(axis=1) > 0
        return sorted({lo + int(j) for j in part.argmax(axis=1)[found]})

    def _negation_flips(self, negated: frozenset[str], keys: tuple[str, ...], sub: np.ndarray,
                        cols: list[int]) -> bool:
        """Does the attempt say a matched word only with the opposite polarity ("does not reduce")?

        A key passes if any of its matches in the sentence has the claim's polarity, so words
        that occur twice ("across GPUs ... does not fit on one GPU") cannot flip a claim.
        """
        if not cols:
            return False
        lo, hi = self._range(self.tokens[cols[0]].sentence)
        hits = sub[:, lo:hi] > 0
        claim = np.array([key in negated for key in keys])
        agrees = hits & (self.negated[lo:hi][None, :] == claim[:, None])
        return bool((hits.any(axis=1) & ~agrees.any(axis=1)).any())


def _is_keyword_list(attempt: str, tokens: list[Token], settings: Settings) -> bool:
    """Bare terms separated by commas or lines: almost no item states anything.

    An item states something when it has a few words ("GIL serializes threads") or a relation
    written as notation ("DP = 256/32", "grads -> all-reduce"); terse notes are full of such
    items, a keyword list has none. Prose glue words are the second signal.
    """
    items = [i for i in _LIST_ITEM.split(attempt) if i.strip()]
    if len(items) < 3:
        return False
    claims = sum(
        1 for i in items if word_count(i) >= settings.list_claim_words or _RELATION.search(i)
    )
    function_share = sum(not t.content for t in tokens) / len(tokens)
    return claims / len(items) < settings.list_max_claim_share and function_share < settings.list_max_function_share


_RELATION = re.compile(r"=|->|→|=>|<|>|~|≈|\bvs\b|\bx\b|\d\s*[*/+]\s*\d")
_LIST_ITEM = re.compile(r"[,;\n/|•]+|\.\s|\s-\s|\band\b")
