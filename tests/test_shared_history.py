"""A review history shared through the bank's folder: two devices (two state files, PREP_DEVICE)
drilling clones of one git repository end with the same history and the same schedules, and
git never reports a conflict."""

from __future__ import annotations

import json
import os
import re

import pexpect
import pytest
from typer.testing import CliRunner

from prep.cli.app import app

from .support import FUZZ_ON, LATER, NEXT_DAY, T0, TOPICS_YAML, Device, git, write


@pytest.fixture
def devices(tmp_path) -> tuple[Device, Device]:
    """A bank in a bare repository, cloned on two devices, shared from the first."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    first = tmp_path / "laptop"
    git(tmp_path, "clone", "-q", str(origin), str(first))
    git(first, "checkout", "-q", "-b", "main")
    write(first / "questions" / "topics.yaml", TOPICS_YAML)
    config = write(tmp_path / "config.toml", FUZZ_ON)
    laptop = Device("laptop", first, tmp_path / "laptop.sqlite3", config)
    assert laptop.run("state", "share").exit_code == 0
    git(first, "add", "-A")
    git(first, "commit", "-q", "-m", "the bank, shared")
    git(first, "push", "-q", "-u", "origin", "main")
    git(tmp_path, "clone", "-q", str(origin), str(tmp_path / "desktop"))
    return laptop, Device("desktop", tmp_path / "desktop", tmp_path / "desktop.sqlite3", config)


def test_two_devices_through_git_end_with_the_same_history_and_schedules(devices):
    laptop, desktop = devices
    laptop.drill("a", "333")  # q1, q2, q3: Good
    laptop.publish("laptop drilled")
    desktop.pull()
    shown = desktop.run("history", "q2", now=LATER)
    assert shown.exit_code == 0 and "good" in shown.output  # the laptop's review, on the desktop
    assert desktop.upcoming(LATER) == laptop.upcoming(LATER)
    desktop.drill("b", "342", now=LATER)  # q2 (due again): Good; q4: Easy; q5: Hard
    desktop.publish("desktop drilled")
    laptop.pull()
    assert laptop.export() == desktop.export()
    assert laptop.upcoming() == desktop.upcoming()
    exported = [json.loads(line) for line in laptop.export().splitlines()[1:]]
    reviews = [(r["question_id"], r["rating"]) for r in exported if r["type"] == "review"]
    assert sorted(reviews) == [("q1", 3), ("q2", 3), ("q2", 3), ("q3", 3), ("q4", 4), ("q5", 2)]
    files = sorted(p.name for p in (laptop.clone / "history").iterdir())
    assert files == ["README.md", "desktop.jsonl", "laptop.jsonl"]
    assert '"bank"' not in (laptop.clone / "history" / "laptop.jsonl").read_text()  # no local path


def test_one_card_rated_on_both_devices_before_either_pulled_keeps_both_reviews_in_time_order(devices):
    laptop, desktop = devices
    desktop.pull()
    desktop.drill("a", "1", now=LATER)  # q1: Again, two hours after ...
    laptop.drill("a", "4")  # ... the laptop rated it Easy (neither has seen the other's)
    laptop.publish("laptop drilled")
    desktop.publish("desktop drilled")  # a merge of two device files: no conflict
    laptop.pull()
    assert laptop.export() == desktop.export()
    shown = laptop.run("history", "q1", now=NEXT_DAY).output
    assert shown.index("easy") < shown.index("again")  # replayed in time order on both
    cards = [json.loads(line) for line in desktop.export().splitlines()[1:]]
    [q1] = [c for c in cards if c["type"] == "card" and c["question_id"] == "q1"]
    assert (q1["reps"], q1["lapses"], q1["last_review"]) == (2, 1, "2026-03-02T11:00:00.000000Z")


def test_an_undo_on_one_device_undoes_on_the_other(devices):
    laptop, desktop = devices
    laptop.drill("a", "3")  # q1: Good
    laptop.publish("laptop drilled")
    desktop.pull()
    script = "\n3\n" + "\nu\n" + "\nq\n"  # q2: Good; at q4 undo it; quit when q2 comes back
    result = laptop.run("drill", "--tag", "b", input=script, now=LATER)
    assert "undid good on q2" in result.output, result.output
    laptop.publish("laptop undid")
    desktop.pull()
    assert laptop.export() == desktop.export()
    exported = [json.loads(line) for line in desktop.export().splitlines()[1:]]
    assert [r["question_id"] for r in exported if r["type"] == "review"] == ["q1"]
    assert [(r["question_id"], r["type"]) for r in exported if r["type"] in ("undo", "card")] == [
        ("q1", "card"),
        ("q2", "undo"),
    ]


def test_an_undo_reaches_a_device_that_had_taken_in_the_review(tmp_path):
    """A folder both devices see (as a sync tool keeps it): the desktop takes in a rating while
    the laptop's drill is still open, then the laptop takes it back."""
    from .support import reveal, spawn_prep, terminal_env

    bank = tmp_path / "bank"
    write(bank / "questions" / "topics.yaml", TOPICS_YAML)
    config = write(tmp_path / "config.toml", FUZZ_ON)
    laptop = Device("laptop", bank, tmp_path / "laptop.sqlite3", config)
    desktop = Device("desktop", bank, tmp_path / "desktop.sqlite3", config)
    assert laptop.run("state", "share").exit_code == 0
    env = {**terminal_env(tmp_path / "home"), "PREP_DEVICE": "laptop", "PREP_NOW": T0}
    child = spawn_prep(bank, laptop.state, "--config", str(config), "drill", "--tag", "b", env=env)
    try:
        child.expect("Second question")
        child.expect("Your answer")
        child.sendline("")  # empty: reveal and self-grade
        child.expect("Rate:")
        child.send("3")
        child.expect("Fourth question")
        assert "good" in desktop.run("history", "q2", now=LATER).output  # taken in, mid-drill
        child.expect("Your answer")
        reveal(child)
        child.expect("Rate:")
        child.send("u")
        child.expect("undid good on q2")
        child.expect("Second question")
        child.expect("Your answer")
        reveal(child)
        child.expect("Rate:")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    exported = desktop.export()
    assert '"type": "review"' not in exported and '"type": "card"' not in exported
    assert exported == laptop.export()


def test_a_log_imported_by_hand_is_taken_in_as_a_device_file_is(devices, tmp_path):
    laptop, desktop = devices
    laptop.drill("a", "342")
    other = Device("other", laptop.clone, tmp_path / "other.sqlite3", laptop.config)
    taken_in = other.export()  # reading the laptop's file from its history/ folder
    by_hand = Device("by-hand", desktop.clone, tmp_path / "by-hand.sqlite3", laptop.config)
    imported = by_hand.run("state", "import", str(laptop.clone / "history" / "laptop.jsonl"), now=NEXT_DAY)
    assert imported.exit_code == 0 and "reviews: 3 added" in imported.output
    assert by_hand.export() == taken_in == laptop.export()


def test_status_lists_the_devices_and_what_is_not_taken_in_yet(devices):
    laptop, desktop = devices
    laptop.drill("a", "33")
    laptop.publish("laptop drilled")
    desktop.pull()
    status = json.loads(desktop.run("state", "share", "--status", "--json").output)
    assert status["shared"] and status["device"] == "desktop" and status["writes"]
    [row] = status["devices"]
    assert (row["device"], row["events"], row["pending"], row["this_device"]) == ("laptop", 2, 2, False)
    desktop.run("next")  # any command that reads the schedule takes it in
    status = json.loads(desktop.run("state", "share", "--status", "--json").output)
    assert status["devices"][0]["pending"] == 0
    text = laptop.run("state", "share", "--status").output
    assert "this device is laptop and writes there" in text
    assert [line.split()[:3] for line in text.splitlines() if "laptop *" in line] == [["laptop", "*", "2"]]


def test_off_stops_this_device_writing_and_sharing_again_writes_what_was_missed(devices):
    laptop, _ = devices
    log = laptop.clone / "history" / "laptop.jsonl"
    assert "turns it back on" in laptop.run("state", "share", "--off").output
    laptop.drill("a", "3")
    assert log.read_text().count("\n") == 1  # the header only
    shared = json.loads(laptop.run("state", "share", "--json").output)
    assert (shared["written"], shared["created"]) == (1, False)
    laptop.drill("a", "3", now=LATER)
    assert log.read_text().count('"type": "review"') == 2


def test_a_device_name_that_cannot_name_a_file_is_refused(devices):
    laptop, _ = devices
    result = CliRunner().invoke(
        app, ["--bank", str(laptop.clone), "--state", str(laptop.state), "state", "share"],
        env={"PREP_DEVICE": "../elsewhere"},
    )  # fmt: skip
    assert result.exit_code == 1 and "PREP_DEVICE='../elsewhere' cannot name a device file" in result.output


def test_without_prep_device_the_device_is_named_once_per_state_file_after_the_host(bank_dir, state_file):
    runner = CliRunner()
    base = ["--bank", str(bank_dir), "--state", str(state_file)]
    os.environ.pop("PREP_DEVICE", None)
    first = json.loads(runner.invoke(app, [*base, "state", "share", "--json"]).output)["device"]
    again = json.loads(runner.invoke(app, [*base, "state", "share", "--status", "--json"]).output)["device"]
    assert first == again and re.fullmatch(r"[a-z0-9-]+-[0-9a-f]{4}", first)
    assert (bank_dir / "history" / f"{first}.jsonl").is_file()


def test_the_bundled_bank_is_not_shared(run):
    from prep.paths import bundled_bank_root

    result = run("state", "share", bank=bundled_bank_root())
    assert result.exit_code == 1 and "bundled bank" in result.output
    assert not (bundled_bank_root() / "history").exists()
