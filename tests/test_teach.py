"""Teaching the grader the user's words: `prep teach`, `t` in a drill, the wording of points the
grader could not recognise, `prep add` phrasings, the validate warning and the stats it feeds."""

from __future__ import annotations

import difflib
import json
import re
import sqlite3

import pytest

from prep.bank.load import load_bank
from prep.config import SchedulerConfig
from prep.grading.grade import grade
from prep.paths import BankLocation
from prep.rating import Rating
from prep.review.drill import Drill
from prep.review.queue import QueueItem
from prep.review.scheduler import Scheduler
from prep.review.session import Session
from prep.state.store import Store

from .support import GOOD, MOMENT, NOW, ScriptedUI, pause_after_a_key, rate, spawn_prep, terminal_env, write

# Says all three ZeRO stages, in words none of the key points of zero-stages use for stage 1.
ZERO = (
    "ZeRO-1 partitions the Adam moments across data-parallel ranks. ZeRO-2 additionally "
    "partitions the gradients. ZeRO-3 partitions the weights as well."
)
SCALARS = """\
category: scalars
title: Key points written as plain text
questions:
  - id: dropout  # a comment on the id
    prompt: What does dropout do during training?
    key_points:
      - randomly zeroes activations   # the first point
      - acts as a regularizer against overfitting
      - is disabled at inference time
    pitfalls:
      - dropout is applied at inference too
"""


def _file(bank_dir):
    return bank_dir / "questions" / "parallelism.yaml"


def _added_lines(before: str, after: str) -> list[str]:
    """The lines the change inserted; fails if it removed or changed any line."""
    diff = list(difflib.ndiff(before.splitlines(keepends=True), after.splitlines(keepends=True)))
    assert not [d for d in diff if d.startswith("- ")], "".join(diff)
    return [d[2:] for d in diff if d.startswith("+ ")]


def _key_point(bank_dir, question_id, number):
    return load_bank(BankLocation(bank_dir, "option")).questions[question_id].key_points[number - 1]


def test_teach_adds_the_span_that_says_the_point_and_every_other_byte_stays(run, bank_dir):
    before = _file(bank_dir).read_text()
    result = run("teach", "zero-stages", "--point", "1", "--answer", ZERO, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["question"] == "zero-stages"
    assert report["taught"] == [
        {"point": 1, "alias": "ZeRO-1 partitions the Adam moments across data-parallel ranks"}
    ]
    assert report["score_before"] < report["score_after"] == 100
    after = _file(bank_dir).read_text()
    assert _added_lines(before, after) == [
        "        taught:\n",
        "          - ZeRO-1 partitions the Adam moments across data-parallel ranks\n",
    ]
    # Inserted right under the key point it teaches.
    assert after.index("taught:") > after.index("stage 1 shards the optimizer states")
    assert after.index("taught:") < after.index("stage 2 also shards the gradients")
    point = _key_point(bank_dir, "zero-stages", 1)
    assert point.taught == ("ZeRO-1 partitions the Adam moments across data-parallel ranks",)
    assert run("grade", "zero-stages", "--answer", ZERO, "--json").exit_code == 0


def test_a_second_teaching_is_one_more_line_of_the_same_list(run, bank_dir):
    run("teach", "zero-stages", "--point", "3", "--answer", "ZeRO-3 partitions the weights as well.")
    before = _file(bank_dir).read_text()
    result = run(
        "teach", "zero-stages", "--point", "3", "--answer", "Stage three splits the parameters themselves."
    )
    assert result.exit_code == 0, result.output
    assert _added_lines(before, _file(bank_dir).read_text()) == [
        "          - Stage three splits the parameters themselves\n"
    ]


def test_teach_makes_a_plain_key_point_a_mapping_keeping_its_comment(run, bank_dir):
    path = write(bank_dir / "questions" / "scalars.yaml", SCALARS)
    answer = "It turns off a random subset of neurons at every training step."
    result = run("teach", "dropout", "--point", "1", "--answer", answer)
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert "  - id: dropout  # a comment on the id\n" in text
    assert (
        "      - text: randomly zeroes activations   # the first point\n"
        "        taught:\n"
        "          - It turns off a random subset of neurons at every training step\n"
        "      - acts as a regularizer against overfitting\n"
    ) in text
    assert run("validate").exit_code == 0


def test_forget_takes_back_what_a_key_point_was_taught_and_nothing_else(run, bank_dir):
    before = _file(bank_dir).read_text()
    run("teach", "zero-stages", "--point", "1", "--answer", ZERO)
    run("teach", "zero-stages", "--point", "1", "--answer", "Stage one shards the optimizer moments.")
    result = run("teach", "zero-stages", "--forget", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "question": "zero-stages",
        "forgotten": {
            "1": [
                "ZeRO-1 partitions the Adam moments across data-parallel ranks",
                "Stage one shards the optimizer moments",
            ]
        },
    }
    assert _file(bank_dir).read_text() == before  # the taught list was all that changed
    again = run("teach", "zero-stages", "--forget", "1")
    assert again.exit_code == 0 and "key point 1 had nothing taught" in again.output
    beyond = run("teach", "zero-stages", "--forget", "9")
    assert beyond.exit_code == 2 and "--forget 9: zero-stages has key points 1 to 3" in beyond.stderr
    assert run("teach", "zero-stages").exit_code == 2  # neither --point nor --forget


def test_forget_in_a_flow_mapping_leaves_an_empty_list(run, bank_dir):
    path = write(
        bank_dir / "questions" / "flow.yaml",
        "category: flow\ntitle: Flow\nquestions:\n  - id: flowy\n    prompt: What is it?\n"
        "    key_points:\n      - {text: it is a thing, taught: [my own words for it]}\n",
    )
    result = run("teach", "flowy", "--forget", "1")
    assert result.exit_code == 0, result.output
    assert "- {text: it is a thing, taught: []}" in path.read_text()
    assert run("validate").exit_code == 0


def test_the_answer_can_come_from_standard_input(run, bank_dir):
    result = run("teach", "zero-stages", "--point", "1", "--json", input=ZERO)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["taught"][0]["point"] == 1


def test_a_phrasing_already_there_is_not_added_twice(run, bank_dir):
    run("teach", "zero-stages", "--point", "1", "--answer", ZERO)
    before = _file(bank_dir).read_bytes()
    result = run("teach", "zero-stages", "--point", "1", "--answer", ZERO.upper(), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["taught"] == []
    assert _file(bank_dir).read_bytes() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["zero-stages", "--point", "1", "--answer", "   "], "the answer is empty"),
        (["zero-stages", "--point", "1", "--answer", "yes."], "fewer than 3 content words"),
        (["no-such-id", "--point", "1", "--answer", ZERO], "no question with id 'no-such-id'"),
        (
            ["dp-vs-mp", "--point", "4", "--answer", "Data parallelism splits the model across GPUs."],
            "also says a known wrong claim",
        ),
    ],
)
def test_refusals_are_one_line_exit_1_and_write_nothing(run, bank_dir, state_file, args, message):
    before = {f: f.read_bytes() for f in bank_dir.rglob("*.yaml")}
    result = run("teach", *args)
    assert result.exit_code == 1
    assert message in result.stderr and len(result.stderr.splitlines()) <= 2  # the error, and a hint
    assert "Traceback" not in result.output
    assert {f: f.read_bytes() for f in bank_dir.rglob("*.yaml")} == before
    if state_file.exists():
        assert sqlite3.connect(state_file).execute("SELECT COUNT(*) FROM teachings").fetchone() == (0,)


def test_a_key_point_out_of_range_is_a_command_line_error_exit_2(run, bank_dir):
    """As every other option value out of range: exit 2, and nothing written."""
    before = _file(bank_dir).read_bytes()
    result = run("teach", "zero-stages", "--point", "9", "--answer", ZERO)
    assert result.exit_code == 2
    assert "--point 9: zero-stages has key points 1 to 3" in result.stderr
    assert _file(bank_dir).read_bytes() == before


def test_the_bundled_bank_is_refused_with_the_way_out(bank_dir, state_file, monkeypatch):
    from typer.testing import CliRunner

    from prep.cli.app import app

    monkeypatch.setattr(BankLocation, "installed", property(lambda self: True))
    result = CliRunner().invoke(
        app,
        [
            "--bank",
            str(bank_dir),
            "--state",
            str(state_file),
            "teach",
            "zero-stages",
            "--point",
            "1",
            "-a",
            ZERO,
        ],
    )
    assert result.exit_code == 1
    assert "bundled bank" in result.stderr and "prep init" in result.stderr


def test_show_marks_the_taught_phrasings(run):
    run("teach", "zero-stages", "--point", "1", "--answer", ZERO)
    shown = run("show", "zero-stages").output
    assert "stage 1 shards the optimizer states  (+1 taught phrasing)" in shown
    with_aliases = run("show", "zero-stages", "--aliases").output
    assert "taught: ZeRO-1 partitions the Adam moments across data-parallel ranks" in with_aliases


def test_points_the_grader_could_not_recognise_read_not_recognised_and_do_not_make_it_again(run):
    # A correct answer in other words: no key point of zero-stages has more than its text.
    answer = "Optimizer memory goes first, then what backward produces, then everything the forward reads."
    result = run("grade", "zero-stages", "--answer", answer)
    assert "not recognised: only its text to go by" in result.output and "missed" not in result.output
    assert "`prep teach zero-stages --point 3`" in result.output  # the point's own number
    assert "(passes at 60 here)" in result.output  # one phrasing per point: a lower pass mark, shown
    assert "no suggested rating: the words cannot tell" in result.output
    graded = json.loads(run("grade", "zero-stages", "--answer", answer, "--json").output)
    # Unrecognised is not wrong: the words cannot decide, so no rating is suggested.
    assert graded["verdict"] == "unsure" and graded["rating"] is None and graded["unknown"] == [1, 2, 3]
    # A point with aliases that was not found is still missed.
    missed = run("grade", "dp-vs-mp", "--answer", "Model parallelism splits the model across GPUs.").output
    assert "missed" in missed


# --- `prep add` and `prep validate` --------------------------------------------------------------


def test_add_takes_aliases_by_key_point_number(run, bank_dir):
    result = run(
        "add", "-c", "parallelism", "-p", "Why shard optimizer state?",
        "-K", "optimizer state dominates memory", "-K", "sharding removes redundancy",
        "--alias", "1: Adam keeps two moments per parameter", "--alias", "2:no rank keeps a full copy",
        "--alias", "1: the optimizer holds most bytes", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    question = load_bank(BankLocation(bank_dir, "option")).questions[json.loads(result.output)["id"]]
    assert question.key_points[0].aliases == (
        "Adam keeps two moments per parameter",
        "the optimizer holds most bytes",
    )
    assert question.key_points[1].aliases == ("no rank keeps a full copy",)


@pytest.mark.parametrize(
    ("alias", "message"),
    [("3: x", "the question has key points 1 to 1"), ("x", "write 'N: text'"), ("1:  ", "write 'N: text'")],
)
def test_add_refuses_a_bad_alias_and_writes_nothing(run, bank_dir, alias, message):
    before = _file(bank_dir).read_bytes()
    result = run("add", "-c", "parallelism", "-p", "Why shard?", "-K", "memory", "--alias", alias)
    assert result.exit_code == 1 and message in result.stderr
    assert _file(bank_dir).read_bytes() == before


def test_validate_warns_once_per_question_about_single_phrasing_key_points(run, bank_dir):
    result = run("validate")
    assert result.exit_code == 0
    warnings = [line for line in result.output.splitlines() if "one phrasing" in line]
    assert len(warnings) == 1
    assert warnings[0].endswith(
        "parallelism.yaml:37:1: zero-stages: key points 1, 2 and 3 are graded on one phrasing; "
        "add aliases or teach it from a drill (`t`)"
    )
    data = json.loads(run("validate", "--json").output)
    assert data["ok"] is True
    assert [w["message"] for w in data["warnings"] if "one phrasing" in w["message"]] == [
        "zero-stages: key points 1, 2 and 3 are graded on one phrasing; "
        "add aliases or teach it from a drill (`t`)"
    ]
    run("teach", "zero-stages", "--point", "1", "--point", "2", "--point", "3", "--answer", ZERO)
    assert "one phrasing" not in run("validate").output


# --- export and import -------------------------------------------------------------------------


def test_teachings_travel_with_a_state_export(run, tmp_path, bank_dir):
    run("teach", "zero-stages", "--point", "1", "--answer", ZERO)
    exported = run("state", "export").output
    teaching = [json.loads(line) for line in exported.splitlines() if '"type": "teaching"' in line]
    assert [(t["question_id"], t["point"], t["via"]) for t in teaching] == [("zero-stages", 1, "command")]
    dump = tmp_path / "dump.jsonl"
    dump.write_text(exported)
    other = tmp_path / "other.sqlite3"
    from typer.testing import CliRunner

    from prep.cli.app import app

    base = ["--bank", str(bank_dir), "--state", str(other), "state"]
    first = json.loads(CliRunner().invoke(app, [*base, "import", str(dump), "--json"]).output)
    assert (first["teachings_added"], first["teachings_present"]) == (1, 0)
    again = json.loads(CliRunner().invoke(app, [*base, "import", str(dump), "--json"]).output)
    assert (again["teachings_added"], again["teachings_present"]) == (0, 1)
    assert CliRunner().invoke(app, [*base, "export"]).output == exported


def test_a_bank_without_the_teachings_table_is_migrated(tmp_path):
    from prep.state import reports
    from prep.state.store import Store

    with Store(tmp_path / "s.sqlite3", bank_key="b") as store:
        assert reports.review_totals(store, MOMENT) == {} and reports.taught_questions(store) == set()


# --- `t` in a drill ------------------------------------------------------------------------------

DROPOUT_ANSWER = (
    "It turns off a random subset of neurons at every training step. This reduces overfitting. "
    "At test time all units are kept."
)
NEXT_WEEK = {"PREP_NOW": "2026-03-09T09:00:00+00:00"}


@pytest.fixture
def scalars(bank_dir):
    return write(bank_dir / "questions" / "scalars.yaml", SCALARS)


def _config(isolated_home, extra: str = "") -> None:
    (isolated_home / "config.toml").write_text("[drill]\nfuzz = false\n" + extra)


def _review_rows(state_file):
    db = sqlite3.connect(state_file)
    return db.execute(
        "SELECT question_id, rating, suggested, verdict, ticked FROM reviews ORDER BY id"
    ).fetchall()


def test_t_in_a_scripted_drill_rescores_from_the_ticks_and_teaches_the_bank(
    run, scalars, state_file, isolated_home
):
    _config(isolated_home, "teach_writes_bank = true\n")
    before = scalars.read_text()
    # Two points ticked, three clauses: none clearly says either, so the drill asks which does.
    result = run("drill", "-c", "scalars", input=DROPOUT_ANSWER + "\n\nt 1 3\n1\n3\n\n", env=NOW)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "1. [ ] randomly zeroes activations" in out  # listed, numbered, with the grader's ticks
    assert "Which part of your answer says key point 1 (randomly zeroes activations)?" in out
    assert "  3. At test time all units are kept" in out
    assert "your ticks: 2 of 3 key points, partial; suggested hard" in out
    assert "taught key point 1: “It turns off a random subset of neurons at every training step”" in out
    assert "taught key point 3: “At test time all units are kept”" in out
    # The log keeps the grader's own verdict and suggestion, the user's ticks and the final rating.
    # (the grader could not tell from one phrasing per point: no suggestion of its own)
    assert _review_rows(state_file) == [("dropout", 2, None, "unsure", "[1, 3]")]
    [logged] = json.loads(run("history", "dropout", "--json").output)
    assert (logged["rating"], logged["suggested"], logged["verdict"], logged["ticked"]) == (
        "hard",
        None,
        "unsure",
        [1, 3],
    )
    assert "(you ticked 1, 3)" in run("history", "dropout").output
    assert scalars.read_text() == before.replace(
        "      - randomly zeroes activations   # the first point\n",
        "      - text: randomly zeroes activations   # the first point\n"
        "        taught:\n"
        "          - It turns off a random subset of neurons at every training step\n",
    ).replace(
        "      - is disabled at inference time\n",
        "      - text: is disabled at inference time\n"
        "        taught:\n"
        "          - At test time all units are kept\n",
    )
    taught = sqlite3.connect(state_file).execute("SELECT question_id, point, via FROM teachings").fetchall()
    assert taught == [("dropout", 1, "drill"), ("dropout", 3, "drill")]
    regraded = json.loads(run("grade", "dropout", "--answer", DROPOUT_ANSWER, "--json").output)
    assert len(regraded["matched"]) == 2


def test_a_scripted_drill_does_not_write_the_bank_unless_the_config_says_so(
    run, scalars, state_file, isolated_home
):
    before = scalars.read_bytes()
    result = run("drill", "-c", "scalars", input=DROPOUT_ANSWER + "\n\nt 1\n3\n", env=NOW)
    assert result.exit_code == 0, result.output
    config = isolated_home / "config.toml"
    assert f"not taught: set teach_writes_bank = true under [drill] in {config}" in result.output
    assert scalars.read_bytes() == before
    assert _review_rows(state_file) == [("dropout", 3, None, "unsure", "[1]")]
    _config(isolated_home, "teach_writes_bank = false\n")
    result = run("drill", "-c", "scalars", "--cram", input=DROPOUT_ANSWER + "\n\nt 1\n3\n", env=NOW)
    assert f"not taught (teach_writes_bank = false in {config})" in result.output
    assert scalars.read_bytes() == before


def test_t_on_the_bundled_bank_rescores_and_says_why_nothing_was_taught(
    run, scalars, monkeypatch, isolated_home
):
    _config(isolated_home, "teach_writes_bank = true\n")
    monkeypatch.setattr(BankLocation, "installed", property(lambda self: True))
    before = scalars.read_bytes()
    result = run("drill", "-c", "scalars", input=DROPOUT_ANSWER + "\n\nt 1 2 3\n\n", env=NOW)
    assert result.exit_code == 0, result.output
    assert "your ticks: 3 of 3 key points, pass; suggested good" in result.output
    assert "not taught: the bundled bank is part of the installed package" in result.output
    assert scalars.read_bytes() == before


def test_a_number_out_of_range_in_a_scripted_t_is_named(run, scalars):
    result = run("drill", "-c", "scalars", input=DROPOUT_ANSWER + "\n\nt 9 x\n3\n", env=NOW)
    assert "no key point '9': the points are numbered 1 to 3" in result.output
    assert "no key point 'x'" in result.output


def test_stats_show_how_often_the_grader_was_overridden_before_and_after_teaching(
    run, scalars, state_file, isolated_home
):
    _config(isolated_home, "teach_writes_bank = true\n")
    run(
        "drill", "-c", "scalars", input=DROPOUT_ANSWER + "\n\nt 1 2 3\n\n", env=NOW
    )  # unsure: the grader suggests nothing, so there is nothing to override
    week = run(
        "drill", "-c", "scalars", input=DROPOUT_ANSWER + "\n\n\n", env=NEXT_WEEK
    )  # the taught grader now suggests Good, and the user agrees
    assert week.exit_code == 0, week.output
    rows = _review_rows(state_file)
    assert [(r[1], r[2], r[3]) for r in rows] == [(3, None, "unsure"), (3, 3, "pass")]
    data = json.loads(run("stats", "--json", env=NEXT_WEEK).output)
    scalars_stats = next(c for c in data["categories"] if c["category"] == "scalars")["overrides"]
    assert scalars_stats == {
        "rate": 0.0,
        "graded": 1,  # only the review the grader suggested a rating for
        "taught_questions": 1,
        "before_teaching": None,
        "after_teaching": 0.0,
        "graded_after_teaching": 1,
    }
    assert data["grader_agreement"] == 1.0 and data["graded_reviews"] == 1
    shown = run("stats", env=NEXT_WEEK).output
    assert "overrode" in shown and "accepted the grader's rating 100% of 1 time" in shown


def test_the_drill_asks_once_whether_to_write_and_keeps_the_answer(bank_dir, scalars, state_file):
    from prep.config import SchedulerConfig
    from prep.grading.grade import grade
    from prep.review.drill import Drill
    from prep.review.queue import QueueItem
    from prep.review.scheduler import Scheduler
    from prep.review.session import Session
    from prep.review.teaching import DrillTeacher
    from prep.review.ui import Choice
    from prep.state.store import Store

    from .support import MOMENT, ScriptedUI

    location = BankLocation(bank_dir, "option")
    remembered: list[bool] = []
    with Store(state_file, bank_key=location.key) as store:
        session = Session(
            load_bank(location), store, Scheduler(SchedulerConfig(fuzz=False)), lambda: MOMENT, grader=grade
        )
        teacher = DrillTeacher(location, None, remembered.append, store, lambda: MOMENT)
        ui = ScriptedUI(
            [DROPOUT_ANSWER, "Optimizer memory goes first, then what backward produces, then the weights."],
            [Choice("teach"), Choice("rate", Rating.GOOD), Choice("teach"), Choice("rate", Rating.GOOD)],
            ticks=[{1}, {1}],
            confirms=[True],
            picks=[1, 1],  # no clause clearly says point 1 of either: the user shows the first
        )
        Drill(session, [QueueItem("dropout", "new"), QueueItem("zero-stages", "new")], ui, teacher).run()
    assert remembered == [True]
    assert sum(note.startswith("asked:") for note in ui.notes) == 1
    assert ui.ticks_shown == [set(), set()]
    # The grader could not tell (unsure: no suggestion, not Again); the user ticks 1 of 3: a fail.
    assert ui.suggested == [None, Rating.AGAIN, None, Rating.AGAIN]
    bank = load_bank(location)
    assert bank.questions["dropout"].key_points[0].taught
    assert bank.questions["zero-stages"].key_points[0].taught == ("Optimizer memory goes first",)


def test_remembering_a_choice_keeps_every_other_line_of_the_config(tmp_path):
    from prep import config

    path = tmp_path / "config.toml"
    path.write_text("# my settings\n[drill]\nnew_per_day = 5  # five is plenty\n\n[other]\n")
    config.remember(path, "teach_writes_bank", True)
    assert path.read_text() == (
        "# my settings\n[drill]\nteach_writes_bank = true\nnew_per_day = 5  # five is plenty\n\n[other]\n"
    )
    config.remember(path, "teach_writes_bank", False)
    assert "teach_writes_bank = false\n" in path.read_text() and path.read_text().count("teach_writes") == 1
    fresh = tmp_path / "new" / "config.toml"
    config.remember(fresh, "teach_writes_bank", True)
    assert config.load(fresh).teach_writes_bank is True


def test_two_clause_numbers_teach_the_clauses_together_and_say_so_at_once(
    run, scalars, state_file, isolated_home
):
    _config(isolated_home, "teach_writes_bank = true\n")
    answer = (
        "A random subset of neurons is switched off at every training step, so that no unit relies "
        "on another; at test time all units are kept."
    )
    # Point 1 is said by the first two clauses: "1 2" teaches the words from the first to the
    # last, and what came of it is said before the next point is asked about.
    result = run("drill", "-c", "scalars", input=answer + "\n\nt 1 3\n1 2\n3\n\n", env=NOW)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "  2. that no unit relies on another" in out
    together = (
        "taught key point 1: “A random subset of neurons is switched off at every training step, so "
        "that no unit relies on another”"
    )
    assert together in out
    assert out.index(together) < out.index("Which part of your answer says key point 3")
    assert "taught key point 3: “at test time all units are kept”" in out
    # The same from the command line: --clause repeated.
    assert run("teach", "dropout", "--forget", "1").exit_code == 0
    taught = run("teach", "dropout", "--point", "1", "--clause", "1", "--clause", "2", "-a", answer)
    assert taught.exit_code == 0, taught.output
    assert "so that no unit relies on another" in scalars.read_text()
    out_of_range = run("teach", "dropout", "--point", "1", "--clause", "9", "-a", answer)
    assert out_of_range.exit_code == 2 and "--clause 9: the answer has clauses 1 to 3" in out_of_range.stderr


def test_clause_numbers_read_lists_and_ranges_and_leave_words_alone():
    from prep.cli.drill_ui import clause_numbers

    assert clause_numbers("4") == [4]
    assert clause_numbers("4 5") == [4, 5]
    assert clause_numbers(" 4,5 ") == [4, 5]
    assert clause_numbers("2-4") == [2, 3, 4]
    assert clause_numbers("4 and 5") is None
    assert clause_numbers("the cache costs memory") is None


def test_t_in_a_real_terminal_is_t_the_numbers_and_enter(bank_dir, scalars, state_file, isolated_home):
    import pexpect

    env = terminal_env(isolated_home)
    child = spawn_prep(bank_dir, state_file, "drill", "-c", "scalars", env=env)
    try:
        child.expect("Your answer")
        child.sendline(DROPOUT_ANSWER)
        child.sendline("")
        child.expect("t tick points")
        # The whole step is t, the numbers of the points covered, and Enter: were any other key
        # needed, the rating below would never be reached.
        child.send("t")
        child.expect("a number ticks or unticks it")
        for key in ("1", "3", "\r"):
            child.send(key)
        child.expect("asked once")  # the first time only: whether to write to the bank
        child.send("y")
        # No clause clearly says either point: the drill lists the clauses and asks for each.
        child.expect(re.escape("Which part of your answer says key point 1"))
        child.sendline("1")
        child.expect(re.escape("Which part of your answer says key point 3"))
        child.sendline("3")
        child.expect("taught key point 3")
        child.expect(r"Enter = hard")
        pause_after_a_key()
        child.send("\r")
        child.expect("Session done.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert "teach_writes_bank = true" in (isolated_home / "config.toml").read_text()
    assert "taught:" in scalars.read_text()
    # The grader could not tell (unsure, no suggestion of its own); the user's ticks decided.
    assert _review_rows(state_file) == [("dropout", 2, None, "unsure", "[1, 3]")]


# --- how taught phrasings count in grading --------------------------------------------------------


def _dropout(taught: dict[int, tuple[str, ...]]):
    from prep.bank.schema import Claim, Question

    texts = [
        "randomly zeroes activations",
        "acts as a regularizer against overfitting",
        "is disabled at inference time",
    ]
    return Question(
        id="dropout",
        prompt="What does dropout do during training?",
        key_points=tuple(Claim(text=t, taught=taught.get(n, ())) for n, t in enumerate(texts, 1)),
        pitfalls=(Claim(text="dropout is applied at inference too"),),
    )


def test_a_taught_phrasing_finds_the_users_words_without_raising_the_bar():
    from prep.grading.grade import grade

    plain = _dropout({})
    taught = _dropout({1: ("turns off a random subset of neurons each step",)})
    answer = "It turns off a random subset of neurons each step."
    before, after = grade(plain, None, answer), grade(taught, None, answer)
    assert [r.text for r in after.matched] == ["randomly zeroes activations"] and not before.matched
    # The thresholds follow the phrasings written for other people's wordings, not one answer's.
    assert (after.pass_at, after.partial_at) == (before.pass_at, before.partial_at)


def test_a_taught_phrasing_never_outdoes_a_pitfall():
    from prep.grading.grade import grade

    # Written by hand (prep teach refuses such a span): the taught words are the pitfall's.
    taught = _dropout({3: ("dropout is applied at inference",)})
    graded = grade(taught, None, "Dropout is applied at inference too.")
    assert [p.text for p in graded.pitfalls] == ["dropout is applied at inference too"]
    assert graded.verdict == "fail"


KV = """\
category: inference
title: Inference
questions:
  - id: kv-cache
    prompt: Why does a KV cache speed up autoregressive decoding, and what does it cost?
    key_points:
      - keys and values of past tokens are stored so they are not recomputed at each step
      - text: the cache memory grows linearly with sequence length and batch size
        aliases: [KV memory scales with context length times batch]
      - decode becomes memory-bandwidth bound rather than compute bound
  - id: spec
    prompt: What is speculative decoding?
    key_points:
      - a small draft model proposes several tokens
      - the target model verifies them in one forward pass
      - the output distribution is unchanged
  - id: zero-one
    prompt: What is ZeRO stage 1?
    key_points:
      - >-
        optimizer states are sharded
        across data-parallel ranks
      - a second point
"""


KV_ANSWER = (
    "The cache holds the attention K and V for every earlier position, so each new token only computes "
    "its own projections instead of redoing the whole prefix. The price is GPU memory that increases with "
    "how long the context is and how many requests share the batch. Each step then mostly streams the "
    "cache from HBM, so generation ends up limited by how fast we read memory rather than by FLOPs."
)


def _taught(run, *args):
    result = run("teach", *args, "--json")
    assert result.exit_code == 0, result.output
    return {t["point"]: t["alias"] for t in json.loads(result.output)["taught"]}


def test_where_no_clause_clearly_says_a_point_teach_lists_the_clauses_and_writes_nothing(run, bank_dir):
    path = write(bank_dir / "questions" / "inference.yaml", KV)
    before = path.read_bytes()
    refused = run("teach", "kv-cache", "--point", "1", "--point", "3", "--answer", KV_ANSWER)
    assert refused.exit_code == 1 and path.read_bytes() == before
    assert "key point 1: no clause of the answer clearly says it; nothing was taught" in refused.stderr
    assert "  1. The cache holds the attention K and V for every earlier position" in refused.stderr
    assert "  5. generation ends up limited by how fast we read memory rather than by FLOPs" in refused.stderr
    # The user shows which clause says it, or gives the words.
    taught = _taught(run, "kv-cache", "--point", "1", "--clause", "1", "--answer", KV_ANSWER)
    assert taught == {1: "The cache holds the attention K and V for every earlier position"}
    taught = _taught(
        run, "kv-cache", "--point", "3", "--words", "decode is limited by reading memory, not FLOPs"
    )
    assert taught == {3: "decode is limited by reading memory, not FLOPs"}


def test_clause_and_words_teach_one_point_and_a_clause_number_must_exist(run, bank_dir):
    write(bank_dir / "questions" / "inference.yaml", KV)
    both = run("teach", "kv-cache", "--point", "1", "--point", "2", "--clause", "1", "--answer", KV_ANSWER)
    assert both.exit_code == 2 and "teach one --point" in both.stderr
    missing = run("teach", "kv-cache", "--point", "1", "--clause", "9", "--answer", KV_ANSWER)
    assert missing.exit_code == 2 and "--clause 9: the answer has clauses 1 to 5" in missing.stderr


def test_two_points_from_one_sentence_get_its_two_clauses(run, bank_dir):

    write(bank_dir / "questions" / "inference.yaml", KV)
    answer = (
        "The target network scores all of the drafted tokens in a single parallel pass, "
        "and the result is identical to sampling from it alone."
    )
    assert _taught(run, "spec", "--point", "2", "--answer", answer) == {
        2: "The target network scores all of the drafted tokens in a single parallel pass",
    }
    # Point 3 is said in words that share none with it or the question: refused unless forced.
    unrelated = run("teach", "spec", "--point", "3", "--clause", "2", "--answer", answer)
    assert unrelated.exit_code == 1 and "shares no word with the key point" in unrelated.stderr
    forced = _taught(run, "spec", "--point", "3", "--clause", "2", "--force", "--answer", answer)
    assert forced == {3: "the result is identical to sampling from it alone"}
    answer = "Because of the rejection rule you get exactly the samples of the big model."
    taught = _taught(run, "spec", "--point", "1", "--clause", "1", "--force", "--answer", answer)
    assert taught == {1: answer.rstrip(".")}  # "Because of" is not a joint to drop: no dangling "of"


def test_words_that_share_nothing_with_the_point_or_question_are_refused(run, bank_dir):
    path = write(bank_dir / "questions" / "inference.yaml", KV)
    before = path.read_bytes()
    weather = run("teach", "spec", "--point", "1", "--words", "the weather is nice today and I like bananas")
    assert weather.exit_code == 1 and path.read_bytes() == before
    assert "shares no word with the key point, its phrasings or the question" in weather.stderr
    assert 'prep teach spec --point 1 --words "..." --force teaches it all the same' in weather.stderr


def test_a_key_point_written_as_a_block_scalar_can_be_taught(run, bank_dir):

    path = write(bank_dir / "questions" / "inference.yaml", KV)
    assert _taught(
        run, "zero-one", "--point", "1", "--answer", "Each rank keeps only its own slice of the Adam moments."
    )
    assert (
        "      - text: optimizer states are sharded across data-parallel ranks\n"
        "        taught:\n"
        "          - Each rank keeps only its own slice of the Adam moments\n"
        "      - a second point\n"
    ) in path.read_text()
    assert run("validate").exit_code == 0


def test_t_is_offered_only_where_there_are_grader_ticks_to_correct(run):
    flip = run("drill", "-c", "parallelism", "--mode", "flip", "--limit", "1", input="\n3\nn\n", env=NOW)
    assert "Rate: 1 Again" in flip.output and "t tick points" not in flip.output
    typed = run("drill", "-c", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    assert "t tick points" in typed.output


def test_show_numbers_the_key_points_as_teach_counts_them(run):
    shown = run("show", "zero-stages").output
    assert "  1. stage 1 shards the optimizer states" in shown and "  3. stage 3 also shards" in shown


def test_undoing_a_card_that_taught_the_grader_says_the_words_stay(bank_dir, state_file):
    from prep.review.teaching import DrillTeacher

    location = BankLocation(bank_dir, "option")
    with Store(state_file, bank_key=location.key) as store:
        session = Session(
            load_bank(location), store, Scheduler(SchedulerConfig(fuzz=False)), lambda: MOMENT, grader=grade
        )
        teacher = DrillTeacher(location, True, lambda choice: None, store, lambda: MOMENT)
        answer = "Optimizer memory goes first, then what backward produces, then the weights."
        from prep.review.ui import Choice

        ui = ScriptedUI(
            [answer, "x y"],
            [Choice("teach"), rate(Rating.GOOD), Choice("undo"), Choice("quit")],
            ticks=[{1}],
            picks=[1],  # no clause clearly says point 1: the user shows the first one
        )
        Drill(session, [QueueItem("zero-stages", "new"), QueueItem("dp-vs-mp", "new")], ui, teacher).run()
    assert any("taught key point 1" in note for note in ui.notes)
    assert any("the words taught from that answer stay in the bank" in note for note in ui.notes)


BATCHING = """\
category: inference
title: Serving
questions:
  - id: cb
    prompt: What is continuous batching?
    key_points:
      - requests join a running batch
  - id: kv
    prompt: Why does a KV cache speed up decoding?
    key_points:
      - past keys and values are stored and reused
      - memory grows linearly with sequence length and batch size
"""


@pytest.mark.parametrize(
    ("question", "point", "taught", "reworded", "wrong"),
    [
        (
            "cb",
            "1",
            "New sequences are inserted into the batch at every decode iteration as soon as other "
            "sequences finish.",
            "New sequences get inserted into the batch at each decode iteration as soon as other ones "
            "finish.",
            "New sequences are inserted into the batch only after all other sequences finish, at a decode "
            "iteration boundary.",
        ),
        (
            "kv",
            "2",
            "The cache costs GPU memory proportional to context length times batch size.",
            "The cache costs GPU memory proportional to the context length times the batch size.",
            "The cache costs GPU memory that is constant, independent of context length times batch size.",
        ),
    ],
)
def test_the_users_own_words_wrong_in_one_word_do_not_meet_what_was_taught(
    run, bank_dir, question, point, taught, reworded, wrong
):
    (bank_dir / "questions" / "inference.yaml").write_text(BATCHING)

    def credited() -> tuple[bool, bool]:
        graded = [json.loads(run("grade", question, "--json", "-a", a).output) for a in (reworded, wrong)]
        return tuple(
            any(m["text"] == _key_point(bank_dir, question, int(point)).text for m in g["matched"])
            for g in graded
        )

    assert credited() == (False, False)
    assert run("teach", question, "--point", point, "--answer", taught).exit_code == 0
    assert credited() == (True, False)  # the same words said again count; one word turned does not


def test_a_one_clause_answer_the_grader_reads_as_another_point_says_which(run, bank_dir):
    (bank_dir / "questions" / "inference.yaml").write_text(BATCHING)
    before = (bank_dir / "questions" / "inference.yaml").read_bytes()
    result = run("teach", "kv", "--point", "2", "-a", "past keys and values are stored and reused")
    assert result.exit_code == 1
    assert "key point 2: the grader reads the answer as key point 1, not this one" in result.stderr
    assert "--clause 1" in result.stderr
    assert (bank_dir / "questions" / "inference.yaml").read_bytes() == before
