"""A damaged state database: moved aside once, with its WAL files; a fresh start restores from an
export; a healthy but busy database is never moved; `state check` suggests only real steps."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC
from pathlib import Path

import pytest

from prep.state import copies, sqlite

from .support import GOOD, NOW, old_database

# A damaged state database: SQLite's header, then pages that make no sense.
DAMAGED = b"SQLite format 3\x00" + b"garbage" * 500
PAGE = 4096


def damaged_copies(state_file: Path) -> list[Path]:
    return copies.kept_copies(state_file, "damaged")


@pytest.fixture
def history(run, state_file, tmp_path) -> Path:
    """Three rated cards in the state database, and an export of them."""
    result = run("drill", "--category", "parallelism", input=(GOOD + "\n\n3\nn\n") * 3, env=NOW)
    assert result.exit_code == 0, result.output
    export = tmp_path / "history.jsonl"
    assert run("state", "export", str(export)).exit_code == 0
    assert sum('"type": "review"' in line for line in export.read_text().splitlines()) == 3
    return export


def damage_a_page(state_file: Path, check_wal: bool = True) -> bytes:
    """Overwrite one b-tree page in the middle of the file, as a bad sector would."""
    if check_wal:
        assert not Path(f"{state_file}-wal").exists()  # prep closed it cleanly: all in the main file
    data = bytearray(state_file.read_bytes())
    assert len(data) > 6 * PAGE
    data[5 * PAGE : 6 * PAGE] = b"\x5a" * PAGE
    with open(state_file, "r+b") as f:  # in place, as a disk would: the same file
        f.write(bytes(data))
    return bytes(data)


@pytest.mark.parametrize(
    "command",
    [
        ["next"],
        ["stats"],
        ["history", "dp-vs-mp"],
        ["state", "export"],
        ["state", "import", "EXPORT"],
        ["drill", "--limit", "1"],
    ],
    ids=" ".join,
)
def test_a_damaged_page_is_moved_aside_by_any_command(run, state_file, history, command):
    damaged = damage_a_page(state_file)
    result = run(*[str(history) if arg == "EXPORT" else arg for arg in command], input="\n", env=NOW)
    assert result.exit_code == 3
    assert "Traceback" not in result.output
    [message] = [line for line in result.output.splitlines() if line.startswith("prep:")]
    [copy] = damaged_copies(state_file)
    assert "is damaged" in message and f"moved aside to {copy.name}" in message
    assert copy.read_bytes() == damaged  # kept byte for byte
    assert not state_file.exists()


def test_after_the_move_an_import_really_restores_the_history(run, state_file, history):
    damage_a_page(state_file)
    assert run("state", "import", str(history)).exit_code == 3  # finds the damage, moves it aside
    restored = run("state", "import", str(history), "--json")
    assert restored.exit_code == 0
    assert json.loads(restored.output)["reviews_added"] == 3
    assert run("state", "export").output == history.read_text()
    assert run("next", env=NOW).exit_code == 0
    assert len(damaged_copies(state_file)) == 1  # moved aside exactly once


def test_wal_files_move_with_the_database(tmp_path):
    """Another process still has the database open, so its WAL holds committed changes that are
    not in the main file yet: the WAL goes aside with the file, and the copy still reads them."""
    from datetime import datetime

    from prep.errors import StateError
    from prep.state.cards import new_card
    from prep.state.store import Store

    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        store.record(
            None,
            new_card("q", datetime(2026, 1, 1, tzinfo=UTC)),
            reviewed_at=datetime(2026, 1, 1, tzinfo=UTC),
            rating=3,
        )
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA wal_autocheckpoint = 0")
    other.execute("INSERT INTO settings VALUES ('only-in-the-wal', 'kept')")
    assert Path(f"{path}-wal").stat().st_size > 0
    damage_a_page(path, check_wal=False)
    with pytest.raises(StateError, match="moved aside"):
        Store(path)
    [copy] = damaged_copies(path)
    assert Path(f"{copy}-wal").stat().st_size > 0 and Path(f"{copy}-shm").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [copy.name, f"{copy.name}-wal", f"{copy.name}-shm"]
    )
    other.close()
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT value FROM settings WHERE key = 'only-in-the-wal'").fetchone()[0] == "kept"


def test_a_second_damaged_file_never_replaces_the_first_copy(tmp_path):
    from prep.errors import StateError
    from prep.state.store import Store

    path = tmp_path / "s.sqlite3"
    header = b"SQLite format 3\x00"
    for content in (header + b"first garbage " * 300, header + b"second garbage " * 300):  # within one second
        path.write_bytes(content)
        with pytest.raises(StateError):
            Store(path)
    assert sorted(p.read_bytes()[16:22] for p in damaged_copies(path)) == [b"first ", b"second"]


def _inconsistent_index(state_file: Path) -> None:
    """Corruption SQLite's quick check does not see: an index whose entries do not match its
    definition. Deleting a row through it fails with SQLITE_CORRUPT_INDEX."""
    db = sqlite3.connect(state_file, isolation_level=None)
    db.execute("PRAGMA writable_schema = ON")
    db.execute(
        "UPDATE sqlite_master SET sql = 'CREATE INDEX reviews_question ON reviews(answer, reviewed_at)'"
        " WHERE name = 'reviews_question'"
    )
    db.close()
    db = sqlite3.connect(state_file)
    assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    db.close()


def test_corruption_met_in_the_middle_of_a_command_moves_the_file_aside(run, state_file, history, bank_dir):
    _inconsistent_index(state_file)
    check = run("state", "check")
    assert check.exit_code == 3
    assert "integrity check failed" in check.output and "REINDEX" in check.output
    assert state_file.exists()  # check only looks
    # The bank loses its parallelism questions, so prune deletes their reviews: it meets the bad index.
    for name in ("questions/parallelism.yaml", "answers/answers.yaml"):
        (bank_dir / name).unlink()
    result = run("state", "prune", "--yes")
    assert result.exit_code == 3
    assert "Traceback" not in result.output and "moved aside to" in result.output
    [copy] = damaged_copies(state_file)
    assert not state_file.exists()
    with sqlite3.connect(copy) as db:  # the transaction was rolled back: nothing was lost
        assert db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0] == 3


def test_a_locked_database_is_never_moved_aside(run, state_file, history, monkeypatch):
    monkeypatch.setattr(sqlite, "BUSY_TIMEOUT_MS", 200)
    holder = sqlite3.connect(state_file, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO settings VALUES ('held', 'by another process')")
    try:
        for command in (["next"], ["state", "import", str(history)]):
            result = run(*command, env=NOW)
            assert result.exit_code == 3
            assert "locked" in result.output or "busy" in result.output
            assert "damaged" not in result.output
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert state_file.exists() and damaged_copies(state_file) == []
    assert run("state", "export").output == history.read_text()


def test_check_lists_damaged_copies_as_such_and_suggests_only_real_steps(run, state_file, history):
    state_file.write_bytes(DAMAGED)
    assert run("next", env=NOW).exit_code == 3  # moved aside
    [copy] = damaged_copies(state_file)
    data = json.loads(run("state", "check", "--json").output)
    assert (data["status"], data["backups"], data["damaged_copies"]) == ("missing", [], [str(copy)])
    commands = " ".join(step["command"] for step in data["restore"])
    assert f"sqlite3 {copy} .recover" in commands
    assert "cp " not in commands and "BACKUP" not in commands  # no backup exists: none suggested
    assert f"prep --state {state_file} state import FILE.jsonl" in commands
    text = run("state", "check").output
    assert "damaged copies (moved aside)" in text and "backups" not in text
    # The restore steps work as written: salvage nothing from garbage, import the export.
    assert run("state", "import", str(history)).exit_code == 0
    assert json.loads(run("state", "check", "--json").output)["reviews"] == 3


def test_check_suggests_copying_a_real_backup_back(run, state_file, history):
    state_file.unlink()
    old_database(state_file)
    assert run("next", env=NOW).exit_code == 0  # migrated, after a backup
    [backup] = copies.kept_copies(state_file, "backup")
    state_file.write_bytes(DAMAGED)
    result = run("state", "check", "--json")
    assert result.exit_code == 3
    data = json.loads(result.output)
    assert data["status"] == "damaged" and data["moved_aside_next"] and data["backups"] == [str(backup)]
    assert data["damaged_copies"] == []
    commands = [step["command"] for step in data["restore"]]
    assert f"cp {backup} {state_file}" in commands
    assert state_file.read_bytes() == DAMAGED  # check moved nothing


@pytest.mark.parametrize(
    "command", [("next",), ("stats",), ("drill", "--limit", "1"), ("state", "prune", "--yes")]
)
def test_another_programs_database_is_refused_and_left_as_it_was(run, tmp_path, command):
    foreign = tmp_path / "app.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE users (id INTEGER)")
        db.execute("INSERT INTO users VALUES (1)")
    before = foreign.read_bytes()
    result = run("--state", str(foreign), *command, input="x\n\n3\nn\n")
    assert result.exit_code == 3, result.output
    assert "is not a prep state database (it holds table users)" in result.output
    assert foreign.read_bytes() == before and not Path(f"{foreign}-wal").exists()
    check = run("--state", str(foreign), "state", "check", "--json")
    assert check.exit_code == 3 and json.loads(check.output)["status"] == "not prep's"
    assert foreign.read_bytes() == before


def test_a_state_path_that_is_a_directory_or_under_a_file_says_so(run, tmp_path):
    result = run("--state", str(tmp_path), "next")
    assert result.exit_code == 3 and f"{tmp_path} is a directory, not a state database file" in result.output
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    result = run("--state", str(blocker / "state.sqlite3"), "drill", "--limit", "1", input="x\n\n3\nn\n")
    assert result.exit_code == 3 and f"{blocker} is a file, not a directory" in result.output


def test_commands_that_only_read_create_no_state_file(run, tmp_path):
    missing = tmp_path / "typo" / "state.sqlite3"
    for command in (
        ("next", "--json"),
        ("stats",),
        ("history", "dp-vs-mp"),
        ("state", "export", "-"),
        ("optimize",),
    ):
        result = run("--state", str(missing), *command, input="x\n\nq\n")
        assert result.exit_code == 0, (command, result.output)
    assert not (tmp_path / "typo").exists()
    assert run("--state", str(missing), "drill", "--limit", "1", input="x\n\n3\nn\n").exit_code == 0
    assert missing.is_file()  # the first rating creates it


@pytest.mark.parametrize(
    "command", [("next",), ("stats",), ("history", "dp-vs-mp"), ("drill", "--limit", "1"), ("state", "check")]
)
def test_a_file_that_was_never_a_database_is_refused_and_left_where_it_is(run, tmp_path, command):
    notes = tmp_path / "notes.txt"
    notes.write_text("my interview notes\n" * 50)
    before = notes.read_bytes()
    result = run("--state", str(notes), *command, input="x\n\n3\nn\n")
    assert result.exit_code == 3, result.output
    assert "not an SQLite database" in result.output
    assert notes.read_bytes() == before and damaged_copies(notes) == []


def test_a_blank_database_another_program_marked_or_an_empty_file_is_not_taken_over(run, tmp_path):
    marked = tmp_path / "marked.db"
    with sqlite3.connect(marked) as db:
        db.execute("PRAGMA application_id = 1234")
        db.execute("CREATE VIEW v AS SELECT 1")
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    for path in (marked, empty):
        before = path.read_bytes()
        for command in (("next",), ("stats",)):
            result = run("--state", str(path), *command)
            assert path.read_bytes() == before, (path, command, result.output)
            assert not Path(f"{path}-wal").exists()
    assert run("--state", str(marked), "next").exit_code == 3
    assert run("--state", str(empty), "next").exit_code == 0  # an empty file is an empty history


def test_a_symlinked_state_is_checked_and_moved_aside_where_it_points(run, tmp_path, history, state_file):
    import shutil

    real = tmp_path / "real" / "state.sqlite3"
    real.parent.mkdir()
    shutil.copy(state_file, real)
    link = tmp_path / "link.sqlite3"
    link.symlink_to(real)
    assert run("--state", str(link), "next", env=NOW).exit_code == 0
    damage_a_page(real)
    result = run("--state", str(link), "stats", env=NOW)
    assert result.exit_code == 3 and "moved aside" in result.output
    assert link.is_symlink() and not real.exists() and len(damaged_copies(real)) == 1
