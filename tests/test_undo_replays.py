"""A card's schedule is the replay of its reviews in time order: after any undo (two drills at
once included), and as `prep state check` checks it, with `prep state rebuild` to restore it."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from prep.bank.load import load_bank
from prep.config import SchedulerConfig
from prep.grading.grade import grade
from prep.paths import BankLocation
from prep.rating import Rating
from prep.review.scheduler import Scheduler
from prep.review.session import Session
from prep.state.store import Store

from .support import MOMENT, NOW, write_bank

SCHEDULER = Scheduler(SchedulerConfig())  # fuzz on: it is drawn from the review, so replays agree


def two_drills(bank_dir, state_file, clock):  # type: ignore[no-untyped-def]
    """Two drill sessions on one state file, as two terminals run them."""
    bank = load_bank(BankLocation(bank_dir, "option"))
    key = BankLocation(bank_dir, "option").key
    return [
        Session(bank, Store(state_file, bank_key=key), SCHEDULER, clock, grader=grade, keep_practice=True)
        for _ in range(2)
    ]


def replayed(store: Store, question_id: str):  # type: ignore[no-untyped-def]
    reviews = store.reviews(question_id)
    states = SCHEDULER.replay(question_id, [(r.reviewed_at, r.rating) for r in reviews])
    return states[-1] if states else None


def test_two_drills_rate_one_card_and_the_first_undoes_its_rating(bank_dir, state_file, run):
    times = iter([MOMENT + timedelta(minutes=m) for m in range(100)])
    first, second = two_drills(bank_dir, state_file, lambda: next(times))
    first.rate("dp-vs-mp", Rating.GOOD)
    second.rate("dp-vs-mp", Rating.HARD)
    first.undo()
    store = second.store
    [left] = store.reviews("dp-vs-mp")
    assert left.rating == Rating.HARD  # the other drill's review stays ...
    card = store.card("dp-vs-mp")
    assert card is not None and card.reps == 1  # ... and the card is not new: it is its replay
    assert card == replayed(store, "dp-vs-mp")
    assert store.db.execute("SELECT card_before FROM reviews").fetchone()[0] is None  # now its first
    check = run("state", "check")
    assert check.exit_code == 0 and "  ok" in check.output


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from([0, 1]), st.sampled_from(["undo", 1, 2, 3, 4])), max_size=12))
def test_after_any_undo_the_schedule_is_the_replay_of_the_reviews_left(tmp_path_factory, steps):
    bank_dir = write_bank(tmp_path_factory.mktemp("bank"))
    state_file = tmp_path_factory.mktemp("state") / "state.sqlite3"
    times = iter([MOMENT + timedelta(hours=h) for h in range(100)])
    drills = two_drills(bank_dir, state_file, lambda: next(times))
    for which, step in steps:
        if step == "undo":
            drills[which].undo()
        else:
            drills[which].rate("zero-stages", Rating(step))
        store = drills[0].store
        assert store.card("zero-stages") == replayed(store, "zero-stages")
    for drill in drills:
        drill.store.close()


def test_state_check_finds_a_schedule_that_is_not_the_replay_and_rebuild_restores_it(run, state_file):
    script = (
        "\n3\nn\n" + "\n2\n" + "\n4\n"
    )  # dp-vs-mp Good (no follow-up), dp-batch-size Hard, zero-stages Easy
    assert run("drill", "--category", "parallelism", input=script, env=NOW).exit_code == 0
    db = sqlite3.connect(state_file)
    with db:  # as the undo before this fix left it: a card made new while a review of it stays
        db.execute("DELETE FROM cards WHERE question_id = 'dp-vs-mp'")
        db.execute("UPDATE cards SET reps = 5 WHERE question_id = 'zero-stages'")
    db.close()
    check = run("state", "check")
    assert check.exit_code == 3, check.output
    assert "2 cards' schedules not the replay of their reviews" in check.output
    assert "dp-vs-mp: 1 review(s) but no schedule" in check.output
    assert "zero-stages: its schedule reflects 5 review(s)" in check.output
    assert "state rebuild" in check.output
    as_json = json.loads(run("state", "check", "--json").output)
    assert as_json["status"] == "inconsistent"
    assert [m["question"] for m in as_json["mismatched"]] == ["zero-stages", "dp-vs-mp"]
    rebuilt = run("state", "rebuild")
    assert rebuilt.output.startswith("rebuilt 2 schedules: zero-stages, dp-vs-mp"), rebuilt.output
    assert run("state", "check").exit_code == 0
    assert run("state", "rebuild").output.startswith("nothing to rebuild")
