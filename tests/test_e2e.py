"""The installed `prep` command, run as a user runs it: in a pseudo-terminal, and killed mid-session."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import time

import pexpect
import pytest

from .support import GOOD, installed_prep, pause_after_a_key, reveal, spawn_prep


@pytest.fixture
def env(isolated_home):
    return {
        **os.environ,
        "PREP_HOME": str(isolated_home),
        "PREP_NOW": "2026-03-02T09:00:00+00:00",
        "NO_COLOR": "1",
        "COLUMNS": "110",
        "LINES": "50",
        "TERM": "xterm",
    }


def _reviews(state):
    db = sqlite3.connect(f"file:{state}?mode=ro", uri=True)  # never create the file here
    try:
        return db.execute("SELECT question_id, rating FROM reviews ORDER BY id").fetchall()
    finally:
        db.close()


def _spawn_drill(bank_dir, state_file, env):
    """`prep drill` in a real pseudo-terminal, as a user starts it."""
    return spawn_prep(bank_dir, state_file, "drill", "--category", "parallelism", env=env)


def test_full_session_in_a_terminal_with_undo_and_quit(bank_dir, state_file, env):
    child = _spawn_drill(bank_dir, state_file, env)
    try:
        child.expect("What is the difference between data parallelism")
        child.expect("Your answer")
        child.sendline(GOOD)
        child.sendline("")
        child.expect("PASS")
        child.expect("Rate:")
        child.send("4")  # one key, no Enter
        child.expect(re.escape("Drill this follow-up now? [y/N, u undoes the rating, q quits]"))
        child.send("n")  # declined: the follow-up is not the next card
        child.expect("What do the three ZeRO stages shard")
        child.expect("Your answer")
        child.sendline("no idea")
        child.sendline("")
        child.expect("Rate:")
        child.send("u")
        child.expect("undid easy on dp-vs-mp")
        child.expect("What is the difference between data parallelism")
        child.sendline(GOOD)
        child.sendline("")
        child.expect("Rate:")
        pause_after_a_key()  # the grade read: an Enter on the heels of the answer's is a double press
        child.send("\r")  # Enter accepts the suggestion
        child.expect(re.escape("Drill this follow-up now? [y/N, u undoes the rating, q quits]"))
        child.send("n")
        child.expect("Your answer")
        reveal(child)  # empty answer: reveal and self-grade
        child.expect("Key points:")
        child.expect("Rate:")
        child.send("q")
        child.expect("Session done.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert [qid for qid, _ in _reviews(state_file)] == ["dp-vs-mp"]
    assert _reviews(state_file)[0][1] in (3, 4)


def _interrupt_at(child, prompt: str) -> None:  # type: ignore[no-untyped-def]
    """Press Ctrl-C once *prompt* shows, and wait for the summary and the end (exit 130)."""
    try:
        child.expect(prompt)
        child.sendintr()
        child.expect("Session interrupted")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130


def test_ctrl_c_at_the_rating_prompt_keeps_the_answer_typed(bank_dir, state_file, env):
    child = _spawn_drill(bank_dir, state_file, env)
    child.expect("Your answer")
    child.sendline("an answer I never rated")
    child.sendline("")
    _interrupt_at(child, "Rate:")
    db = sqlite3.connect(f"file:{state_file}?mode=ro", uri=True)
    try:
        assert db.execute("SELECT answer, mode FROM practice").fetchall() == [
            ("an answer I never rated", "drill")
        ]
    finally:
        db.close()


def test_ctrl_c_prints_a_summary_and_keeps_ratings(bank_dir, state_file, env):
    child = _spawn_drill(bank_dir, state_file, env)
    try:
        child.expect("Your answer")
        child.sendline(GOOD)
        child.sendline("")
        child.expect("Rate:")
        child.send("3")
        child.expect(re.escape("Drill this follow-up now? [y/N, u undoes the rating, q quits]"))
        child.send("n")
    except BaseException:
        child.close()
        raise
    _interrupt_at(child, "Your answer")
    assert _reviews(state_file) == [("dp-vs-mp", 3)]


def test_sigkill_after_n_ratings_keeps_exactly_n_reviews(bank_dir, state_file, env):
    answers = [GOOD, "micro batch times DP size times accumulation", "stage 1 optimizer states"]
    script = "".join(f"{a}\n\n3\nn\n" for a in answers)
    proc = subprocess.Popen(
        [installed_prep(), "--bank", str(bank_dir), "--state", str(state_file), "drill", "--new", "20"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    proc.stdin.write(script)  # then keep stdin open: prep waits for the next answer
    proc.stdin.flush()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if len(_reviews(state_file)) >= 3:
                break
        except sqlite3.OperationalError:
            pass  # the database is still being created
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    reviews = _reviews(state_file)
    assert len(reviews) == 3
    db = sqlite3.connect(state_file)
    cards = dict(db.execute("SELECT question_id, reps FROM cards").fetchall())
    counts: dict[str, int] = {}
    for qid, _ in reviews:
        counts[qid] = counts.get(qid, 0) + 1
    assert cards == counts  # every review has its card state, and no card is ahead of the log
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_two_drills_on_one_database_both_save(bank_dir, state_file, env):
    script = f"{GOOD}\n\n3\nn\n"
    procs = [
        subprocess.Popen(
            [
                installed_prep(),
                "--bank",
                str(bank_dir),
                "--state",
                str(state_file),
                "drill",
                "--cram",
                "--mode",
                "mock",
                "--record",
                "--count",
                "4",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(script * 4 + "\n" * 8, timeout=60) for p in procs]
    for proc, (_out, err) in zip(procs, outputs):
        assert proc.returncode == 0, err
        assert "locked" not in err
    # Every answer is saved by both: rated, or (where the words cannot judge it) kept as practice.
    kept = sqlite3.connect(state_file).execute("SELECT COUNT(*) FROM practice").fetchone()[0]
    assert len(_reviews(state_file)) + kept == 8 and kept % 2 == 0


def _rate_and_end(child, rating: str, follow_up_key: str) -> None:  # type: ignore[no-untyped-def]
    """Rate the card with one key, answer the follow-up offer, and wait for the session to end."""
    child.expect("Rate:")
    child.send(rating)
    child.expect(re.escape("Drill this follow-up now?"))
    child.send(follow_up_key)
    child.expect(pexpect.EOF)


def test_line_editing_and_ctrl_d_while_typing_an_answer(bank_dir, state_file, env):
    """Arrow keys edit the line (not escape codes typed into the answer); Ctrl-D on the empty
    line after it ends the answer with nothing lost."""
    child = _spawn_drill(bank_dir, state_file, env)
    try:
        child.expect("Your answer")
        child.send("gradients are reduced")
        child.send("\x1b[D" * 7)  # Left arrow, seven times: the cursor before "reduced"
        child.send("all-")
        child.send("\r")
        child.send("\x04")  # Ctrl-D on the empty line
        _rate_and_end(child, "2", "q")
    finally:
        child.close()
    db = sqlite3.connect(f"file:{state_file}?mode=ro", uri=True)
    try:
        assert db.execute("SELECT answer, rating FROM reviews").fetchall() == [
            ("gradients are all-reduced", 2)
        ]
    finally:
        db.close()


def test_rating_keys_that_are_not_choices_rate_nothing(bank_dir, state_file, env):
    """A non-ASCII key, an arrow key, and Enter with no suggestion leave the card unrated."""
    child = _spawn_drill(bank_dir, state_file, env)
    try:
        child.expect("Your answer")
        child.sendline("")  # empty answer: self-graded, so there is no suggestion to accept
        child.expect(re.escape("(choose 1-4)"))
        child.send("é")
        child.expect("unknown choice 'é'")
        child.send("\x1b[A")  # Up arrow: ignored, no message
        pause_after_a_key()
        child.send("\r")
        child.expect("no suggestion to accept: choose 1-4")
        assert "unknown choice" not in child.before  # the arrow key said nothing
        _rate_and_end(child, "2", "q")
    finally:
        child.close()
    assert _reviews(state_file) == [("dp-vs-mp", 2)]


@pytest.mark.parametrize("lead", ["", "\r"], ids=["text first", "blank line first"])
def test_a_pasted_answer_with_blank_lines_is_kept_whole(bank_dir, state_file, env, lead):
    """A paste arrives at once: its blank lines, even a first one, do not end the answer; the
    blank line typed after it does."""
    child = _spawn_drill(bank_dir, state_file, env)
    try:
        child.expect("Your answer")
        child.send(lead + "Each GPU holds a full copy.\r\rGradients are all-reduced.\r")
        time.sleep(0.5)
        child.send("\r")
        _rate_and_end(child, "2", "q")
    finally:
        child.close()
    db = sqlite3.connect(f"file:{state_file}?mode=ro", uri=True)
    try:
        [(answer,)] = db.execute("SELECT answer FROM reviews").fetchall()
    finally:
        db.close()
    assert answer == "Each GPU holds a full copy.\n\nGradients are all-reduced."


def test_output_into_a_closed_pipe_is_not_an_error_message(env):
    """`prep export csv | head -1`: the reader leaving early is neither a bug to report nor a
    failure (exit 0, so `set -o pipefail` scripts go on)."""
    for command in (["export", "csv"], ["list"]):
        process = subprocess.Popen(
            [installed_prep(), *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        process.stdout.close()  # the reader is gone before prep writes
        error = process.stderr.read().decode()
        process.stderr.close()
        assert process.wait(timeout=30) == 0
        assert error == "", command


def test_drill_json_in_a_terminal_keeps_stdout_for_the_summary(bank_dir, state_file, env, tmp_path):
    out = tmp_path / "summary.json"
    command = (
        f"'{installed_prep()}' --bank '{bank_dir}' --state '{state_file}' drill --category parallelism "
        f"--limit 1 --json > '{out}'"
    )
    child = pexpect.spawn(
        "bash", ["-c", command], env=env, encoding="utf-8", timeout=20, dimensions=(50, 110)
    )
    try:
        child.expect("Your answer")
        child.sendline(GOOD)
        child.sendline("")
        _rate_and_end(child, "3", "n")
    finally:
        child.close()
    text = out.read_text()
    assert text.startswith("{")
    import json

    assert json.loads(text)["cards"] == 1
