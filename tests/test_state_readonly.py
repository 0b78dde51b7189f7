"""A healthy state database that cannot be written (a read-only mount, a write-protected file):
commands that only read work, commands that write say "read-only" in one line, `state check`
reports read-only rather than damaged, and nothing is moved aside or changed."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from datetime import UTC
from pathlib import Path
from urllib.parse import quote

import pytest

from prep.state import copies

from .support import GOOD, NOW, installed_prep, old_database

READERS = [
    ["state", "export"],
    ["state", "check"],
    ["history", "dp-vs-mp"],
    ["stats"],
    ["next"],
    ["list"],
    ["state", "prune", "--yes"],
    ["drill", "--cram", "--limit", "1"],
    ["export", "cram", "--weakest", "2"],
]
WRITERS = [
    ["state", "import", "EXPORT"],
    ["drill", "--limit", "1"],
    ["optimize"],
    ["mv", "dp-vs-mp", "dp-vs-mp-2"],
]


def refuse_writes(monkeypatch, state_file: Path, how: str) -> None:
    """Make SQLite itself unable to write the state file, the two ways a read-only location shows:
    "ro": a write-mode open succeeds but yields a read-only connection (a write-protected file),
    so writing fails with SQLITE_READONLY; "cantopen": a write-mode open fails with
    SQLITE_CANTOPEN (a read-only mount, where the WAL index cannot be created). Read-only opens
    (URI mode=ro / immutable=1) and every other database are untouched."""
    real = sqlite3.connect
    uri_path = quote(os.path.abspath(state_file))

    def connect(database, *args, uri=False, **kwargs):  # type: ignore[no-untyped-def]
        target = str(database)
        write_mode = (not uri and os.path.abspath(target) == os.path.abspath(state_file)) or (
            uri and target.startswith(f"file:{uri_path}?") and "mode=rw" in target
        )
        if not write_mode:
            return real(database, *args, uri=uri, **kwargs)
        if how == "ro":
            return real(f"file:{uri_path}?mode=ro", *args, uri=True, **kwargs)
        return real(state_file.parent / "no-such-dir" / "x.sqlite3", *args, **kwargs)  # SQLite's own CANTOPEN

    monkeypatch.setattr(sqlite3, "connect", connect)


@pytest.fixture
def history(run, state_file, tmp_path) -> Path:
    assert (
        run(
            "drill", "--category", "parallelism", input=f"{GOOD}\n\n3\nn\n{GOOD}\n\n3\nq\n\n", env=NOW
        ).exit_code
        == 0
    )
    export = tmp_path / "history.jsonl"
    export.write_text(run("state", "export").output)
    return export


@pytest.mark.parametrize("how", ["ro", "cantopen"])
def test_reading_commands_work_on_a_read_only_database(run, state_file, history, monkeypatch, how):
    before = state_file.read_bytes()
    refuse_writes(monkeypatch, state_file, how)
    for command in READERS:
        result = run(*command, input="x\n\n1\nn\n", env=NOW)
        assert result.exit_code == 0, (command, result.output)
        assert "damaged" not in result.output
        if command[:2] == ["drill", "--cram"]:  # runs, and says its answers cannot be kept
            assert "answers in this session are not kept" in result.output
    assert run("state", "export").output == history.read_text()
    [review] = json.loads(run("history", "dp-vs-mp", "--json").output)
    assert review["rating"] == "good" and review["answer"] == GOOD
    check = json.loads(run("state", "check", "--json").output)
    assert (check["ok"], check["status"], check["read_only"], check["reviews"]) == (
        True,
        "read-only",
        True,
        2,
    )
    assert check["restore"] == []
    assert "read-only" in run("state", "check").output
    assert state_file.read_bytes() == before and copies.kept_copies(state_file, "damaged") == []


@pytest.mark.parametrize("how", ["ro", "cantopen"])
def test_writing_commands_say_read_only_in_one_line(run, state_file, history, monkeypatch, bank_dir, how):
    bank_before = {p: p.read_bytes() for p in bank_dir.rglob("*.yaml")}
    refuse_writes(monkeypatch, state_file, how)
    for command in WRITERS:
        result = run(
            *[str(history) if arg == "EXPORT" else arg for arg in command], input=GOOD + "\n\n3\nn\n", env=NOW
        )
        assert result.exit_code == 3, (command, result.output)
        assert (
            result.output.splitlines()[0] == f"prep: cannot write the state database {state_file}: read-only"
        )
        assert "Traceback" not in result.output and "damaged" not in result.output
    assert {p: p.read_bytes() for p in bank_dir.rglob("*.yaml")} == bank_before  # mv changed nothing
    monkeypatch.undo()
    assert run("state", "export").output == history.read_text()


def test_prune_on_a_read_only_database_refuses_before_asking(run, state_file, history, monkeypatch, bank_dir):
    from datetime import datetime

    from prep.paths import BankLocation
    from prep.state.cards import CardState
    from prep.state.store import Store

    with Store(state_file, bank_key=BankLocation(bank_dir, "option").key) as store:  # this bank's history
        store.record(
            None,
            CardState("gone", datetime(2026, 1, 1, tzinfo=UTC)),
            reviewed_at=datetime(2026, 1, 1, tzinfo=UTC),
            rating=3,
        )
    refuse_writes(monkeypatch, state_file, "ro")
    result = run("state", "prune")
    assert result.exit_code == 3 and "read-only" in result.output


def test_an_old_database_that_cannot_be_upgraded_is_explained(run, state_file, monkeypatch):
    old_database(state_file)
    refuse_writes(monkeypatch, state_file, "cantopen")
    result = run("next")
    assert result.exit_code == 3 and "read-only" in result.output and "schema 1" in result.output
    check = run("state", "check")
    assert check.exit_code == 3 and "read-only" in check.output and "damaged" not in check.output
    assert not copies.kept_copies(state_file, "backup")


def _can_mount_read_only(tmp_path: Path) -> bool:
    if not shutil.which("unshare"):
        return False
    probe = tmp_path / "probe"
    probe.mkdir()
    done = subprocess.run(
        [
            "unshare",
            "--user",
            "--map-root-user",
            "--mount",
            "sh",
            "-c",
            f"mount --bind {probe} {probe} && mount -o remount,bind,ro {probe}",
        ],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def test_a_real_read_only_mount(run, state_file, history, tmp_path, tmp_path_factory, bank_dir):
    """The real thing: a read-only bind mount in a private mount namespace (skipped where the
    system does not allow unprivileged ones)."""
    if not _can_mount_read_only(tmp_path_factory.mktemp("probe")):
        pytest.skip("unshare cannot make a read-only bind mount here")
    directory = state_file.parent
    commands = (
        ["state", "export"],
        ["state", "check", "--json"],
        ["history", "dp-vs-mp"],
        ["stats"],
        ["next"],
        ["state", "import", str(history)],
    )
    lines = [f"mount --bind {directory} {directory} && mount -o remount,bind,ro {directory} || exit 99"]
    for command in commands:
        lines.append(
            f"echo '## {' '.join(command)}'; {installed_prep()} --bank {bank_dir} --state {state_file} "
            f'{" ".join(command)} 2>&1 </dev/null; echo "## rc=$?"'
        )
    env = {**os.environ, "PREP_HOME": str(tmp_path_factory.mktemp("home")), "PREP_NOW": NOW["PREP_NOW"]}
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", "\n".join(lines)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    text = done.stdout
    assert done.returncode == 0, done.stderr + text

    def output(command: str) -> str:
        return text.split(f"## {command}\n", 1)[1].split("## rc=", 1)[0]

    assert text.count("## rc=0") == 5 and text.count("## rc=3") == 1, text
    assert output("state export") == history.read_text()
    check = json.loads(output("state check --json"))
    assert check["status"] == "read-only" and check["ok"] and check["reviews"] == 2
    assert (
        output(f"state import {history}").splitlines()[0]
        == f"prep: cannot write the state database {state_file}: read-only"
    )
    assert sorted(p.name for p in directory.iterdir() if p.name.startswith(state_file.name)) == [
        state_file.name
    ]
