"""What a drill asks of its user interface, and what the UI answers: the contract between the
drill loop (review/drill.py) and a terminal UI (cli/drill_ui.py) or a scripted one in tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from prep.rating import Rating

if TYPE_CHECKING:
    from prep.bank.schema import Question
    from prep.grading.grade import Grade
    from prep.review.queue import QueueItem

Action = Literal["rate", "undo", "skip", "quit", "edit", "teach"]


class AnswerInterrupted(KeyboardInterrupt):
    """Ctrl-C while an answer was being typed: what was typed so far comes with it, to be kept."""

    def __init__(self, answer: str, elapsed: float | None = None) -> None:
        super().__init__()
        self.answer, self.elapsed = answer, elapsed


class InputEnded(KeyboardInterrupt):
    """Standard input ended at a prompt (a script ran out): the session ends as interrupted."""


@dataclass(frozen=True)
class Choice:
    action: Action
    rating: Rating | None = None


class DrillUI(Protocol):
    def show_card(self, question: Question, item: QueueItem, position: int, total: int) -> None: ...
    def read_answer(self, question: Question) -> tuple[str, float | None] | None: ...  # None: quit
    # *judged_by*: the judge model whose grade this is (its quotes are the matched points' excerpts).
    def show_grade(
        self,
        question: Question,
        graded: Grade | None,
        answer: str,
        elapsed: float | None,
        judged_by: str | None = None,
    ) -> None: ...
    # *can_tick*: there is a grade whose ticks the user can correct (t); with no suggestion the
    # user must choose (the words could not decide, or nothing was graded).
    def choose(self, suggested: Rating | None, can_tick: bool) -> Choice: ...
    def offer_follow_up(self, question: Question) -> bool | Literal["undo"] | None: ...  # None: quit
    def notify(self, message: str) -> None: ...
    def edit(self, question: Question) -> None: ...
    # The key points the user says they covered, starting from *ticked* (1-based); None: cancelled.
    def tick(self, question: Question, ticked: set[int]) -> set[int] | None: ...
    def confirm(self, question: str) -> bool | None: ...  # None: cannot ask (not a terminal)
    # Which of the answer's *clauses* says key point *point*: its number (1-based), several that
    # say it together, the words typed instead, or None to leave the point untaught.
    def pick_clause(
        self, question: Question, point: int, clauses: tuple[str, ...]
    ) -> int | tuple[int, ...] | str | None: ...
