"""Nothing a command writes can leave a bank that the loader refuses, and a file grown past the
limit can still be shrunk by the command that writes its entry."""

from __future__ import annotations

import json
import sqlite3

from typer.testing import CliRunner

from prep.bank.yamlsource import MAX_FILE_BYTES
from prep.cli.app import app
from prep.paths import BankLocation
from prep.state.migrations import MIGRATIONS
from prep.state.store import Store

from .support import GOOD, NOW, write

HUGE = "Speculative decoding is fast. " * (MAX_FILE_BYTES // 28)


def test_an_answer_too_large_for_the_loader_is_refused_and_nothing_is_written(run, bank_dir):
    answers = bank_dir / "answers" / "answers.yaml"
    before = answers.read_bytes()
    result = run("answer", "dp-vs-mp", "--text", "-", input=HUGE)
    assert result.exit_code == 1, result.output
    [error] = [line for line in result.output.splitlines() if line.startswith("prep:")]
    assert "answers.yaml would be too large" in error and "the limit is 5 MiB" in error
    assert error.endswith("nothing was written")
    assert answers.read_bytes() == before
    assert run("list").exit_code == 0


def test_an_import_too_large_for_the_loader_is_refused(run, bank_dir, tmp_path):
    source = tmp_path / "big.csv"
    rows = [f"big-{i},What is big question number {i}?,{'word ' * 20_000}" for i in range(60)]  # 6 MB
    source.write_text("id,prompt,answer\n" + "\n".join(rows) + "\n")
    result = run("import", str(source), "-c", "parallelism")
    assert result.exit_code == 1, result.output
    assert "would be too large" in result.output
    assert run("validate").exit_code == 0


def test_a_file_grown_past_the_limit_can_still_be_shrunk_by_answer(run, bank_dir):
    answers = bank_dir / "answers" / "answers.yaml"
    answers.write_text(
        answers.read_text() + "  - question: dp-batch-size\n    answer: >\n      " + HUGE + "\n",
        encoding="utf-8",
    )
    broken = run("list")
    assert broken.exit_code == 2 and "the limit is 5 MiB" in broken.output
    fixed = run("answer", "dp-batch-size", "--text", "Micro-batch times DP times accumulation.")
    assert fixed.exit_code == 0, fixed.output
    assert answers.stat().st_size < MAX_FILE_BYTES
    assert run("list").exit_code == 0
    shown = run("show", "dp-batch-size", "--json")
    assert "Micro-batch times DP times accumulation." in shown.output


# --- history belongs to the bank it was made in ----------------------------------------------

SMALL = """\
category: cat
title: Cat
questions:
  - id: only-one
    prompt: What is the one question of this small bank?
    key_points: [it is the only one]
"""


def _in(bank, state_file):
    runner = CliRunner()

    def invoke(*args, input=None, env=None):
        return runner.invoke(
            app, ["--bank", str(bank), "--state", str(state_file), *args], input=input, env=env
        )

    return invoke


def test_prune_in_another_bank_leaves_this_banks_history_alone(run, state_file, tmp_path):
    assert (
        run("drill", "-c", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW).exit_code == 0
    )
    small = tmp_path / "small"
    write(small / "questions" / "cat.yaml", SMALL)
    other = _in(small, state_file)
    result = other("state", "prune", "--yes", "--json")
    assert result.exit_code == 0 and json.loads(result.output)["questions"] == 0
    assert len(json.loads(run("history", "dp-vs-mp", "--json").output)) == 1


def test_an_id_with_history_in_another_bank_is_not_taken(run, state_file, tmp_path):
    run("drill", "-c", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    empty = tmp_path / "empty"
    write(empty / "questions" / "cat.yaml", SMALL)
    source = tmp_path / "in.csv"
    source.write_text(
        "id,prompt,key_points\ndp-vs-mp,What is the difference between DP and MP?,replicas vs shards\n"
    )
    result = _in(empty, state_file)("import", str(source), "-c", "cat", "--json")
    assert result.exit_code == 0, result.output
    assert "dp-vs-mp" in (empty / "questions" / "cat.yaml").read_text()


def test_history_from_before_banks_were_recorded_is_kept_and_seen_by_every_bank(run, state_file, tmp_path):
    db = sqlite3.connect(state_file)
    db.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT)"
    )
    for number, migration in enumerate(MIGRATIONS[:3], 1):
        migration(db)
        db.execute("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01T00:00:00Z')", (number, "old"))
    for qid in ("dp-vs-mp", "gone"):
        db.execute(
            "INSERT INTO reviews (question_id, reviewed_at, rating) VALUES (?, ?, 3)",
            (qid, "2026-01-02T00:00:00.000000Z"),
        )
    db.execute(
        "INSERT INTO cards (question_id, due, state) VALUES ('dp-vs-mp', '2026-01-03T00:00:00.000000Z', 2)"
    )
    db.commit()
    db.close()
    assert len(json.loads(run("history", "dp-vs-mp", "--json").output)) == 1  # migrated, still this bank's
    assert (
        json.loads(run("state", "prune", "--yes", "--json").output)["questions"] == 0
    )  # not this bank's to prune
    with Store(state_file) as store:
        assert store.review_count() == 2  # no row was lost
        assert {r[0] for r in store.db.execute("SELECT DISTINCT bank FROM reviews")} == {""}
    pruned = json.loads(run("state", "prune", "--yes", "--unassigned", "--json").output)
    assert pruned == {"questions": 1, "reviews": 1, "cards": 0, "practice": 0, "teachings": 0}


def test_new_reviews_record_their_bank_and_export_import_moves_them_to_this_bank(
    run, state_file, tmp_path, bank_dir
):
    run("drill", "-c", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    with Store(state_file) as store:
        assert {r[0] for r in store.db.execute("SELECT bank FROM reviews")} == {
            BankLocation(bank_dir, "x").key
        }
    dump = tmp_path / "h.jsonl"
    assert run("state", "export", str(dump)).exit_code == 0
    moved = tmp_path / "moved"  # the same bank, at another path (another machine)
    moved.mkdir()
    for part in ("questions", "answers"):
        (moved / part).mkdir()
        for f in (bank_dir / part).iterdir():
            (moved / part / f.name).write_bytes(f.read_bytes())
    fresh = tmp_path / "fresh.sqlite3"
    assert _in(moved, fresh)("state", "import", str(dump)).exit_code == 0
    assert len(json.loads(_in(moved, fresh)("history", "dp-vs-mp", "--json").output)) == 1


def test_init_carries_the_bundled_banks_history_over_to_the_copy(state_file, tmp_path):
    from prep.paths import bundled_bank_root

    bundled = _in(bundled_bank_root(), state_file)
    assert (
        bundled("drill", "-c", "parallelism", "--limit", "1", input="no idea\n\n1\nn\nq\n", env=NOW).exit_code
        == 0
    )
    copy = tmp_path / "mine"
    result = _in(copy, state_file)("init", str(copy))
    assert result.exit_code == 0 and "carried over" in result.output
    assert json.loads(_in(copy, state_file)("stats", "--json").output)["reviews"] == 1
