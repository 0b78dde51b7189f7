"""The drill in a real terminal, as a user at 80 columns meets it: `q` Enter quits at the answer
prompt, the time spent answering counts an answer whose rating was undone, and the prompts and
advice lines the terminal wraps go on indented under their own text. Also the lists `prep add`
shows, broken between items, and `prep plan` through a pipe, fitted to the reader's width."""

from __future__ import annotations

import io
import os
import re
import sqlite3
import subprocess

import pexpect
import pytest
from rich.console import Console
from rich.text import Text

from prep.cli.hanging import Hanging
from prep.cli.plain import wrapped_list

from .support import GOOD, installed_prep, pause_after_a_key, reveal, spawn_prep, terminal_env, write

RATE_PROMPT = r"(= (again|hard|good|easy)|choose 1-4 or t)\)"  # the Rate prompt's end, wherever it wraps


def _reviews(state) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    if not state.exists():
        return []
    db = sqlite3.connect(f"file:{state}?mode=ro", uri=True)
    try:
        return db.execute("SELECT question_id, rating FROM reviews ORDER BY id").fetchall()
    finally:
        db.close()


def _drill(bank_dir, state_file, home, *args: str, rows: int = 50, columns: int = 110):  # type: ignore[no-untyped-def]
    env = {**terminal_env(home), "COLUMNS": str(columns), "LINES": str(rows)}
    child = spawn_prep(bank_dir, state_file, "drill", *args, env=env, dimensions=(rows, columns))
    child.logfile_read = io.StringIO()
    return child


def _screen(child, rows: int, columns: int) -> list[str]:  # type: ignore[no-untyped-def]
    """What the terminal shows now."""
    import pyte

    screen = pyte.Screen(columns, rows)
    pyte.Stream(screen).feed(child.logfile_read.getvalue())
    return [line.rstrip() for line in screen.display]


def _rate_the_first_card_good(child) -> None:  # type: ignore[no-untyped-def]
    """dp-vs-mp answered well and rated Good, up to the offer of its follow-up."""
    child.expect("Your answer")
    child.sendline(GOOD)
    child.sendline("")
    child.expect(RATE_PROMPT)
    child.send("3")
    child.expect(re.escape("Drill this follow-up now?"))


def test_an_answer_of_just_q_quits_at_its_enter(bank_dir, state_file, isolated_home):
    child = _drill(bank_dir, state_file, isolated_home, "-c", "parallelism")
    try:
        child.expect("Your answer")
        child.sendline("q")  # no blank line after it
        child.expect("Session done.", timeout=5)
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert _reviews(state_file) == []


def test_the_time_spent_answering_counts_an_answer_whose_rating_was_undone(
    bank_dir, state_file, isolated_home
):
    child = _drill(bank_dir, state_file, isolated_home, "-c", "parallelism")
    try:
        _rate_the_first_card_good(child)
        child.send("n")
        child.expect("Your answer")
        child.sendline("stage 1 shards the optimizer states")
        child.sendline("")
        child.expect(RATE_PROMPT)
        child.send("u")  # takes back dp-vs-mp's Good: the session has no rated card left
        child.expect("undid good on dp-vs-mp")
        child.expect("Your answer")
        child.sendline("q")
        child.expect("Session done.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    summary = child.logfile_read.getvalue().split("Session done.")[1]
    assert "answering not timed" not in summary
    assert re.search(r"time \d+m\d\ds in the session, \d+m\d\ds answering", summary), summary
    assert _reviews(state_file) == []


def test_the_rating_prompt_wraps_indented_at_80_columns(bank_dir, state_file, isolated_home):
    child = _drill(bank_dir, state_file, isolated_home, "-c", "parallelism", rows=40, columns=80)
    try:
        child.expect("Your answer")
        child.sendline(GOOD)
        child.sendline("")
        child.expect(RATE_PROMPT)
        lines = _screen(child, 40, 80)
    finally:
        child.close()
    (at,) = [i for i, line in enumerate(lines) if line.startswith("Rate: 1 Again")]
    assert lines[at + 1].startswith("      ") and "(Enter = " in lines[at + 1], lines[at : at + 2]


def test_the_star_timing_line_wraps_indented_at_80_columns(bank_dir, state_file, isolated_home):
    child = _drill(bank_dir, state_file, isolated_home, "-c", "behavioral", rows=40, columns=80)
    try:
        child.expect("Your answer")
        child.sendline("Last year our training job hung. I fixed the launcher. As a result hangs stopped.")
        child.sendline("")
        child.expect(RATE_PROMPT)
        lines = _screen(child, 40, 80)
    finally:
        child.close()
    (at,) = [i for i, line in enumerate(lines) if line.startswith("  ⏱ about")]
    assert "target 120s: short" in lines[at]
    assert lines[at + 1].startswith("    ") and lines[at + 1].strip().endswith("came of it")


def test_a_hanging_line_is_whole_where_nothing_wraps_and_indented_where_it_does():
    text = "  unsure: " + "the words cannot tell whether you said points 1, 2 and 3 " * 3
    narrow = Console(width=60, no_color=True, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    narrow.print(Hanging(Text(text, style="cyan"), 2))
    lines = narrow.export_text().splitlines()
    assert len(lines) > 2 and all(len(line) <= 60 for line in lines)
    assert lines[0].startswith("  unsure:") and all(line.startswith("  ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == " ".join(text.split())
    script = Console(width=60, no_color=True, record=True, soft_wrap=True, file=open(os.devnull, "w"))  # noqa: SIM115
    script.print(Hanging(text, 2))
    assert script.export_text() == text + "\n"  # a script's plain lines stay whole


def test_a_list_is_broken_between_its_items():
    ids = [f"intro-sft-dpo-alignment-pipeline-{n}" for n in range(6)]
    lines = wrapped_list("Behavioral questions with a prepared answer", ids, width=80).splitlines()
    assert len(lines) > 1 and all(len(line) <= 80 for line in lines)
    assert all(line.startswith("  ") for line in lines[1:])
    words = " ".join(lines).replace(",", " ").split()
    assert all(qid in words for qid in ids)  # every id whole on one line


def test_prep_add_lists_the_categories_whole_at_80_columns(tmp_path, isolated_home, state_file):
    bank = tmp_path / "many"
    names = [f"gpu-performance-and-kernels-{n}" for n in range(8)]
    for name in names:
        write(bank / "questions" / f"{name}.yaml", f"category: {name}\ntitle: {name}\nquestions: []\n")
    env = {**terminal_env(isolated_home), "COLUMNS": "80", "LINES": "30"}
    child = spawn_prep(bank, state_file, "add", env=env, dimensions=(30, 80))
    child.logfile_read = io.StringIO()
    try:
        child.expect(re.escape("Category (existing or new)"))
        lines = _screen(child, 30, 80)
    finally:
        child.close()
    start = next(i for i, line in enumerate(lines) if line.startswith("Categories: "))
    shown = lines[start : next(i for i in range(start, len(lines)) if lines[i].startswith("Category ("))]
    assert len(shown) > 1 and all(line.startswith("  ") for line in shown[1:])
    words = " ".join(shown).removeprefix("Categories:").replace(",", " ").split()
    assert words == names


@pytest.mark.parametrize("columns", [None, "120"], ids=["no terminal: 80", "COLUMNS"])
def test_prep_plan_through_a_pipe_fits_the_width(isolated_home, columns):
    env = {k: v for k, v in terminal_env(isolated_home).items() if k != "COLUMNS"}
    if columns:
        env["COLUMNS"] = columns
    prep = installed_prep()
    home = str(isolated_home)
    subprocess.run([prep, "plan", "--interview", "+12d", "--minutes", "30", "--save"], env=env, check=True,
                   capture_output=True, cwd=home)  # fmt: skip
    shown = subprocess.run(
        [prep, "plan"], env=env, capture_output=True, text=True, check=True, cwd=home
    ).stdout
    lines = shown.splitlines()
    width = int(columns or 80)
    assert "By category, weakest first" in lines and any("stay unseen" in line for line in lines)
    assert max(len(line) for line in lines) <= width
    assert max(len(line) for line in lines) > 76  # the table and the sentences do take the room


def test_an_enter_after_a_one_key_choice_does_not_reveal_the_next_card(bank_dir, state_file, isolated_home):
    child = _drill(bank_dir, state_file, isolated_home, "-c", "parallelism")
    try:
        _rate_the_first_card_good(child)
        child.send("y\r")  # the habit: a choice ended with Enter, which the key did not need
        child.expect("What global batch size")
        child.expect("Your answer")
        with pytest.raises(pexpect.TIMEOUT):
            child.expect("Key points:", timeout=1)  # not revealed as an empty answer
        child.sendline("about 2048 sequences; the all-reduce over the slow links was the bottleneck")
        child.sendline("")
        child.expect(RATE_PROMPT)
        child.send("3")
        child.expect("Your answer")
        reveal(child)  # a blank line well after the key: the empty answer that reveals the card
        child.expect("Key points:")
        child.expect(re.escape("(choose 1-4)"))  # no grade: the user rates
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert [qid for qid, _ in _reviews(state_file)] == ["dp-vs-mp", "dp-batch-size"]


def test_an_enter_after_a_rating_does_not_decline_the_follow_up_unseen(bank_dir, state_file, isolated_home):
    child = _drill(bank_dir, state_file, isolated_home, "-c", "parallelism")
    try:
        _rate_the_first_card_good(child)
        child.send("\r")  # the Enter that ended Good out of habit, as the offer comes up
        with pytest.raises(pexpect.TIMEOUT):
            child.expect("Your answer", timeout=1)  # the offer still waits for its answer
        child.send("y")
        child.expect("What global batch size")
        child.expect("Your answer")
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert _reviews(state_file) == [("dp-vs-mp", 3)]


def test_a_double_enter_after_an_answer_or_a_double_rating_acts_on_nothing_unseen(
    bank_dir, state_file, isolated_home
):
    child = _drill(bank_dir, state_file, isolated_home, "-c", "parallelism")
    try:
        child.expect("Your answer")
        child.sendline(GOOD)
        child.sendline("")
        child.expect(RATE_PROMPT)
        child.send("\r")  # the blank line's Enter pressed twice: the grade is not read yet
        with pytest.raises(pexpect.TIMEOUT):
            child.expect("next review in", timeout=1)  # no suggestion accepted
        child.send("3")
        child.expect(re.escape("Drill this follow-up now?"))
        child.send("3")  # the rating key pressed twice: no answer to the offer
        with pytest.raises(pexpect.TIMEOUT):
            child.expect("Your answer", timeout=1)
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert _reviews(state_file) == [("dp-vs-mp", 3)]


def test_tick_numbers_and_their_enter_typed_in_one_burst_are_all_taken(bank_dir, state_file, isolated_home):
    child = _drill(bank_dir, state_file, isolated_home, "-c", "parallelism")
    try:
        child.expect("Your answer")
        child.sendline("Each GPU keeps a full copy; the batch is split.")
        child.sendline("")
        child.expect(RATE_PROMPT)
        pause_after_a_key()
        child.send("t")
        child.expect("a number ticks or unticks it")
        pause_after_a_key()  # the list read, the keys come
        child.send("45\r")  # over a link that bunches keys, they come as one burst
        child.expect(r"your ticks: 3 of 5 key points")  # 1, as the grader ticked it, and 4 and 5
        child.expect("asked once")  # whether to write what is taught to the bank
        child.send("n")
        child.expect(RATE_PROMPT)
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    shown = _screen(child, 50, 110)
    assert any("4. [x]" in line for line in shown) and any("5. [x]" in line for line in shown), shown
