"""A shared history as syncs deliver it: half a line (a sync in progress) waits for the rest, a
line that does not read is reported once with its file and line, a copied file counts once,
and a clock set back does not reorder a device's own reviews."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta

from prep.config import SchedulerConfig
from prep.paths import BankLocation
from prep.rating import Rating
from prep.review.scheduler import Scheduler
from prep.state.cards import new_card
from prep.state.store import Store

from .support import FUZZ_ON, LATER, NEXT_DAY, TOPICS_YAML, Device, write


def two_folders(tmp_path) -> tuple[Device, Device]:
    """The laptop's bank, shared, and the desktop's copy of it, which a sync keeps up to date."""
    config = write(tmp_path / "config.toml", FUZZ_ON)
    for name in ("laptop", "desktop"):
        write(tmp_path / name / "questions" / "topics.yaml", TOPICS_YAML)
    laptop = Device("laptop", tmp_path / "laptop", tmp_path / "laptop.sqlite3", config)
    assert laptop.run("state", "share").exit_code == 0
    (tmp_path / "desktop" / "history").mkdir()
    return laptop, Device("desktop", tmp_path / "desktop", tmp_path / "desktop.sqlite3", config)


def sync(laptop: Device, desktop: Device, *, cut: int = 0) -> bytes:
    """Copy the laptop's device file to the desktop's folder, less its last *cut* bytes."""
    data = (laptop.clone / "history" / "laptop.jsonl").read_bytes()
    (desktop.clone / "history" / "laptop.jsonl").write_bytes(data[: len(data) - cut])
    return data


def reviews_of(device: Device) -> list[tuple[str, int]]:
    lines = [json.loads(line) for line in device.export().splitlines()[1:]]
    return [(r["question_id"], r["rating"]) for r in lines if r["type"] == "review"]


def test_half_a_line_waits_for_the_rest_and_nothing_is_lost(tmp_path):
    laptop, desktop = two_folders(tmp_path)
    laptop.drill("a", "342")
    sync(laptop, desktop, cut=25)  # the sync has delivered the last line in part
    first = desktop.run("next", now=LATER)
    assert first.exit_code == 0 and "skipped" not in first.output
    assert reviews_of(desktop) == [("q1", 3), ("q2", 4)]
    sync(laptop, desktop)  # ... and now the rest of it
    assert reviews_of(desktop) == [("q1", 3), ("q2", 4), ("q3", 2)]
    assert desktop.export() == laptop.export()


def test_a_line_that_does_not_read_is_reported_once_with_its_file_and_line_and_skipped(tmp_path):
    laptop, desktop = two_folders(tmp_path)
    laptop.drill("a", "33")
    header, first, second = sync(laptop, desktop).decode().splitlines()
    broken = {**json.loads(second), "rating": 9}
    (desktop.clone / "history" / "laptop.jsonl").write_text(
        "\n".join([header, first, '{"type": "review", "question_id": ', json.dumps(broken), second]) + "\n"
    )
    shown = desktop.run("next", now=LATER)
    assert shown.exit_code == 0, shown.output
    assert "history/laptop.jsonl:3:1: not a JSON object" in shown.stderr
    assert "history/laptop.jsonl:4:1: bad review: rating:" in shown.stderr and "(skipped)" in shown.stderr
    assert reviews_of(desktop) == [("q1", 3), ("q2", 3)]  # the lines around them are taken in
    again = desktop.run("next", now=LATER)
    assert again.stderr == ""  # reported once


def test_a_copied_device_file_counts_once(tmp_path):
    laptop, desktop = two_folders(tmp_path)
    laptop.drill("a", "31")
    sync(laptop, desktop)
    folder = desktop.clone / "history"
    shutil.copy(folder / "laptop.jsonl", folder / "laptop.sync-conflict-20260302-091500.jsonl")
    assert reviews_of(desktop) == [("q1", 3), ("q2", 1)]
    assert desktop.export() == laptop.export()


def test_a_device_file_written_by_a_newer_prep_is_left_for_later(tmp_path):
    laptop, desktop = two_folders(tmp_path)
    write(
        desktop.clone / "history" / "future.jsonl", '{"type": "prep-state", "version": 99}\n{"type": "x"}\n'
    )
    shown = desktop.run("next")
    assert shown.exit_code == 0
    assert "history/future.jsonl:1:1: written by a newer prep (format 99" in shown.stderr


def test_a_clock_set_back_does_not_reorder_a_devices_own_reviews(tmp_path, monkeypatch):
    laptop, desktop = two_folders(tmp_path)
    monkeypatch.setenv("PREP_DEVICE", "laptop")
    scheduler = Scheduler(SchedulerConfig())
    noon = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    with Store(laptop.state, bank_key=BankLocation(laptop.clone, "option").key) as store:
        for when, rating in (
            (noon, Rating.GOOD),
            (noon - timedelta(hours=3), Rating.AGAIN),
        ):  # clock set back
            store.rate(
                "q1",
                lambda before, at, rating=rating: scheduler.review(before or new_card("q1", at), rating, at),
                reviewed_at=when,
                rating=rating,
            )
        times = [r.reviewed_at for r in store.reviews("q1")]
    assert times[0] == noon and times[1] == noon + timedelta(microseconds=1)  # made after: recorded after
    sync(laptop, desktop)
    assert reviews_of(desktop) == [("q1", 3), ("q1", 1)]
    assert desktop.export(now=NEXT_DAY) == laptop.export(now=NEXT_DAY)
