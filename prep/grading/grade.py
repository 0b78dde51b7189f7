"""Pure grading: (question, prepared answer, attempt, elapsed) -> Grade.

What is compared with what (docs/grading.md explains why):
  * each key point, by its text and each alias, against each *window* of the attempt (a run
    of words within one sentence, about twice the claim's length): the share of the claim's
    content words (stemmed, typo-tolerant) found in one window, with the claim's polarity
    (negation) required to agree and its numbers required to be said; where the prompt
    contrasts subjects ("strong versus weak scaling"), only among words said of the key point's;
  * the mistakes (mistakes.py): pitfalls, key points said of the wrong thing or the other way
    round; any of them fails the answer;
  * questions without key points fall back to the prepared answer: the share of each of its
    sentences' content words found anywhere in the attempt.
A list of bare keywords makes no claim, so it cannot pass however many terms it names. Where
the words cannot decide, the verdict says so (verdict.py). The word-level matching lives in
matcher.py; this module turns matches into a grade.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Literal

from prep.bank.schema import Claim, Question
from prep.grading.keywords import is_keyword_list
from prep.grading.matcher import PointResult
from prep.grading.mistakes import Mistakes, find_mistakes, wrong_claims
from prep.grading.refuting import RefutingMatcher
from prep.grading.settings import DEFAULT_SETTINGS, Settings
from prep.grading.star import Structure, analyse, capped
from prep.grading.starcues import asks_for_a_story
from prep.grading.subjects import subjects
from prep.grading.verdict import Verdict, judge, judge_ticks
from prep.rating import Rating
from prep.text import phrase_keys, sentences

__all__ = ["Grade", "PointResult", "from_ticks", "grade", "ticked_points"]


@dataclass(frozen=True)
class Grade:
    score: int  # 0-100
    verdict: Verdict
    rating: Rating | None  # suggested FSRS rating; None when the words cannot decide (unsure)
    mode: Literal["key_points", "answer", "none"]
    matched: tuple[PointResult, ...] = ()
    missed: tuple[PointResult, ...] = ()
    pitfalls: tuple[PointResult, ...] = ()
    swapped: tuple[PointResult, ...] = ()  # key points said of the wrong one of the things they name
    contradicted: tuple[PointResult, ...] = ()  # key points said the other way round
    unknown: tuple[int, ...] = ()  # unsure: key points (1-based) not found whose absence proves little
    notes: tuple[str, ...] = field(default=())
    words: int = 0
    elapsed_seconds: float | None = None
    # The scores this question passes and half-passes at: lower than the usual 70 and 35 when its
    # key points have fewer phrasings than the bundled bank's (see verdict.phrasing_scale).
    pass_at: int = 70
    partial_at: int = 35
    # The STAR structure of the attempt, for behavioral questions only (star.py).
    structure: Structure | None = None

    def to_dict(self) -> dict:
        data = {**asdict(self), "rating": None if self.rating is None else str(self.rating)}
        data.pop("structure")
        if self.structure is not None:
            data["structure"] = self.structure.to_dict()
        return data


def grade(
    question: Question,
    candidate_answer: str | None,
    attempt: str,
    elapsed_seconds: float | None = None,
    settings: Settings = DEFAULT_SETTINGS,
) -> Grade:
    """Score a typed attempt against the question's key points (or the prepared answer)."""
    matcher = RefutingMatcher(attempt, question.prompt, settings)
    mode, claims = _claims(question, candidate_answer)
    if not claims:
        return _nothing_to_grade(len(matcher.tokens), elapsed_seconds)
    wrong = wrong_claims(question, with_points=mode == "key_points")
    right = [p for c in claims for p in c.phrasings]
    parts = wrong.part_phrasings()  # prepared as claims: each looked for said the other way round
    matcher.prepare(
        right + parts + wrong.phrasings(), frozenset(wrong.phrasings()) - frozenset(right + parts)
    )
    if mode == "key_points":
        firsts, other_names = subjects(question.prompt, tuple(c.text for c in claims))
        matcher.set_subjects(firsts, claims, other_names)
    results = [matcher.match(claim, whole=(mode == "answer")) for claim in claims]
    mistakes = find_mistakes(matcher, question, claims, results, wrong, settings)
    keywords = is_keyword_list(attempt, matcher.tokens, settings)
    notes = [
        note
        for flaw, note in (
            (keywords, "reads as a list of keywords, not claims: say what each term does"),
            (mistakes.pitfalls, "states a known wrong claim"),
            (mistakes.swapped, "says of one thing what holds for another"),
            (mistakes.contradicted, "says the opposite of a key point"),
        )
        if flaw
    ]
    if notes and any(c.taught for c in claims):
        # An answer that says something wrong earns nothing from the user's own taught words:
        # they recognise that user's correct answers, and must not lift a wrong one.
        results = [matcher.match(claim, whole=(mode == "answer"), taught=False) for claim in claims]
    said_wrong = mistakes.said_wrong()  # credited words said of the wrong thing are not credit
    none, full = (
        (settings.point_none, settings.point_full)
        if mode == "key_points"
        else (settings.fallback_none, settings.fallback_full)
    )
    credits = [_credit(r.score / 100, none, full) for r in results]
    found = [r.matched and r.text not in said_wrong for r in results]
    fast = elapsed_seconds is not None and elapsed_seconds <= question.target_seconds
    on_topic = _on_topic(matcher, claims, settings)
    structure = analyse(attempt, question.prompt) if question.kind == "behavioral" else None
    # A story of the user's own, told as a story: the bank's points may be someone else's.
    own_story = structure is not None and structure.own_story
    judged = judge(claims, credits, found, bool(notes), mode, settings, fast, on_topic, own_story)
    mistakes = mistakes.numbered(question)
    results = [replace(r, number=n) for n, r in enumerate(results, 1)]
    graded = _graded(
        results, credits, found, mistakes, judged, mode, notes, len(matcher.tokens), elapsed_seconds
    )
    # Coached by its STAR shape only where the question asks for a story or a plan.
    return with_structure(graded, structure if asks_for_a_story(question.prompt) else None)


def with_structure(graded: Grade, structure: Structure | None) -> Grade:
    """A behavioral answer's grade with its STAR structure; a weak one suggests Hard at best."""
    if structure is None:
        return graded
    return replace(graded, structure=structure, rating=capped(graded.rating, structure))


def _graded(results, credits, found, mistakes: Mistakes, judged, mode, notes, words, elapsed) -> Grade:  # type: ignore[no-untyped-def]
    """The Grade: a score capped below half-passing when the attempt makes a mistake."""
    from prep.grading.verdict import score_of

    score = score_of(results, credits, mode)
    if notes:
        score = min(score, judged.partial_at - 1)
    return Grade(
        score=max(0, round(score)),
        verdict=judged.verdict,
        rating=judged.rating,
        mode=mode,
        matched=tuple(r for r, hit in zip(results, found) if hit),
        missed=tuple(r for r, hit in zip(results, found) if not hit),
        pitfalls=mistakes.pitfalls,
        swapped=mistakes.swapped,
        contradicted=mistakes.contradicted,
        unknown=judged.unknown,
        notes=tuple(notes),
        words=words,
        elapsed_seconds=elapsed,
        pass_at=judged.pass_at,
        partial_at=judged.partial_at,
    )


def _on_topic(matcher: RefutingMatcher, claims: list[Claim], settings: Settings) -> bool:
    """Whether the attempt shares a few content words with the prompt or the key points: one that
    does not ("I have no idea", another topic) cannot be saying them in other words."""
    topic = set(matcher.prompt_keys) | {k for c in claims for p in c.phrasings for k in phrase_keys(p)[0]}
    said = {t.key for t in matcher.tokens if t.content}
    return len(said & topic) >= settings.on_topic_words


def _claims(question: Question, candidate_answer: str | None) -> tuple[str, list[Claim]]:
    """What the attempt is graded against: the key points, else the prepared answer's sentences."""
    if question.key_points:
        return "key_points", list(question.key_points)
    return "answer", [Claim(text=s) for s in sentences(candidate_answer or "")]


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
    share = 100.0 * len(ticked) / len(results) if results else 0.0
    fast = graded.elapsed_seconds is not None and graded.elapsed_seconds <= question.target_seconds
    verdict, rating = judge_ticks(share, settings, fast)
    return replace(
        graded,
        score=round(share),
        verdict=verdict,
        rating=rating if graded.structure is None else capped(rating, graded.structure),
        unknown=(),
        matched=tuple(r for n, r in enumerate(results, 1) if n in ticked),
        missed=tuple(r for n, r in enumerate(results, 1) if n not in ticked),
        pass_at=round(settings.pass_score),
        partial_at=round(settings.partial_score),
    )


def _nothing_to_grade(words: int, elapsed_seconds: float | None) -> Grade:
    note = "nothing to grade against: add key points or an answer"
    return Grade(0, "fail", Rating.AGAIN, "none", notes=(note,), words=words, elapsed_seconds=elapsed_seconds)


def _credit(value: float, none: float, full: float) -> float:
    if value >= full:
        return 1.0
    if value <= none:
        return 0.0
    return (value - none) / (full - none)
