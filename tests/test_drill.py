"""Scripted drill sessions through the CLI (stdin is not a TTY: answer block, blank line, choice)."""

from __future__ import annotations

import json
import os
import re
import sqlite3

import pytest

from prep.bank.schema import content_hash

from .support import GOOD, NOW, reviews

NEXT_WEEK = {"PREP_NOW": "2026-03-09T09:00:00+00:00"}


def cards(state_file):
    db = sqlite3.connect(state_file)
    return {r[0]: r[1:] for r in db.execute("SELECT question_id, due, state, reps FROM cards")}


def test_full_session_records_every_rating(run, state_file):
    script = (
        GOOD + "\n\n"  # answer dp-vs-mp, blank line ends it
        "\n"  # Enter accepts the suggested rating
        "n\n"  # decline the follow-up: it waits until the end of the session
        "stage 1 shards optimizer states, stage 2 gradients, stage 3 parameters\n\n"
        "3\n"
        "I am not sure.\n\n"  # dp-batch-size
        "1\n"  # Again
        "global batch is micro batch times DP size times accumulation steps\n\n"  # dp-batch-size again
        "3\n"
    )
    result = run("drill", "--category", "parallelism", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    rows = reviews(state_file)
    assert [(r[0], r[1]) for r in rows] == [
        ("dp-vs-mp", 3),
        ("zero-stages", 3),
        ("dp-batch-size", 1),
        ("dp-batch-size", 3),
    ]
    assert rows[0][2] == 3 and rows[0][3] >= 70  # suggested Good, scored a pass
    assert rows[0][4] == GOOD and rows[0][5] == "type"
    assert "PASS" in result.output and "Session done." in result.output
    assert "cards 4" in result.output
    # FSRS's first learning step is a minute: the card comes back at the end of the session.
    assert "again: back at the end of this session" in result.output
    assert "[4/4] again" in result.output


def test_output_explains_the_score(run):
    result = run(
        "drill",
        "--category",
        "parallelism",
        "--limit",
        "1",
        input="gradients are all-reduced\n\n1\n",
        env=NOW,
    )
    out = result.output
    assert "✓ 3. gradients are averaged across GPUs with all-reduce" in out
    assert "✗ 4. model parallelism splits the model itself across GPUs" in out
    assert "Model answer" in out  # the prepared answer is shown after grading
    assert "about 1s spoken (3 words)" in out


def test_undo_takes_back_the_last_rating(run, state_file):
    script = (
        GOOD + "\n\n"
        "4\n"
        "n\n"  # rate dp-vs-mp Easy, no follow-up
        "x\n\n"
        "u\n"  # on the next card: undo instead of rating
         + GOOD + "\n\n"
        "2\n"
        "n\n"  # dp-vs-mp comes back: Hard this time
        "q\n"  # quit while typing the next answer? no: q here is the answer; then choice q
        "\n"
        "q\n"
    )
    result = run("drill", "--category", "parallelism", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    undid = "undid easy on dp-vs-mp, its answer kept as practice; zero-stages comes back after it"
    assert undid in result.output
    assert [(r[0], r[1]) for r in reviews(state_file)] == [("dp-vs-mp", 2)]


def test_u_at_the_follow_up_offer_undoes_the_rating_just_made(run, state_file):
    script = (
        GOOD + "\n\n"
        "1\n"
        "u\n"  # rate dp-vs-mp Again by mistake, then undo at the follow-up offer
         + GOOD + "\n\n"
        "3\n"
        "n\n"  # it comes straight back: Good this time
        "\n"
        "q\n"
    )
    result = run("drill", "--category", "parallelism", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    assert "undid again on dp-vs-mp" in result.output
    assert [(r[0], r[1]) for r in reviews(state_file)] == [("dp-vs-mp", 3)]
    assert result.output.count("Q (dp-vs-mp)") == 2  # and the Again copy at the end is gone


def test_undoing_the_rating_of_a_card_brought_back_for_again_brings_it_back_once_more(run, state_file):
    script = (
        "\n"
        "1\n"
        "n\n"  # dp-vs-mp: Again, so it comes back at the end (its follow-up declined: not next)
        "\n"
        "3\n"  # zero-stages: Good
        "\n"
        "1\n"  # dp-batch-size: Again, back at the end too
        "\n"
        "3\n"  # dp-vs-mp, brought back: Good
        "\n"
        "u\n"  # dp-batch-size, brought back: undo instead, which takes back dp-vs-mp's Good
        "\n"
        "4\n"  # dp-vs-mp is asked once more: Easy
        "\n"
        "3\n"  # and dp-batch-size: Good
    )
    result = run("drill", "--category", "parallelism", "--new", "3", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    assert "undid good on dp-vs-mp" in result.output
    assert [(r[0], r[1]) for r in reviews(state_file)] == [
        ("dp-vs-mp", 1),
        ("zero-stages", 3),
        ("dp-batch-size", 1),
        ("dp-vs-mp", 4),
        ("dp-batch-size", 3),
    ]


def test_skip_and_quit(run, state_file):
    result = run("drill", "--category", "parallelism", input="x\n\ns\ny\n\nq\n", env=NOW)
    assert result.exit_code == 0
    assert reviews(state_file) == []
    assert "Session done." in result.output


def test_end_of_input_at_a_prompt_ends_the_session_as_interrupted_130(run, state_file):
    """As the README's exit codes say: what was rated is saved, and the exit code is 130."""
    result = run("drill", "--category", "parallelism", input=GOOD + "\n\n3\nn\n", env=NOW)
    assert result.exit_code == 130
    assert len(reviews(state_file)) == 1
    assert "cards 1" in result.output and "Session interrupted" in result.output


@pytest.mark.parametrize("ending", ["\n", "\n3\n"], ids=["at the rating", "at the follow-up offer"])
def test_end_of_input_at_any_prompt_is_130(run, state_file, ending):
    result = run("drill", "--category", "parallelism", input=GOOD + "\n" + ending, env=NOW)
    assert result.exit_code == 130, result.output


def test_follow_up_is_drilled_right_away(run, state_file):
    script = GOOD + "\n\n3\ny\nmicro batch times DP size times accumulation steps\n\n3\n\nq\n"
    result = run("drill", "--category", "parallelism", "--limit", "1", input=script, env=NOW)
    assert "The interviewer digs deeper" in result.output
    assert "follow-up" in result.output
    assert [r[0] for r in reviews(state_file)] == ["dp-vs-mp", "dp-batch-size"]


def test_empty_answer_reveals_and_self_grades(run, state_file):
    result = run("drill", "--category", "parallelism", "--limit", "1", input="\n2\nn\n", env=NOW)
    assert "Key points:" in result.output
    assert [(r[1], r[2], r[3]) for r in reviews(state_file)] == [(2, None, None)]


def test_flip_mode(run, state_file):
    result = run(
        "drill", "--mode", "flip", "--category", "parallelism", "--limit", "1", input="\n4\nn\n", env=NOW
    )
    assert result.exit_code == 0
    assert "Key points:" in result.output
    assert [(r[0], r[1], r[5]) for r in reviews(state_file)] == [("dp-vs-mp", 4, "flip")]


def test_cram_never_touches_the_schedule(run, state_file):
    run("drill", "--category", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    before = (reviews(state_file), cards(state_file))
    result = run("drill", "--cram", "--category", "parallelism", input=(GOOD + "\n\n1\nn\n") * 3, env=NOW)
    assert result.exit_code == 0
    assert (reviews(state_file), cards(state_file)) == before


def test_cram_orders_weakest_first(run):
    run(
        "drill", "--category", "parallelism", "--limit", "2", input=GOOD + "\n\n4\nn\nno idea\n\n1\n", env=NOW
    )
    result = run("drill", "--cram", "--category", "parallelism", "--limit", "1", input="\nq\n", env=NEXT_WEEK)
    assert "dp-batch-size" in result.output.split("Q (")[1]


def test_cram_later_the_same_day_puts_the_card_just_failed_first(run):
    """FSRS counts whole days, so both cards recall at 100% today; the failed one is weaker."""
    run(
        "drill", "--category", "parallelism", "--limit", "2", input=GOOD + "\n\n4\nn\nno idea\n\n1\n", env=NOW
    )
    later = {"PREP_NOW": "2026-03-02T12:00:00+00:00"}
    result = run("drill", "--cram", "--category", "parallelism", "--limit", "1", input="\nq\n", env=later)
    assert "dp-batch-size" in result.output.split("Q (")[1]


def test_mock_interview_gives_no_feedback_and_records_nothing(run, state_file):
    result = run("drill", "--mode", "mock", "--count", "3", input=(GOOD + "\n\n") * 3, env=NOW)
    assert result.exit_code == 0
    head, report = result.output.split("Mock interview report")
    assert "PASS" not in head and "Key points" not in head  # nothing shown until the end
    assert report.count("\n") >= 3
    assert reviews(state_file) == []


def test_mock_report_lists_what_each_answer_missed(run):
    result = run(
        "drill",
        "--mode",
        "mock",
        "--count",
        "1",
        "--category",
        "behavioral",
        input="I shipped a model.\n\n",
        env=NOW,
    )
    report = result.output.split("Mock interview report")[1]
    assert "✗ missed: " in report


def test_mock_interview_counts_a_question_left_unanswered(run, state_file):
    result = run(
        "drill",
        "--mode",
        "mock",
        "--count",
        "3",
        "--json",
        input=GOOD + "\n\n" + "\n" + GOOD + "\n\n",
        env=NOW,
    )
    summary = json.loads(result.output[result.output.index("{\n") :])
    assert summary["cards"] == 3 and len(summary["results"]) == 3
    assert [r["verdict"] for r in summary["results"]].count(None) == 1  # the empty answer: asked, not passed
    assert summary["passed"] <= 2 and reviews(state_file) == []


def test_mock_interview_with_record_updates_the_schedule(run, state_file):
    result = run("drill", "--mode", "mock", "--count", "2", "--record", input=(GOOD + "\n\n") * 2, env=NOW)
    assert result.exit_code == 0
    # Each answer is rated as graded, or, where the words cannot judge it (an unsure grade), kept
    # as practice and named as not scheduled.
    rated = [r[0] for r in reviews(state_file)]
    kept = [q for (q,) in sqlite3.connect(state_file).execute("SELECT question_id FROM practice")]
    assert len(rated) + len(kept) == 2 and rated and all(r[5] == "mock" for r in reviews(state_file))
    assert all(f"not scheduled (the words could not tell): {q}" in result.output for q in kept)


def test_a_recorded_mock_keeps_an_answer_the_words_cannot_judge_as_practice(run, state_file):
    # zero-stages has one phrasing per key point: an answer in other words is unsure, and is not
    # scheduled on a guess; it is kept as practice and said so. The others are rated as graded.
    other_words = (
        "Optimizer memory goes first, then what backward produces, then everything the forward reads."
    )
    result = run(
        "drill", "--mode", "mock", "-c", "parallelism", "--count", "3", "--record",
        input=(other_words + "\n\n") * 3, env=NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(r[0] for r in reviews(state_file)) == ["dp-batch-size", "dp-vs-mp"]
    assert "not scheduled (the words could not tell): zero-stages" in result.output
    kept = sqlite3.connect(state_file).execute("SELECT question_id, mode FROM practice").fetchall()
    assert kept == [("zero-stages", "mock")]


def test_nothing_to_drill_speaks_of_the_selection_only(run):
    run("drill", "--category", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    other = run("drill", "--category", "behavioral", "--new", "0", env=NOW)
    assert "Nothing to drill now. Next card due: none scheduled" in other.output  # not the parallelism card
    mine = run("drill", "--category", "parallelism", "--new", "0", "--json", env=NOW)
    assert "Next card due: today 09:10" in mine.output  # a time today reads as today
    for extra in ((), ("--cram",), ("--mode", "mock")):
        empty = run("drill", "--category", "behavioral", "--tag", "zero", *extra, env=NOW)
        assert empty.exit_code == 0
        assert "No question matches these filters together" in empty.output and "--cram" not in empty.output


def test_summary_counts_what_is_still_due_in_the_selection(run):
    run("drill", "--category", "parallelism", "--limit", "1", input="no idea\n\n1\nn\n", env=NOW)
    later = {"PREP_NOW": "2026-03-02T09:30:00+00:00"}
    result = run(
        "drill", "--category", "behavioral", "--limit", "1", "--json", input="x\n\n3\nn\n", env=later
    )
    summary = json.loads(result.output[result.output.index("{\n") :])
    assert summary["due_left"] == 0  # the failed parallelism card is due, but outside -c behavioral
    overall = json.loads(run("next", "--json", env=later).output)
    assert overall["due"] >= 1


def test_new_per_day_budget(run, state_file):
    result = run("drill", "--new", "1", input=(GOOD + "\n\n3\nn\n") * 3, env=NOW)
    assert "cards 1" in result.output
    again = run("drill", "--new", "1", input="x\n\n3\n", env=NOW)
    assert "Nothing to drill now" in again.output
    tomorrow = run(
        "drill", "--new", "1", "--json", input="x\n\n3\nn\n", env={"PREP_NOW": "2026-03-03T09:00:00+00:00"}
    )
    summary = json.loads(tomorrow.output[tomorrow.output.index("{") :])
    assert summary["cards"] >= 1


def test_coming_back_later_shows_exactly_the_due_cards(run, state_file):
    script = GOOD + "\n\n4\nn\nnothing\n\n1\nstage 1 optimizer, stage 2 gradients, stage 3 parameters\n\n3\n"
    run("drill", "--category", "parallelism", input=script, env=NOW)
    due_dates = {qid: due for qid, (due, _state, _reps) in cards(state_file).items()}
    data = json.loads(run("next", "--category", "parallelism", "--json", env=NEXT_WEEK).output)
    expected_due = sorted(q for q, d in due_dates.items() if d <= "2026-03-09T09:00:00.000000Z")
    assert data["due"] == len(expected_due)
    assert data["next"]["id"] in expected_due
    assert data["next"]["reason"] == "due"


def test_next_on_an_empty_state(run):
    data = json.loads(run("next", "--json", env=NOW).output)
    assert data["due"] == 0 and data["new"] == 4
    assert data["next"]["state"] == "new"


def test_summary_json(run):
    result = run(
        "drill", "--category", "parallelism", "--limit", "1", "--json", input=GOOD + "\n\n3\nn\n", env=NOW
    )
    summary = json.loads(result.output[result.output.index("{\n") :])
    assert summary["cards"] == 1 and summary["passed"] == 1 and summary["pass_rate"] == 1.0
    assert summary["results"][0]["question"] == "dp-vs-mp"


def test_summary_pass_rate_is_the_graders_and_the_ratings_are_counted_apart(run):
    """An answer the grader fails with 0 and the user rates Good: no pass in pass_rate, which
    goes with the verdicts beside it; the Good is in the ratings."""
    result = run("drill", "--category", "parallelism", "--limit", "1", "--json", input="x\n\n3\nn\n", env=NOW)
    summary = json.loads(result.output[result.output.index("{\n") :])
    assert summary["results"][0]["verdict"] == "fail" and summary["results"][0]["score"] == 0
    assert (summary["passed"], summary["pass_rate"]) == (0, 0.0)
    assert summary["verdicts"]["fail"] == 1 and summary["ratings"]["good"] == 1


def test_summary_pass_rate_is_none_when_nothing_was_graded(run):
    """An empty answer reveals the key points and is rated by the user alone: nothing graded."""
    result = run("drill", "--category", "parallelism", "--limit", "1", "--json", input="\n3\nn\n", env=NOW)
    summary = json.loads(result.output[result.output.index("{\n") :])
    assert summary["cards"] == 1 and summary["ratings"]["good"] == 1
    assert (summary["passed"], summary["pass_rate"]) == (0, None)


def test_content_hash_is_stored_and_keyed_by_id(run, state_file, bank_dir):
    run("drill", "--category", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    db = sqlite3.connect(state_file)
    stored = db.execute("SELECT content_hash FROM cards WHERE question_id='dp-vs-mp'").fetchone()[0]
    from prep.bank.load import load_bank
    from prep.paths import BankLocation

    question = load_bank(BankLocation(bank_dir, "option")).questions["dp-vs-mp"]
    assert stored == content_hash(question)
    # Rewording the question keeps its history: progress is keyed by id.
    path = bank_dir / "questions" / "parallelism.yaml"
    path.write_text(
        path.read_text().replace("What is the difference between", "Explain the difference between")
    )
    result = run("drill", "--cram", "--category", "parallelism", "--limit", "1", input="\nq\n", env=NOW)
    assert "Explain the difference between" in result.output
    assert len(reviews(state_file)) == 1


def test_bad_config_is_a_clear_error(run, isolated_home):
    (isolated_home / "config.toml").write_text("[drill]\ndesired_retention = 2\n")
    result = run("drill", input="", env=NOW)
    assert result.exit_code == 1
    assert "desired_retention must be between" in result.output


def test_unknown_config_key_is_named(run, isolated_home):
    (isolated_home / "config.toml").write_text("[drill]\nnew_per_dya = 3\n")
    result = run("drill", input="", env=NOW)
    assert result.exit_code == 1
    assert "new_per_dya" in result.output


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ('learning_steps = ["999999999999d"]', "learning_steps: bad duration '999999999999d': at most 365d"),
        ('relearning_steps = ["infm"]', "relearning_steps: bad duration 'infm': must be a positive number"),
        ('learning_steps = ["nanm"]', "learning_steps: bad duration 'nanm': must be a positive number"),
        ('learning_steps = "1m"', "learning_steps must be a list of durations"),
        ('fuzz = "false"', 'fuzz must be true or false, not "false"'),
        ("new_per_day = true", "new_per_day must be a whole number >= 0, not true"),
        ("desired_retention = 0.995", "desired_retention must be between 0.5 and 0.99"),
    ],
)
def test_every_config_setting_is_checked(run, isolated_home, setting, message):
    (isolated_home / "config.toml").write_text(f"# my settings\n[drill]\n{setting}\n")
    result = run("drill", input="", env=NOW)
    assert result.exit_code == 1
    assert f"config.toml:3: {message}" in result.output  # the line the value is on
    assert "internal error" not in result.output


def test_a_misspelt_section_or_a_missing_named_config_is_an_error(run, isolated_home, tmp_path):
    (isolated_home / "config.toml").write_text("[drilll]\nfuzz = false\n")
    result = run("drill", input="", env=NOW)
    assert result.exit_code == 1
    assert "unknown section [drilll] (known: [drill], [interview], [judge])" in result.output
    (isolated_home / "config.toml").unlink()
    assert run("drill", input="q\n", env=NOW).exit_code == 0  # the default file may be absent
    result = run("--config", str(tmp_path / "nope.toml"), "drill", input="", env=NOW)
    assert result.exit_code == 1 and "config file not found" in result.output
    (isolated_home / "config.toml").write_text("new_per_day = 3\n[drill]\n")
    result = run("drill", input="", env=NOW)
    assert (
        result.exit_code == 1
        and "setting new_per_day outside a section: settings go under [drill]" in result.output
    )


def test_edit_key_opens_the_editor_and_reloads(run, state_file, bank_dir, tmp_path):
    editor = tmp_path / "fake-editor.py"
    editor.write_text(
        "import sys, pathlib\n"
        "path = pathlib.Path(sys.argv[-1])\n"
        "path.write_text(path.read_text().replace('What do the three ZeRO stages shard?',"
        " 'Which state does each ZeRO stage shard?'))\n"
    )
    import sys

    env = {**NOW, "EDITOR": f"{sys.executable} {editor}"}
    result = run("drill", "--category", "parallelism", "--cram", "--limit", "1", input="x\n\ne\nq\n", env=env)
    assert "question reloaded" in result.output
    assert (
        "Which state does each ZeRO stage shard?" in (bank_dir / "questions" / "parallelism.yaml").read_text()
    )


def test_after_an_edit_the_answer_is_graded_again_against_the_new_text(run, tmp_path):
    editor = tmp_path / "fake-editor.py"
    editor.write_text(
        "import sys, pathlib\n"
        "path = pathlib.Path(sys.argv[-1])\n"
        "path.write_text(path.read_text().replace('gradients are averaged across GPUs with all-reduce',"
        " 'zebra crossings stripe the road'))\n"
    )
    import sys

    env = {**NOW, "EDITOR": f"{sys.executable} {editor}"}
    result = run(
        "drill",
        "--category",
        "parallelism",
        "--limit",
        "1",
        "--json",
        input="zebra crossings stripe the road\n\ne\n\nn\n",
        env=env,
    )
    before, after = result.output.split("question reloaded")
    assert "zebra crossings stripe the road  ←" not in before
    assert re.search(r"✓ \d\. zebra crossings stripe the road", after)
    assert "Q (dp-vs-mp)" in after  # the card is shown again, as it now reads
    summary = json.loads(result.output[result.output.index("{\n") :])
    assert summary["results"][0]["score"] > 0


def _breaking_editor(tmp_path) -> dict:
    """An editor that makes the question's kind invalid, once: run again, it repairs the file."""
    import sys

    editor = tmp_path / "breaking-editor.py"
    editor.write_text(
        "import sys, pathlib\n"
        "path = pathlib.Path(sys.argv[-1])\n"
        "text = path.read_text()\n"
        "if 'kind: wrong' in text:\n"
        "    path.write_text(text.replace('kind: wrong', 'kind: technical', 1))\n"
        "else:\n"
        "    path.write_text(text.replace('kind: technical', 'kind: wrong', 1))\n"
    )
    return {**NOW, "EDITOR": f"{sys.executable} {editor}"}


@pytest.mark.parametrize(
    ("choice", "said", "restored"),
    [
        ("k", "kept with 1 problem, so the old text is used", False),
        ("r", "edit reverted", True),
        ("", "no changes", True),  # Enter: edit again, and the second edit undoes the first
    ],
    ids=["keep", "revert", "edit again"],
)
def test_an_edit_that_breaks_the_bank_is_edited_again_reverted_or_kept(
    run, bank_dir, tmp_path, choice, said, restored
):
    path = bank_dir / "questions" / "parallelism.yaml"
    before = path.read_bytes()
    script = f"x\n\ne\n{choice}\n1\nn\nq\n"  # e, the choice, then rate Again
    result = run(
        "drill", "--category", "parallelism", "--limit", "1", input=script, env=_breaking_editor(tmp_path)
    )
    assert result.exit_code == 0, result.output
    assert "[e]dit again, [r]evert, [k]eep anyway?" in result.output and said in result.output
    assert (path.read_bytes() == before) is restored
    assert (run("list", "--json").exit_code == 0) is restored  # a kept edit leaves the bank refused


def test_end_of_input_at_the_drills_edit_choice_reverts_and_keeps_the_answer(run, bank_dir, tmp_path):
    path = bank_dir / "questions" / "parallelism.yaml"
    before = path.read_bytes()
    result = run(
        "drill", "--category", "parallelism", "--limit", "1", input="my answer\n\ne\n",
        env=_breaking_editor(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 130
    assert "edit discarded" in result.output and path.read_bytes() == before
    history = json.loads(run("history", "dp-vs-mp", "--json").output)
    assert [h["answer"] for h in history] == ["my answer"]


def test_q_at_the_follow_up_offer_ends_the_session(run, state_file):
    script = GOOD + "\n\n3\nq\nthis answer is never read\n\n3\n"
    result = run("drill", "--category", "parallelism", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    assert "The interviewer digs deeper" in result.output and "Session done." in result.output
    assert [r[0] for r in reviews(state_file)] == ["dp-vs-mp"]  # the rating before q is kept


def test_an_accepted_follow_up_is_not_drilled_again_as_new(run, state_file):
    script = (
        GOOD + "\n\n3\n"
        "y\n"  # dp-vs-mp, then its follow-up dp-batch-size right away
        "micro batch times DP size times accumulation steps\n\n3\n"
        "stage 1 shards optimizer states, stage 2 gradients, stage 3 parameters\n\n3\n"
    )
    result = run("drill", "--category", "parallelism", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    assert [r[0] for r in reviews(state_file)] == ["dp-vs-mp", "dp-batch-size", "zero-stages"]
    assert "[3/3] new" in result.output and "cards 3" in result.output


def test_undo_with_nothing_to_undo_keeps_the_answer(run, state_file):
    result = run(
        "drill", "--category", "parallelism", "--limit", "1", input="my only answer\n\nu\n2\nn\n", env=NOW
    )
    assert result.exit_code == 0, result.output
    assert "nothing to undo in this session" in result.output
    assert result.output.count("[1/") == 1  # the card is not asked again
    assert [(r[0], r[1], r[4]) for r in reviews(state_file)] == [("dp-vs-mp", 2, "my only answer")]


def test_a_failing_editor_does_not_end_the_drill(run, state_file):
    env = {**NOW, "EDITOR": "false"}
    result = run("drill", "--category", "parallelism", "--limit", "1", input="x\n\ne\n2\nn\n", env=env)
    assert result.exit_code == 0, result.output
    assert "the question is unchanged" in result.output
    assert [(r[0], r[1]) for r in reviews(state_file)] == [("dp-vs-mp", 2)]


def test_renaming_the_current_question_in_the_editor(run, state_file, tmp_path):
    import sys

    editor = tmp_path / "rename.py"
    editor.write_text(
        "import sys, pathlib\npath = pathlib.Path(sys.argv[-1])\n"
        "bank = path.parent.parent\n"
        "for f in bank.rglob('*.yaml'):\n"
        "    f.write_text(f.read_text().replace('dp-vs-mp', 'data-vs-model'))\n"
    )
    env = {**NOW, "EDITOR": f"{sys.executable} {editor}"}
    script = "x\n\ne\nstage 1 optimizer states, stage 2 gradients, stage 3 parameters\n\n3\n"
    result = run("drill", "--category", "parallelism", "--limit", "2", input=script, env=env)
    assert result.exit_code == 0, result.output
    assert "dp-vs-mp is no longer in the bank (renamed or removed): not rated" in result.output
    assert "Session done." in result.output
    assert "[1/2] new" in result.output and "[1/1] new" in result.output  # the count follows what is left
    assert [r[0] for r in reviews(state_file)] == ["dp-batch-size"]  # the next card, rated as usual


def test_unknown_tag_is_an_error(run):
    result = run("drill", "--tag", "no-such-tag")
    assert result.exit_code == 1
    assert "no question is tagged 'no-such-tag'" in result.output


def test_drill_json_prints_only_json_on_stdout(bank_dir, state_file):
    from typer.testing import CliRunner

    from prep.cli.app import app

    result = CliRunner().invoke(
        app,
        ["--bank", str(bank_dir), "--state", str(state_file), "drill", "--limit", "1", "--json"],
        input=GOOD + "\n\n3\nn\n",
        env=NOW,
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout)["cards"] == 1
    assert "Session done." in result.stderr


def test_summary_counts_only_questions_still_in_the_bank(run, state_file):
    run("drill", "--category", "parallelism", input="a\n\n1\nn\nb\n\n1\nc\n\n1\nq\n", env=NOW)
    assert run("rm", "zero-stages", "--yes").exit_code == 0
    later = {"PREP_NOW": "2026-03-02T10:00:00+00:00"}
    data = json.loads(run("next", "--json", env=later).output)
    result = run("drill", "--category", "parallelism", "--json", input="q\n", env=later)
    summary = json.loads(result.output[result.output.index("{") :])
    assert summary["due_left"] == data["due"] == 2


def test_describe_interval_never_says_now_for_a_future_review():
    from datetime import timedelta

    from prep.review.drill import describe_interval

    assert describe_interval(timedelta(seconds=59)) == "in under a minute"
    assert describe_interval(timedelta(0)) == "now"
    assert describe_interval(timedelta(minutes=10)) == "in 10 minutes"


def test_a_config_path_that_is_a_directory_says_so(run, tmp_path):
    result = run("--config", str(tmp_path), "drill", input="", env=NOW)
    assert result.exit_code == 1 and "is a directory, not a config file" in result.output


@pytest.mark.parametrize(
    "value, message",
    [
        ("tomorrow", "is not an ISO date-time"),
        ("9999-12-31T23:59:59", "is outside the years 1970-2999"),
        ("0001-01-01T00:00:00", "is outside the years 1970-2999"),
    ],
)
def test_an_unusable_pinned_clock_is_one_line_error(run, value, message):
    for command in (("stats",), ("drill", "--limit", "1")):
        result = run(*command, input="x\n\n3\nn\n", env={"PREP_NOW": value})
        assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_output_into_a_file_or_pipe_has_no_padding_and_unwrapped_prompts(run):
    result = run(
        "drill", "--category", "parallelism", "--limit", "1", input="data parallel copies\n\nq\n", env=NOW
    )
    lines = result.output.splitlines()
    assert lines and not [line for line in lines if line != line.rstrip(" ")]
    assert any(line.startswith("Q (dp-vs-mp): ") and line.endswith("?") for line in lines)  # one line
    listed = run("list").output.splitlines()
    assert len(listed) > 3 and not [line for line in listed if line != line.rstrip(" ")]


def test_mock_report_keeps_whole_ids_in_a_narrow_terminal():
    from rich.console import Console

    from prep.cli.render import summary_table
    from prep.review.session import Result, Summary

    qid = "intro-30-second-pitch-for-ml-systems-role"
    out = Console(width=50, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    out.print(summary_table(Summary(results=[Result(qid, None, None, 3.0, "", asked=True)]), detailed=True))
    text = out.export_text()
    assert "…" not in text and qid in "".join(
        line.split("   ")[1].strip() if "   " in line else "" for line in text.splitlines()[3:6]
    )


def test_a_self_graded_card_has_no_verdict_in_the_summary(run):
    result = run("drill", "--category", "parallelism", "--limit", "1", "--json", input="\n3\nn\n", env=NOW)
    summary = json.loads(result.output[result.output.index("{\n") :])
    assert summary["ratings"]["good"] == 1 and summary["verdicts"] == {
        "pass": 0,
        "partial": 0,
        "fail": 0,
        "unsure": 0,
    }


def test_summary_counts_each_rating_and_says_next_due_now_when_cards_are_waiting(run):
    result = run(
        "drill",
        "--category",
        "parallelism",
        "--limit",
        "2",
        input=GOOD + "\n\n3\nn\nno idea\n\n1\nq\n",
        env=NOW,
    )
    line = next(line for line in result.output.splitlines() if line.startswith("cards "))
    assert line.startswith("cards 2 · again 1 · hard 0 · good 1 · easy 0 · time")
    later = {"PREP_NOW": "2026-03-02T09:30:00+00:00"}  # the Again card's step is over: it is due
    result = run("drill", "--category", "parallelism", "--limit", "1", "--new", "0", input="q\n", env=later)
    line = next(line for line in result.output.splitlines() if line.startswith("cards "))
    assert re.search(r"still due [12] · next due now$", line), line
    mock = run("drill", "--mode", "mock", "--count", "2", input=GOOD + "\n\n" + "\n", env=NOW)
    line = next(line for line in mock.output.splitlines() if line.startswith("cards "))
    assert line.startswith("cards 2 · pass ") and "fail" in line


def test_an_unknown_mode_is_named_in_prep_words(run):
    result = run("drill", "--mode", "bogus")
    assert result.exit_code == 2  # a usage error
    assert (
        "'bogus' is not a mode; choose type, flip or mock" in result.output
        and "Value error" not in result.output
    )


def test_an_answer_typed_then_skipped_or_quit_is_kept_as_practice(run, state_file):
    result = run(
        "drill", "--category", "parallelism", input="my skipped answer\n\ns\nmy quit answer\n\nq\n", env=NOW
    )
    assert result.exit_code == 0
    assert reviews(state_file) == []  # nothing was rated
    kept = [
        (h["answer"], h["mode"], h["scheduled"])
        for q in ("dp-vs-mp", "dp-batch-size")
        for h in json.loads(run("history", q, "--json").output)
    ]
    assert sorted(kept) == [("my quit answer", "drill", False), ("my skipped answer", "drill", False)]
    assert result.output.count("not rated: your answer is kept as practice") == 2
    assert "— (not rated)" in run("history", "dp-vs-mp").output


def test_record_without_a_mock_interview_is_refused(run):
    result = run("drill", "--record")
    assert result.exit_code == 1 and "--record applies to a mock interview: add --mode mock" in result.stderr


def test_the_mock_report_and_the_grade_mark_a_point_the_words_cannot_tell_alike(run):
    # zero-stages has one phrasing per key point: a point not found may be said in other words.
    answer = "Optimizer memory goes first, then what backward produces."
    graded = run("grade", "zero-stages", "--answer", answer).output
    assert "? 2. stage 2 also shards the gradients  (not recognised" in graded
    mock = run(
        "drill", "--mode", "mock", "-c", "parallelism", "--count", "3", input=(answer + "\n\n") * 3, env=NOW
    ).output
    report = mock.split("Mock interview report")[1]
    assert "? not recognised: stage 2 also shards the gradients" in report
    assert "✗ missed: stage 2" not in report
