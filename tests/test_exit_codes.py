"""Exit codes a script can rely on: an edit abandoned at its prompt, and a reader that leaves a
pipe early."""

from __future__ import annotations

import os
import subprocess
import sys

import pexpect
import pytest

from .support import installed_prep, write

BREAKS_THE_FILE = "path.write_text(path.read_text().replace('prompt:', 'promt:', 1))\n"


def _editor(tmp_path, body: str) -> str:
    script = tmp_path / "editor.py"
    script.write_text("import sys, pathlib\npath = pathlib.Path(sys.argv[-1])\n" + body)
    return f"{sys.executable} {script}"


def test_end_of_input_at_the_edit_prompt_reverts_and_exits_130(run, bank_dir, tmp_path):
    path = bank_dir / "questions" / "parallelism.yaml"
    before = path.read_bytes()
    result = run("edit", "dp-vs-mp", input="", env={"EDITOR": _editor(tmp_path, BREAKS_THE_FILE)})
    assert result.exit_code == 130, result.output
    assert path.read_bytes() == before
    last = result.stderr.splitlines()[-1]
    assert last == f"prep: edit discarded: {path} reverted to what it was before", result.stderr


def test_ctrl_c_at_the_edit_prompt_in_a_terminal_reverts_and_exits_130(bank_dir, state_file, tmp_path):
    path = bank_dir / "questions" / "parallelism.yaml"
    before = path.read_bytes()
    env = {**os.environ, "EDITOR": _editor(tmp_path, BREAKS_THE_FILE), "TERM": "xterm"}
    child = pexpect.spawn(
        installed_prep(),
        ["--bank", str(bank_dir), "--state", str(state_file), "edit", "dp-vs-mp"],
        env=env,
        encoding="utf-8",
        timeout=20,
        cwd=str(tmp_path),
    )
    try:
        child.expect(r"\[e\]dit again, \[r\]evert, \[k\]eep anyway")
        child.sendintr()
        child.expect("prep: edit discarded: .* reverted to what it was before")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130
    assert path.read_bytes() == before


def _big_bank(root, questions: int = 1500):
    """A bank whose `prep list` is far longer than a pipe holds (64 KiB on Linux)."""
    items = "".join(
        f"  - id: question-{n:04d}\n"
        f"    prompt: Question {n} about gradient all-reduce, pipeline bubbles and the memory it takes?\n"
        f"    tags: [bulk]\n"
        f"    key_points: [point {n}]\n"
        for n in range(questions)
    )
    write(root / "questions" / "bulk.yaml", f"category: bulk\ntitle: Bulk\nquestions:\n{items}")
    return root


@pytest.fixture(scope="module")
def big_bank(tmp_path_factory):
    return _big_bank(tmp_path_factory.mktemp("big"))


@pytest.mark.parametrize(
    "command",
    [
        "list",
        "list --json",
        "search 'gradient all-reduce' --limit 5000",
        "history question-0001",
        "export csv",
        "show question-0001 --json",
        "--help",
    ],
)
def test_a_reader_leaving_the_pipe_early_is_a_quiet_success(big_bank, tmp_path, command):
    state = tmp_path / "state.sqlite3"
    if command.startswith("history"):
        _long_history(state, "question-0001")
    prep = f"{installed_prep()} --bank {big_bank} --state {state}"
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", f"{prep} {command} | head -1"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "100"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert len(result.stdout.splitlines()) == 1


def test_the_pipeline_tests_write_more_than_a_pipe_holds(big_bank, tmp_path):
    state = tmp_path / "state.sqlite3"
    _long_history(state, "question-0001")
    searching = ["search", "gradient all-reduce", "--limit", "5000"]
    for command in (["list"], searching, ["history", "question-0001"]):
        result = subprocess.run(
            [installed_prep(), "--bank", str(big_bank), "--state", str(state), *command],
            capture_output=True,
            timeout=60,
            env={**os.environ, "COLUMNS": "100"},
        )
        assert result.returncode == 0 and len(result.stdout) > 2 * 65536, command


def _long_history(state, question_id: str) -> None:
    from datetime import UTC, datetime, timedelta

    from prep.state.store import Store

    start = datetime(2026, 1, 1, tzinfo=UTC)
    with Store(state) as store:
        for n in range(600):
            store.log_practice(
                question_id,
                practiced_at=start + timedelta(minutes=n),
                mode="cram",
                answer=f"answer {n}: " + "all-reduce averages the gradients across ranks " * 6,
            )


@pytest.mark.parametrize("command", [["list"], ["next"], ["drill"], ["plan"], ["export", "csv"]])
def test_a_kind_outside_the_four_is_a_command_line_error(run, command):
    result = run(*command, "-k", "nope")
    assert result.exit_code == 2, result.output
    assert "unknown kind 'nope'; choose from technical, behavioral, strategy, ask" in result.output


def test_the_quick_path_gives_the_same_code_for_a_bad_kind(bank_dir, state_file):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "prep",
            "--bank",
            str(bank_dir),
            "--state",
            str(state_file),
            "next",
            "-k",
            "nope",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and result.stderr == (
        "prep: next: unknown kind 'nope'; choose from technical, behavioral, strategy, ask\n"
        "  see `prep next --help`\n"
    )
