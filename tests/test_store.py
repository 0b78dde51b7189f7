"""The state database and the scheduler: round-trips, undo, migrations, FSRS properties."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prep.config import SchedulerConfig
from prep.errors import StateError
from prep.rating import Rating
from prep.review.scheduler import Scheduler
from prep.state.cards import CardState, new_card
from prep.state.migrations import SCHEMA_VERSION
from prep.state.store import Store

T0 = datetime(2026, 1, 5, 9, 30, tzinfo=UTC)
NO_FUZZ = Scheduler(SchedulerConfig(fuzz=False))

times = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC))
cards = st.builds(
    CardState,
    question_id=st.from_regex(r"[a-z0-9]+(-[a-z0-9]+)*", fullmatch=True),
    due=times,
    state=st.sampled_from([1, 2, 3]),
    step=st.one_of(st.none(), st.integers(0, 5)),
    stability=st.one_of(st.none(), st.floats(0.001, 36500, allow_nan=False)),
    difficulty=st.one_of(st.none(), st.floats(1, 10, allow_nan=False)),
    last_review=st.one_of(st.none(), times),
    reps=st.integers(0, 10_000),
    lapses=st.integers(0, 1000),
)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "state.sqlite3") as s:
        yield s


def test_new_database_is_migrated_and_in_wal_mode(store):
    assert store.schema_version() == SCHEMA_VERSION
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"cards", "reviews", "schema_migrations", "settings"} <= names


def test_reopening_does_not_migrate_again(tmp_path):
    path = tmp_path / "s.sqlite3"
    Store(path).close()
    with Store(path) as again:
        rows = again.db.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0]
    assert rows == SCHEMA_VERSION


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "s.sqlite3"
    with Store(path) as s:
        s.db.execute("INSERT INTO schema_migrations VALUES (999, 'future', 'now')")
    with pytest.raises(StateError, match="newer prep"):
        Store(path)


def test_a_database_damaged_past_its_header_is_a_state_error_and_moved_aside(tmp_path):
    path = tmp_path / "s.sqlite3"
    garbage = b"SQLite format 3\x00" + b"this is not a database at all" * 100
    path.write_bytes(garbage)
    with pytest.raises(StateError, match="is damaged") as caught:
        Store(path)
    assert caught.value.exit_code == 3
    [kept] = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert kept.read_bytes() == garbage  # nothing thrown away
    assert not path.exists()
    with Store(path) as fresh:  # the next run starts clean
        assert fresh.review_count() == 0


def test_a_file_without_sqlites_header_is_refused_not_moved(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"this is not a database at all" * 100)
    for write in (True, False):
        with pytest.raises(StateError, match="is not an SQLite database") as caught:
            Store(path, write=write)
        assert caught.value.exit_code == 3
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@settings(max_examples=80, deadline=None)
@given(cards)
def test_card_state_round_trips_through_the_database(tmp_path_factory, card):
    path = tmp_path_factory.mktemp("rt") / "s.sqlite3"
    with Store(path) as s:
        s.record(None, card, reviewed_at=T0, rating=3)
    with Store(path) as s:
        assert s.card(card.question_id) == card
    assert CardState.from_dict(card.to_dict()) == card


def test_record_and_undo_restore_the_previous_state(store):
    first = NO_FUZZ.review(new_card("q", T0), Rating.GOOD, T0)
    r1 = store.record(None, first, reviewed_at=T0, rating=3, suggested=3, score=80, answer="a")
    later = T0 + timedelta(days=3)
    second = NO_FUZZ.review(first, Rating.AGAIN, later)
    r2 = store.record(first, second, reviewed_at=later, rating=1, suggested=3, score=20)
    assert store.card("q") == second
    assert store.undo(r2, NO_FUZZ.replay, undone_at=later) == "q"
    assert store.card("q") == first
    assert [r.id for r in store.reviews("q")] == [r1]
    store.undo(r1, NO_FUZZ.replay, undone_at=later)
    assert store.card("q") is None
    assert store.review_count() == 0
    with pytest.raises(StateError):
        store.undo(r1, NO_FUZZ.replay, undone_at=later)


def test_review_log_keeps_chosen_and_suggested_rating(store):
    card = NO_FUZZ.review(new_card("q", T0), Rating.HARD, T0)
    store.record(
        None,
        card,
        reviewed_at=T0,
        rating=2,
        suggested=3,
        score=55,
        elapsed_seconds=42.5,
        answer="my answer",
        mode="type",
        content_hash="abc",
    )
    [review] = store.reviews()
    assert (review.rating, review.suggested, review.score, review.elapsed_seconds) == (2, 3, 55, 42.5)
    assert (review.answer, review.mode, review.content_hash) == ("my answer", "type", "abc")
    assert review.reviewed_at == T0


def test_due_ids_use_time_order(store):
    for i, days in enumerate([5, -2, 1, -7]):
        card = CardState(question_id=f"q{i}", due=T0 + timedelta(days=days))
        store.record(None, card, reviewed_at=T0, rating=3)
    assert [qid for qid, _ in store.due_ids(T0)] == ["q3", "q1"]
    assert [qid for qid, _ in store.due_ids(T0 + timedelta(days=2))] == ["q3", "q1", "q2"]


@settings(max_examples=120, deadline=None)
@given(
    history=st.lists(st.sampled_from(tuple(Rating)), min_size=0, max_size=8),
    gaps=st.lists(st.floats(0.0, 60.0), min_size=8, max_size=8),
    final=st.sampled_from([Rating.GOOD, Rating.EASY]),
)
def test_good_and_easy_never_move_the_due_date_earlier(history, gaps, final):
    card = new_card("q", T0)
    now = T0
    for rating, gap in zip(history, gaps):
        card = NO_FUZZ.review(card, rating, now)
        now = max(now, card.due) if gap > 30 else now + timedelta(days=gap)
    after = NO_FUZZ.review(card, final, now)
    assert after.due >= now
    # A better rating never schedules sooner than a worse one would at the same moment.
    dues = [NO_FUZZ.review(card, rating, now).due for rating in Rating]
    assert dues == sorted(dues)
    if card.state == 2 and now >= card.due:  # a review card answered when due moves forward
        assert after.due > card.due


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(tuple(Rating)), min_size=1, max_size=12))
def test_intervals_are_never_negative(ratings):
    card, now = new_card("q", T0), T0
    for rating in ratings:
        card = NO_FUZZ.review(card, rating, now)
        assert card.due >= now
        now = card.due
    assert card.reps == len(ratings)


def test_scheduler_is_pure_without_fuzz():
    card = new_card("q", T0)
    assert NO_FUZZ.review(card, Rating.GOOD, T0) == NO_FUZZ.review(card, Rating.GOOD, T0)


def test_lapses_count_forgotten_review_cards():
    card, now = new_card("q", T0), T0
    for _ in range(3):
        card = NO_FUZZ.review(card, Rating.GOOD, now)
        now = card.due
    assert card.state == 2
    card = NO_FUZZ.review(card, Rating.AGAIN, now)
    assert card.lapses == 1


def test_state_file_in_unwritable_place_is_a_state_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StateError):
        Store(blocker / "sub" / "state.sqlite3")


def test_sqlite_file_is_plain_sqlite(tmp_path):
    path = tmp_path / "s.sqlite3"
    with Store(path) as s:
        s.record(None, new_card("q", T0), reviewed_at=T0, rating=3)
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT COUNT(*) FROM reviews").fetchone()[0] == 1


def test_concurrent_first_opens_migrate_once(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "s.sqlite3"
    code = "import sys; from prep.state.store import Store; print(Store(sys.argv[1]).schema_version())"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(6)
    ]
    results = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, [err for _, err in results]
    assert {out.strip() for out, _ in results} == {str(SCHEMA_VERSION)}
    with Store(path) as store:
        assert store.db.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == SCHEMA_VERSION


def test_two_processes_rating_the_same_card_at_once_build_on_each_other(tmp_path):
    """The card is read inside the write transaction: the second rating sees the first one."""
    import threading
    import time

    path = tmp_path / "state.sqlite3"
    Store(path).close()
    scheduler = Scheduler(SchedulerConfig(fuzz=False))
    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    seen: list[CardState | None] = []

    def rate(rating: str, pause: float) -> None:
        with Store(path) as store:

            def schedule(before, at):  # type: ignore[no-untyped-def]
                seen.append(before)
                time.sleep(pause)  # the first rating is still being written when the second starts
                return scheduler.review(before or new_card("q", at), rating, at)

            store.rate("q", schedule, reviewed_at=now, rating=int(rating))

    first = threading.Thread(target=rate, args=(Rating.GOOD, 0.5))
    second = threading.Thread(target=rate, args=(Rating.AGAIN, 0.0))
    first.start()
    time.sleep(0.1)
    second.start()
    first.join()
    second.join()
    assert seen[0] is None and seen[1] is not None and seen[1].reps == 1
    with Store(path) as store:
        assert store.card("q").reps == 2
        befores = [r[0] for r in store.db.execute("SELECT card_before FROM reviews ORDER BY id")]
        assert befores[0] is None and befores[1] is not None


def test_a_reading_command_checks_a_file_once_until_it_changes(tmp_path, monkeypatch, isolated_home):
    import os

    from prep.state import database

    path = tmp_path / "s.sqlite3"
    with Store(path) as s:
        s.set_setting("x", "1")
    calls = []
    real = database.quick_check
    monkeypatch.setattr(database, "quick_check", lambda db: calls.append(1) or real(db))
    for _ in range(3):
        with Store(path, write=False) as s:
            assert s.get_setting("x") == "1"
    assert len(calls) == 1  # unchanged since it passed: not checked again
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # anything that writes it
    with Store(path, write=False):
        pass
    assert len(calls) == 2
    with Store(path):  # a command that writes always checks
        pass
    assert len(calls) == 3
