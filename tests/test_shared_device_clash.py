"""Two machines that write a shared history as the same device (one PREP_DEVICE in a dotfile both
use): their device file conflicts in git. prep says so, once, in one line that says what to do;
the lines git's conflict markers take are reported at their own line numbers; and whatever the
merge leaves, every event of both machines ends up in both states."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from .support import FUZZ_ON, LATER, NEXT_DAY, TOPICS_YAML, Device, git, write

WARNING = "is this device's own file, yet holds events this state never wrote"
MARKERS = ("<<<<<<<", "=======", ">>>>>>>")
NOON = "2026-03-02T12:00:00+00:00"  # another time than LATER: an event is also known by its time


@pytest.fixture
def twins(tmp_path) -> tuple[Device, Device]:
    """A shared bank in a bare repository, cloned on two machines that both call themselves
    "laptop"."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    first = tmp_path / "home"
    git(tmp_path, "clone", "-q", str(origin), str(first))
    git(first, "checkout", "-q", "-b", "main")
    write(first / "questions" / "topics.yaml", TOPICS_YAML)
    config = write(tmp_path / "config.toml", FUZZ_ON)
    home = Device("laptop", first, tmp_path / "home.sqlite3", config)
    assert home.run("state", "share").exit_code == 0
    git(first, "add", "-A")
    git(first, "commit", "-q", "-m", "the bank, shared")
    git(first, "push", "-q", "-u", "origin", "main")
    git(tmp_path, "clone", "-q", str(origin), str(tmp_path / "work"))
    return home, Device("laptop", tmp_path / "work", tmp_path / "work.sqlite3", config)


def commit(device: Device, message: str) -> None:
    git(device.clone, "add", "-A")
    git(device.clone, "commit", "-q", "-m", message)


def pull_with_conflict(device: Device) -> str:
    who = ["-c", "user.name=prep", "-c", "user.email=prep@example.com"]
    done = subprocess.run(
        ["git", *who, "pull", "--no-rebase", "--no-edit"], cwd=device.clone, capture_output=True, text=True
    )
    return done.stdout + done.stderr


def reviews_of(device: Device) -> list[tuple[str, int]]:
    lines = [json.loads(line) for line in device.export().splitlines()[1:]]
    return sorted((r["question_id"], r["rating"]) for r in lines if r["type"] == "review")


def marker_lines(path: Path) -> list[int]:
    return [n for n, line in enumerate(path.read_text().splitlines(), 1) if line.startswith(MARKERS)]


def test_a_conflicted_device_file_is_reported_at_the_markers_own_lines_and_said_once(twins):
    home, work = twins
    home.drill("a", "3")  # q1 on one machine, taken in by the other: their common history
    home.publish("home drilled")
    work.pull()
    assert work.run("next").stderr.count(WARNING) == 1  # already: its own file, others' events
    home.drill("a", "33", now=LATER)  # then each drills on its own
    commit(home, "home drilled again")
    work.drill("b", "4", now=NOON)
    work.publish("work drilled")
    assert "CONFLICT (content): Merge conflict in history/laptop.jsonl" in pull_with_conflict(home)
    log = home.clone / "history" / "laptop.jsonl"
    markers = marker_lines(log)
    assert len(markers) == 3 and markers[0] == 3  # after the header and the common line

    shown = home.run("next", now=LATER)
    assert shown.exit_code == 0, shown.output
    skipped = [line for line in shown.stderr.splitlines() if line.endswith("(skipped)")]
    assert [int(line.split("laptop.jsonl:")[1].split(":")[0]) for line in skipped] == markers
    assert all("not a JSON object" in line for line in skipped)
    (warning,) = [line for line in shown.stderr.splitlines() if WARNING in line]
    assert warning.startswith("prep: ") and "history/laptop.jsonl" in warning
    assert "seems to write as 'laptop' too" in warning and "set PREP_DEVICE to another name" in warning
    assert len(reviews_of(home)) == 4  # its three and the other machine's one
    assert home.run("next", now=LATER).stderr == ""  # said once

    # The conflict resolved by hand, both sides kept, the other machine's first.
    lines = log.read_text().splitlines()
    ours = lines[markers[0] : markers[1] - 1]
    theirs = lines[markers[1] : markers[2] - 1]
    log.write_text("\n".join(lines[: markers[0] - 1] + theirs + ours) + "\n")
    commit(home, "merged")
    git(home.clone, "push", "-q")
    assert home.run("next", now=LATER).stderr == ""  # nothing new to it
    work.pull()  # its own file rewritten under what it had read of it
    again = work.run("next", now=LATER)
    assert again.stderr.count(WARNING) == 1 and "(skipped)" not in again.stderr
    assert reviews_of(work) == reviews_of(home) and len(reviews_of(work)) == 4
    assert work.export(NEXT_DAY) == home.export(NEXT_DAY)


def test_a_pull_that_brings_only_the_other_machines_lines_is_said_too(twins):
    home, work = twins
    work.drill("a", "3")
    work.publish("work drilled")
    home.pull()  # a fast-forward: no conflict, but its own file grew under it
    shown = home.run("next", now=LATER)
    assert shown.exit_code == 0 and shown.stderr.count(WARNING) == 1
    assert reviews_of(home) == [("q1", 3)]
    assert home.run("next", now=LATER).stderr == ""


def test_machines_with_their_own_names_are_not_warned(tmp_path):
    from .support import T0

    config = write(tmp_path / "config.toml", FUZZ_ON)
    write(tmp_path / "bank" / "questions" / "topics.yaml", TOPICS_YAML)
    laptop = Device("laptop", tmp_path / "bank", tmp_path / "laptop.sqlite3", config)
    desktop = Device("desktop", tmp_path / "bank", tmp_path / "desktop.sqlite3", config)
    assert laptop.run("state", "share", now=T0).exit_code == 0
    laptop.drill("a", "33")
    desktop.drill("b", "4", now=NOON)
    for device in (laptop, desktop):
        shown = device.run("next", now=NEXT_DAY)
        assert shown.exit_code == 0 and WARNING not in shown.stderr
