"""A drill session, free of any UI: grading attempts, recording ratings, undo, the summary.

The loop that asks the user (``prep.review.drill``) calls it; the grading function and the
clock are passed in, so tests can replay a session at any date with any grader.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from prep.bank.schema import content_hash
from prep.rating import Rating
from prep.review.queue import due_outlook
from prep.review.scheduler import Scheduler
from prep.state.cards import CardState, new_card
from prep.state.store import Store

if TYPE_CHECKING:
    from prep.bank.contents import Bank
    from prep.bank.schema import Question
    from prep.grading.grade import Grade

# (question, prepared answer, attempt, seconds taken) -> Grade: prep.grading.grade.grade
Grader = Callable[["Question", "str | None", str, "float | None"], "Grade"]

Mode = Literal["type", "flip", "mock"]
SPOKEN_WORDS_PER_MINUTE = 150


def spoken_seconds(text: str) -> float:
    return len(text.split()) * 60.0 / SPOKEN_WORDS_PER_MINUTE


@dataclass
class Result:
    question_id: str
    rating: Rating | None  # None: skipped, or mock without --record
    grade: Grade | None
    elapsed: float | None
    answer: str
    review_id: int | None = None
    card_after: CardState | None = None
    asked: bool = False  # a mock question counts as asked, answered or not
    practice_id: int | None = None  # the practice row kept for a cram or unrecorded mock answer


@dataclass
class Summary:
    results: list[Result] = field(default_factory=list)
    started: datetime | None = None
    finished: datetime | None = None
    next_due: datetime | None = None
    due_left: int = 0
    interrupted: bool = False
    recorded: bool = True  # False for cram and for a mock without --record: the schedule is untouched
    practice_kept: bool = False  # ... but what was typed and rated is kept as practice
    # The time of every answer typed at a terminal in this session, whatever became of it: rated,
    # skipped, quit, or rated and then undone (its result is gone, its minutes were spent).
    typing: list[float] = field(default_factory=list)

    @property
    def rated(self) -> list[Result]:
        return [r for r in self.results if r.rating or r.grade or r.asked]

    @property
    def graded(self) -> list[Result]:
        """The cards whose answer the grader judged (a mock question left unanswered: a fail)."""
        return [r for r in self.rated if r.grade or r.asked]

    @property
    def passed(self) -> int:
        """The grader's pass verdicts, as ``verdicts`` counts them: the ratings are in ``ratings``."""
        return self.verdicts["pass"]

    @property
    def ratings(self) -> dict[str, int]:
        """How many cards got each rating (sessions that record), in rating order."""
        return {str(rating): sum(1 for r in self.results if r.rating == rating) for rating in Rating}

    @property
    def verdicts(self) -> dict[str, int]:
        """The grader's verdicts of the cards asked (what a mock interview without --record reports)."""
        # Graded answers, and mock questions left unanswered (a fail); a self-graded card has none.
        asked = [r.grade.verdict if r.grade else "fail" for r in self.graded]
        return {name: asked.count(name) for name in ("pass", "partial", "fail", "unsure")}

    @property
    def pass_rate(self) -> float | None:
        """The share of graded answers the grader passed; None when nothing was graded."""
        return self.passed / len(self.graded) if self.graded else None

    @property
    def seconds(self) -> float:
        """Time spent answering: typing, as timed by the terminal (0 when answers were piped
        in), every answer of the session counted, those whose rating was undone too."""
        return sum(self.typing)

    @property
    def answering_timed(self) -> bool:
        """Whether any answer's time is known (a script's answers have none)."""
        return bool(self.typing)

    @property
    def wall_seconds(self) -> float:
        """The session's own length, from its start to its end, whatever happened in between."""
        if self.started is None or self.finished is None:
            return 0.0
        return max(0.0, (self.finished - self.started).total_seconds())

    def to_dict(self) -> dict:
        return {
            "cards": len(self.rated),
            "passed": self.passed,
            "pass_rate": self.pass_rate,
            "ratings": self.ratings,
            "verdicts": self.verdicts,
            "seconds": round(self.seconds, 1),  # answering time, as before
            "answering_seconds": round(self.seconds, 1) if self.answering_timed else None,
            "wall_seconds": round(self.wall_seconds, 1),
            "next_due": self.next_due.isoformat() if self.next_due else None,
            "due_left": self.due_left,
            "interrupted": self.interrupted,
            "results": [
                {
                    "question": r.question_id,
                    "rating": str(r.rating) if r.rating else None,
                    "score": r.grade.score if r.grade else None,
                    "verdict": r.grade.verdict if r.grade else None,
                    "elapsed": r.elapsed,
                    **_structure(r),
                }
                for r in self.results
            ],
        }


def _structure(result: Result) -> dict:
    """A behavioral answer's STAR structure, for the summary's JSON (other answers have none)."""
    if result.grade is None or result.grade.structure is None:
        return {}
    return {"structure": result.grade.structure.to_dict()}


def decider(graded: Grade | None, decided_by: str | None) -> str | None:
    """Who decided a verdict, for the log: as given, else the words when there is a grade."""
    return decided_by or ("words" if graded is not None else None)


class Session:
    """Grades attempts and records ratings; each rating is committed before it returns."""

    def __init__(
        self,
        bank: Bank,
        store: Store,
        scheduler: Scheduler,
        clock: Callable[[], datetime],
        *,
        grader: Grader,
        mode: Mode = "type",
        record: bool = True,
        scope: Collection[str] | None = None,
        keep_practice: bool = False,
        outlook: Callable[[datetime], tuple[int, datetime | None]] | None = None,
    ) -> None:
        self.bank = bank
        self.grader = grader
        self.store = store
        self.scheduler = scheduler
        self.clock = clock
        self.mode = mode
        self.record = record
        self.scope = scope  # the ids the drill selected: what "still due" counts
        # How many are still due and when the next is, at a time: by default the cards due by
        # FSRS; a drill that follows the interview plan counts what the plan would still ask.
        self.outlook = outlook or (lambda now: due_outlook(self.store, self.bank, now, self.scope))
        # Sessions that do not schedule (cram, a mock without --record) still keep what was
        # typed and rated, as practice, when the state can be written.
        self.can_keep = keep_practice  # the state can be written: an answer never rated is kept too
        self.summary = Summary(started=clock(), recorded=record, practice_kept=self.keep_practice)

    @property
    def keep_practice(self) -> bool:
        """Rated answers go to practice: the session does not schedule, and the state can be written."""
        return self.can_keep and not self.record

    def answered(self, elapsed: float | None) -> None:
        """An answer was read, in *elapsed* seconds (None: not timed, as from a script): counted
        in the session's time spent answering whatever becomes of it."""
        if elapsed is not None:
            self.summary.typing.append(elapsed)

    def grade(self, question_id: str, attempt: str, elapsed: float | None) -> Grade:
        question = self.bank.question(question_id)
        return self.grader(question, self.bank.answer_text(question_id), attempt, elapsed)

    def rate(
        self,
        question_id: str,
        rating: Rating,
        *,
        graded: Grade | None = None,
        answer: str = "",
        elapsed: float | None = None,
        ticked: list[int] | None = None,
        decided_by: str | None = None,
    ) -> Result:
        """Record a rating. *graded* is the grader's own grade (the judge's, when a judge decided
        it), kept with the review next to the key points the user ticked instead (*ticked*, when
        they did) and their final rating. *decided_by*: who decided the verdict (``decider``)."""
        question = self.bank.question(question_id)
        result = Result(question_id, rating, graded, elapsed, answer)
        if self.record:
            now = self.clock()
            result.review_id, after = self.store.rate(
                question_id,
                lambda before, at: self.scheduler.review(before or new_card(question_id, at), rating, at),
                reviewed_at=now,
                rating=rating,
                suggested=graded.rating if graded else None,
                score=graded.score if graded else None,
                elapsed_seconds=elapsed,
                answer=answer or None,
                mode=self.mode,
                content_hash=content_hash(question),
                verdict=graded.verdict if graded else None,
                ticked=json.dumps(ticked) if ticked is not None else None,
                decided_by=decider(graded, decided_by),
            )
            result.card_after = after
        elif self.keep_practice:
            result.practice_id = self._practice(question_id, rating, graded, answer, elapsed, decided_by)
        self.summary.results.append(result)
        return result

    def attempt(
        self,
        question_id: str,
        graded: Grade | None,
        answer: str,
        elapsed: float | None,
        decided_by: str | None = None,
    ) -> Result:
        """A mock question answered (or not) without --record, or with --record an answer the
        words cannot judge (unsure): kept as practice, not scheduled."""
        result = Result(question_id, None, graded, elapsed, answer, asked=True)
        if self.keep_practice or (self.can_keep and graded is not None and graded.rating is None):
            result.practice_id = self._practice(question_id, None, graded, answer, elapsed, decided_by)
        self.summary.results.append(result)
        return result

    def keep_unrated(
        self,
        question_id: str,
        graded: Grade | None,
        answer: str,
        elapsed: float | None,
        decided_by: str | None = None,
    ) -> bool:
        """An answer typed and then skipped, quit or interrupted before a rating: kept as practice.
        Whether it was kept (there was an answer, and the state can be written)."""
        if not (self.can_keep and answer.strip()):
            return False
        self._practice(question_id, None, graded, answer, elapsed, decided_by)
        return True

    def _practice(
        self,
        question_id: str,
        rating: Rating | None,
        graded: Grade | None,
        answer: str,
        elapsed: float | None,
        decided_by: str | None = None,
    ) -> int:
        mode = "mock" if self.mode == "mock" else "drill" if self.record else "cram"
        return self.store.log_practice(
            question_id,
            practiced_at=self.clock(),
            mode=mode,
            rating=rating,
            score=graded.score if graded else None,
            verdict=graded.verdict if graded else None,
            elapsed_seconds=elapsed,
            answer=answer or None,
            decided_by=decider(graded, decided_by),
        )

    def skip(self, question_id: str) -> None:
        self.summary.results.append(Result(question_id, None, None, None, ""))

    def can_undo(self) -> bool:
        return any(r.rating is not None for r in self.summary.results)

    def undo(self) -> Result | None:
        """Take back the last rating of this session: its review goes, and the card becomes the
        replay of the reviews left (another drill's rating of it since included). The answer
        typed for it stays, as practice: only the rating is taken back."""
        for index in range(len(self.summary.results) - 1, -1, -1):
            result = self.summary.results[index]
            if result.rating is None:
                continue
            if result.review_id is not None:
                self.store.undo(result.review_id, self.scheduler.replay, undone_at=self.clock())
            if result.practice_id is not None:
                self.store.forget_practice(result.practice_id, undone_at=self.clock())
            self.keep_unrated(result.question_id, result.grade, result.answer, result.elapsed)
            del self.summary.results[index]
            return result
        return None

    def finish(self, interrupted: bool = False) -> Summary:
        self.summary.finished = self.clock()
        self.summary.interrupted = interrupted
        self.summary.due_left, self.summary.next_due = self.outlook(self.clock())
        return self.summary
