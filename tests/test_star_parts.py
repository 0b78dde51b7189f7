"""What an answer's sentences are and what the verdict asks of them: a sentence led by the
speaker's own deeds is their action even when it measures something on the way, a weak verdict
always comes with a flag that says what to change, and an answer in the conditional to a
question that asks for a plan ("how would you...") is read as a plan, not as a hypothetical."""

from __future__ import annotations

import pytest

from prep.grading.star import FLAGS, analyse
from prep.grading.starcues import asks_for_plan

# A disagreement told with numbers in its action: the profile measured on the way is no result.
MEASURED_ON_THE_WAY = (
    "Last year a researcher on my team insisted on a custom attention operator that was slow at scale. "
    "My job was to get the training run ready for 64 GPUs. "
    "I profiled the operator, showed it took 40 percent of step time, and I proposed a fused Triton "
    "kernel that kept the same numerics; I built a benchmark and we agreed on a tolerance together. "
    "As a result step time dropped 35 percent and the run started on schedule."
)
PLAN_PROMPT = (
    "A researcher hands you a promising new model architecture as a messy single-GPU script. "
    "Walk me through how you would turn it into a robust multi-node training pipeline."
)
PLAN = (
    "First I would read the script with the researcher and profile memory and compute on one GPU. "
    "Then I'd wrap the model in FSDP, move the data loading into a sharded loader and add "
    "checkpointing every 30 minutes. "
    "I would test it on 2 nodes against the single-GPU loss curve before scaling out. "
    "That way the pipeline should reach 90 percent scaling efficiency on 8 nodes with the same loss."
)
PAST_PROMPT = "Tell me about a time you scaled a research prototype to many GPUs."


def parts_of(answer: str, prompt: str = "") -> list[str]:
    return [s.part for s in analyse(answer, prompt).sentences]


def test_a_sentence_led_by_the_speakers_deeds_is_action_though_it_measures_on_the_way():
    structure = analyse(MEASURED_ON_THE_WAY)
    assert parts_of(MEASURED_ON_THE_WAY) == ["situation", "task", "action", "result"]
    assert structure.flags == () and structure.verdict == "strong"


@pytest.mark.parametrize(
    "sentence",
    [
        "I rolled back the release, I wrote up the 3 failing cases, and we agreed on a canary for "
        "the next one.",
        "I profiled the loader, showed it spent 60 percent of each step decoding video, and we "
        "settled on decoding on the GPU.",
        "I measured the p99 latency at 800 ms and showed it came from the tokenizer, so I rewrote "
        "the tokenizer call and we went with a cached vocabulary.",
        "I profiled it, found it took 40% of step time and I proposed a fused kernel, and we agreed "
        "on a tolerance.",
        "I profiled the loader, found it spent 60 percent of each step decoding video, and I moved "
        "decoding onto the GPU.",
    ],
)
def test_measures_and_a_shared_decision_inside_the_speakers_deeds_stay_action(sentence):
    answer = (
        "Last spring our video model trained far slower than planned. "
        "I was responsible for the training pipeline. "
        f"{sentence} "
        "In the end each epoch took 4 hours instead of 11."
    )
    assert parts_of(answer) == ["situation", "task", "action", "result"]
    assert analyse(answer).verdict == "strong"


def test_what_came_of_the_deeds_at_the_end_of_their_sentence_is_still_the_result():
    answer = (
        "Last year our feature store migrations kept slipping. "
        "I owned the migration runbook. "
        "I added a cost estimate step to the template. "
        "I also reviewed each estimate with the owners, and the next two migrations landed on time."
    )
    assert parts_of(answer) == ["situation", "task", "action", "result"]


def test_a_story_with_no_action_says_so_in_a_flag():
    answer = (
        "Last year our nightly training job kept failing. "
        "My job was to make it reliable. "
        "In the end it ran every night for three months."
    )
    structure = analyse(answer)
    assert not structure.parts["action"]
    assert "no-action" in structure.flags and structure.verdict == "weak"
    assert "no-action" not in analyse(MEASURED_ON_THE_WAY).flags


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "Um, so yeah.",
        "I think feedback is really important.",
        "Last year our nightly training job kept failing.",
        "I haven't been on call yet. I would roll back first.",
        MEASURED_ON_THE_WAY.replace("I profiled", "Someone profiled").replace("I built", "someone built"),
    ],
)
def test_a_weak_verdict_always_comes_with_a_flag_that_explains_it(answer):
    structure = analyse(answer)
    if structure.verdict == "weak":
        assert {"no-result", "no-action", "hypothetical"} & set(structure.flags)


@pytest.mark.parametrize(
    "prompt",
    [
        PLAN_PROMPT,
        "How would you handle a teammate who keeps shipping prompt changes without running the evals?",
        "What would you do if your manager asked you to ship something you believed wasn't ready?",
        "If you joined this team, what would you aim to have done by the end of your first six months?",
        "Imagine a partner's robot fails on the first demo. How do you respond?",
        "Suppose the training loss spikes every few hours. Walk me through what you'd check.",
    ],
)
def test_a_prompt_that_asks_what_you_would_do_asks_for_a_plan(prompt):
    assert asks_for_plan(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "",
        PAST_PROMPT,
        "Describe a situation where you disagreed with a teammate about a technical approach.",
        "Tell me about a time you failed. What would you do differently?",
        "Models like yours are built by large teams. What did you personally own, and how would you "
        "show that your experience goes deeper?",
        "Suppose you are explaining your work to a product leader. What did it achieve, in plain terms?",
        "Could you tell me about a production incident you handled?",
        "How do you handle a disagreement with a researcher about a technical trade-off?",
    ],
)
def test_a_prompt_that_asks_for_a_past_event_or_a_habit_does_not(prompt):
    assert not asks_for_plan(prompt)


def test_a_plan_asked_for_is_not_hypothetical_and_can_be_strong():
    asked = analyse(PLAN, PLAN_PROMPT)
    assert "hypothetical" not in asked.flags and asked.plan
    assert asked.parts == {"situation": False, "task": False, "action": True, "result": True}
    # The question sets the situation and the task; a plan with its steps and a measured
    # outcome is what was asked.
    assert asked.verdict == "strong" and asked.to_dict()["plan"] is True
    # The same words for a question about a past event are what you would do, not what you did.
    told = analyse(PLAN, PAST_PROMPT)
    assert "hypothetical" in told.flags and told.verdict == "weak" and not told.plan
    assert analyse(PLAN).flags == told.flags  # no prompt: as before


def test_the_other_checks_still_apply_to_a_plan():
    no_outcome = analyse(
        "I'd start by reading the script with the researcher. Then I'd profile it and wrap it in FSDP.",
        PLAN_PROMPT,
    )
    assert no_outcome.flags == ("no-result",) and no_outcome.verdict == "weak"
    vague = analyse(PLAN.replace("90 percent scaling efficiency on 8 nodes", "good scaling"), PLAN_PROMPT)
    assert vague.flags == ("result-not-quantified",) and vague.verdict == "adequate"
    ours = analyse(
        "We would read the script together. We could profile it as a group. "
        "Then we would wrap it in FSDP. That way the run should scale to 8 nodes.",
        PLAN_PROMPT,
    )
    assert "we-not-i" in ours.flags and ours.verdict == "adequate"


def test_a_real_story_told_for_a_plan_question_is_judged_as_a_story():
    structure = analyse(MEASURED_ON_THE_WAY, PLAN_PROMPT)
    assert not structure.plan and structure.flags == () and structure.verdict == "strong"
    setup_only = analyse("Last year our job kept failing. I fixed the loader.", PLAN_PROMPT)
    assert not setup_only.plan and "no-result" in setup_only.flags


def test_the_flags_are_listed_in_order():
    assert FLAGS == (
        "no-result",
        "no-action",
        "result-not-quantified",
        "we-not-i",
        "hypothetical",
        "long-setup",
    )
