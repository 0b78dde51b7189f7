"""Stats, history and optimize over review histories built with an injected clock."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from prep.bank.index import index_of
from prep.bank.load import load_bank
from prep.config import SchedulerConfig
from prep.grading.grade import grade
from prep.paths import BankLocation
from prep.rating import Rating
from prep.review.optimize import optimize, training_items
from prep.review.scheduler import Scheduler
from prep.review.session import Session
from prep.review.stats import compute
from prep.state.store import Store

from .support import quick_path

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def replay(bank, state_file, plan):
    """Rate (question, rating, when, score) tuples through a real Session with a fake clock."""
    clock = {"now": START}
    with Store(state_file) as store:
        session = Session(
            bank, store, Scheduler(SchedulerConfig(fuzz=False)), lambda: clock["now"], grader=grade
        )
        for qid, rating, when, score in plan:
            clock["now"] = when
            session.rate(qid, rating, elapsed=30.0)
            if score is not None:
                store.db.execute(
                    "UPDATE reviews SET score = ?, suggested = 3 WHERE id = (SELECT MAX(id) FROM reviews)",
                    (score,),
                )


@pytest.fixture
def bank(bank_dir):
    return load_bank(BankLocation(bank_dir, "option"))


def test_figures_of_a_small_history(bank, state_file):
    day = timedelta(days=1)
    replay(
        bank,
        state_file,
        [
            ("dp-vs-mp", Rating.GOOD, START, 80),
            ("dp-vs-mp", Rating.GOOD, START + 2 * day, 90),
            ("zero-stages", Rating.AGAIN, START + 2 * day, 10),
            ("biggest-failure", Rating.EASY, START + 3 * day, None),
        ],
    )
    now = START + 3 * day + timedelta(hours=1)
    with Store(state_file) as store:
        data = compute(store, Scheduler(SchedulerConfig(fuzz=False)), now, index_of(bank))
    assert data["totals"] == {
        "questions": 4,
        "new": 1,
        "learning": 1,
        "review": 2,
        "due_now": 1,
        "due_today": 1,
        "due_this_week": data["totals"]["due_this_week"],
    }
    assert data["reviews"] == 4
    assert data["streak_days"] == 2 and data["longest_streak_days"] == 2
    assert data["time_spent_seconds"] == 120.0
    parallelism = next(c for c in data["categories"] if c["category"] == "parallelism")
    assert (parallelism["questions"], parallelism["reviewed"], parallelism["reviews"]) == (3, 2, 3)
    assert parallelism["pass_rate"] == round(2 / 3, 4)
    assert parallelism["average_score"] == 60.0
    assert data["categories"][0]["category"] == "parallelism"  # weakest first
    assert sum(f["due"] for f in data["forecast"]) == 3
    assert sum(d["reviews"] for d in data["heatmap"]) == 4
    assert data["grader_agreement"] == round(2 / 3, 4)


def test_leeches_and_changed_cards(bank, state_file, bank_dir):
    plan, when = [], START
    for _ in range(3):
        plan.append(("zero-stages", Rating.GOOD, when, None))
        when += timedelta(days=3)
    for _ in range(9):  # lapse, relearn, lapse again...
        plan.append(("zero-stages", Rating.AGAIN, when, None))
        when += timedelta(days=1)
        plan.append(("zero-stages", Rating.GOOD, when, None))
        when += timedelta(days=4)
    replay(bank, state_file, plan)
    path = bank_dir / "questions" / "parallelism.yaml"
    path.write_text(
        path.read_text().replace("What do the three ZeRO stages shard?", "What does each ZeRO stage shard?")
    )
    bank = load_bank(BankLocation(bank_dir, "option"))
    with Store(state_file) as store:
        data = compute(store, Scheduler(SchedulerConfig(fuzz=False)), when, index_of(bank))
    [leech] = data["leeches"]
    assert leech["id"] == "zero-stages" and leech["lapses"] >= 8
    assert [c["id"] for c in data["changed_since_review"]] == ["zero-stages"]


def _long_history(bank, state_file, reviews=1000, days=90, seed=3):
    rng = random.Random(seed)
    ids = list(bank.questions)
    plan = []
    for n in range(reviews):
        when = START + timedelta(days=days * n / reviews)
        plan.append(
            (rng.choice(ids), rng.choices(tuple(Rating), weights=[2, 2, 6, 1])[0], when, rng.randint(0, 100))
        )
    replay(bank, state_file, plan)
    return START + timedelta(days=days)


def test_thousand_reviews_over_ninety_days(bank, state_file):
    now = _long_history(bank, state_file)
    with Store(state_file) as store:
        data = compute(store, Scheduler(SchedulerConfig(fuzz=False)), now, index_of(bank))
        assert data["reviews"] == 1000
        assert sum(c["reviews"] for c in data["categories"]) == 1000
        heat = sum(d["reviews"] for d in data["heatmap"])
        in_window = store.db.execute(
            "SELECT COUNT(*) FROM reviews WHERE reviewed_at >= ?", (data["heatmap"][0]["date"],)
        ).fetchone()[0]
        assert heat == in_window and 0 < heat < 1000
        assert data["longest_streak_days"] == 91  # 5 Jan to 4 Apr inclusive
        assert len(data["forecast"]) == 14 and len(data["heatmap"]) >= 84


def test_stats_command_json_and_text(run, state_file, bank):
    _long_history(bank, state_file, reviews=200, days=20)
    env = {"PREP_NOW": "2026-01-25T09:00:00+00:00"}
    data = json.loads(run("stats", "--json", env=env).output)
    assert data["reviews"] == 200
    result = run("stats", env=env)
    assert result.exit_code == 0
    text = result.output
    for heading in (
        "By category, weakest first",
        "Due in the next 14 days",
        "Reviews and practice, last 12 weeks",
    ):
        assert heading in text
    assert "Parallelism" in text and "Behavioral" in text
    # A fixed-width plain rendering: every line fits the terminal.
    assert max(len(line) for line in text.splitlines()) <= 120


def test_stats_is_answered_before_typer_loads_with_the_same_figures(
    run, state_file, bank, bank_dir, isolated_home
):
    _long_history(bank, state_file, reviews=100, days=10)
    env = {"PREP_HOME": str(isolated_home), "PREP_NOW": "2026-01-16T09:00:00+00:00", "PATH": ""}
    base = ["--bank", str(bank_dir), "--state", str(state_file), "stats"]
    for args in (["--json"], ["-c", "parallelism", "--json"]):
        through_typer = json.loads(run("stats", *args, env=env).output)
        code, loaded, printed = quick_path([*base, *args], env)
        assert (code, loaded) == (0, False)
        assert json.loads(printed) == through_typer
    code, loaded, text = quick_path(base, env)
    assert (code, loaded) == (0, False) and text.startswith("Questions 4  ·  new 0  ·  learning 2")
    assert "By category, weakest first" in text and "Reviews and practice, last 12 weeks" in text
    assert quick_path([*base, "-t", "zero"], env)[0] is None  # stats selects by category alone: typer says so


def test_stats_snapshot(run, state_file, bank):
    replay(bank, state_file, [("dp-vs-mp", Rating.GOOD, START, 75)])
    text = run("stats", env={"PREP_NOW": "2026-01-06T09:00:00+00:00", "COLUMNS": "90"}).output
    lines = text.splitlines()
    assert lines[0] == "Questions 4  ·  new 3  ·  learning 1  ·  review 0  ·  due today 1  ·  due this week 1"
    assert lines[1].startswith("Streak 1 day (longest 1)  ·  1 review  ·  time spent")
    assert any(
        line.startswith(" Parallelism") and line.split()[1:] == ["3", "1", "95%", "100%", "75", "0"]
        for line in lines
    )
    assert lines[lines.index("Due in the next 14 days") + 1].startswith("  Tue 06 Jan  █")


def test_history_lists_answers(run, state_file):
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--category", "parallelism", "--limit", "1", input="my first try\n\n1\nn\n", env=env)
    data = json.loads(run("history", "dp-vs-mp", "--json").output)
    assert [(r["rating"], r["answer"]) for r in data] == [("again", "my first try")]
    assert "my first try" in run("history", "dp-vs-mp").output


def test_optimize_needs_enough_reviews(run):
    result = run("optimize", "--json")
    data = json.loads(result.output)
    assert data == {"fitted": False, "reviews": 0, "needed": 100, "min_reviews": 100}
    assert "100 more reviews needed" in run("optimize").output


def test_categories_at_the_same_shown_recall_are_ordered_by_how_they_went(bank, state_file):
    """Right after one session every category recalls at about 99%: the one failed comes first."""
    replay(
        bank,
        state_file,
        [
            ("biggest-failure", Rating.EASY, START, 95),
            ("dp-vs-mp", Rating.AGAIN, START, 10),
            ("dp-vs-mp", Rating.GOOD, START + timedelta(minutes=15), 60),
        ],
    )
    with Store(state_file) as store:
        data = compute(
            store, Scheduler(SchedulerConfig(fuzz=False)), START + timedelta(hours=2), index_of(bank)
        )
    shown = [round(100 * c["retrievability"]) for c in data["categories"] if c["retrievability"] is not None]
    assert len(set(shown)) == 1
    assert [c["category"] for c in data["categories"]][:2] == ["parallelism", "behavioral"]


def test_a_streak_longer_than_the_heatmap_is_counted_whole(bank, state_file):
    plan = [("dp-vs-mp", Rating.GOOD, START + timedelta(days=d), None) for d in range(100)]
    replay(bank, state_file, plan)
    with Store(state_file) as store:
        data = compute(
            store, Scheduler(SchedulerConfig(fuzz=False)), START + timedelta(days=99, hours=6), index_of(bank)
        )
    assert data["streak_days"] == 100 and data["longest_streak_days"] == 100
    assert sum(d["reviews"] for d in data["heatmap"]) < 100  # the heatmap shows only its weeks


def test_stats_of_a_category_count_only_its_own_activity(run):
    now = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--category", "parallelism", "--limit", "1", input="x\n\n3\nn\n", env=now)
    run("drill", "--category", "behavioral", "--limit", "1", input="y\n\n2\n", env=now)
    whole = json.loads(run("stats", "--json", env=now).output)
    one = json.loads(run("stats", "--json", "--category", "behavioral", env=now).output)
    assert whole["reviews"] == 2 and sum(d["reviews"] for d in whole["heatmap"]) == 2
    assert one["reviews"] == 1 and sum(d["reviews"] for d in one["heatmap"]) == 1
    assert one["graded_reviews"] == 1 and one["categories"][0]["reviews"] == 1


def test_optimize_improves_log_loss_on_synthetic_history(tmp_path):
    """A learner who forgets much faster than the defaults assume: personal weights fit better."""
    state = tmp_path / "s.sqlite3"
    rng = random.Random(5)
    with Store(state) as store:
        rows = []
        for card in range(120):
            when = START + timedelta(hours=card)
            interval = 1.0
            for _ in range(6):
                recalled = rng.random() < 0.55  # far below the 90% the defaults aim for
                rows.append((f"q{card}", when.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), 3 if recalled else 1))
                interval = interval * 2.5 if recalled else 1.0
                when += timedelta(days=interval)
        with store.transaction() as db:
            db.executemany("INSERT INTO reviews (question_id, reviewed_at, rating) VALUES (?, ?, ?)", rows)
        assert len(training_items(store)) == 600
        result = optimize(store, min_reviews=100)
        assert result["fitted"] and result["saved"]
        assert result["personal"]["log_loss"] < result["default"]["log_loss"]
        assert store.fsrs_parameters() is not None and len(store.fsrs_parameters()) == 21


def test_optimize_fits_a_history_with_same_day_relearning(tmp_path):
    """An Again relearned later the same day is part of the history, not an item to predict."""
    with Store(tmp_path / "s.sqlite3") as store:
        rows = []
        for card in range(60):
            when = START + timedelta(hours=card)
            for step in range(4):
                rows.append((f"q{card}", when.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), 1 if step == 1 else 3))
                when += timedelta(minutes=20) if step == 1 else timedelta(days=2)
        with store.transaction() as db:
            db.executemany("INSERT INTO reviews (question_id, reviewed_at, rating) VALUES (?, ?, ?)", rows)
        items = training_items(store)
        assert len(items) == 120 and all(item[-1][1] > 0 for item in items)
        assert [delta for _, delta in items[1]] == [0, 2, 0, 2]  # the same-day review stays in the history
        result = optimize(store, min_reviews=100)
        assert result["fitted"] and result["items"] == 120


def test_history_of_a_removed_question_is_still_shown(run, state_file):
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--category", "parallelism", "--limit", "1", input="my try\n\n2\nn\n", env=env)
    assert run("rm", "dp-vs-mp", "--yes").exit_code == 0
    result = run("history", "dp-vs-mp")
    assert result.exit_code == 0
    assert "dp-vs-mp (no longer in the bank)" in result.output and "my try" in result.output
    assert run("history", "never-existed").exit_code == 1


def test_due_today_says_how_many_are_due_now_when_they_differ(run, state_file, bank):
    replay(bank, state_file, [("dp-vs-mp", Rating.AGAIN, START, 10)])  # due again in a few minutes
    at_once = run("stats", env={"PREP_NOW": START.isoformat(), "COLUMNS": "120"}).output
    assert "due today 1 (0 now)" in at_once.splitlines()[0]  # `prep next` says 0 due now
    later = run("stats", env={"PREP_NOW": (START + timedelta(hours=1)).isoformat(), "COLUMNS": "120"}).output
    assert "due today 1  ·" in later.splitlines()[0]
