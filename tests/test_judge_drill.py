"""The judge in a drill: "judged by MODEL" with its quotes, `t` teaching the grader the judge's
quote, a judge that fails leaving the words' grade, and the review log saying who decided each
verdict (words, the judge with its model id, or the user's ticks); in a pipe and in a real
terminal."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pexpect
import yaml

from .judge_models import CALLS, TABLE, install_judges
from .support import GOOD, NOW, judge_config, pause_after_a_key, said, spawn_prep, terminal_env

ROOT = Path(__file__).resolve().parent.parent
UNSURE = "We used 1024 sequences; the network between nodes was slow when syncing."
QUOTE = "the network between nodes was slow when syncing"
REPLY = said((1, "not_said", ""), (2, "said", QUOTE))


def decided(state_file: Path) -> list[tuple]:
    db = sqlite3.connect(state_file)
    return db.execute(
        "SELECT question_id, rating, verdict, ticked, decided_by FROM reviews ORDER BY id"
    ).fetchall()


def taught(bank_dir: Path, question_id: str) -> list[list[str]]:
    data = yaml.safe_load((bank_dir / "questions" / "parallelism.yaml").read_text(encoding="utf-8"))
    (found,) = [q for q in data["questions"] if q["id"] == question_id]
    return [p.get("taught", []) if isinstance(p, dict) else [] for p in found["key_points"]]


def drill_config(tmp_path: Path, model: str = "prep-table", **settings: object) -> Path:
    config = judge_config(tmp_path / "config.toml", model, **settings)
    config.write_text(config.read_text().replace("fuzz = false", "fuzz = false\nteach_writes_bank = true"))
    return config


# dp-vs-mp (the words pass it), its follow-up dp-batch-size (the words are unsure: the judge
# decides, and t teaches its quote), then zero-stages (the user ticks point 1, rates Again); q.
SESSION = f"{GOOD}\n\n\ny\n{UNSURE}\n\nt\n\nI have no idea.\n\nt 1\n1\nq\n"


def test_the_log_records_who_decided_each_verdict_and_t_teaches_the_judges_quote(
    run, judges, tmp_path, bank_dir, state_file
):
    judges.reply(UNSURE, REPLY)
    config = drill_config(tmp_path)
    result = run("--config", str(config), "drill", "-c", "parallelism", input=SESSION, env=NOW)
    assert result.exit_code == 0, result.output
    assert decided(state_file) == [
        ("dp-vs-mp", 3, "pass", None, "words"),
        ("dp-batch-size", 2, "partial", None, "judge:prep-table"),
        ("zero-stages", 1, "fail", "[1]", "ticks"),
    ]
    out = " ".join(result.stdout.split())  # the report wraps at the console's width
    assert "judged by prep-table" in out and f'← "{QUOTE}"' in out
    assert "t teaches the grader your words for key point 2, as the judge quoted them" in out
    assert f"taught key point 2: “{QUOTE}”" in out
    assert taught(bank_dir, "dp-batch-size") == [[], [QUOTE]]
    assert len(judges.calls()) == 1  # only the answer the words could not decide
    assert '"decided_by": "judge:prep-table"' in run("state", "export").stdout
    history = run("history", "dp-batch-size", "--json")
    assert [row["decided_by"] for row in json.loads(history.stdout)] == ["judge:prep-table"]
    assert "hard (judge prep-table)" in run("history", "dp-batch-size").stdout


def test_a_judge_that_fails_in_a_drill_says_so_and_the_words_grade_stands(run, judges, tmp_path, state_file):
    config = drill_config(tmp_path, "prep-raising")
    result = run("--config", str(config), "drill", "--tag", "distributed", input=SESSION, env=NOW)
    assert result.exit_code == 0, result.output
    assert "judge prep-raising: the service is overloaded, try again later; the words' grade stands" in (
        result.stdout
    )
    rows = decided(state_file)
    # dp-vs-mp by the words; its follow-up, unsure, ticked by the user (Again: asked once more)
    assert [row[-1] for row in rows] == ["words", "ticks", "ticks"]
    assert "judged by" not in result.stdout


def test_no_judge_in_a_drill_asks_no_model(run, judges, tmp_path, state_file):
    config = drill_config(tmp_path)
    result = run(
        "--config", str(config), "drill", "--tag", "distributed", "--no-judge", input=SESSION, env=NOW
    )
    assert result.exit_code == 0 and judges.calls() == []


def test_the_drill_with_a_judge_in_a_real_terminal(tmp_path, bank_dir, state_file, isolated_home):
    table, calls = tmp_path / "table.json", tmp_path / "calls.jsonl"
    table.write_text(json.dumps({UNSURE: REPLY}), encoding="utf-8")
    config = drill_config(tmp_path)
    env = {
        **terminal_env(isolated_home),
        **install_judges(tmp_path / "site", ROOT),
        TABLE: str(table),
        CALLS: str(calls),
        "LLM_USER_PATH": str(tmp_path / "llm"),
    }
    questions = bank_dir / "questions" / "parallelism.yaml"  # dp-batch-size alone carries the tag "batch"
    text = questions.read_text(encoding="utf-8")
    questions.write_text(
        text.replace("tags: [distributed]\n    target_seconds: 90", "tags: [batch]\n    target_seconds: 90")
    )
    child = spawn_prep(bank_dir, state_file, "--config", str(config), "drill", "--tag", "batch", env=env)
    child.expect("Your answer")
    child.sendline(UNSURE)
    child.sendline("")
    child.expect("the judge prep-table now gets the question")  # said once, before it is sent
    child.expect("judged by prep-table")
    child.expect("between nodes was")  # the quote, beside the point it says (wrapped as it fits)
    child.expect("as the judge quoted them")
    child.expect(r"Enter = hard")
    child.send("t")  # one key: the judge's quote is taught
    child.expect("taught key point 2")
    child.expect(r"Enter = hard")
    pause_after_a_key()
    child.send("\r")
    child.expect("Session done")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert decided(state_file) == [("dp-batch-size", 2, "partial", None, "judge:prep-table")]
    assert taught(bank_dir, "dp-batch-size") == [[], [QUOTE]]
    assert 'notified = ["prep-table"]' in config.read_text()
