"""What a second new user's test found: typed answers lost on undo and on Ctrl-C mid-answer,
bank-side checks that came after every field was typed, and messages that misled."""

from __future__ import annotations

import json

from prep.bank.load import load_bank
from prep.config import SchedulerConfig
from prep.grading.grade import grade
from prep.paths import BankLocation
from prep.rating import Rating
from prep.review.drill import AnswerInterrupted, Drill
from prep.review.queue import QueueItem
from prep.review.scheduler import Scheduler
from prep.review.session import Session
from prep.state.store import Store

from .test_drill import GOOD, NOW
from .test_drill_loop import NOW as MOMENT
from .test_drill_loop import ScriptedUI, rate


def test_undo_on_the_next_card_keeps_the_answer_typed_for_it(run):
    typed = "Global batch is micro-batch times DP size times accumulation steps."
    script = f"{GOOD}\n\n3\ny\n{typed}\n\nu\nq\n\n"
    result = run("drill", "-c", "parallelism", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    assert "not rated: your answer is kept as practice" in result.output
    history = json.loads(run("history", "dp-batch-size", "--json").output)
    assert [(h["answer"], h["scheduled"]) for h in history] == [(typed, False)]


class InterruptedUI(ScriptedUI):
    """Ctrl-C arrives while the second line of an answer is being typed."""

    def read_answer(self, question):
        raise AnswerInterrupted("Stage one shards the optimizer state", 12.0)


def test_ctrl_c_while_typing_keeps_the_lines_already_entered(bank_dir, state_file):
    bank = load_bank(BankLocation(bank_dir, "option"))
    with Store(state_file) as store:
        session = Session(
            bank,
            store,
            Scheduler(SchedulerConfig(fuzz=False)),
            lambda: MOMENT,
            grader=grade,
            keep_practice=True,
        )
        summary = Drill(
            session, [QueueItem("zero-stages", "new")], InterruptedUI([], [rate(Rating.GOOD)])
        ).run()
        assert summary.interrupted
        kept = store.practice("zero-stages")
    assert [(row.answer, row.mode, row.rating) for row in kept] == [
        ("Stage one shards the optimizer state", "drill", None)
    ]


def test_ctrl_c_in_a_real_terminal_keeps_the_lines_entered(bank_dir, state_file, isolated_home, run):
    import os

    import pexpect

    from .conftest import spawn_prep

    env = {**os.environ, "PREP_HOME": str(isolated_home), "PREP_NOW": NOW["PREP_NOW"], "NO_COLOR": "1",
           "TERM": "xterm"}  # fmt: skip
    child = spawn_prep(bank_dir, state_file, "drill", "-c", "parallelism", env=env)
    try:
        child.expect("Your answer")
        child.sendline("Every GPU holds a full replica of the model.")
        child.send("and the second line is still being typ")
        child.expect("still being typ")  # echoed: the terminal has it, mid-line
        child.sendintr()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    history = json.loads(run("history", "dp-vs-mp", "--json").output)
    assert [h["answer"] for h in history] == ["Every GPU holds a full replica of the model."]


def test_interactive_add_asks_again_at_once_for_a_bad_category_or_a_prompt_already_asked(
    run, bank_dir, monkeypatch
):
    monkeypatch.setattr("prep.cli.plain.interactive", lambda: True)
    script = (
        "Inference Stuff\ninference\n"  # not a safe name: asked again, nothing typed after it lost
        "What is the difference between data parallelism and model parallelism?\n"  # dp-vs-mp asks it
        "What is paged attention?\nthe KV cache is split into fixed-size blocks\n\n\n\n\n\n\n\n"
    )
    result = run("add", input=script)
    assert result.exit_code == 0, result.output
    assert "category 'Inference Stuff' is not a safe name" in result.stderr
    assert "question 'dp-vs-mp' already asks this; try again" in result.stderr
    question = load_bank(BankLocation(bank_dir, "option")).questions["paged-attention"]
    assert question.key_points[0].text == "the KV cache is split into fixed-size blocks"


# --- which words teaching takes ------------------------------------------------------------------

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


def test_a_clause_that_says_another_point_is_not_taught_to_this_one(run, bank_dir):
    from .conftest import write

    write(bank_dir / "questions" / "inference.yaml", KV)
    taught = _taught(run, "kv-cache", "--point", "1", "--point", "2", "--point", "3", "--answer", KV_ANSWER)
    assert taught[1] == "The cache holds the attention K and V for every earlier position"
    assert taught[3] == "generation ends up limited by how fast we read memory rather than by FLOPs"


def test_two_points_from_one_sentence_get_its_two_clauses(run, bank_dir):
    from .conftest import write

    write(bank_dir / "questions" / "inference.yaml", KV)
    answer = (
        "The target network scores all of the drafted tokens in a single parallel pass, "
        "and the result is identical to sampling from it alone."
    )
    assert _taught(run, "spec", "--point", "2", "--point", "3", "--answer", answer) == {
        2: "The target network scores all of the drafted tokens in a single parallel pass",
        3: "the result is identical to sampling from it alone",
    }
    answer = "Because of the rejection rule you get exactly the samples of the big model."
    taught = _taught(run, "spec", "--point", "3", "--answer", answer)
    assert taught == {3: answer.rstrip(".")}  # "Because of" is not a joint to drop: no dangling "of"


def test_a_key_point_written_as_a_block_scalar_can_be_taught(run, bank_dir):
    from .conftest import write

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


# --- messages ------------------------------------------------------------------------------------


def test_record_without_a_mock_interview_is_refused(run):
    result = run("drill", "--record")
    assert result.exit_code == 1 and "--record applies to a mock interview: add --mode mock" in result.stderr


def test_t_is_offered_only_where_there_are_grader_ticks_to_correct(run):
    flip = run("drill", "-c", "parallelism", "--mode", "flip", "--limit", "1", input="\n3\nn\n", env=NOW)
    assert "Rate: 1 Again" in flip.output and "t tick points" not in flip.output
    typed = run("drill", "-c", "parallelism", "--limit", "1", input=GOOD + "\n\n3\nn\n", env=NOW)
    assert "t tick points" in typed.output


def test_teaching_a_question_without_key_points_says_so(run):
    result = run("teach", "biggest-failure", "--point", "1", "--answer", "I shipped a data check.")
    assert result.exit_code == 1
    assert "biggest-failure has no key points: there is nothing to teach" in result.stderr


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
        from prep.review.drill import Choice

        ui = ScriptedUI(
            [answer, "x y"], [Choice("teach"), rate(Rating.GOOD), Choice("undo"), Choice("quit")], ticks=[{1}]
        )
        Drill(session, [QueueItem("zero-stages", "new"), QueueItem("dp-vs-mp", "new")], ui, teacher).run()
    assert any("taught key point 1" in note for note in ui.notes)
    assert any("the words taught from that answer stay in the bank" in note for note in ui.notes)


def test_did_you_mean_suggests_only_what_is_close():
    from prep.suggest import did_you_mean

    ids = ["intro-personal-ownership-scope", "kv-cache-mechanics", "mqa-gqa-kv-cache", "dp-vs-mp"]
    assert did_you_mean("nope", ids) is None
    assert did_you_mean("dp-vs-mpp", ids) == "did you mean 'dp-vs-mp'?"
    assert did_you_mean("kv-cache", ids) == "did you mean 'kv-cache-mechanics'?"


def test_a_folder_where_a_file_is_wanted_and_a_file_where_a_folder_is_are_named_so(run, tmp_path):
    assert "is a directory, not a file" in run("import", str(tmp_path), "-c", "imp").stderr
    assert "is a directory, not a file" in run("state", "import", str(tmp_path)).stderr
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    result = run("init", str(a_file))
    assert result.exit_code == 1 and "is a file, not a folder" in result.stderr
