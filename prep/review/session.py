"""The drill session's logic, free of any UI: the queue, grading, rating, undo, follow-ups.

A UI object (see ``DrillUI``) asks the user; ``run`` decides what happens next. The clock is
injected, so tests can replay a session at any date.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal, Protocol

from prep.review.scheduler import RATING_VALUE, RATINGS, CardState, RatingName, Scheduler, new_card
from prep.state.store import Store

if TYPE_CHECKING:  # only for annotations: `prep next` must not pay for pydantic or numpy
    from prep.bank.load import Bank
    from prep.grading.grade import Grade
    from prep.bank.schema import Question

Mode = Literal["type", "flip", "mock"]
SPOKEN_WORDS_PER_MINUTE = 150


def content_hash(question: Question) -> str:
    """Fingerprint of what a card asks; when it changes, past reviews were of other wording."""
    text = "\n".join([question.prompt, *(p.text for p in question.key_points)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def spoken_seconds(text: str) -> float:
    return len(text.split()) * 60.0 / SPOKEN_WORDS_PER_MINUTE


@dataclass(frozen=True)
class QueueItem:
    question_id: str
    reason: Literal["due", "new", "cram", "mock", "follow-up", "again"]
    due: datetime | None = None


def start_of_day(now: datetime) -> datetime:
    """Local midnight of *now*'s day: the new-cards budget resets then."""
    local = now.astimezone()
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def build_queue(
    bank: Bank | None,
    store: Store,
    scheduler: Scheduler | None,
    now: datetime,
    questions: Sequence[Question],
    *,
    new_per_day: int,
    limit: int | None = None,
    shuffle: bool = False,
    cram: bool = False,
    rng: random.Random | None = None,
) -> list[QueueItem]:
    """Due cards first (most overdue first), then new ones within today's budget.

    With ``cram``, every selected question, weakest first (lowest recall probability, then
    most lapses; never-seen questions after those reviewed).
    """
    rng = rng or random.Random()
    wanted = {q.id for q in questions}
    if cram:
        assert scheduler is not None, "cram ordering needs the scheduler"
        ordered = weakest_first(questions, store.cards(), scheduler, now)
        if shuffle:
            rng.shuffle(ordered)
        items = [QueueItem(q.id, "cram") for q in ordered]
        return items[:limit] if limit else items

    due = [QueueItem(qid, "due", when) for qid, when in store.due_ids(now) if qid in wanted]
    known = set(store.content_hashes())
    budget = max(0, new_per_day - store.new_cards_since(start_of_day(now)))
    fresh = [q.id for q in questions if q.id not in known]
    if shuffle:
        rng.shuffle(due)
        rng.shuffle(fresh)
    items = due + [QueueItem(qid, "new") for qid in fresh[:budget]]
    return items[:limit] if limit else items


def weakest_first(
    questions: Sequence[Question], cards: dict[str, CardState], scheduler: Scheduler, now: datetime
) -> list[Question]:
    """Reviewed questions by lowest recall probability now, then lowest stability, then most
    lapses; unseen ones last.

    FSRS counts elapsed time in whole days, so every card reviewed today has a recall
    probability of 1; among those, stability is what tells the card failed an hour ago from
    the one rated Easy."""

    def weakness(q: Question) -> tuple:
        card = cards.get(q.id)
        if card is None:
            return (1, 0.0, 0.0, 0)
        return (0, scheduler.retrievability(card, now), card.stability or 0.0, -card.lapses)

    return sorted(questions, key=weakness)


def mock_queue(questions: Sequence[Question], bank: Bank, count: int, rng: random.Random) -> list[QueueItem]:
    """N questions mixed across categories: round-robin over shuffled categories."""
    by_category: dict[str, list[Question]] = {}
    for q in questions:
        by_category.setdefault(bank.category_of[q.id], []).append(q)
    pools = list(by_category.values())
    for pool in pools:
        rng.shuffle(pool)
    rng.shuffle(pools)
    picked: list[QueueItem] = []
    while len(picked) < count and any(pools):
        for pool in pools:
            if pool and len(picked) < count:
                picked.append(QueueItem(pool.pop().id, "mock"))
    return picked


@dataclass
class Result:
    question_id: str
    rating: RatingName | None  # None: skipped, or mock without --record
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

    @property
    def rated(self) -> list[Result]:
        return [r for r in self.results if r.rating or r.grade or r.asked]

    @property
    def passed(self) -> int:
        return sum(1 for r in self.rated if _passed(r))

    @property
    def ratings(self) -> dict[str, int]:
        """How many cards got each rating (sessions that record), in rating order."""
        names = ("again", "hard", "good", "easy")
        return {name: sum(1 for r in self.results if r.rating == name) for name in names}

    @property
    def verdicts(self) -> dict[str, int]:
        """The grader's verdicts of the cards asked (what a mock interview without --record reports)."""
        # Graded answers, and mock questions left unanswered (a fail); a self-graded card has none.
        asked = [r.grade.verdict if r.grade else "fail" for r in self.rated if r.grade or r.asked]
        return {name: asked.count(name) for name in ("pass", "partial", "fail")}

    @property
    def pass_rate(self) -> float | None:
        return self.passed / len(self.rated) if self.rated else None

    @property
    def seconds(self) -> float:
        return sum(r.elapsed or 0 for r in self.results)

    def to_dict(self) -> dict:
        return {
            "cards": len(self.rated),
            "passed": self.passed,
            "pass_rate": self.pass_rate,
            "ratings": self.ratings,
            "verdicts": self.verdicts,
            "seconds": round(self.seconds, 1),
            "next_due": self.next_due.isoformat() if self.next_due else None,
            "due_left": self.due_left,
            "interrupted": self.interrupted,
            "results": [
                {
                    "question": r.question_id,
                    "rating": r.rating,
                    "score": r.grade.score if r.grade else None,
                    "verdict": r.grade.verdict if r.grade else None,
                    "elapsed": r.elapsed,
                }
                for r in self.results
            ],
        }


def _passed(result: Result) -> bool:
    """Rated Good or Easy: the user's rating has the last word over the grader's verdict, as
    in `prep stats`. Only an unrecorded mock answer, which has no rating, goes by the verdict."""
    if result.rating is not None:
        return result.rating in ("good", "easy")
    return result.grade is not None and result.grade.verdict == "pass"


class Session:
    """Grades attempts and records ratings; each rating is committed before it returns."""

    def __init__(
        self,
        bank: Bank,
        store: Store,
        scheduler: Scheduler,
        clock: Callable[[], datetime],
        mode: Mode = "type",
        record: bool = True,
        scope: Collection[str] | None = None,
        keep_practice: bool = False,
    ) -> None:
        self.bank = bank
        self.store = store
        self.scheduler = scheduler
        self.clock = clock
        self.mode = mode
        self.record = record
        self.scope = scope  # the ids the drill selected: what "still due" counts
        # Sessions that do not schedule (cram, a mock without --record) still keep what was
        # typed and rated, as practice, when the state can be written.
        self.can_keep = keep_practice  # the state can be written: an answer never rated is kept too
        self.summary = Summary(started=clock(), recorded=record, practice_kept=self.keep_practice)

    @property
    def keep_practice(self) -> bool:
        """Rated answers go to practice: the session does not schedule, and the state can be written."""
        return self.can_keep and not self.record

    def grade(self, question_id: str, attempt: str, elapsed: float | None) -> Grade:
        # Deferred: numpy and rapidfuzz only when grading.
        from prep.grading.batch import grade_one

        return grade_one(self.bank, question_id, attempt, elapsed).grade

    def rate(
        self,
        question_id: str,
        rating: RatingName,
        *,
        graded: Grade | None = None,
        answer: str = "",
        elapsed: float | None = None,
    ) -> Result:
        question = self.bank.question(question_id)
        result = Result(question_id, rating, graded, elapsed, answer)
        if self.record:
            now = self.clock()
            result.review_id, after = self.store.review(
                question_id,
                lambda before: self.scheduler.review(before or new_card(question_id, now), rating, now),
                reviewed_at=now,
                rating=RATING_VALUE[rating],
                suggested=RATING_VALUE[graded.rating] if graded else None,
                score=graded.score if graded else None,
                elapsed_seconds=elapsed,
                answer=answer or None,
                mode=self.mode,
                content_hash=content_hash(question),
                verdict=graded.verdict if graded else None,
            )
            result.card_after = after
        elif self.keep_practice:
            result.practice_id = self._practice(question_id, RATING_VALUE[rating], graded, answer, elapsed)
        self.summary.results.append(result)
        return result

    def attempt(self, question_id: str, graded: Grade | None, answer: str, elapsed: float | None) -> Result:
        """A mock question answered (or not) without --record: kept as practice, not scheduled."""
        result = Result(question_id, None, graded, elapsed, answer, asked=True)
        if self.keep_practice:
            result.practice_id = self._practice(question_id, None, graded, answer, elapsed)
        self.summary.results.append(result)
        return result

    def keep_unrated(self, question_id: str, graded: Grade | None, answer: str, elapsed: float | None) -> bool:
        """An answer typed and then skipped, quit or interrupted before a rating: kept as practice.
        Whether it was kept (there was an answer, and the state can be written)."""
        if not (self.can_keep and answer.strip()):
            return False
        self._practice(question_id, None, graded, answer, elapsed)
        return True

    def _practice(self, question_id: str, rating: int | None, graded: Grade | None, answer: str,
                  elapsed: float | None) -> int:
        mode = "mock" if self.mode == "mock" else "drill" if self.record else "cram"
        return self.store.log_practice(
            question_id, practiced_at=self.clock(), mode=mode, rating=rating,
            score=graded.score if graded else None, verdict=graded.verdict if graded else None,
            elapsed_seconds=elapsed, answer=answer or None,
        )

    def skip(self, question_id: str) -> None:
        self.summary.results.append(Result(question_id, None, None, None, ""))

    def can_undo(self) -> bool:
        return any(r.rating is not None for r in self.summary.results)

    def undo(self) -> Result | None:
        """Take back the last rating of this session (its review row and card state)."""
        for index in range(len(self.summary.results) - 1, -1, -1):
            result = self.summary.results[index]
            if result.rating is None:
                continue
            if result.review_id is not None:
                self.store.undo(result.review_id)
            if result.practice_id is not None:
                self.store.forget_practice(result.practice_id)
            del self.summary.results[index]
            return result
        return None

    def finish(self, interrupted: bool = False) -> Summary:
        self.summary.finished = self.clock()
        self.summary.interrupted = interrupted
        self.summary.due_left, self.summary.next_due = due_outlook(self.store, self.bank, self.clock(), self.scope)
        return self.summary


def due_outlook(store: Store, bank: Bank, now: datetime,
                scope: Collection[str] | None = None) -> tuple[int, datetime | None]:
    """How many of the bank's cards (or of the *scope* ids: a drill's -c/--tag selection) are
    due at *now*, and when the next one after that falls due. Cards of questions no longer in
    the bank are not counted (their history is kept)."""
    dues = [card.due for qid, card in store.cards().items()
            if qid in bank.questions and (scope is None or qid in scope)]
    return sum(1 for due in dues if due <= now), min((due for due in dues if due > now), default=None)


# --- the loop, driven by a UI ------------------------------------------------------------

# A card rated Again comes back at the end of the session when its next step is this close
# (the first learning step is a minute); later steps wait for a later session.
AGAIN_IN_SESSION = timedelta(minutes=20)

Action = Literal["rate", "undo", "skip", "quit", "edit"]


@dataclass(frozen=True)
class Choice:
    action: Action
    rating: RatingName | None = None


class DrillUI(Protocol):
    def show_card(self, question: Question, item: QueueItem, position: int, total: int) -> None: ...
    def read_answer(self, question: Question) -> tuple[str, float | None] | None: ...  # None: quit
    def show_grade(self, question: Question, graded: Grade | None, answer: str, elapsed: float | None) -> None: ...
    def choose(self, suggested: RatingName | None) -> Choice: ...
    def offer_follow_up(self, question: Question) -> bool | Literal["undo"] | None: ...  # None: quit
    def notify(self, message: str) -> None: ...
    def edit(self, question: Question) -> None: ...


def run(session: Session, queue: list[QueueItem], ui: DrillUI) -> Summary:
    """Drill the queue until it is empty or the user quits. Ctrl-C ends with a summary."""
    pending = list(queue)
    done: list[QueueItem] = []  # for undo: the card goes back to the front
    seen_follow_ups: set[str] = set()
    try:
        while pending:
            item = pending.pop(0)
            if item.question_id not in session.bank.questions:
                continue
            question = session.bank.question(item.question_id)
            # Counted afresh for each card: undo, requeued Again cards and follow-ups change it.
            ui.show_card(question, item, len(done) + 1, len(done) + len(pending) + 1)
            answered = ui.read_answer(question)
            if answered is None:
                return session.finish()
            answer, elapsed = answered
            graded = session.grade(question.id, answer, elapsed) if answer.strip() and session.mode != "flip" else None
            if session.mode == "mock":  # no feedback until the end; the schedule only with --record
                if session.record:
                    rating = graded.rating if graded else "again"
                    session.rate(question.id, rating, graded=graded, answer=answer, elapsed=elapsed)
                else:
                    session.attempt(question.id, graded, answer, elapsed)
                done.append(item)
                continue
            ui.show_grade(question, graded, answer, elapsed)
            while True:
                try:
                    choice = ui.choose(graded.rating if graded else None)
                except KeyboardInterrupt:
                    session.keep_unrated(question.id, graded, answer, elapsed)
                    raise
                if choice.action == "edit":
                    ui.edit(question)
                    if question.id not in session.bank.questions:
                        break  # renamed or removed in the editor: nothing left to rate
                    edited = session.bank.question(question.id)
                    if edited is not question:  # reloaded: show it, and grade the answer against it
                        question = edited
                        if graded is not None:
                            graded = session.grade(question.id, answer, elapsed)
                        ui.show_card(question, item, len(done) + 1, len(done) + len(pending) + 1)
                        ui.show_grade(question, graded, answer, elapsed)
                    continue
                if choice.action == "undo" and not session.can_undo():
                    ui.notify("nothing to undo in this session")  # the answer just typed stays
                    continue
                break
            if question.id not in session.bank.questions:
                ui.notify(f"{question.id} is no longer in the bank (renamed or removed): not rated")
                continue
            if choice.action in ("quit", "skip") and session.keep_unrated(question.id, graded, answer, elapsed):
                ui.notify("not rated: your answer is kept as practice (prep history shows it)")
            if choice.action == "quit":
                return session.finish()
            if choice.action == "skip":
                session.skip(question.id)
                done.append(item)
                continue
            if choice.action == "undo":
                pending.insert(0, item)  # this card, unrated, comes back after the one undone
                undone = _undo(session, done, pending)
                if undone is not None:
                    ui.notify(f"undid {undone.rating} on {undone.question_id}; {question.id} comes back after it")
                continue
            assert choice.rating is not None
            rated = session.rate(question.id, choice.rating, graded=graded, answer=answer, elapsed=elapsed)
            if rated.card_after is not None:
                wait = rated.card_after.due - session.clock()
                if choice.rating == "again" and wait <= AGAIN_IN_SESSION:
                    pending.append(QueueItem(question.id, "again", rated.card_after.due))
                    ui.notify("again: back at the end of this session")
                else:
                    ui.notify(f"{choice.rating}: next review {describe_interval(wait)}")
            done.append(item)
            drilled = {d.question_id for d in done}
            follow = [f for f in question.follow_ups
                      if f in session.bank.questions and f not in seen_follow_ups and f not in drilled]
            wanted = ui.offer_follow_up(session.bank.question(follow[0])) if follow else False
            if wanted is None:
                return session.finish()
            if wanted == "undo":
                undone = _undo(session, done, pending)
                if undone is not None:
                    ui.notify(f"undid {undone.rating} on {undone.question_id}")
                continue
            if wanted:
                seen_follow_ups.add(follow[0])
                # Drilled now, so not again later in this session as a new or due card.
                pending = [QueueItem(follow[0], "follow-up")] + [p for p in pending if p.question_id != follow[0]]
    except KeyboardInterrupt:
        return session.finish(interrupted=True)
    return session.finish()


def _undo(session: Session, done: list[QueueItem], pending: list[QueueItem]) -> Result | None:
    """Undo the last rating: its card goes back to the front of the queue, and a copy of it
    brought back for Again is dropped (it is not due again once its rating is undone)."""
    undone = session.undo()
    if undone is None:
        return None
    previous = next((d for d in reversed(done) if d.question_id == undone.question_id), None)
    if previous is not None:
        done.remove(previous)
        pending.insert(0, previous)
    # Not the card just put back, which may itself be such a copy being rated again.
    later = pending[1:] if previous is not None else pending
    requeued = next((p for p in reversed(later) if p.question_id == undone.question_id and p.reason == "again"),
                    None)
    if requeued is not None:
        pending.remove(requeued)
    return undone


def describe_interval(delta) -> str:  # type: ignore[no-untyped-def]
    """'in 10 minutes', 'in 3 days', 'in 2 months': how far away the next review is."""
    seconds = max(0, int(delta.total_seconds()))
    for unit, size in (("month", 30 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = round(seconds / size)
            return f"in {n} {unit}{'s' if n != 1 else ''}"
    return "in under a minute" if seconds else "now"


def parse_rating(text: str) -> RatingName | None:
    text = text.strip().lower()
    if text in {"1", "2", "3", "4"}:
        return RATINGS[int(text) - 1]
    return text if text in RATINGS else None  # type: ignore[return-value]


__all__ = [
    "Choice",
    "DrillUI",
    "QueueItem",
    "Session",
    "Summary",
    "build_queue",
    "content_hash",
    "mock_queue",
    "parse_rating",
    "run",
    "spoken_seconds",
    "start_of_day",
]
