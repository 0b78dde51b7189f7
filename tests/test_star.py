"""The STAR structure of behavioral answers: parts per sentence, the six flags and the verdict,
on answers of the kinds an interviewer hears (bench/star.py measures it on labelled sets)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from prep.grading.star import FLAGS, PARTS, analyse, split_sentences

STRONG = (
    "Last year our search reranker was costing 40 thousand dollars a month. "
    "My goal was to cut that cost in half. "
    "I distilled the reranker into a smaller model and added a cache for frequent queries. "
    "As a result, the monthly cost dropped to 14 thousand dollars and NDCG stayed within half a point."
)


def parts_of(answer: str) -> list[str]:
    return [s.part for s in analyse(answer).sentences]


def test_a_complete_personal_answer_with_a_number_is_strong():
    structure = analyse(STRONG)
    assert parts_of(STRONG) == ["situation", "task", "action", "result"]
    assert structure.parts == dict.fromkeys(PARTS, True)
    assert structure.flags == ()
    assert structure.verdict == "strong"


def test_a_story_the_team_did_is_we_not_i():
    answer = (
        "At my last company our deployment process was a mess. We wrote a checklist together. "
        "The platform team automated most of it. We also added a rollback button. "
        "Deploy failures dropped by 70% in a quarter."
    )
    structure = analyse(answer)
    assert "we-not-i" in structure.flags
    assert structure.verdict == "adequate"
    # The same story told by the speaker is not flagged.
    mine = answer.replace("We wrote", "I wrote").replace("We also", "I also")
    assert "we-not-i" not in analyse(mine).flags


def test_what_the_speaker_would_do_is_hypothetical_and_weak():
    answer = (
        "I haven't been in that situation yet. I would first talk to my manager to understand the goal. "
        "Then I'd build a small baseline and measure it. That way we would learn quickly what works."
    )
    structure = analyse(answer)
    assert "hypothetical" in structure.flags
    assert structure.verdict == "weak"
    assert parts_of(answer)[:3] == ["other", "action", "action"]


def test_a_story_that_stops_before_its_outcome_has_no_result_and_is_weak():
    answer = (
        "At my internship the team wanted a model that writes SQL from questions. "
        "My task was to fine-tune an open model on our queries. "
        "I collected two thousand question and query pairs from the logs. "
        "I trained a few versions, but the loss looked strange."
    )
    structure = analyse(answer)
    assert "result" not in parts_of(answer)
    assert "no-result" in structure.flags and "result-not-quantified" not in structure.flags
    assert structure.verdict == "weak"


def test_a_result_without_a_number_is_not_quantified():
    answer = (
        "In my previous job our tutor bot sometimes gave wrong math solutions. "
        "I was responsible for making it safer before the school term. "
        "I added a step where the model checks each calculation with code. "
        "Teachers stopped complaining and the pilot schools renewed."
    )
    structure = analyse(answer)
    assert structure.parts["result"]
    assert "result-not-quantified" in structure.flags
    assert structure.verdict == "adequate"
    quantified = answer.replace("the pilot schools renewed", "all 12 pilot schools renewed")
    assert analyse(quantified).verdict == "strong"


def test_a_setup_longer_than_the_rest_is_long_setup():
    answer = (
        "I was at a mid-size retailer where demand forecasting for fresh products was done with hand-tuned "
        "rules that store managers overrode most of the time, and two attempts to buy vendor software had "
        "already failed. The promotions calendar changed every week, the data lived in three systems, and "
        "nobody trusted the numbers. "
        "My job was to show that a learned forecast could beat the rules in one region. "
        "I built a gradient boosting model with weather features. "
        "Waste fell by 8% in the pilot."
    )
    structure = analyse(answer)
    assert "long-setup" in structure.flags
    # A long setup is advice, not a fault of structure: the answer is still complete.
    assert structure.verdict == "strong"
    short = analyse(STRONG)
    assert "long-setup" not in short.flags


def test_the_json_shape_is_exactly_parts_sentences_flags_verdict_plan():
    answer = "We had a slow pipeline. We fixed it. It was fine in the end."
    data = analyse(answer).to_dict()
    assert list(data) == ["parts", "sentences", "flags", "verdict", "plan"]
    assert data["parts"] == {"situation": True, "task": False, "action": True, "result": True}
    assert data["sentences"] == [
        {"text": "We had a slow pipeline.", "part": "situation"},
        {"text": "We fixed it.", "part": "action"},
        {"text": "It was fine in the end.", "part": "result"},
    ]
    assert data["flags"] == ["result-not-quantified", "we-not-i"]
    assert data["verdict"] == "adequate" and data["plan"] is False
    assert json.loads(json.dumps(data)) == data


def test_an_empty_answer_has_no_parts_and_is_weak():
    data = analyse("  \n ").to_dict()
    assert data == {
        "parts": dict.fromkeys(PARTS, False),
        "sentences": [],
        "flags": ["no-result", "no-action"],
        "verdict": "weak",
        "plan": False,
    }


def test_sentences_split_at_their_ends_not_inside_abbreviations():
    text = "We used e.g. a cache, etc. Then Dr. Lee asked me to help.\nI did.  It worked!"
    assert [text[a:b] for a, b in split_sentences(text)] == [
        "We used e.g. a cache, etc.",
        "Then Dr. Lee asked me to help.",
        "I did.",
        "It worked!",
    ]


def test_a_unit_after_a_number_ends_its_sentence_as_any_word_does():
    # "ms" after a number is milliseconds, not the title "Ms." before a name
    story = (
        "Our search took 800 ms per query. My task was to get it under 100 ms. I profiled the query "
        "path and I replaced brute force with an HNSW index. As a result latency dropped to 40 ms."
    )
    assert len(split_sentences(story)) == 4
    structure = analyse(story)
    assert structure.parts["action"] and "no-action" not in structure.flags


WORDS = (
    "I we the team my job was responsible for would I'd had to built added went from 40% to 12% "
    "as a result in the end learned last year at a startup nobody knew um so yeah I think maybe "
    "shipped agreed dropped improved three weeks our manager asked me to if"
).split()
SENTENCES = st.lists(st.sampled_from(WORDS), min_size=1, max_size=14).map(" ".join)
ANSWERS = st.one_of(
    st.text(max_size=300),
    st.lists(
        st.tuples(SENTENCES, st.sampled_from([". ", "! ", "? ", "\n", "; ", " - ", ""])), max_size=10
    ).map(lambda pairs: "".join(s + end for s, end in pairs)),
)


PROMPTS = st.sampled_from(
    [
        "",
        "Tell me about a time you missed a deadline.",
        "How would you handle a teammate who keeps shipping changes without running the evals?",
    ]
)


@settings(max_examples=300, deadline=None)
@given(ANSWERS, PROMPTS)
def test_any_text_gets_a_structure_consistent_with_the_definitions(answer, prompt):
    structure = analyse(answer, prompt)
    data = structure.to_dict()
    parts, flags = data["parts"], set(data["flags"])
    assert flags <= set(FLAGS)
    assert data["flags"] == [f for f in FLAGS if f in flags]  # each once, in order
    labelled = {s["part"] for s in data["sentences"]}
    assert parts == {p: p in labelled for p in PARTS}
    assert ("no-result" in flags) == (not parts["result"])
    assert ("no-action" in flags) == (not parts["action"])
    assert "result-not-quantified" not in flags or parts["result"]
    assert "we-not-i" not in flags or parts["action"]
    assert not (data["plan"] and "hypothetical" in flags)
    assert not data["plan"] or "would" in prompt
    needed = ("action", "result") if data["plan"] else PARTS
    expected = (
        "weak"
        if "hypothetical" in flags or not parts["result"] or not parts["action"]
        else "strong"
        if all(parts[p] for p in needed) and not flags & {"we-not-i", "result-not-quantified"}
        else "adequate"
    )
    assert data["verdict"] == expected
    # A weak verdict always comes with a flag that says what to change.
    assert data["verdict"] != "weak" or flags & {"no-result", "no-action", "hypothetical"}
    # Each sentence is the answer's own text, in order.
    position = 0
    for sentence in structure.sentences:
        assert answer[sentence.start : sentence.end] == sentence.text
        assert sentence.start >= position
        position = sentence.end


def test_a_plan_told_by_its_timeline_is_steps_and_what_they_would_achieve():
    plan = (
        "In the first month I would learn the codebase and the training stack and ship one small fix. "
        "By month three I would own one piece of the data pipeline and cut its runtime. By month six I "
        "would lead a project end to end, and I would measure success by a 20 percent faster eval loop."
    )
    structure = analyse(
        plan, "If you joined this team, what would you aim to have accomplished in six months?"
    )
    assert structure.plan and structure.sentences[0].part == "action"  # a step, not the scene
    assert structure.sentences[-1].part == "result" and structure.flags == ()
    assert structure.verdict == "strong"
