"""Leaving a drill, or taking a card back, and what is kept of what was typed: q quits at every
prompt, Ctrl-C mid-answer keeps what was typed (the line being typed too), and undo keeps both
the answer typed for the next card and the answer of the rating it takes back."""

from __future__ import annotations

import json

import pexpect

from prep.bank.load import load_bank
from prep.config import SchedulerConfig
from prep.grading.grade import grade
from prep.paths import BankLocation
from prep.rating import Rating
from prep.review.drill import Drill
from prep.review.queue import QueueItem
from prep.review.scheduler import Scheduler
from prep.review.session import Session
from prep.review.ui import AnswerInterrupted
from prep.state.store import Store

from .support import GOOD, MOMENT, NOW, ScriptedUI, rate, reviews, spawn_prep, terminal_env


def test_q_alone_at_a_scripted_answer_prompt_quits_and_keeps_nothing(run, state_file):
    result = run("drill", "-c", "parallelism", input="q\n\n", env=NOW)
    assert result.exit_code == 0 and "Session done." in result.output
    assert reviews(state_file) == []
    history = run("history", "dp-vs-mp", "--json")
    assert json.loads(history.output) == []  # not kept as practice either


def test_q_quits_a_flip_drill_with_one_key(bank_dir, state_file, isolated_home):
    env = terminal_env(isolated_home)
    child = spawn_prep(bank_dir, state_file, "drill", "-c", "parallelism", "--mode", "flip", env=env)
    try:
        child.expect("press Enter to reveal")
        child.send("q")  # no Enter
        child.expect("Session done.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_undo_on_the_next_card_keeps_the_answer_typed_for_it(run):
    typed = "Global batch is micro-batch times DP size times accumulation steps."
    script = f"{GOOD}\n\n3\ny\n{typed}\n\nu\nq\n\n"
    result = run("drill", "-c", "parallelism", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    assert "not rated: your answer is kept as practice" in result.output
    history = json.loads(run("history", "dp-batch-size", "--json").output)
    assert [(h["answer"], h["scheduled"]) for h in history] == [(typed, False)]


class InterruptedUI(ScriptedUI):
    """Ctrl-C arrives while the second line of an answer is being typed."""

    def read_answer(self, question):
        raise AnswerInterrupted("Stage one shards the optimizer state", 12.0)


def test_ctrl_c_while_typing_keeps_the_lines_already_entered(bank_dir, state_file):
    bank = load_bank(BankLocation(bank_dir, "option"))
    with Store(state_file) as store:
        session = Session(
            bank,
            store,
            Scheduler(SchedulerConfig(fuzz=False)),
            lambda: MOMENT,
            grader=grade,
            keep_practice=True,
        )
        summary = Drill(
            session, [QueueItem("zero-stages", "new")], InterruptedUI([], [rate(Rating.GOOD)])
        ).run()
        assert summary.interrupted
        kept = store.practice("zero-stages")
    assert [(row.answer, row.mode, row.rating) for row in kept] == [
        ("Stage one shards the optimizer state", "drill", None)
    ]


def _interrupted_in_a_terminal(bank_dir, state_file, home, *lines: str, typing: str) -> int:
    """Type *lines* (each ended with Enter) and then *typing* (no Enter), then Ctrl-C."""
    child = spawn_prep(bank_dir, state_file, "drill", "-c", "parallelism", env=terminal_env(home))
    try:
        child.expect("Your answer")
        for line in lines:
            child.sendline(line)
        child.send(typing)
        child.expect(typing[-12:])  # echoed: the terminal has it, mid-line
        child.sendintr()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    return child.exitstatus


def test_ctrl_c_in_a_real_terminal_keeps_the_lines_entered_and_the_one_being_typed(
    bank_dir, state_file, isolated_home, run
):
    status = _interrupted_in_a_terminal(
        bank_dir,
        state_file,
        isolated_home,
        "Every GPU holds a full replica of the model.",
        typing="and the second line is still being typ",
    )
    assert status == 130
    history = json.loads(run("history", "dp-vs-mp", "--json").output)
    assert [h["answer"] for h in history] == [
        "Every GPU holds a full replica of the model.\nand the second line is still being typ"
    ]


def test_ctrl_c_in_the_middle_of_a_one_line_answer_keeps_it(bank_dir, state_file, isolated_home, run):
    status = _interrupted_in_a_terminal(
        bank_dir, state_file, isolated_home, typing="Every GPU holds a full replica of the mod"
    )
    assert status == 130
    history = json.loads(run("history", "dp-vs-mp", "--json").output)
    assert [(h["answer"], h["scheduled"]) for h in history] == [
        ("Every GPU holds a full replica of the mod", False)
    ]


def test_undo_keeps_the_answer_of_the_rating_taken_back(run):
    """`u` takes back a rating, not what was typed: the undone card's answer stays as practice."""
    script = f"{GOOD}\n\n1\nu\nq\n\n"  # dp-vs-mp rated Again, undone at the follow-up offer
    result = run("drill", "-c", "parallelism", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    assert "undid again on dp-vs-mp, its answer kept as practice" in result.output
    history = json.loads(run("history", "dp-vs-mp", "--json").output)
    assert [(h["answer"], h["rating"], h["scheduled"]) for h in history] == [(GOOD, None, False)]


def test_undo_in_a_real_terminal_keeps_both_answers(bank_dir, state_file, isolated_home, run):
    child = spawn_prep(bank_dir, state_file, "drill", "-c", "parallelism", env=terminal_env(isolated_home))
    try:
        child.expect("Your answer")
        child.sendline("Every GPU holds a full replica of the model.")
        child.sendline("")
        child.expect("Rate:")
        child.send("3")
        child.expect("digs deeper")
        child.send("y")
        child.expect("Your answer")
        child.sendline("Global batch is micro-batch times DP size.")
        child.sendline("")
        child.expect("Rate:")
        child.send("u")
        child.expect("undid good on dp-vs-mp, its answer kept as practice")
        child.expect("Your answer")
        child.sendline("q")
        child.sendline("")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    first = json.loads(run("history", "dp-vs-mp", "--json").output)
    second = json.loads(run("history", "dp-batch-size", "--json").output)
    assert [h["answer"] for h in first] == ["Every GPU holds a full replica of the model."]
    assert [h["answer"] for h in second] == ["Global batch is micro-batch times DP size."]
