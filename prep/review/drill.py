"""The drill loop: one card after another, asked through a UI, until the queue is empty.

``Drill`` decides what happens next (grade, rate, undo, edit, follow-ups, Again at the end);
the UI (see ``DrillUI``) only shows and asks. A fake UI drives it in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING

from prep.errors import PrepError
from prep.grading.grade import from_ticks, ticked_points
from prep.rating import Rating
from prep.review.queue import QueueItem
from prep.review.session import Result, Session, Summary
from prep.review.teaching import Chosen
from prep.review.ui import AnswerInterrupted, Choice, DrillUI

if TYPE_CHECKING:
    from prep.bank.schema import Question
    from prep.grading.grade import Grade
    from prep.review.judge import Judge
    from prep.review.teaching import DrillTeacher, Taught

# A card rated Again comes back at the end of the session when its next step is this close
# (the first learning step is a minute); later steps wait for a later session.
AGAIN_IN_SESSION = timedelta(minutes=20)


@dataclass
class _Turn:
    """One card being answered: what was typed, and the grade it got."""

    item: QueueItem
    question: Question
    answer: str = ""
    elapsed: float | None = None
    graded: Grade | None = None  # the grader's own grade (the judge's if it decided), which the log keeps
    words: Grade | None = None  # the word-level grade
    judged_by: str | None = None  # the judge model that decided the grade, if one did
    ticked: set[int] | None = None  # the key points the user ticked with `t`, if they did
    rescored: Grade | None = None  # the grade their ticks give
    taught: set[int] = field(default_factory=set)
    quotes_offered: bool = False  # `t` taught from the judge's quotes once: the next `t` ticks

    @property
    def suggested(self) -> Rating | None:
        shown = self.rescored or self.graded
        return shown.rating if shown else None

    @property
    def decided_by(self) -> str | None:
        """Who decided the verdict, as the review log records it."""
        if self.ticked is not None:
            return "ticks"
        if self.judged_by is not None:
            return f"judge:{self.judged_by}"
        return "words" if self.graded is not None else None


class Drill:
    """Runs a session over a queue. Each step returns False when the user quits."""

    def __init__(
        self,
        session: Session,
        queue: list[QueueItem],
        ui: DrillUI,
        teacher: DrillTeacher | None = None,
        judge: Judge | None = None,
    ) -> None:
        self.session = session
        self.ui = ui
        self.teacher = teacher
        self.judge = judge  # asked about the answers it wants (prep.review.judge)
        self.pending = list(queue)
        self.done: list[QueueItem] = []  # for undo: the card goes back to the front
        self.seen_follow_ups: set[str] = set()
        self.taught_in: set[str] = set()  # questions that learned words in this session

    def run(self) -> Summary:
        """Drill the queue until it is empty or the user quits. Ctrl-C ends with a summary."""
        try:
            while self.pending:
                item = self.pending.pop(0)
                if item.question_id in self.session.bank.questions and not self._turn(item):
                    break
        except KeyboardInterrupt:
            return self.session.finish(interrupted=True)
        return self.session.finish()

    def _turn(self, item: QueueItem) -> bool:
        turn = _Turn(item, self.session.bank.question(item.question_id))
        self._show(turn)
        try:
            answered = self.ui.read_answer(turn.question)
        except AnswerInterrupted as stopped:  # the lines typed so far are kept as practice
            self.session.answered(stopped.elapsed)
            self.session.keep_unrated(turn.question.id, None, stopped.answer, stopped.elapsed)
            raise
        if answered is None:
            return False
        turn.answer, turn.elapsed = answered
        self.session.answered(turn.elapsed)
        if turn.answer.strip() and self.session.mode != "flip":
            self._grade(turn)
        if self.session.mode == "mock":  # no feedback until the end; the schedule only with --record
            self._mock(turn)
            return True
        self._show_grade(turn)
        choice = self._choose(turn)
        if turn.question.id not in self.session.bank.questions:
            self.ui.notify(f"{turn.question.id} is no longer in the bank (renamed or removed): not rated")
            return True
        return self._act(turn, choice)

    def _grade(self, turn: _Turn) -> None:
        """Grade the answer by the words, then by the judge where it is wanted; a judge that
        fails says so in one line and the words' grade stands."""
        graded = self.session.grade(turn.question.id, turn.answer, turn.elapsed)
        # Nothing to grade against (no key points, no prepared answer): the user rates it.
        turn.graded = turn.words = graded if graded.mode != "none" else None
        turn.judged_by = None
        if turn.graded is None or self.judge is None:
            return
        prepared = self.session.bank.answer_text(turn.question.id)
        judged = self.judge.review(turn.question, prepared, turn.answer, turn.graded)
        outcome = judged.judge
        if outcome is not None and outcome.error:
            self.ui.notify(f"judge {outcome.model}: {outcome.error}; the words' grade stands")
        if outcome is not None and outcome.used:
            turn.graded, turn.judged_by = judged.grade, outcome.model

    def _show_grade(self, turn: _Turn) -> None:
        self.ui.show_grade(turn.question, turn.graded, turn.answer, turn.elapsed, judged_by=turn.judged_by)
        quoted = self._quoted(turn)
        if quoted:
            self.ui.notify(
                f"t teaches the grader your words for {_points(sorted(quoted))}, as the judge quoted them"
            )

    def _quoted(self, turn: _Turn) -> dict[int, str]:
        """The key points the judge found said, with its quotes, that the words missed and that
        were not taught yet in this turn."""
        if turn.quotes_offered or turn.judged_by is None or turn.graded is None or turn.words is None:
            return {}
        if turn.graded.mode != "key_points":
            return {}
        found = ticked_points(turn.question, turn.words)
        numbers = {c.text: n for n, c in enumerate(turn.question.key_points, 1)}
        return {
            numbers[r.text]: r.excerpt
            for r in turn.graded.matched
            if r.excerpt and r.text in numbers and numbers[r.text] not in found | turn.taught
        }

    def _show(self, turn: _Turn) -> None:
        # Counted afresh for each card: undo, requeued Again cards and follow-ups change it.
        position = len(self.done) + 1
        self.ui.show_card(turn.question, turn.item, position, position + len(self.pending))

    def _mock(self, turn: _Turn) -> None:
        session = self.session
        if session.record and (turn.graded is None or turn.graded.rating is not None):
            rating = turn.graded.rating if turn.graded and turn.graded.rating else Rating.AGAIN
            session.rate(
                turn.question.id,
                rating,
                graded=turn.graded,
                answer=turn.answer,
                elapsed=turn.elapsed,
                decided_by=turn.decided_by,
            )
        else:
            session.attempt(turn.question.id, turn.graded, turn.answer, turn.elapsed, turn.decided_by)
        self.done.append(turn.item)

    def _choose(self, turn: _Turn) -> Choice:
        """The user's choice for this card; an edit reloads it and asks again."""
        try:
            return self._choice(turn)
        except KeyboardInterrupt:  # at the choice, in the editor's aftermath or ticking
            self.session.keep_unrated(
                turn.question.id, turn.graded, turn.answer, turn.elapsed, turn.decided_by
            )
            raise

    def _choice(self, turn: _Turn) -> Choice:
        while True:
            can_tick = (turn.rescored or turn.graded) is not None and bool(turn.question.key_points)
            choice = self.ui.choose(turn.suggested, can_tick)
            if choice.action == "edit":
                self.ui.edit(turn.question)
                if turn.question.id not in self.session.bank.questions:
                    return choice  # renamed or removed in the editor: nothing left to rate
                self._reload(turn)
                continue
            if choice.action == "teach":
                quoted = self._quoted(turn)
                if quoted:  # the judge's quotes for what the words missed: taught with one key
                    turn.quotes_offered = True
                    if self._may_write():
                        self._teach(turn, sorted(quoted), quoted)
                else:
                    self._tick(turn)
                continue
            if choice.action == "undo" and not self.session.can_undo():
                self.ui.notify("nothing to undo in this session")  # the answer just typed stays
                continue
            return choice

    def _reload(self, turn: _Turn) -> None:
        """After an edit: show the question as it now is, and grade the answer against it."""
        edited = self.session.bank.question(turn.question.id)
        if edited is turn.question:
            return
        turn.question = edited
        if turn.graded is not None:
            self._grade(turn)
        self._show(turn)
        self._show_grade(turn)

    def _act(self, turn: _Turn, choice: Choice) -> bool:
        session, question = self.session, turn.question
        # Not rated now (quit, skip, or undo, after which the card is asked again): what was
        # typed is kept as practice all the same.
        if choice.action in ("quit", "skip", "undo") and session.keep_unrated(
            question.id, turn.graded, turn.answer, turn.elapsed, turn.decided_by
        ):
            self.ui.notify("not rated: your answer is kept as practice (prep history shows it)")
        if choice.action == "quit":
            return False
        if choice.action == "skip":
            session.skip(question.id)
            self.done.append(turn.item)
            return True
        if choice.action == "undo":
            self.pending.insert(0, turn.item)  # this card, unrated, comes back after the one undone
            undone = self._undo()
            if undone is not None:
                self.ui.notify(
                    f"undid {undone.rating} on {undone.question_id}{self._kept(undone)}; "
                    f"{question.id} comes back after it"
                )
            return True
        assert choice.rating is not None
        self._rate(turn, choice.rating)
        return self._follow_up(question)

    def _rate(self, turn: _Turn, rating: Rating) -> None:
        session = self.session
        rated = session.rate(
            turn.question.id,
            rating,
            graded=turn.graded,
            answer=turn.answer,
            elapsed=turn.elapsed,
            ticked=sorted(turn.ticked) if turn.ticked is not None else None,
            decided_by=turn.decided_by,
        )
        if rated.card_after is not None:
            wait = rated.card_after.due - session.clock()
            if rating == Rating.AGAIN and wait <= AGAIN_IN_SESSION:
                self.pending.append(QueueItem(turn.question.id, "again", rated.card_after.due))
                self.ui.notify("again: back at the end of this session")
            else:
                self.ui.notify(f"{rating}: next review {describe_interval(wait)}")
        self.done.append(turn.item)

    def _tick(self, turn: _Turn) -> None:
        """`t`: the user ticks the key points they covered; the card is re-scored from the ticks,
        and the points the grader did not find are taught from the answer."""
        question, graded = turn.question, turn.graded
        if graded is None or graded.mode != "key_points":
            self.ui.notify("nothing to tick: this answer was not graded against key points")
            return
        shown = ticked_points(question, graded)  # the judge's, when it decided
        ticked = self.ui.tick(question, turn.ticked if turn.ticked is not None else shown)
        if ticked is None:
            return
        found = ticked_points(question, turn.words or graded)  # what the words already know
        turn.ticked, turn.rescored = ticked, from_ticks(question, graded, ticked)
        total = len(question.key_points)
        self.ui.notify(
            f"your ticks: {len(ticked)} of {total} key point{'s' if total != 1 else ''}, "
            f"{turn.rescored.verdict}; suggested {turn.rescored.rating}"
        )
        newly = sorted(ticked - found - turn.taught)
        if newly and self._may_write():
            self._teach(turn, newly)

    def _may_write(self) -> bool:
        """Whether taught words go to the bank: asked once, then kept in the config."""
        teacher = self.teacher
        if teacher is None:
            return False
        if teacher.location is None:
            self.ui.notify(f"not taught: {teacher.refusal}")
            return False
        if teacher.writes_bank is None:
            answer = self.ui.confirm(
                "Add your words to the bank, so the grader knows them next time? "
                "(asked once; kept in the config)"
            )
            if answer is None:
                self.ui.notify(
                    f"not taught: set teach_writes_bank = true under [drill] in {teacher.config}, "
                    "or run `prep teach ID --point N`"
                )
                return False
            teacher.writes_bank = answer
            teacher.remember(answer)
        if not teacher.writes_bank:
            self.ui.notify(f"not taught (teach_writes_bank = false in {teacher.config})")
        return teacher.writes_bank

    def _teach(self, turn: _Turn, points: list[int], quotes: dict[int, str] | None = None) -> None:
        """Teach what can be taught of *points* (from the judge's *quotes* of them, if given); a
        point that cannot be leaves the others."""
        assert self.teacher is not None
        try:
            taught = self.teacher.teach(self.session.bank, turn.question, turn.answer, points, quotes)
        except PrepError as error:  # the bank cannot be written, or is no longer valid
            self.ui.notify(f"not taught: {error.message}")
            return
        self._taught(turn, taught)
        # No clause clearly says these: the user shows which one does (or types the words), and
        # hears what came of it before the next question.
        for unclear in taught.unclear:
            picked = self.ui.pick_clause(turn.question, unclear.point, unclear.clauses)
            if picked is None or picked == "":
                continue
            chosen = (
                Chosen(unclear.point, words=picked)
                if isinstance(picked, str)
                else Chosen(unclear.point, clause=picked)
            )
            try:
                shown = self.teacher.teach(self.session.bank, turn.question, turn.answer, [], chosen=[chosen])
            except PrepError as error:
                self.ui.notify(f"not taught: {error.message}")
                return
            self._taught(turn, shown)

    def _taught(self, turn: _Turn, taught: Taught) -> None:
        """Take in what a teaching did, and say it."""
        self.session.bank = taught.bank
        if taught.added:
            self.taught_in.add(turn.question.id)
        for lesson in taught.lessons:
            turn.taught.add(lesson.point)
            known = " (it already knew it)" if lesson.known else ""
            self.ui.notify(f"taught key point {lesson.point}: “{lesson.phrasing}”{known}")
        for refusal in taught.refused:
            self.ui.notify(f"not taught: {refusal}")

    def _follow_up(self, question: Question) -> bool:
        """Offer the first follow-up not yet drilled in this session; drill it next if wanted."""
        bank = self.session.bank
        drilled = {d.question_id for d in self.done}
        follow = [
            f
            for f in question.follow_ups
            if f in bank.questions and f not in self.seen_follow_ups and f not in drilled
        ]
        wanted = self.ui.offer_follow_up(bank.question(follow[0])) if follow else False
        if wanted is None:
            return False
        if wanted == "undo":
            undone = self._undo()
            if undone is not None:
                self.ui.notify(f"undid {undone.rating} on {undone.question_id}{self._kept(undone)}")
        elif wanted:
            self.seen_follow_ups.add(follow[0])
            # Drilled now, so not again later in this session as a new or due card.
            self.pending = [QueueItem(follow[0], "follow-up")] + [
                p for p in self.pending if p.question_id != follow[0]
            ]
        elif follow:
            self._declined(follow[0])
        return True

    def _declined(self, qid: str) -> None:
        """A follow-up the user chose not to drill now is not the next card even when the queue
        has it next (due, or new): it goes after the others, ahead of the cards brought back
        for Again at the end of the session."""
        pending = self.pending
        if len(pending) < 2 or pending[0].question_id != qid:
            return
        item = pending.pop(0)
        at = next((i for i, p in enumerate(pending) if p.reason == "again"), len(pending))
        pending.insert(max(at, 1), item)

    def _undo(self) -> Result | None:
        """Undo the last rating: its card goes back to the front of the queue, and a copy of it
        brought back for Again is dropped (it is not due again once its rating is undone)."""
        undone = self.session.undo()
        if undone is None:
            return None
        if undone.question_id in self.taught_in:
            self.ui.notify(
                f"the words taught from that answer stay in the bank (`prep show {undone.question_id} "
                f"--aliases` lists them; `prep teach {undone.question_id} --forget N` removes them)"
            )
        previous = next((d for d in reversed(self.done) if d.question_id == undone.question_id), None)
        if previous is not None:
            self.done.remove(previous)
            self.pending.insert(0, previous)
        # Not the card just put back, which may itself be such a copy being rated again.
        later = self.pending[1:] if previous is not None else self.pending
        requeued = next(
            (p for p in reversed(later) if p.question_id == undone.question_id and p.reason == "again"), None
        )
        if requeued is not None:
            self.pending.remove(requeued)
        return undone

    def _kept(self, undone: Result) -> str:
        """How an undone rating's answer was kept (see Session.undo), for the message saying so."""
        if undone.answer.strip() and self.session.can_keep:
            return ", its answer kept as practice"
        return ""


def describe_interval(delta: timedelta) -> str:
    """'in 10 minutes', 'in 3 days', 'in 2 months': how far away the next review is."""
    seconds = max(0, int(delta.total_seconds()))
    for unit, size in (("month", 30 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = round(seconds / size)
            return f"in {n} {unit}{'s' if n != 1 else ''}"
    return "in under a minute" if seconds else "now"


def _points(numbers: list[int]) -> str:
    return ("key point " if len(numbers) == 1 else "key points ") + ", ".join(map(str, numbers))
