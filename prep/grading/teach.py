"""Teaching the grader the user's own words: the part of an answer that says a key point.

Pure: a question and an answer in, the phrasings to add out. The span is a clause or a short
sentence of the answer, never all of it, and never one that also says one of the question's
known wrong claims: teaching must not weaken the guard against wrong answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from prep.bank.schema import Claim, Question
from prep.errors import CommandLineError, UsageError
from prep.grading.assign import Candidate, assign, candidates, coverage, numbered
from prep.grading.grade import grade
from prep.grading.mistakes import with_core
from prep.grading.refuting import RefutingMatcher
from prep.grading.settings import DEFAULT_SETTINGS, Settings
from prep.text import phrase_keys

# A taught phrasing is a claim of the user's: with fewer content words ("saves activations") it
# is said again by chance, in answers that say something else (and by wrong ones).
MIN_WORDS = 3


@dataclass(frozen=True)
class Lesson:
    point: int  # 1-based, as `prep show` numbers the key points
    phrasing: str
    known: bool = False  # the key point already has this phrasing: nothing to add


@dataclass(frozen=True)
class Unclear:
    """No clause of the answer clearly says this key point: the user shows which one does
    (`--clause N`, numbered as *clauses* lists them) or types the words (`--words`)."""

    point: int
    clauses: tuple[str, ...]
    read_as: tuple[int, ...] = ()  # the key points the grader credits a one-clause answer to

    @property
    def message(self) -> str:
        if self.read_as:
            others = " and ".join(str(n) for n in self.read_as)
            return (
                f"key point {self.point}: the grader reads the answer as key point {others}, not this "
                "one; nothing was taught: if it says this point too, say so with --clause 1, or give "
                'the words with --words "..."'
            )
        return (
            f"key point {self.point}: no clause of the answer clearly says it; nothing was taught: "
            'say which with --clause N, or give the words with --words "..."'
        )

    @property
    def listing(self) -> str:
        """The clauses to choose from, numbered, one to a line."""
        return "\n  ".join(f"{n}. {text}" for n, text in enumerate(self.clauses, 1))

    def error(self) -> UsageError:
        return UsageError(self.message, hint="the clauses of the answer:\n  " + self.listing)


def lessons(
    question: Question, answer: str, points: Iterable[int], settings: Settings = DEFAULT_SETTINGS
) -> list[Lesson]:
    """For each key point (1-based), the clause of *answer* that says it. Raises UsageError,
    naming the point, when the answer is empty, a number is out of range, no clause clearly
    says a point, or a clause is too short to be a claim or says one of the question's pitfalls."""
    found = try_lessons(question, answer, points, settings)
    for item in found:
        if isinstance(item, UsageError):
            raise item
        if isinstance(item, Unclear):
            raise item.error()
    return found  # type: ignore[return-value]


def try_lessons(
    question: Question, answer: str, points: Iterable[int], settings: Settings = DEFAULT_SETTINGS
) -> list[Lesson | Unclear | UsageError]:
    """As ``lessons``, but a point that cannot be taught from this answer gets its refusal, or
    the clauses to choose from, in the list instead of stopping the others (a drill teaches what
    it can, and asks about the rest)."""
    numbers = _checked(question, answer, points)
    found_candidates = candidates(answer)
    cover = coverage(question, found_candidates, settings)
    taken = _claimed(question, answer, numbers, found_candidates, settings)
    chosen = assign([n - 1 for n in numbers], found_candidates, cover, taken)
    listed = tuple(c.text for c in numbered(answer))
    if not listed:
        raise UsageError(f"{answer.strip()!r} has fewer than {MIN_WORDS} content words; nothing was taught")
    result: list[Lesson | Unclear | UsageError] = []
    for n in numbers:
        candidate = chosen.get(n - 1)
        if candidate is None or not _related(question, n, candidate.text):
            read_as = sorted({p + 1 for p in taken.values()}) if len(listed) == 1 else []
            result.append(Unclear(n, listed, tuple(read_as)))
            continue
        try:
            result.append(lesson_from_words(question, n, candidate.text, settings=settings))
        except UsageError as refusal:
            result.append(refusal)
    return result


def lesson_from_clause(
    question: Question, answer: str, point: int, clause: int | tuple[int, ...], *, force: bool = False,
    settings: Settings = DEFAULT_SETTINGS,
) -> Lesson:  # fmt: skip
    """The lesson of the *clause*-th clause (1-based) of *answer* for key *point*; of several
    clauses, the answer's words from the first to the last when they follow each other ("using
    an accept/reject rule, so you get the same samples"), else their words joined."""
    _checked(question, answer, [point])
    listed = numbered(answer)
    picked = sorted(set((clause,) if isinstance(clause, int) else clause))
    for n in picked:
        if not 1 <= n <= len(listed):
            raise CommandLineError(f"--clause {n}: the answer has clauses 1 to {len(listed)}")
    first, last = listed[picked[0] - 1], listed[picked[-1] - 1]
    if picked == list(range(picked[0], picked[-1] + 1)):
        words = answer[first.start : last.end].strip()
    else:
        words = " ".join(listed[n - 1].text for n in picked)
    return lesson_from_words(question, point, words, force=force, settings=settings)


def lesson_from_words(
    question: Question, point: int, words: str, *, force: bool = False, settings: Settings = DEFAULT_SETTINGS
) -> Lesson:
    """The lesson of *words* for key *point*: refused when they are too short to be a claim,
    say one of the question's pitfalls, or (unless *force*) share no word with the point, its
    other phrasings or the question."""
    words = " ".join(words.split()).strip(" .;:,")
    if not words:
        raise UsageError(f"key point {point}: no words to teach")
    _check(question, point, words, settings)
    if not force and not _related(question, point, words):
        raise UsageError(
            f"key point {point}: {words!r} shares no word with the key point, its phrasings or the "
            f"question; nothing was taught (prep teach {question.id} --point {point} --words "
            '"..." --force teaches it all the same)'
        )
    return Lesson(point, words, known=_knows(question.key_points[point - 1], words))


def _checked(question: Question, answer: str, points: Iterable[int]) -> list[int]:
    """The point numbers, once each; UsageError when there is nothing to teach from or to."""
    if not answer.strip():
        raise UsageError("the answer is empty: there is nothing to teach from")
    numbers = list(dict.fromkeys(points))
    count = len(question.key_points)
    if not count:
        raise UsageError(f"{question.id} has no key points: there is nothing to teach")
    for n in numbers:
        if not 1 <= n <= count:
            raise UsageError(f"--point {n}: {question.id} has key points 1 to {count}")
    return numbers


def _claimed(
    question: Question, answer: str, numbers: list[int], found: list[Candidate], settings: Settings
) -> dict[int, int]:
    """The candidates the grader credits to key points not being taught (candidate -> point,
    both 0-based): theirs, not to teach."""
    graded = grade(question, None, answer, settings=settings)
    index = {c.text: n for n, c in enumerate(question.key_points)}
    taught = {n - 1 for n in numbers}
    spans = [(r.span, index[r.text]) for r in graded.matched if r.span and index[r.text] not in taught]
    return {i: point for i, c in enumerate(found) for span, point in spans if _mostly_within(c, [span])}


def _mostly_within(candidate: Candidate, spans: list[tuple[int, int]]) -> bool:
    """Whether two thirds of the candidate lie in *spans* (a clause that also says another key
    point may be the words for this one too; one the other points fill is not)."""
    inside = sum(max(0, min(candidate.end, b) - max(candidate.start, a)) for a, b in spans)
    return inside * 3 >= 2 * (candidate.end - candidate.start)


def _related(question: Question, point: int, words: str) -> bool:
    """Whether *words* share a content word with the key point, its phrasings or the question."""
    known = set(phrase_keys(question.prompt)[0])
    known |= {k for p in question.key_points[point - 1].phrasings for k in phrase_keys(p)[0]}
    return bool(known & set(phrase_keys(words)[0]))


def _check(question: Question, point: int, span: str, settings: Settings) -> None:
    if len(phrase_keys(span)[0]) < MIN_WORDS:
        raise UsageError(
            f"key point {point}: {span!r} has fewer than {MIN_WORDS} content words; nothing was taught"
        )
    pitfalls = [with_core(c, question.prompt) for c in question.pitfalls]
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
