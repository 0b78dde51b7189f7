"""From what was found to a verdict and the rating it suggests.

A key point with few phrasings can be said in words the grader does not know: its absence from
what was found proves little (a user's own question has one phrasing per key point). So where
the points not found are such points and could make the answer pass, the verdict is `unsure`
and no rating is suggested: the user ticks what they covered, or rates. A pass needs the points
found to cover the question (most of its key points, never one of four), and a mistake
(mistakes.py) fails whatever else was found.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from prep.bank.schema import Claim
from prep.grading.settings import Settings
from prep.rating import Rating
from prep.text import phrase_keys

Verdict = Literal["pass", "partial", "fail", "unsure"]


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    rating: Rating | None  # the suggested rating; None when the words cannot decide
    unknown: tuple[int, ...]  # key points (1-based) not found whose absence proves little
    pass_at: int  # the score this question passes at
    partial_at: int


def judge(
    claims: Sequence[Claim],
    credits: Sequence[float],
    found: Sequence[bool],
    flawed: bool,
    mode: str,
    settings: Settings,
    fast: bool,
    on_topic: bool = True,
    own_story: bool = False,
) -> Judgement:
    """The verdict of a grade: *credits* (0-1) and *found* (recognised, not said wrongly) per
    claim, whether the attempt makes a mistake, whether it was within the target time, and
    whether it speaks of the question at all (if not, nothing in it can be a key point said in
    other words: "I have no idea" fails). *own_story*: the answer tells the user's own story (a
    behavioral question), which no phrasing in the bank can tell apart from a story that misses
    the point: a key point not found there proves nothing."""
    scale = phrasing_scale(claims, settings)
    pass_at, partial_at = settings.pass_score * scale, settings.partial_score * scale
    score = 100.0 * _mean(claims, credits, mode)
    score = round(score, 9)  # the mean of equal credits, free of rounding noise
    if mode == "key_points":  # a pass needs the points found to cover the question: never 1 of 4
        pass_at = max(pass_at, 100.0 * settings.pass_cover)
    thresholds = math.ceil(pass_at), math.ceil(partial_at)
    if flawed:
        return Judgement("fail", Rating.AGAIN, (), *thresholds)
    if score >= pass_at:
        easy = fast and score >= settings.easy_score  # never Easy from speed alone
        return Judgement("pass", Rating.EASY if easy else Rating.GOOD, (), *thresholds)
    unknown = tuple(
        n
        for n, (claim, hit) in enumerate(zip(claims, found), 1)
        if mode == "key_points"
        and on_topic
        and not hit
        and (own_story or len(claim.written) < settings.telling_phrasings)
    )
    if unknown:
        best = [1.0 if n in unknown else c for n, c in enumerate(credits, 1)]
        if 100.0 * _mean(claims, best, mode) >= pass_at:
            return Judgement("unsure", None, unknown, *thresholds)
    if score >= partial_at:
        return Judgement("partial", Rating.HARD, (), *thresholds)
    return Judgement("fail", Rating.AGAIN, (), *thresholds)


def judge_ticks(share: float, settings: Settings, fast: bool) -> tuple[Verdict, Rating]:
    """The verdict of the share (0-100) of key points the user says they covered: their judgement
    is not limited by the phrasings the bank has, so the usual thresholds apply unscaled."""
    if share >= settings.pass_score:
        return "pass", Rating.EASY if fast and share >= settings.easy_score else Rating.GOOD
    if share >= settings.partial_score:
        return "partial", Rating.HARD
    return "fail", Rating.AGAIN


def score_of(claims: Sequence, credits: Sequence[float], mode: str) -> float:
    """The score (0-100): the mean credit of the claims (or their results)."""
    return 100.0 * _mean(claims, credits, mode)


def _mean(claims: Sequence, credits: Sequence[float], mode: str) -> float:
    """The mean credit; in fallback mode longer reference sentences carry more of the answer."""
    if mode == "answer":
        weights = [len(phrase_keys(c.text)[0]) ** 0.5 or 1.0 for c in claims]
    else:
        weights = [1.0] * len(claims)
    return sum(c * w for c, w in zip(credits, weights)) / sum(weights)


def recognised(phrasings: int, settings: Settings) -> float:
    """The share of a correct answer's key point the grader finds, given its number of phrasings."""
    k = min(phrasings, settings.full_phrasings)
    return 1.0 - (1.0 - settings.unphrased_credit) * (1.0 - settings.phrasing_recall) ** k


def phrasing_scale(claims: Sequence[Claim], settings: Settings) -> float:
    """How much of a correct answer the grader can find in this question, against a question whose
    key points all have the bundled bank's phrasings (1.0 for those: they grade as they always did)."""
    full = recognised(settings.full_phrasings, settings)
    return sum(recognised(len(c.written), settings) for c in claims) / len(claims) / full
