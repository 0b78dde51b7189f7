"""The judge's pure parts: the verdict prep gives a judge's report, the quotes checked against
the answer, and replies read leniently but never guessed at."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prep.grading.grade import grade
from prep.grading.judge_exchange import MalformedReply, judge_request, parse_reply
from prep.grading.judge_verdict import TRIMMED, find_quote, judged_grade

from .support import question

Q = question(
    "What does gradient checkpointing trade?",
    [
        "it stores only some activations in the forward pass",
        "it recomputes the others during the backward pass",
        "it saves memory at the cost of extra compute",
        "the checkpoints are placed at layer boundaries",
    ],
    ["it makes training faster"],
)
ANSWER = (
    "We keep only a few activations from the forward pass and recompute the rest when backward "
    "needs them. That trades compute for memory. We checkpoint at each layer boundary. It also makes "
    "training faster."
)
QUOTES = [
    "keep only a few activations",
    "recompute the rest",
    "trades compute for memory",
    "at each layer boundary",
]


def report(statuses: list[str], pitfall: bool = False, quotes: list[str] = QUOTES) -> str:
    return json.dumps(
        {
            "points": [
                {"point": n, "status": s, "quote": quotes[n - 1] if s != "not_said" else ""}
                for n, s in enumerate(statuses, 1)
            ],
            "pitfalls": [{"pitfall": 1, "said": pitfall, "quote": "It also makes training faster"}],
        }
    )


def judged(text: str, answer: str = ANSWER, elapsed: float | None = None):  # type: ignore[no-untyped-def]
    request = judge_request(Q, None, answer)
    assert request is not None
    words = grade(Q, None, answer, elapsed)
    return judged_grade(request, parse_reply(text), words, fast=elapsed is not None and elapsed < 60)


@pytest.mark.parametrize(
    ("statuses", "verdict", "score"),
    [
        (["said", "said", "said", "not_said"], "pass", 75),  # 75% said passes
        (["said", "said", "not_said", "not_said"], "partial", 50),
        (["said", "not_said", "not_said", "not_said"], "partial", 25),  # 25% is not "fewer than 25%"
        (["not_said"] * 4, "fail", 0),
        (["said", "said", "said", "contradicted"], "fail", 75),  # a contradiction fails, whatever else
    ],
)
def test_the_verdict_follows_the_share_of_points_said(statuses, verdict, score):
    graded = judged(report(statuses))
    assert (graded.verdict, graded.score) == (verdict, score)
    assert graded.rating is not None and graded.unknown == ()


def test_a_said_pitfall_fails_and_is_shown_with_its_quote():
    graded = judged(report(["said"] * 3 + ["not_said"], pitfall=True))
    assert graded.verdict == "fail" and graded.score == 75
    assert [p.excerpt for p in graded.pitfalls] == ["It also makes training faster"]
    assert "states a known wrong claim" in graded.notes


def test_quotes_are_the_excerpts_of_the_points_said():
    graded = judged(report(["said", "said", "said", "not_said"]))
    assert [m.excerpt for m in graded.matched] == QUOTES[:3]
    assert [m.text for m in graded.missed] == [Q.key_points[3].text]


def test_a_point_whose_quote_is_not_in_the_answer_counts_as_not_said():
    quotes = ["keep only a few activations", "recomputes everything twice", "trades compute for memory", ""]
    graded = judged(report(["said", "said", "said", "said"], quotes=quotes))
    assert graded.score == 50 and graded.verdict == "partial"
    contradiction = judged(report(["said", "said", "said", "contradicted"], quotes=[*QUOTES[:3], "made up"]))
    assert contradiction.verdict == "pass"  # an unquoted contradiction is no evidence either


def test_speed_earns_easy_only_with_a_pass_well_above_the_line():
    assert judged(report(["said"] * 4), elapsed=20).rating.name == "EASY"
    assert judged(report(["said"] * 3 + ["not_said"]), elapsed=20).rating.name == "GOOD"
    assert judged(report(["said"] * 4), elapsed=None).rating.name == "GOOD"


def test_quotes_match_across_spaces_case_and_quote_marks():
    answer = "Data  parallelism\nreplicates   the Model on every GPU."
    assert find_quote("data parallelism replicates the model", answer) == (0, 40)
    assert find_quote('"Replicates the model on every GPU."', answer) is not None
    assert find_quote("replicates the weights", answer) is None
    assert find_quote("   ", answer) is None and find_quote('"..."', answer) is None


@given(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=60),
    st.data(),
)
def test_any_stretch_of_the_answer_is_found_saying_the_same(answer, data):
    start = data.draw(st.integers(0, len(answer) - 1))
    end = data.draw(st.integers(start + 1, len(answer)))
    quote = " \n ".join(answer[start:end].split(" "))  # spaced out differently
    wanted = " ".join(quote.strip(TRIMMED).casefold().split())
    span = find_quote(quote, answer)
    if not wanted:
        assert span is None  # nothing but spaces and punctuation: no evidence of anything
        return
    assert span is not None
    assert " ".join(answer[span[0] : span[1]].casefold().split()) == wanted


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"points": [], "pitfalls": []}\n```',
        'Sure! Here is the JSON:\n{"points": [], "pitfalls": []}\nLet me know.',
        'Verdict follows. ```\n{"points": [], "pitfalls": []}```',
    ],
)
def test_json_inside_fences_or_prose_is_read_and_marked_lenient(text):
    reply = parse_reply(text)
    assert reply.points == () and reply.strict is False


def test_the_bare_json_follows_the_schema():
    assert parse_reply(report(["said"] * 4)).strict is True


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "the reply is empty"),
        ("I cannot help with grading.", "not the JSON asked for"),
        ('{"verdict": "pass"}', 'no "points" list'),
        ('{"points": [{"point": 1, "status": "maybe", "quote": ""}], "pitfalls": []}', "status 'maybe'"),
        ('{"points": [{"status": "said", "quote": "x"}], "pitfalls": []}', "no point number"),
        ('{"points": [], "pitfalls": [{"pitfall": 1, "said": "yes", "quote": ""}]}', "true or false"),
    ],
)
def test_a_reply_that_is_not_the_json_asked_for_is_refused(text, why):
    with pytest.raises(MalformedReply, match=why):
        parse_reply(text)


def test_a_question_without_key_points_is_judged_on_its_prepared_answers_sentences():
    bare = question("What is a mutex?", [])
    request = judge_request(bare, "A mutex lets one thread in at a time. Others wait.", "one at a time")
    assert request is not None and request.points == ("A mutex lets one thread in at a time.", "Others wait.")
    assert judge_request(bare, None, "anything") is None


def test_a_quote_is_found_at_whole_characters_of_the_answer():
    # "ß" folds to "ss": the quote "ß" is that character, not the "S" before it and half of it
    assert find_quote("ß", "0Sß") == (2, 3)
    assert find_quote("ss", "Straße") == (4, 5)
