"""The summary a drill ends with: the session's own time beside the time spent answering (not
timed when the answers were piped in), and its figures kept whole in a narrow terminal."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from rich.console import Console

from prep.bank.load import load_bank
from prep.cli.render import summary_table
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

from .support import GOOD, MOMENT, NOW, ScriptedUI


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


def test_an_answer_whose_rating_was_undone_still_counts_as_time_spent_answering(bank_dir, state_file):
    bank = load_bank(BankLocation(bank_dir, "option"))
    with Store(state_file) as store:
        session = Session(bank, store, Scheduler(SchedulerConfig(fuzz=False)), lambda: MOMENT, grader=grade)
        # dp-vs-mp rated Good; zero-stages answered, then `u` takes dp-vs-mp's rating back;
        # dp-vs-mp comes back and the session ends there: no rated card is left in it.
        ui = ScriptedUI(
            [GOOD, "stage 1 shards the optimizer states"], [Choice("rate", Rating.GOOD), Choice("undo")]
        )
        summary = Drill(session, [QueueItem("dp-vs-mp", "new"), QueueItem("zero-stages", "new")], ui).run()
    assert summary.results == [] and summary.answering_timed and summary.seconds == 40.0  # 20 s each
    console = Console(width=200, no_color=True)
    with console.capture() as captured:
        console.print(summary_table(summary))
    assert "0m40s answering" in captured.get() and "not timed" not in captured.get()
