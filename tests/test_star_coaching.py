"""Behavioral answers coached like an interviewer would: `prep grade --json` reports their STAR
structure, a weak story is suggested Hard at best, the drill shows the STAR strip under the grade
and the mock interview report the structure of each behavioral answer."""

from __future__ import annotations

import json

from prep.grading.grade import from_ticks, grade
from prep.grading.star import analyse, capped
from prep.rating import Rating

from .support import write, write_bank

CONFLICT_YAML = """\
category: stories
title: Stories
questions:
  - id: slow-operator
    prompt: Tell me about a disagreement with a researcher over a slow custom operator.
    kind: behavioral
    target_seconds: 120
    key_points:
      - text: profile the custom operator against a standard one
        aliases: [benchmark their operator against the built-in kernel]
      - text: present the measured cost rather than refusing
        aliases: [show the numbers instead of saying no]
"""
# Says both key points, as a story that happened, with a number in its result.
STORY = (
    "Last year a researcher on my team insisted on a custom attention operator. "
    "My job was to get the model running on 64 GPUs. "
    "I profiled the custom operator against a standard one on real shapes. "
    "I presented the measured cost rather than refusing: it took 30% of each step. "
    "As a result we rewrote it as a fused kernel and training ran 25% faster."
)
# Says the same key points as what the speaker would do: hypothetical, so weak.
WOULD = (
    "I would profile the custom operator against a standard one. "
    "Then I would present the measured cost rather than refusing. "
    "We could find a way that keeps the research goal."
)


def behavioral_bank(tmp_path):
    root = write_bank(tmp_path / "bank")
    write(root / "questions" / "stories.yaml", CONFLICT_YAML)
    return root


def test_grade_json_adds_the_structure_of_a_behavioral_answer(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    result = run("grade", "slow-operator", "-a", STORY, "--json", bank=bank)
    assert result.exit_code == 0, result.output
    structure = json.loads(result.output)["structure"]
    assert set(structure) == {"parts", "sentences", "flags", "verdict", "plan"}
    assert structure["plan"] is False
    assert structure["parts"] == {"situation": True, "task": True, "action": True, "result": True}
    assert [s["part"] for s in structure["sentences"]] == ["situation", "task", "action", "action", "result"]
    assert set(structure["sentences"][0]) == {"text", "part"}
    assert structure["sentences"][0]["text"] == STORY.split(". ")[0] + "."
    assert structure["flags"] == [] and structure["verdict"] == "strong"
    # Not for a technical question.
    technical = run("grade", "dp-vs-mp", "-a", "each GPU holds a full replica of the model", "--json")
    assert "structure" not in json.loads(technical.output)
    # Without --json, the strip follows the grade.
    report = run("grade", "slow-operator", "-a", WOULD, bank=bank).output
    assert "STAR  ✗ situation  ✗ task  ✓ action" in report and "· weak" in report
    assert (
        report.index("STAR") < report.index("what you would do, not what you did") < report.index("suggested")
    )


def test_a_weak_story_is_suggested_hard_at_best(tmp_path):
    from prep.bank.load import load_bank
    from prep.paths import BankLocation

    question = load_bank(BankLocation(behavioral_bank(tmp_path), "option")).question("slow-operator")
    told = grade(question, None, STORY)
    assert told.verdict == "pass" and told.rating == Rating.GOOD and told.structure.verdict == "strong"
    imagined = grade(question, None, WOULD)
    assert imagined.verdict == "pass"  # the key points are there...
    assert imagined.structure.verdict == "weak" and "hypothetical" in imagined.structure.flags
    assert imagined.rating == Rating.HARD  # ...but a weak story is Hard at best
    # The user's own ticks do not lift the cap: the structure is still what it is.
    assert from_ticks(question, imagined, {1, 2}).rating == Rating.HARD
    assert from_ticks(question, told, {1, 2}).rating == Rating.GOOD


def test_the_cap_lowers_only_and_never_makes_a_suggestion():
    weak, strong = analyse(WOULD), analyse(STORY)
    assert capped(None, weak) is None  # "unsure": no suggestion stays none
    assert capped(Rating.EASY, weak) == Rating.HARD
    assert capped(Rating.AGAIN, weak) == Rating.AGAIN
    assert capped(Rating.EASY, strong) == Rating.EASY


def test_the_drill_shows_the_star_strip_under_the_grade(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    answer = "Last year our pipeline broke. I fixed the loader. Things got better."
    result = run("drill", "-c", "stories", input=f"{answer}\n\n\nq\n", bank=bank)  # q: the Again is not asked
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index("/100") < out.index("STAR") < out.index("Rate:")  # under the key-point grade
    strip = out[out.index("STAR") : out.index("Rate:")]
    assert "✓ situation" in strip and "✗ task" in strip and "✓ action" in strip and "✓ result" in strip
    assert "your result has no number: how much faster, how many, by when?" in strip
    assert "about 5s spoken, target 120s: short" in strip
    # A technical question has no strip.
    technical = run("drill", "-c", "parallelism", "--limit", "1", input="a full replica on each GPU\n\n\n")
    assert "STAR" not in technical.output


def test_a_weak_story_in_a_drill_says_why_the_suggestion_is_hard(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    result = run("drill", "-c", "stories", input=f"{WOULD}\n\n\n", bank=bank)
    assert "what you would do, not what you did: tell a time it really happened" in result.output
    assert "a weak story is suggested Hard at best" in result.output
    assert "(Enter = hard)" in result.output


def test_the_mock_report_lists_the_structure_of_each_behavioral_answer(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    result = run("drill", "--mode", "mock", "-c", "stories", input=f"{WOULD}\n\n", bank=bank)
    assert result.exit_code == 0, result.output
    report = result.output[result.output.index("Mock interview report") :]
    line = next(x for x in report.splitlines() if "STAR" in x)
    assert "✗ task" in line and "weak" in line and "hypothetical" in line
    summary = run("drill", "--mode", "mock", "-c", "stories", "--json", input=f"{STORY}\n\n", bank=bank)
    (row,) = json.loads(summary.stdout)["results"]
    assert row["structure"]["verdict"] == "strong"


PLAN_YAML = """\
category: plans
title: Plans
questions:
  - id: prototype-to-multinode
    prompt: >-
      A researcher hands you a promising new model architecture as a messy single-GPU script.
      Walk me through how you would turn it into a robust multi-node training pipeline.
    kind: behavioral
    target_seconds: 180
    key_points:
      - text: profile memory and compute first
      - text: add checkpointing
  - id: scaled-prototype
    prompt: Tell me about a time you scaled a research prototype to many GPUs.
    kind: behavioral
    target_seconds: 120
    key_points:
      - text: profile memory and compute first
"""
PLAN = (
    "First I would read the script with the researcher and profile memory and compute on one GPU. "
    "Then I'd wrap the model in FSDP and add checkpointing every 30 minutes. "
    "I would test it on 2 nodes against the single-GPU loss curve before scaling out. "
    "That way the pipeline should reach 90 percent scaling efficiency on 8 nodes."
)
# The action is told with the measure the speaker found on the way, and a decision taken together.
MEASURED = (
    "Last year a researcher on my team insisted on a custom attention operator that was slow at scale. "
    "My job was to get the training run ready for 64 GPUs. "
    "I profiled the operator, showed it took 40 percent of step time, and I proposed a fused Triton "
    "kernel; I built a benchmark and we agreed on a tolerance together. "
    "As a result step time dropped 35 percent and the run started on schedule."
)


def plan_bank(tmp_path):
    root = behavioral_bank(tmp_path)
    write(root / "questions" / "plans.yaml", PLAN_YAML)
    return root


def test_an_action_that_measures_on_the_way_is_action_in_grade_json(run, tmp_path):
    result = run("grade", "slow-operator", "--json", "-a", MEASURED, bank=behavioral_bank(tmp_path))
    assert result.exit_code == 0, result.output
    structure = json.loads(result.output)["structure"]
    assert [s["part"] for s in structure["sentences"]] == ["situation", "task", "action", "result"]
    assert structure["flags"] == [] and structure["verdict"] == "strong"


def test_a_weak_story_without_an_action_says_what_to_add(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    answer = (
        "Last year our nightly training job kept failing. My job was to make it reliable. "
        "In the end it ran every night for three months."
    )
    graded = run("grade", "slow-operator", "--json", "-a", answer, bank=bank)
    structure = json.loads(graded.output)["structure"]
    assert structure["verdict"] == "weak" and "no-action" in structure["flags"]
    report = run("grade", "slow-operator", "-a", answer, bank=bank).output
    assert "✗ action" in report and "no action: say what you did yourself" in report


def test_a_plan_asked_for_is_not_flagged_hypothetical(run, tmp_path):
    bank = plan_bank(tmp_path)
    result = run("grade", "prototype-to-multinode", "--json", "-a", PLAN, bank=bank)
    assert result.exit_code == 0, result.output
    structure = json.loads(result.output)["structure"]
    assert structure["plan"] is True and structure["flags"] == [] and structure["verdict"] == "strong"
    assert json.loads(result.output)["rating"] != "hard"  # not capped as a weak story
    report = run("grade", "prototype-to-multinode", "-a", PLAN, bank=bank).output
    assert "what you would do, not what you did" not in report and "a plan, as asked" in report
    # The same answer to a question about a past event is still hypothetical.
    told = json.loads(run("grade", "scaled-prototype", "--json", "-a", PLAN, bank=bank).output)
    assert told["structure"]["plan"] is False
    assert "hypothetical" in told["structure"]["flags"] and told["structure"]["verdict"] == "weak"


def test_a_plan_without_an_outcome_is_told_to_say_what_it_would_achieve(run, tmp_path):
    answer = "I'd start by reading the script with the researcher. Then I'd profile it and add checkpointing."
    report = run("grade", "prototype-to-multinode", "-a", answer, bank=plan_bank(tmp_path)).output
    assert "· weak" in report and "what you would do, not what you did" not in report
    assert "no result: end with what your plan would achieve" in report
    assert "a weak plan is suggested Hard at best" in report
    assert "there is time for what you would do and what it would achieve" in report


# A strong story of the speaker's own that says neither key point: the bank's points are
# someone else's story, so the words cannot tell whether this one answers the question.
OWN_STORY = (
    "Last spring a staff engineer and I disagreed about moving our feature store to a new database. "
    "I was responsible for the migration plan. I wrote a design doc comparing both options, ran a "
    "two-week shadow test, and set up a meeting where I walked the team through the latency numbers. "
    "As a result we kept the old store for serving, moved batch jobs only, and cut costs by 18%."
)


def test_a_strong_story_of_ones_own_is_unsure_not_failed(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    graded = json.loads(run("grade", "slow-operator", "-a", OWN_STORY, "--json", bank=bank).output)
    assert (graded["verdict"], graded["structure"]["verdict"]) == ("unsure", "strong")
    assert graded["unknown"] == [1, 2] and graded["matched"] == []
    shown = run("grade", "slow-operator", "-a", OWN_STORY, bank=bank)
    assert shown.exit_code == 0 and "UNSURE" in shown.output


def test_an_answer_that_is_no_story_still_fails(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    off = "I like bananas and the weather is nice today."
    graded = json.loads(run("grade", "slow-operator", "-a", off, "--json", bank=bank).output)
    assert (graded["verdict"], graded["structure"]["verdict"], graded["unknown"]) == ("fail", "weak", [])


def test_the_bundled_banks_prepared_answers_are_shown_as_an_example(run, tmp_path):
    from prep.paths import bundled_bank_root

    bundled = run("show", "most-significant-failure", bank=bundled_bank_root())
    assert bundled.exit_code == 0 and "Example answer" in bundled.output
    assert "Your prepared answer" not in bundled.output
    own = write_bank(tmp_path / "own")
    # write_bank's answers/ hold the user's own story for biggest-failure, a model answer for dp-vs-mp
    mine = run("show", "biggest-failure", bank=own)
    assert mine.exit_code == 0 and "Your prepared answer" in mine.output, mine.output
    assert "Model answer" in run("show", "dp-vs-mp", bank=own).output


def test_a_plan_asked_for_is_graded_on_its_points_not_taken_for_a_story_of_ones_own(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    write(
        bank / "questions" / "method.yaml",
        """\
category: method
title: Method
questions:
  - id: flaky-eval
    prompt: How would you handle an evaluation whose scores change from run to run?
    kind: behavioral
    key_points:
      - text: fix the seeds and the decoding settings
        aliases: [pin the random seeds and decoding, make sampling deterministic]
      - text: report the spread over several runs
        aliases: [give the variance across repeated runs, show error bars from many runs]
""",
    )
    plan = (
        "First I would fix the seeds and the decoding settings so each run samples the same way. "
        "Then I would check the data loader for shuffling on 2 GPUs against one. "
        "That way the scores should stay within 1 point from run to run."
    )
    graded = json.loads(run("grade", "flaky-eval", "--json", "-a", plan, bank=bank).output)
    assert graded["structure"]["plan"] is True and graded["structure"]["verdict"] != "weak"
    assert graded["verdict"] != "unsure" and graded["unknown"] == []
    assert [p["text"] for p in graded["missed"]] == ["report the spread over several runs"]


def test_a_weak_story_of_ones_own_is_unsure_too_and_its_strip_says_why_it_is_weak(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    weak = (
        "We had a big disagreement with the research team about the training code last year. "
        "We looked at the logs and we talked to them a lot, and we tried a few things. "
        "The team worked hard on it and we learned a lot."
    )
    graded = json.loads(run("grade", "slow-operator", "-a", weak, "--json", bank=bank).output)
    assert graded["structure"]["verdict"] == "weak" and "we-not-i" in graded["structure"]["flags"]
    assert (graded["verdict"], graded["unknown"], graded["rating"]) == ("unsure", [1, 2], None)
    shown = run("grade", "slow-operator", "-a", weak, bank=bank).output
    assert "your own story" in shown and "missed" not in shown


def test_a_question_about_pay_or_motives_gets_no_star_coaching(run, tmp_path):
    bank = behavioral_bank(tmp_path)
    write(
        bank / "questions" / "closing.yaml",
        """\
category: closing
title: Closing
questions:
  - id: pay
    prompt: What are your compensation expectations for this role?
    kind: behavioral
    key_points:
      - text: a range based on market data for the level
""",
    )
    answer = "I'm focused on the right role first; I'm looking at the market range for the level."
    graded = json.loads(run("grade", "pay", "-a", answer, "--json", bank=bank).output)
    assert "structure" not in graded and graded["rating"] != "hard"
    shown = run("grade", "pay", "-a", answer, bank=bank).output
    assert "STAR" not in shown and "a weak story" not in shown
    story = json.loads(run("grade", "slow-operator", "-a", STORY, "--json", bank=bank).output)
    assert story["structure"]["verdict"] == "strong"  # a question that asks for a story still is
