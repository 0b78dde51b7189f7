"""Pure grading: (question, prepared answer, attempt, elapsed) -> Grade.

What is compared with what (docs/grading.md explains why):
  * each key point, by its text and each alias, against each *window* of the attempt (a run
    of words within one sentence, about twice the claim's length): the share of the claim's
    content words (stemmed, typo-tolerant) found in one window, with the claim's polarity
    (negation) required to agree and its numbers required to be said; where the prompt
    contrasts subjects ("strong versus weak scaling"), only among words said of the key point's;
  * each pitfall the same way, more strictly; a hit caps the verdict at fail;
  * questions without key points fall back to the prepared answer: the share of each of its
    sentences' content words found anywhere in the attempt.
A list of bare keywords makes no claim, so it cannot pass however many terms it names.
The word-level matching lives in matcher.py; this module turns matches into a grade.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Literal

from prep.bank.schema import Claim, Question
from prep.grading.binding import bound_elsewhere
from prep.grading.matcher import Matcher, PointResult
from prep.grading.settings import DEFAULT_SETTINGS, Settings
from prep.grading.subjects import subjects
from prep.grading.swaps import exchanged, named_last, names, things
from prep.grading.turned import turned
from prep.rating import Rating
from prep.text import Token, ordered_keys, phrase_keys, sentence_start, sentences, word_count

__all__ = ["Grade", "PointResult", "from_ticks", "grade", "ticked_points"]

Verdict = Literal["pass", "partial", "fail"]


@dataclass(frozen=True)
class Grade:
    score: int  # 0-100
    verdict: Verdict
    rating: Rating  # suggested FSRS rating
    mode: Literal["key_points", "answer", "none"]
    matched: tuple[PointResult, ...] = ()
    missed: tuple[PointResult, ...] = ()
    pitfalls: tuple[PointResult, ...] = ()
    swapped: tuple[PointResult, ...] = ()  # key points said of the wrong one of the things they name
    contradicted: tuple[PointResult, ...] = ()  # key points said the other way round
    notes: tuple[str, ...] = field(default=())
    words: int = 0
    elapsed_seconds: float | None = None
    # The scores this question passes and half-passes at: lower than the usual 70 and 35 when its
    # key points have fewer phrasings than the bundled bank's (see phrasing_scale).
    pass_at: int = 70
    partial_at: int = 35

    def to_dict(self) -> dict:
        return {**asdict(self), "rating": str(self.rating)}


def grade(
    question: Question,
    candidate_answer: str | None,
    attempt: str,
    elapsed_seconds: float | None = None,
    settings: Settings = DEFAULT_SETTINGS,
) -> Grade:
    """Score a typed attempt against the question's key points (or the prepared answer)."""
    matcher = Matcher(attempt, question.prompt, settings)
    words = len(matcher.tokens)
    notes: list[str] = []
    mode, claims = _claims(question, candidate_answer)
    if not claims:
        return _nothing_to_grade(words, elapsed_seconds)
    none, full = (
        (settings.point_none, settings.point_full)
        if mode == "key_points"
        else (settings.fallback_none, settings.fallback_full)
    )

    right = [p for c in claims for p in c.phrasings]
    pitfalls = [with_core(c) for c in question.pitfalls]
    exchanges = role_exchanges(question) if mode == "key_points" else ()
    turns = turned_points(question) if mode == "key_points" else ()
    wrong = [p for c in pitfalls for p in c.phrasings] + [e[1] for e in exchanges] + [t[1] for t in turns]
    matcher.prepare(right + wrong, frozenset(wrong) - frozenset(right))
    if mode == "key_points":
        firsts, other_names = subjects(question.prompt, tuple(c.text for c in claims))
        matcher.set_subjects(firsts, claims, other_names)
    results = [matcher.match(claim, whole=(mode == "answer")) for claim in claims]
    score = _score(results, mode, none, full)

    # Fewer phrasings find less of a correct answer, so the verdict asks for less; a sentence of
    # the prepared answer is a claim with one phrasing, so the fallback is calibrated the same way.
    scale = phrasing_scale(claims, settings)
    below_partial = settings.partial_score * scale - 1
    # Teaching never weakens the guard: only the phrasings written in the bank can outdo a pitfall.
    rivals = [p for c in question.key_points for p in (c.text, *c.aliases)]
    hits = tuple(h for h in (matcher.pitfall(p, rivals) for p in pitfalls) if h is not None)
    swaps = _swaps(matcher, question, claims, results, exchanges, rivals) if mode == "key_points" else ()
    contradicted = _contradictions(matcher, claims, turns, rivals, settings) if mode == "key_points" else ()

    keywords = bool(matcher.tokens) and _is_keyword_list(attempt, matcher.tokens, settings)
    for flaw, note in (
        (keywords, "reads as a list of keywords, not claims: say what each term does"),
        (hits, "states a known wrong claim"),
        (swaps, "says of one thing what holds for another"),
        (contradicted, "says the opposite of a key point"),
    ):
        if flaw:
            notes.append(note)
            score = min(score, below_partial)

    said_wrong = {
        s.text for s in (*swaps, *contradicted)
    }  # credited words said of the wrong thing are not credit
    verdict, rating = _verdict(score, scale, settings, elapsed_seconds, question.target_seconds)
    if rating == Rating.AGAIN and mode == "key_points" and not (hits or swaps or notes):
        rating = Rating.HARD if _unrecognised(results) else rating
    return Grade(
        score=round(score),
        verdict=verdict,
        rating=rating,
        mode=mode,
        matched=tuple(r for r in results if r.matched and r.text not in said_wrong),
        missed=tuple(r for r in results if not r.matched or r.text in said_wrong),
        pitfalls=hits,
        swapped=swaps,
        contradicted=contradicted,
        notes=tuple(notes),
        words=words,
        elapsed_seconds=elapsed_seconds,
        pass_at=math.ceil(settings.pass_score * scale),
        partial_at=math.ceil(settings.partial_score * scale),
    )


def _swaps(
    matcher: Matcher,
    question: Question,
    claims: list[Claim],
    results: list[PointResult],
    exchanges: tuple[tuple[str, str, int, int], ...],
    rivals: list[str],
) -> tuple[PointResult, ...]:
    """Key points said of the wrong one of the things the key points name: a key point not met
    said in full of another subject, or any key point said with another thing's name in place of
    its own (swaps.py), more closely than any other key point is said there."""
    unmet = [c for c, r in zip(claims, results) if not r.matched]
    credited = [p for c, r in zip(claims, results) if r.matched for p in (c.text, *c.aliases)]
    found = {h.text: h for h in (matcher.swapped(c, credited) for c in unmet) if h is not None}
    named = things(question.prompt, tuple(c.text for c in claims))
    for result in results:
        if result.matched and result.text not in found and result.span and result.phrasing:
            clause = bound_elsewhere(matcher.attempt, matcher.tokens, result.span, result.phrasing, named)
            if clause is not None:
                found[result.text] = replace(result, excerpt=clause)
    own = {c.text: {c.text, *c.aliases} for c in claims}
    for point, variant, subject, incoming in exchanges:
        # A claim now said of another thing differs from its key point only by that name, so
        # the name decides, not word order: it must be what the attempt says it of, the thing
        # named last before the middle of the claim's words ("... is produced by the
        # discriminator" is not judged). A name changed further into the claim is judged by word
        # order, and must be said there.
        others = [r for r in rivals if r not in own[point]] if subject >= 0 else rivals
        if point in found or (hit := matcher.pitfall(Claim(text=variant), others)) is None:
            continue
        if subject >= 0:
            middle = matcher.middle(variant, hit.span)  # type: ignore[arg-type]
            if named_last(matcher.attempt, sentence_start(matcher.attempt, middle), middle, named) != subject:
                continue
        elif incoming not in names(hit.excerpt or "", named):
            continue  # the thing in the wrong place must be named where the claim is said
        found[point] = replace(hit, text=point)
    return tuple(found.values())


def _contradictions(
    matcher: Matcher,
    claims: list[Claim],
    turns: tuple[tuple[str, str, str], ...],
    rivals: list[str],
    settings: Settings,
) -> tuple[PointResult, ...]:
    """Key points said the other way round: negated, or with a word turned into its opposite
    (matcher.contradicted), or said in the words of the claim turned (turned.py)."""
    found: dict[str, PointResult] = {}
    for claim in claims:
        others = [p for c in claims if c is not claim for p in c.phrasings if p not in c.taught]
        hit = matcher.contradicted(claim, others, settings.contradiction_hit)
        if hit is not None:
            found[claim.text] = hit
    for point, variant, opposite in turns:
        if point in found or (hit := matcher.pitfall(Claim(text=variant), rivals)) is None:
            continue
        if opposite in matcher.keys_in(hit.span):  # type: ignore[arg-type]
            found[point] = replace(hit, text=point)  # the turned word itself is said there
    return tuple(found.values())


def turned_points(question: Question) -> tuple[tuple[str, str, str], ...]:
    """(key point, its text with a word turned into its opposite, that opposite's key). Its text
    only: its aliases, each turned again, find more of what a correct answer says in passing."""
    return tuple(
        (claim.text, variant, key) for claim in question.key_points for variant, key in turned(claim.text)
    )


def role_exchanges(question: Question) -> tuple[tuple[str, str, int, int], ...]:
    """(key point, the key point with the names of two things it gives roles to exchanged)."""
    return _exchanges(question.prompt, tuple((c.text, *c.aliases) for c in question.key_points))


@lru_cache(maxsize=1024)
def _exchanges(prompt: str, points: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str, int, int], ...]:
    named = things(prompt, tuple(p[0] for p in points))
    if not named:
        return ()
    said = {ordered_keys(p) for phrasings in points for p in phrasings}
    # An exchange inside a claim is looked for in its text only: its aliases, each looked for
    # again, cost time and find little more.
    return tuple(
        (phrasings[0], variant, subject, incoming)
        for phrasings in points
        for n, phrasing in enumerate(phrasings)
        for variant, subject, incoming in exchanged(phrasing, named)
        if (subject >= 0 or n == 0) and ordered_keys(variant) not in said  # saying another point is no swap
    )


def _claims(question: Question, candidate_answer: str | None) -> tuple[str, list[Claim]]:
    """What the attempt is graded against: the key points, else the prepared answer's sentences."""
    if question.key_points:
        return "key_points", list(question.key_points)
    return "answer", [Claim(text=s) for s in sentences(candidate_answer or "")]


def _unrecognised(results: list[PointResult]) -> bool:
    """Whether every key point not found has its text as its only wording: the grader may simply
    not have recognised how they were said, and that alone does not make an answer an Again."""
    missed = [r for r in results if not r.matched]
    return bool(missed) and all(r.phrasings == 1 for r in missed)


def ticked_points(question: Question, graded: Grade) -> set[int]:
    """The key points (1-based, as `prep show` numbers them) the grader found in the attempt."""
    found = {r.text for r in graded.matched}
    return {n for n, claim in enumerate(question.key_points, 1) if claim.text in found}


def from_ticks(
    question: Question, graded: Grade, ticked: set[int], settings: Settings = DEFAULT_SETTINGS
) -> Grade:
    """The grade the user's own ticks give: the share of key points they say they covered, on the
    usual thresholds (their judgement is not limited by the phrasings the bank has). The grader's
    notes stay, so a known wrong claim it saw is still shown."""
    by_text = {r.text: r for r in (*graded.matched, *graded.missed)}
    results = [by_text.get(c.text) or PointResult(c.text, 0.0, False) for c in question.key_points]
    score = 100.0 * len(ticked) / len(results) if results else 0.0
    verdict, rating = _verdict(score, 1.0, settings, graded.elapsed_seconds, question.target_seconds)
    return replace(
        graded,
        score=round(score),
        verdict=verdict,
        rating=rating,
        matched=tuple(r for n, r in enumerate(results, 1) if n in ticked),
        missed=tuple(r for n, r in enumerate(results, 1) if n not in ticked),
        pass_at=math.ceil(settings.pass_score),
        partial_at=math.ceil(settings.partial_score),
    )


# Where a wrong claim's qualifiers start: what follows explains or hedges it, and an attempt that
# states the claim without them still states it.
_QUALIFIER = re.compile(
    r",|;|:|\s[-–—]\s|\b(?:because|since|so that|which|unless|as long as|even if|although|while)\b"
)


def _score(results: list[PointResult], mode: str, none: float, full: float) -> float:
    """The mean credit of the claims, 0-100; in fallback mode longer reference sentences carry
    more of the answer."""
    credit = [_credit(r.score / 100, none, full) for r in results]
    if mode == "answer":
        weights = [len(phrase_keys(r.text)[0]) ** 0.5 or 1.0 for r in results]
    else:
        weights = [1.0] * len(results)
    return 100.0 * sum(c * w for c, w in zip(credit, weights)) / sum(weights)


@lru_cache(maxsize=4096)
def pitfall_core(text: str) -> str | None:
    """The core of a wrong claim written as a full sentence: without its parentheticals and the
    clause that explains or qualifies it ("training only on domain data works best, because
    general data dilutes it" -> "training only on domain data works best"). None when the
    claim is already its own core, or the core would be too short to be a claim."""
    plain = re.sub(r"\s*\([^)]*\)", "", text).strip()
    core = _QUALIFIER.split(plain, maxsplit=1)[0].strip()
    if core == text.strip() or len(phrase_keys(core)[0]) < 3:
        return None
    return core


def with_core(pitfall: Claim) -> Claim:
    """The pitfall, with the core of each of its phrasings as one more phrasing."""
    cores = [core for p in pitfall.phrasings if (core := pitfall_core(p)) and core not in pitfall.phrasings]
    if not cores:
        return pitfall
    return pitfall.model_copy(update={"aliases": (*pitfall.aliases, *dict.fromkeys(cores))})


def recognised(phrasings: int, settings: Settings) -> float:
    """The share of a correct answer's key point the grader finds, given its number of phrasings."""
    k = min(phrasings, settings.full_phrasings)
    return 1.0 - (1.0 - settings.unphrased_credit) * (1.0 - settings.phrasing_recall) ** k


def phrasing_scale(claims: list[Claim], settings: Settings) -> float:
    """How much of a correct answer the grader can find in this question, against a question whose
    key points all have the bundled bank's phrasings (1.0 for those: they grade as they always did)."""
    full = recognised(settings.full_phrasings, settings)
    # Taught phrasings do not count: each is one answer's wording, which finds that user's answers
    # again but hardly anyone else's, where aliases are written to cover other wordings.
    written = [len(c.phrasings) - len(c.taught) for c in claims]
    return sum(recognised(k, settings) for k in written) / len(claims) / full


def _verdict(
    score: float, scale: float, settings: Settings, elapsed_seconds: float | None, target_seconds: int
) -> tuple[Verdict, Rating]:
    """The verdict of a score, and the rating it suggests: Easy for a high pass within the target
    time. The thresholds are scaled by how much of a correct answer the question lets us find."""
    verdict: Verdict = (
        "pass"
        if score >= settings.pass_score * scale
        else "partial"
        if score >= settings.partial_score * scale
        else "fail"
    )
    rating = {"pass": Rating.GOOD, "partial": Rating.HARD, "fail": Rating.AGAIN}[verdict]
    fast = elapsed_seconds is not None and elapsed_seconds <= target_seconds
    if verdict == "pass" and score >= settings.easy_score * scale and fast:
        rating = Rating.EASY
    return verdict, rating


def _nothing_to_grade(words: int, elapsed_seconds: float | None) -> Grade:
    note = "nothing to grade against: add key points or an answer"
    return Grade(0, "fail", Rating.AGAIN, "none", notes=(note,), words=words, elapsed_seconds=elapsed_seconds)


def _credit(value: float, none: float, full: float) -> float:
    if value >= full:
        return 1.0
    if value <= none:
        return 0.0
    return (value - none) / (full - none)


def _is_keyword_list(attempt: str, tokens: list[Token], settings: Settings) -> bool:
    """Bare terms separated by commas or lines: almost no item states anything.

    An item states something when it has a few words ("GIL serializes threads") or a relation
    written as notation ("DP = 256/32", "grads -> all-reduce"); terse notes are full of such
    items, a keyword list has none. Prose glue words are the second signal.
    """
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
