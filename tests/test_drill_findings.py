"""What a new user tripped over in drills: a question with nothing to grade against, the session's
time, and quitting with one key at every prompt."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta

import pexpect

from prep.bank.load import load_bank
from prep.cli.render import summary_table
from prep.config import SchedulerConfig
from prep.grading.grade import grade
from prep.paths import BankLocation
from prep.rating import Rating
from prep.review.drill import Choice, Drill
from prep.review.queue import QueueItem
from prep.review.scheduler import Scheduler
from prep.review.session import Session
from prep.state.store import Store

from .conftest import spawn_prep, write
from .test_drill import GOOD, NOW, reviews
from .test_drill_loop import ScriptedUI

BARE = """\
category: bare
title: Bare
questions:
  - id: no-rubric
    prompt: Tell me something you learned this week.
"""


def test_with_nothing_to_grade_against_the_user_rates_without_a_suggestion(run, bank_dir, state_file):
    write(bank_dir / "questions" / "bare.yaml", BARE)
    result = run("drill", "-c", "bare", input="I learned about ring buffers.\n\n\n3\n", env=NOW)
    assert result.exit_code == 0, result.output
    assert "FAIL" not in result.output and "Nothing to grade against" in result.output
    assert "no suggestion to accept: choose 1-4" in result.output  # Enter alone rates nothing
    assert reviews(state_file) == [("no-rubric", 3, None, None, "I learned about ring buffers.", "type")]


def test_grade_says_when_there_is_nothing_to_grade_against(run, bank_dir):
    write(bank_dir / "questions" / "bare.yaml", BARE)
    result = run("grade", "no-rubric", "--answer", "ring buffers")
    assert result.exit_code == 1
    assert "nothing to grade against" in result.output and "Traceback" not in result.output


def test_the_summary_names_the_sessions_own_time_and_the_time_spent_answering(bank_dir, state_file):
    bank = load_bank(BankLocation(bank_dir, "option"))
    times = iter(datetime(2026, 3, 2, 9, 0, tzinfo=UTC) + timedelta(seconds=s) for s in range(0, 10_000, 40))
    with Store(state_file) as store:
        session = Session(
            bank, store, Scheduler(SchedulerConfig(fuzz=False)), lambda: next(times), grader=grade
        )
        ui = ScriptedUI(
            [GOOD, "x"], [Choice("rate", Rating.GOOD), Choice("rate", Rating.HARD)]
        )  # each answer took 20 s
        summary = Drill(session, [QueueItem("dp-vs-mp", "new"), QueueItem("zero-stages", "new")], ui).run()
    assert summary.wall_seconds > summary.seconds == 40.0
    from rich.console import Console

    console = Console(width=200, no_color=True)
    with console.capture() as captured:
        console.print(summary_table(summary))
    line = next(line for line in captured.get().splitlines() if line.startswith("cards"))
    assert "in the session, 0m40s answering" in line and "time 0m" not in line


def test_a_scripted_session_says_its_answers_were_not_timed(run):
    result = run("drill", "-c", "parallelism", "--limit", "1", "--json", input=GOOD + "\n\n3\nn\n", env=NOW)
    summary = json.loads(result.stdout)
    assert summary["answering_seconds"] is None and "wall_seconds" in summary
    assert "(answering not timed)" in result.stderr


def test_q_alone_at_a_scripted_answer_prompt_quits_and_keeps_nothing(run, state_file):
    result = run("drill", "-c", "parallelism", input="q\n\n", env=NOW)
    assert result.exit_code == 0 and "Session done." in result.output
    assert reviews(state_file) == []
    history = run("history", "dp-vs-mp", "--json")
    assert json.loads(history.output) == []  # not kept as practice either


def test_q_quits_a_flip_drill_with_one_key(bank_dir, state_file, isolated_home):
    env = {**os.environ, "PREP_HOME": str(isolated_home), "PREP_NOW": NOW["PREP_NOW"], "NO_COLOR": "1",
           "TERM": "xterm"}  # fmt: skip
    child = spawn_prep(bank_dir, state_file, "drill", "-c", "parallelism", "--mode", "flip", env=env)
    try:
        child.expect("press Enter to reveal")
        child.send("q")  # no Enter
        child.expect("Session done.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_the_summary_line_breaks_between_figures_in_a_narrow_terminal():
    from datetime import datetime

    from rich.console import Console

    from prep.cli.render import summary_table
    from prep.review.session import Summary

    summary = Summary(results=[], next_due=datetime(2026, 3, 5, 9, 0, tzinfo=UTC), due_left=0)
    console = Console(width=60, no_color=True)
    with console.capture() as captured:
        console.print(summary_table(summary, width=60))
    lines = captured.get().splitlines()
    assert all(len(line) <= 60 for line in lines)
    from prep.cli.render import when_text

    assert any(f"next due {when_text(summary.next_due)}" in line for line in lines)  # the date whole
