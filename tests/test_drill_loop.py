"""The drill loop without a terminal: a real session on a real SQLite file, driven by a scripted
fake UI through the DrillUI protocol, so each step can be checked on its own."""

from __future__ import annotations

from datetime import timedelta

import pytest

from prep.bank.load import load_bank
from prep.config import SchedulerConfig
from prep.grading.grade import grade
from prep.paths import BankLocation
from prep.rating import Rating
from prep.review.drill import Drill
from prep.review.queue import QueueItem
from prep.review.scheduler import Scheduler
from prep.review.session import Session
from prep.review.ui import Choice
from prep.state.store import Store

from .support import GOOD, MOMENT, ScriptedUI, rate


@pytest.fixture
def session_for(bank_dir, state_file):
    bank = load_bank(BankLocation(bank_dir, "option"))
    stores = []

    def make(mode="type", record=True):
        store = Store(state_file)
        stores.append(store)
        scheduler = Scheduler(SchedulerConfig(fuzz=False))
        return Session(
            bank, store, scheduler, lambda: MOMENT, grader=grade, mode=mode, record=record, keep_practice=True
        )

    yield make
    for store in stores:
        store.close()


def queue(*ids, reason="new"):
    return [QueueItem(qid, reason) for qid in ids]


def test_each_card_is_shown_graded_and_rated_in_order(session_for):
    session = session_for()
    ui = ScriptedUI([GOOD, "no idea"], [rate(Rating.GOOD), rate(Rating.HARD)])
    summary = Drill(session, queue("dp-vs-mp", "zero-stages"), ui).run()
    assert [s[:2] for s in ui.shown] == [("dp-vs-mp", "new"), ("zero-stages", "new")]
    assert [s[2:] for s in ui.shown] == [(1, 2), (2, 2)]
    assert ui.grades[0] == ("dp-vs-mp", "pass") and ui.suggested[0] == Rating.EASY  # within the target time
    assert [r.rating for r in summary.results] == [Rating.GOOD, Rating.HARD]
    assert {r.question_id for r in session.store.reviews()} == {"dp-vs-mp", "zero-stages"}


def test_again_brings_the_card_back_at_the_end(session_for):
    session = session_for()
    ui = ScriptedUI(["wrong", "x", GOOD], [rate(Rating.AGAIN), rate(Rating.GOOD), rate(Rating.GOOD)])
    Drill(session, queue("dp-vs-mp", "zero-stages"), ui).run()
    assert [s[:2] for s in ui.shown] == [("dp-vs-mp", "new"), ("zero-stages", "new"), ("dp-vs-mp", "again")]
    assert "again: back at the end of this session" in ui.notes


def test_undo_puts_the_last_card_back_first(session_for):
    session = session_for()
    ui = ScriptedUI(
        [GOOD, "x", GOOD, "x"], [rate(Rating.GOOD), Choice("undo"), rate(Rating.EASY), rate(Rating.GOOD)]
    )
    summary = Drill(session, queue("dp-vs-mp", "zero-stages"), ui).run()
    assert [s[0] for s in ui.shown] == ["dp-vs-mp", "zero-stages", "dp-vs-mp", "zero-stages"]
    assert [(r.question_id, r.rating) for r in summary.results] == [
        ("dp-vs-mp", Rating.EASY),
        ("zero-stages", Rating.GOOD),
    ]
    assert [r.rating for r in session.store.reviews("dp-vs-mp")] == [4]  # the undone Good is gone


def test_undo_with_nothing_to_undo_asks_again(session_for):
    session = session_for()
    ui = ScriptedUI([GOOD], [Choice("undo"), rate(Rating.GOOD)])
    Drill(session, queue("dp-vs-mp"), ui).run()
    assert "nothing to undo in this session" in ui.notes
    assert len(session.store.reviews()) == 1


def test_an_accepted_follow_up_comes_next_and_not_again_later(session_for):
    session = session_for()
    ui = ScriptedUI(
        [GOOD, "global batch is micro batch times DP size times accumulation"],
        [rate(Rating.GOOD), rate(Rating.GOOD)],
        follow_ups=[True],
    )
    Drill(session, queue("dp-vs-mp", "dp-batch-size"), ui).run()
    assert ui.offered == ["dp-batch-size"]
    assert [s[:2] for s in ui.shown] == [("dp-vs-mp", "new"), ("dp-batch-size", "follow-up")]


def test_a_declined_follow_up_waits_behind_the_others_and_ahead_of_the_again_cards(session_for):
    session = session_for()
    ui = ScriptedUI(
        ["wrong", GOOD, "x", GOOD], [rate(Rating.AGAIN)] + [rate(Rating.GOOD)] * 3, follow_ups=[False]
    )
    Drill(session, queue("dp-vs-mp", "dp-batch-size", "zero-stages"), ui).run()
    assert ui.offered == ["dp-batch-size"]
    assert [s[:2] for s in ui.shown] == [
        ("dp-vs-mp", "new"),
        ("zero-stages", "new"),
        ("dp-batch-size", "new"),
        ("dp-vs-mp", "again"),
    ]


def test_undo_at_the_follow_up_offer_takes_back_the_rating_just_made(session_for):
    session = session_for()
    ui = ScriptedUI([GOOD, GOOD], [rate(Rating.HARD), rate(Rating.GOOD)], follow_ups=["undo", False])
    summary = Drill(session, queue("dp-vs-mp"), ui).run()
    assert any(n.startswith("undid hard on dp-vs-mp") for n in ui.notes)
    assert [r.rating for r in summary.results] == [Rating.GOOD]


def test_quit_at_the_follow_up_offer_ends_the_session(session_for):
    session = session_for()
    ui = ScriptedUI([GOOD, "x"], [rate(Rating.GOOD), rate(Rating.GOOD)], follow_ups=[None])
    summary = Drill(session, queue("dp-vs-mp", "zero-stages"), ui).run()
    assert [s[0] for s in ui.shown] == ["dp-vs-mp"]
    assert not summary.interrupted


def test_skip_records_nothing_and_keeps_the_typed_answer_as_practice(session_for):
    session = session_for()
    ui = ScriptedUI([GOOD], [Choice("skip")])
    Drill(session, queue("dp-vs-mp"), ui).run()
    assert session.store.reviews() == []
    assert [row.answer for row in session.store.practice("dp-vs-mp")] == [GOOD]


def test_ctrl_c_at_the_rating_keeps_the_answer_and_ends_with_a_summary(session_for):
    session = session_for()
    ui = ScriptedUI([GOOD, GOOD], [rate(Rating.GOOD)], interrupt_at_choice=2)
    summary = Drill(session, queue("zero-stages", "dp-vs-mp"), ui).run()
    assert summary.interrupted
    assert [r.question_id for r in summary.results] == ["zero-stages"]
    assert [row.answer for row in session.store.practice("dp-vs-mp")] == [GOOD]


def test_end_of_input_at_an_answer_ends_the_session(session_for):
    session = session_for()
    ui = ScriptedUI([], [])
    summary = Drill(session, queue("dp-vs-mp"), ui).run()
    assert summary.results == [] and not summary.interrupted


def test_edit_shows_the_note_and_asks_again(session_for):
    session = session_for()
    ui = ScriptedUI([GOOD], [Choice("edit"), rate(Rating.GOOD)])
    Drill(session, queue("dp-vs-mp"), ui).run()
    assert "edit dp-vs-mp" in ui.notes
    assert len(ui.suggested) == 2


def test_a_mock_interview_gives_no_feedback_and_keeps_answers_as_practice(session_for):
    session = session_for(mode="mock", record=False)
    ui = ScriptedUI([GOOD, ""], [])
    summary = Drill(session, queue("dp-vs-mp", "zero-stages", reason="mock"), ui).run()
    assert ui.grades == [] and ui.suggested == []
    assert summary.verdicts == {"pass": 1, "partial": 0, "fail": 1, "unsure": 0}
    assert session.store.reviews() == []
    assert len(session.store.practice("dp-vs-mp")) == 1


def test_questions_gone_from_the_bank_are_skipped(session_for):
    session = session_for()
    ui = ScriptedUI([GOOD], [rate(Rating.GOOD)])
    Drill(session, queue("no-such-question", "dp-vs-mp"), ui).run()
    assert [s[0] for s in ui.shown] == ["dp-vs-mp"]


def test_a_later_session_sees_the_card_due_when_the_scheduler_says(session_for):
    session = session_for()
    Drill(session, queue("dp-vs-mp"), ScriptedUI([GOOD], [rate(Rating.GOOD)])).run()
    card = session.store.card("dp-vs-mp")
    assert card is not None and card.due > MOMENT
    assert session.store.due_ids(MOMENT + timedelta(minutes=1)) == []
