"""Teaching the grader the user's own words: the part of an answer that says a key point.

Pure: a question and an answer in, the phrasings to add out. The span is a clause or a short
sentence of the answer, never all of it, and never one that also says one of the question's
known wrong claims: teaching must not weaken the guard against wrong answers.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from prep.bank.schema import Claim, Question
from prep.errors import UsageError
from prep.grading.grade import grade
from prep.grading.matcher import Matcher
from prep.grading.mistakes import with_core
from prep.grading.refuting import RefutingMatcher
from prep.grading.settings import DEFAULT_SETTINGS, Settings
from prep.text import CLAUSE_BREAK, phrase_keys, sentences, word_count

MAX_SPAN_WORDS = 25  # a taught phrasing is a claim, not a paragraph
# Words that join a clause to the one before: dropped from the front of a span ("because of"
# is a preposition, not a joint, and stays).
_LEADING = re.compile(
    r"^(?:and|so|then|also|which|that|this|because|since|or)\b(?!\s+of\b)[\s,]*", re.IGNORECASE
)


@dataclass(frozen=True)
class Lesson:
    point: int  # 1-based, as `prep show` numbers the key points
    phrasing: str
    known: bool = False  # the key point already has this phrasing: nothing to add


def lessons(
    question: Question, answer: str, points: Iterable[int], settings: Settings = DEFAULT_SETTINGS
) -> list[Lesson]:
    """For each key point (1-based), the span of *answer* that best says it. Raises UsageError,
    naming the point, when the answer is empty, a number is out of range, or a span is too
    short to be a claim or says one of the question's pitfalls."""
    found = try_lessons(question, answer, points, settings)
    for item in found:
        if isinstance(item, UsageError):
            raise item
    return found  # type: ignore[return-value]


def try_lessons(
    question: Question, answer: str, points: Iterable[int], settings: Settings = DEFAULT_SETTINGS
) -> list[Lesson | UsageError]:
    """As ``lessons``, but a point that cannot be taught from this answer gets its refusal in
    the list instead of stopping the others (a drill teaches what it can)."""
    if not answer.strip():
        raise UsageError("the answer is empty: there is nothing to teach from")
    numbers = list(dict.fromkeys(points))
    count = len(question.key_points)
    if not count:
        raise UsageError(f"{question.id} has no key points: there is nothing to teach")
    for n in numbers:
        if not 1 <= n <= count:
            raise UsageError(f"--point {n}: {question.id} has key points 1 to {count}")
    # What the grader already credits to the other key points is theirs: not a span to teach.
    graded = grade(question, None, answer, settings=settings)
    claimed = [
        r.span
        for r in graded.matched
        if r.span and r.text not in {question.key_points[n - 1].text for n in numbers}
    ]
    taken: set[str] = set()
    found: list[Lesson | UsageError] = []
    cover = _coverage(question, candidate_spans(answer), settings)
    for n in numbers:
        try:
            span = best_span(question, answer, n - 1, taken, claimed, cover)
            _check(question, n, span, settings)
        except UsageError as refusal:
            found.append(refusal)
            continue
        taken.add(span)
        found.append(Lesson(n, span, known=_knows(question.key_points[n - 1], span)))
    return found


def candidate_spans(answer: str) -> list[str]:
    """The clauses of the answer, and its sentences short enough to be one claim."""
    found: list[str] = []
    for sentence in sentences(answer):
        parts = [p for p in CLAUSE_BREAK.split(sentence) if p and p.strip()]
        for part in [*parts, sentence] if len(parts) > 1 else [sentence]:
            cleaned = _LEADING.sub("", part.strip().strip(".;:,!?").strip())
            if cleaned and word_count(cleaned) <= MAX_SPAN_WORDS and cleaned not in found:
                found.append(cleaned)
    return found


def best_span(
    question: Question,
    answer: str,
    index: int,
    taken: Collection[str] = (),
    claimed: Collection[tuple[int, int]] = (),
    cover: dict[str, list[float]] | None = None,
) -> str:
    """The candidate span that says this key point rather than another one, as the grader's own
    matching judges (how much of the point it says, less how much of the point it says best if
    that is another), then says most of it, shares two or more words with it, sits where this
    point's place among the key points suggests (answers tend to follow their order), and is
    shortest. Left to
    others where another span can be found: spans overlapping those taught to other points this
    time (*taken*), and the parts of the answer the grader credits to other key points
    (*claimed*, character spans). *cover*: each span's coverage of each key point, if known."""
    own = {k for p in question.key_points[index].phrasings for k in phrase_keys(p)[0]}
    spans = candidate_spans(answer)
    # A span must say two things beyond the question's own words: one that mostly repeats the
    # prompt ("compute the kernel's intensity") is met by chance in other answers.
    asked = set(phrase_keys(question.prompt)[0])
    claims = (
        [s for s in spans if len(set(phrase_keys(s)[0]) - asked) >= 2]
        or [s for s in spans if len(phrase_keys(s)[0]) >= 2]
        or spans  # too short: refused later
    )
    free = [s for s in claims if not any(s in t or t in s for t in taken)]
    unclaimed = [s for s in free if not _mostly_within(answer, s, claimed)]
    candidates = unclaimed or free or claims
    if not candidates:
        raise UsageError("the answer has no clause short enough to teach")
    cover = cover if cover is not None else _coverage(question, candidates, settings=DEFAULT_SETTINGS)

    place = (index + 0.5) / len(question.key_points)

    def says(span: str) -> float:
        return (cover.get(span) or [0.0] * len(question.key_points))[index]

    def fit(span: str) -> tuple[float, float, int, bool, float, int]:
        scores = cover.get(span) or [0.0] * len(question.key_points)
        others = max((s for i, s in enumerate(scores) if i != index), default=0.0)
        shared = len(set(phrase_keys(span)[0]) & own)  # one shared word is as likely chance
        # A sentence whose clause says the point as well is not the words for it: the clause is.
        padded = any(c != span and c in span and says(c) >= says(span) for c in candidates)
        where = (max(answer.find(span), 0) + len(span) / 2) / len(answer)
        return (min(0.0, says(span) - others), says(span), shared if shared >= 2 else 0, not padded,
                -abs(where - place), -word_count(span))  # fmt: skip

    return max(candidates, key=fit)


def _coverage(question: Question, spans: list[str], settings: Settings) -> dict[str, list[float]]:
    """How much of each key point (0-100) each span says, by the grader's matcher."""
    phrasings = [p for claim in question.key_points for p in claim.phrasings]
    found = {}
    for span in spans:
        matcher = Matcher(span, question.prompt, settings)
        matcher.prepare(phrasings)
        found[span] = [matcher.match(claim).score for claim in question.key_points]
    return found


def _mostly_within(answer: str, span: str, claimed: Collection[tuple[int, int]]) -> bool:
    """Whether two thirds of *span* (where it first occurs in *answer*) lie in *claimed*: a clause
    that also says another key point may be the words for this one too, a sentence that the
    other points fill is not."""
    start = answer.find(span)
    if start < 0 or not claimed:
        return False
    end = start + len(span)
    inside = sum(max(0, min(end, b) - max(start, a)) for a, b in claimed)
    return inside * 3 >= 2 * len(span)


def _check(question: Question, point: int, span: str, settings: Settings) -> None:
    if len(phrase_keys(span)[0]) < 2:
        raise UsageError(f"key point {point}: {span!r} has fewer than two content words; nothing was taught")
    pitfalls = [with_core(c) for c in question.pitfalls]
    if not pitfalls:
        return
    matcher = RefutingMatcher(span, question.prompt, settings)
    wrong = [p for c in pitfalls for p in c.phrasings]
    matcher.prepare(wrong, frozenset(wrong))
    for pitfall in pitfalls:
        if matcher.pitfall(pitfall, []) is not None:
            raise UsageError(
                f"key point {point}: {span!r} also says a known wrong claim ({pitfall.text!r}); "
                "nothing was taught"
            )


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _knows(claim: Claim, phrasing: str) -> bool:
    return _norm(phrasing) in {_norm(p) for p in claim.phrasings}


def taught_question(question: Question, found: list[Lesson]) -> Question:
    """The question with the lessons added to its key points (to grade with before writing)."""
    points = list(question.key_points)
    for lesson in found:
        claim = points[lesson.point - 1]
        if not lesson.known:
            points[lesson.point - 1] = claim.model_copy(update={"taught": (*claim.taught, lesson.phrasing)})
    return question.model_copy(update={"key_points": tuple(points)})
