"""State database: migrations with backup, corruption handling, export/import/prune, check."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from typer.testing import CliRunner

from prep.cli.app import app
from prep.config import SchedulerConfig
from prep.paths import BankLocation
from prep.rating import Rating
from prep.review.scheduler import Scheduler
from prep.state.cards import CardState, new_card
from prep.state.migrations import SCHEMA_VERSION
from prep.state.store import Store

from .support import GOOD, NOW, old_database

T0 = datetime(2026, 2, 1, 8, 0, tzinfo=UTC)
# A damaged state database: SQLite's header, then pages that make no sense.
DAMAGED = b"SQLite format 3\x00" + b"garbage" * 500


def test_old_schema_is_migrated_in_place_after_a_backup(tmp_path):
    path = tmp_path / "state.sqlite3"
    old_database(path)
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.review_count() == 1
        columns = {r[1] for r in store.db.execute("PRAGMA table_info(reviews)")}
        assert "verdict" in columns
    [backup] = [p for p in tmp_path.iterdir() if ".backup-" in p.name]
    old = sqlite3.connect(backup)
    assert old.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0] == 1
    assert old.execute("SELECT COUNT(*) FROM reviews").fetchone()[0] == 1


def test_truncated_database_is_reported_and_kept(run, state_file):
    run("drill", "--category", "parallelism", input=(GOOD + "\n\n3\nn\n") * 3, env=NOW)
    data = state_file.read_bytes()
    for suffix in ("-wal", "-shm"):
        state_file.with_name(state_file.name + suffix).unlink(missing_ok=True)
    state_file.write_bytes(data[: len(data) // 3])
    result = run("next", env=NOW)
    assert result.exit_code == 3
    assert "Traceback" not in result.output
    assert "prep state check" in result.output


def test_state_check_reports_and_explains(run, state_file, tmp_path):
    assert run("state", "check").exit_code == 0  # no database yet is fine
    run("drill", "--category", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    data = json.loads(run("state", "check", "--json").output)
    assert data["ok"] and data["reviews"] == 1
    state_file.write_bytes(DAMAGED)
    for suffix in ("-wal", "-shm"):
        state_file.with_name(state_file.name + suffix).unlink(missing_ok=True)
    result = run("state", "check")
    assert result.exit_code == 3
    assert "damaged" in result.output and "to restore" in result.output


def test_export_import_round_trip_is_identical(run, state_file, tmp_path, bank_dir):
    run(
        "drill",
        "--category",
        "parallelism",
        input=(GOOD + "\n\n3\nn\n") + "no idea\n\n1\n" + "x\n\n2\n",
        env=NOW,
    )
    first = run("state", "export").output
    assert first.splitlines()[0] == '{"type": "prep-state", "version": 5}'  # 5: event ids, undos
    assert sum('"type": "review"' in line for line in first.splitlines()) == 3
    dump = tmp_path / "history.jsonl"
    dump.write_text(first)
    fresh_state = tmp_path / "other.sqlite3"
    from typer.testing import CliRunner

    from prep.cli.app import app

    runner = CliRunner()
    base = ["--bank", str(bank_dir), "--state", str(fresh_state)]
    imported = runner.invoke(app, base + ["state", "import", str(dump), "--json"])
    assert json.loads(imported.output) == {
        "reviews_added": 3,
        "reviews_present": 0,
        "cards_added": 3,
        "cards_updated": 0,
        "cards_kept": 0,
        "practice_added": 0,
        "practice_present": 0,
        "teachings_added": 0,
        "teachings_present": 0,
        "undos_added": 0,
        "undos_present": 0,
    }
    second = runner.invoke(app, base + ["state", "export"]).output
    assert second == first
    again = runner.invoke(app, base + ["state", "import", str(dump), "--json"])
    assert json.loads(again.output)["reviews_added"] == 0  # idempotent
    backup = tmp_path / "backups" / "2026" / "history.jsonl"  # its folder made, as every export's
    assert run("state", "export", str(backup)).exit_code == 0 and backup.read_text() == first


def test_import_merges_newer_card_states(tmp_path):
    scheduler = Scheduler(SchedulerConfig(fuzz=False))
    a, b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    card1 = scheduler.review(new_card("q", T0), Rating.GOOD, T0)
    with Store(a) as sa, Store(b) as sb:
        sa.record(None, card1, reviewed_at=T0, rating=3)
        sb.record(None, card1, reviewed_at=T0, rating=3)
        later = card1.due
        card2 = scheduler.review(card1, Rating.EASY, later)
        sb.record(card1, card2, reviewed_at=later, rating=4)
        from prep.state.history import export_lines, import_lines

        dump = tmp_path / "b.jsonl"
        dump.write_text("".join(line + "\n" for line in export_lines(sb)))
        report = import_lines(sa, dump, scheduler.replay)
        assert (report.reviews_added, report.reviews_present, report.cards_updated) == (1, 1, 1)
        assert sa.card("q") == card2


def test_import_rejects_a_bad_file_with_line_numbers(run, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "prep-state", "version": 1}\n{"type": "review", "question_id": "x"}\nnot json\n')
    result = run("state", "import", str(bad))
    assert result.exit_code == 2
    assert (
        "bad.jsonl:2:1: bad review" in result.output and "bad.jsonl:3:1: not a JSON object" in result.output
    )


def test_import_checks_values_and_writes_nothing_when_one_is_wrong(run, tmp_path, state_file):
    run("drill", "--category", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    good = tmp_path / "good.jsonl"
    assert run("state", "export", str(good)).exit_code == 0
    lines = good.read_text().splitlines()
    card, review = json.loads(lines[1]), json.loads(lines[2])
    broken = [
        lines[0],
        json.dumps({**card, "state": 7}),
        json.dumps({**review, "reviewed_at": "yesterday"}),
        json.dumps({**review, "reviewed_at": "2026-03-04T10:00:00Z", "rating": 9, "verdict": "great"}),
        json.dumps({**review, "reviewed_at": "2026-03-05T10:00:00Z", "card_before": "{}"}),
        json.dumps({**card, "question_id": "Not An Id!!", "difficulty": 99}),
        json.dumps({**review, "reviewed_at": "2026-03-06T10:00:00Z", "mode": "bogus"}),
        (
            '{"type": "practice", "question_id": "dp-vs-mp", "practiced_at": "2026-03-07T10:00:00Z", '
            '"mode": "cram", "elapsed_seconds": Infinity}'
        ),
        json.dumps({**card, "stability": 1e400}),
    ]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(broken) + "\n")
    result = run("state", "import", str(bad))
    assert result.exit_code == 2, result.output
    assert "bad.jsonl:2:1: bad card: state: input should be less than or equal to 3" in result.output
    assert "bad.jsonl:3:1: bad review: reviewed_at: 'yesterday' is not an ISO date-time" in result.output
    assert (
        "bad.jsonl:4:1: bad review: rating:" in result.output
        and "bad.jsonl:4:1: bad review: verdict:" in result.output
    )
    assert "bad.jsonl:5:1: bad review: card_before: expected the JSON of a card" in result.output
    assert (
        "bad.jsonl:6:1: bad card: question_id:" in result.output
        and "bad.jsonl:6:1: bad card: difficulty:" in result.output
    )
    assert "bad.jsonl:7:1: bad review: mode:" in result.output
    assert "bad.jsonl:8:1: bad practice: elapsed_seconds:" in result.output
    assert "bad.jsonl:9:1: bad card: stability:" in result.output
    assert "Traceback" not in result.output
    with Store(state_file) as store:
        assert store.review_count() == 1 and store.cards()["dp-vs-mp"].to_dict() == card_without_hash(card)
    # Stats and history keep working: the failed import wrote nothing.
    assert run("stats").exit_code == 0 and run("history", "dp-vs-mp").exit_code == 0


def card_without_hash(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("type", "content_hash", "bank")}


def test_import_stores_times_in_one_form_so_a_second_import_adds_nothing(run, tmp_path, state_file):
    dump = tmp_path / "hand.jsonl"
    dump.write_text(
        '{"type": "prep-state", "version": 1}\n'
        '{"type": "review", "question_id": "dp-vs-mp", "reviewed_at": "2026-03-02T10:00:00+01:00", '
        '"rating": 3, "elapsed_seconds": 30}\n'
    )
    assert "reviews: 1 added" in run("state", "import", str(dump)).output
    assert "reviews: 0 added, 1 already present" in run("state", "import", str(dump)).output
    with Store(state_file) as store:
        [stored] = store.reviews("dp-vs-mp")
        assert stored.reviewed_at == datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    assert run("history", "dp-vs-mp").exit_code == 0


def test_prune_removes_history_of_removed_questions(run, state_file, bank_dir):
    run("drill", "--category", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    with Store(state_file, bank_key=BankLocation(bank_dir, "option").key) as store:  # this bank's history
        store.record(None, CardState("gone-question", T0), reviewed_at=T0, rating=3)
    assert run("state", "prune").exit_code == 1  # needs --yes when not interactive
    result = run("state", "prune", "--yes", "--json")
    assert json.loads(result.output) == {
        "questions": 1,
        "reviews": 1,
        "cards": 1,
        "practice": 0,
        "teachings": 0,
    }
    with Store(state_file) as store:
        assert store.review_count() == 1


def _one_json_document(result):
    """stdout holds exactly one JSON document (json.loads refuses trailing text)."""
    return json.loads(result.stdout)


def test_every_state_command_prints_exactly_one_json_document(
    run, state_file, tmp_path, monkeypatch, bank_dir
):
    nothing = {"questions": 0, "reviews": 0, "cards": 0, "practice": 0, "teachings": 0}
    assert _one_json_document(run("state", "check", "--json"))["status"] == "missing"
    for args in (["state", "prune", "--json"], ["state", "prune", "-y", "--json"]):  # nothing to prune
        result = run(*args)
        assert result.exit_code == 0 and _one_json_document(result) == nothing
    run("drill", "--category", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    dump = tmp_path / "h.jsonl"
    dump.write_text(run("state", "export").stdout)
    assert _one_json_document(run("state", "import", str(dump), "--json"))["reviews_present"] == 1
    assert _one_json_document(run("state", "check", "--json"))["status"] == "ok"
    assert _one_json_document(run("state", "rebuild", "--json")) == {"rebuilt": []}
    assert _one_json_document(run("state", "share", "--status", "--json"))["shared"] is False
    assert _one_json_document(run("state", "share", "--json"))["written"] == 1
    assert _one_json_document(run("state", "share", "--off", "--json"))["writes"] is False
    with Store(state_file, bank_key=BankLocation(bank_dir, "option").key) as store:  # this bank's history
        store.record(None, CardState("gone-question", T0), reviewed_at=T0, rating=3)
    monkeypatch.setattr("prep.cli.plain.interactive", lambda: True)
    declined = run("state", "prune", "--json", input="n\n")  # the question goes to stderr
    assert declined.exit_code == 0 and "gone-question" in declined.stderr
    assert json.loads(declined.stdout.split("\n", 1)[1]) == nothing  # after CliRunner's echo of "n"
    assert _one_json_document(run("state", "prune", "-y", "--json")) == {
        "questions": 1,
        "reviews": 1,
        "cards": 1,
        "practice": 0,
        "teachings": 0,
    }
    state_file.write_bytes(DAMAGED)
    damaged = run("state", "check", "--json")
    assert damaged.exit_code == 3 and _one_json_document(damaged)["status"] == "damaged"


def cards(state_file):
    with sqlite3.connect(state_file) as db:
        return db.execute("SELECT * FROM cards ORDER BY question_id").fetchall()


def test_cram_and_mock_answers_are_kept_as_practice_and_travel_with_an_export(
    run, state_file, tmp_path, bank_dir
):
    """Nothing typed is lost: a cram rating and a mock answer are kept, shown in history and
    counted as activity, and never touch the schedule."""
    run("drill", "--category", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    before = cards(state_file)
    later = {"PREP_NOW": "2026-03-03T21:00:00+00:00"}
    run(
        "drill",
        "--cram",
        "--category",
        "parallelism",
        "--limit",
        "1",
        input="my cram answer\n\n2\nn\n",
        env=later,
    )
    run(
        "drill",
        "--mode",
        "mock",
        "--count",
        "1",
        "--category",
        "behavioral",
        input="my mock story\n\n",
        env=later,
    )
    assert cards(state_file) == before
    history = json.loads(run("history", "dp-vs-mp", "--json").output)
    assert [(h["mode"], h["scheduled"]) for h in history] == [("type", True), ("cram", False)]
    assert history[1]["answer"] == "my cram answer" and history[1]["rating"] == "hard"
    shown = run("history", "dp-vs-mp").output
    assert "hard (cram)" in shown
    stats = json.loads(run("stats", "--json", env=later).output)
    assert (
        stats["reviews"] == 1 and stats["practice"] == 2 and stats["streak_days"] == 2
    )  # a cram night counts
    dump = tmp_path / "all.jsonl"
    assert run("state", "export", str(dump)).exit_code == 0
    assert sum('"type": "practice"' in line for line in dump.read_text().splitlines()) == 2
    other = tmp_path / "other.sqlite3"
    runner = CliRunner()
    base = ["--bank", str(bank_dir), "--state", str(other)]
    imported = json.loads(runner.invoke(app, base + ["state", "import", str(dump), "--json"]).output)
    assert imported["practice_added"] == 2
    assert (
        json.loads(runner.invoke(app, base + ["state", "import", str(dump), "--json"]).output)[
            "practice_present"
        ]
        == 2
    )
    assert runner.invoke(app, base + ["state", "export"]).output == dump.read_text()
    # Undoing a cram rating takes the rating back, not the answer: it stays, unrated.
    run("drill", "--cram", "--category", "parallelism", "--limit", "1", input="kept\n\n1\nn\n", env=later)
    assert len(json.loads(run("history", "dp-vs-mp", "--json").output)) == 3
    run(
        "drill",
        "--cram",
        "--category",
        "parallelism",
        "--limit",
        "2",
        input="undone\n\n1\nn\n\nu\n\nq\n",
        env=later,
    )
    rows = [(h["answer"], h["rating"]) for h in json.loads(run("history", "dp-vs-mp", "--json").output)]
    assert ("kept", "again") in rows and ("undone", None) in rows and len(rows) == 4


def test_rows_from_before_event_ids_get_the_ids_an_old_export_of_them_gets(
    run, state_file, tmp_path, bank_dir
):
    """A state upgraded from then and a state that imported an export from then agree on the
    ids of the same events, so that sharing or merging them counts each event once."""
    old_database(state_file)  # one review of dp-vs-mp, unassigned, from the first release
    old_export = tmp_path / "old.jsonl"
    old_export.write_text(
        '{"type": "prep-state", "version": 1}\n'
        '{"type": "review", "question_id": "dp-vs-mp", "reviewed_at": "2026-01-02T00:00:00Z", "rating": 3}\n'
    )
    assert json.loads(run("state", "import", str(old_export), "--json").output)["reviews_present"] == 1
    fresh = tmp_path / "fresh.sqlite3"
    base = ["--bank", str(bank_dir), "--state", str(fresh)]
    assert CliRunner().invoke(app, [*base, "state", "import", str(old_export)]).exit_code == 0

    def event_ids(*args: str) -> list[str]:
        exported = CliRunner().invoke(app, [*args, "state", "export"]).output
        return [json.loads(line)["event"] for line in exported.splitlines() if '"type": "review"' in line]

    upgraded = event_ids("--bank", str(bank_dir), "--state", str(state_file))
    assert upgraded == event_ids(*base) and upgraded[0].startswith("old-")
