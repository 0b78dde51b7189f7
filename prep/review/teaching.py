"""Teaching the grader from an answer: find the words, grade before and after, write them to
the bank and log the lesson. Used by `prep teach` and by `t` in a drill; nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from prep.bank.teaching import add_taught
from prep.errors import UsageError
from prep.grading.grade import grade
from prep.grading.teach import (
    Lesson,
    Unclear,
    lesson_from_clause,
    lesson_from_words,
    taught_question,
    try_lessons,
)

if TYPE_CHECKING:
    from prep.bank.contents import Bank
    from prep.bank.schema import Question
    from prep.paths import BankLocation
    from prep.state.store import Store


@dataclass(frozen=True)
class Taught:
    """What one teaching did: the phrasings found, and the attempt's score before and after."""

    question_id: str
    lessons: tuple[Lesson, ...]
    score_before: int
    score_after: int
    verdict_after: str
    bank: Bank  # the bank as it now is (the same one when nothing new was written)
    refused: tuple[str, ...] = ()  # why a point could not be taught (only when not *strict*)
    unclear: tuple[Unclear, ...] = ()  # points no clause clearly says: the user shows which one

    @property
    def added(self) -> list[Lesson]:
        return [lesson for lesson in self.lessons if not lesson.known]

    def to_dict(self) -> dict:
        return {
            "question": self.question_id,
            "taught": [{"point": lesson.point, "alias": lesson.phrasing} for lesson in self.added],
            "known": [
                {"point": lesson.point, "alias": lesson.phrasing} for lesson in self.lessons if lesson.known
            ],
            "score_before": self.score_before,
            "score_after": self.score_after,
            "verdict_after": self.verdict_after,
        }


@dataclass(frozen=True)
class Chosen:
    """The words for one key point as the user shows them: a clause of the answer (1-based, as
    ``Unclear.clauses`` lists them) or words typed; *force* teaches words that share nothing
    with the point or the question."""

    point: int
    clause: int | tuple[int, ...] | None = None  # several: the words from the first to the last
    words: str | None = None
    force: bool = False


def teach(
    location: BankLocation,
    bank: Bank,
    question_id: str,
    answer: str,
    points: Iterable[int],
    *,
    store: Store | None,
    now: datetime,
    via: Literal["drill", "command"],
    strict: bool = True,
    chosen: Iterable[Chosen] = (),
    quotes: dict[int, str] | None = None,
) -> Taught:
    """Add the clause of *answer* that says each key point (1-based) to that point's taught
    phrasings, in the bank's YAML, and log each in the state; *chosen*: points whose words the
    user showed; *quotes*: the words of the answer a judge model quoted for some points, taught
    as their phrasing by the same rules (never words that say a pitfall, or share nothing with
    the point or the question). When a point cannot be taught from this answer, or no clause
    clearly says it: *strict*, raise UsageError and write nothing; else teach the others and
    return the rest in ``refused`` and ``unclear``."""
    question = bank.question(question_id)
    quoted = [Chosen(n, words=quotes[n]) for n in points if quotes and quotes.get(n)]
    rest = [n for n in points if not (quotes and quotes.get(n))]
    tried: list[Lesson | Unclear | UsageError] = list(try_lessons(question, answer, rest)) if rest else []
    for choice in (*quoted, *chosen):
        tried.append(_chosen(question, answer, choice))
    refusals = [item for item in tried if isinstance(item, UsageError)]
    unclear = [item for item in tried if isinstance(item, Unclear)]
    if strict and (refusals or unclear):
        raise refusals[0] if refusals else unclear[0].error()
    found = [item for item in tried if isinstance(item, Lesson)]
    prepared = bank.answer_text(question.id)
    before = grade(question, prepared, answer)
    after = grade(taught_question(question, found), prepared, answer)
    new = {lesson.point: lesson.phrasing for lesson in found if not lesson.known}
    if new:
        _change, bank = add_taught(location, bank, question.id, new)
        if store is not None:
            for point, phrasing in new.items():
                store.log_teaching(question.id, point, phrasing, taught_at=now, via=via)
    refused = tuple(r.message for r in refusals)
    return Taught(
        question.id, tuple(found), before.score, after.score, after.verdict, bank, refused, tuple(unclear)
    )


def _chosen(question: Question, answer: str, choice: Chosen) -> Lesson | UsageError:
    try:
        if choice.clause is not None:
            return lesson_from_clause(question, answer, choice.point, choice.clause, force=choice.force)
        return lesson_from_words(question, choice.point, choice.words or "", force=choice.force)
    except UsageError as refusal:
        return refusal


@dataclass
class DrillTeacher:
    """How a drill teaches: where the bank is, whether to write to it (None: not asked yet),
    and how to keep the user's answer to that question."""

    location: BankLocation | None  # None: the bank cannot be written (the bundled one)
    writes_bank: bool | None
    remember: Callable[[bool], None]
    store: Store | None
    clock: Callable[[], datetime]
    refusal: str = ""  # why the bank cannot be written, when it cannot
    config: str = "the config"  # where writes_bank is kept, as messages name it

    def teach(
        self,
        bank: Bank,
        question: Question,
        answer: str,
        points: Iterable[int],
        quotes: dict[int, str] | None = None,
        chosen: Iterable[Chosen] = (),
    ) -> Taught:
        assert self.location is not None
        return teach(
            self.location,
            bank,
            question.id,
            answer,
            points,
            store=self.store,
            now=self.clock(),
            via="drill",
            strict=False,
            quotes=quotes,
            chosen=chosen,
        )
