"""A state file the user names (--state or $PREP_STATE) that is not there is said by the
commands that only read, so that a mistyped path does not pass for an empty history; none is
made. The default state file, not there before the first drill, is not worth a word."""

from __future__ import annotations

import pytest

from .support import run_installed

SAID = "no state database at"


@pytest.mark.parametrize("command", [["next"], ["stats"], ["history", "dp-vs-mp"], ["state", "export"]])
def test_a_mistyped_state_option_is_said_and_nothing_is_made(tmp_path, isolated_home, bank_dir, command):
    typo = tmp_path / "typo.sqlite3"
    done = run_installed(tmp_path, "--bank", str(bank_dir), "--state", str(typo), *command)
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stderr.splitlines() if SAID in line]
    assert line == f"prep: {SAID} typo.sqlite3: nothing is recorded there yet (check --state or $PREP_STATE)"
    assert not typo.exists()


def test_a_mistyped_prep_state_is_said_too(tmp_path, isolated_home, bank_dir):
    typo = tmp_path / "nowhere" / "state.sqlite3"
    done = run_installed(tmp_path, "--bank", str(bank_dir), "next", env={"PREP_STATE": str(typo)})
    assert done.returncode == 0 and f"{SAID} nowhere/state.sqlite3:" in done.stderr


def test_the_default_state_file_is_not_said_before_the_first_drill(tmp_path, isolated_home, bank_dir):
    done = run_installed(tmp_path, "--bank", str(bank_dir), "next")  # isolated_home unsets $PREP_STATE
    assert done.returncode == 0 and SAID not in done.stderr, done.stderr


def test_a_named_state_file_that_exists_is_not_said(tmp_path, isolated_home, bank_dir):
    state = tmp_path / "state.sqlite3"
    drilled = run_installed(tmp_path, "--bank", str(bank_dir), "--state", str(state), "drill", input="q\n\n")
    assert drilled.returncode == 0, drilled.stderr
    assert state.exists()
    done = run_installed(tmp_path, "--bank", str(bank_dir), "--state", str(state), "next")
    assert done.returncode == 0 and done.stderr == ""


def test_a_new_state_file_made_from_a_shared_history_is_said(tmp_path, isolated_home, bank_dir):
    def prep(*args: str, input: str = ""):  # type: ignore[no-untyped-def]
        return run_installed(tmp_path, "--bank", str(bank_dir), *args, input=input)

    state = tmp_path / "state.sqlite3"
    assert prep("--state", str(state), "state", "share").returncode == 0
    drilled = prep("--state", str(state), "drill", "-c", "parallelism", input="x\n\n1\nq\n")
    assert (bank_dir / "history").is_dir() and "again" in drilled.stdout, drilled.stdout
    new = tmp_path / "new.sqlite3"  # another machine's state file, named before its first drill
    done = prep("--state", str(new), "stats")
    assert done.returncode == 0 and "  ·  1 review  ·  " in done.stdout, done.stdout  # the shared one
    assert done.stderr == (
        f"prep: {SAID} new.sqlite3: made it from the bank's shared history (check --state or $PREP_STATE)\n"
    )
    # The default state file of another machine is made from the shared history, without a word.
    default = prep("history", "dp-vs-mp")
    assert default.returncode == 0 and "again" in default.stdout and SAID not in default.stderr
