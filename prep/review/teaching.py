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
from prep.grading.teach import Lesson, taught_question, try_lessons

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
    quotes: dict[int, str] | None = None,
) -> Taught:
    """Add the span of *answer* that says each key point (1-based) to that point's taught
    phrasings, in the bank's YAML, and log each in the state. When a point cannot be taught
    from this answer (see ``lessons``): *strict*, raise UsageError and write nothing; else
    teach the others and say why in ``refused``. *quotes*: the words of the answer a judge
    model quoted for some points, taught as their phrasing (by the same rules: the span of the
    quote that says the point, never one that says a pitfall)."""
    question = bank.question(question_id)
    if quotes:
        tried = [item for n in points for item in try_lessons(question, quotes.get(n) or answer, [n])]
    else:
        tried = try_lessons(question, answer, points)
    refusals = [item for item in tried if isinstance(item, UsageError)]
    if strict and refusals:
        raise refusals[0]
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
    return Taught(question.id, tuple(found), before.score, after.score, after.verdict, bank, refused)


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
        )
