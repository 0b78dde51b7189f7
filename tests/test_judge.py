"""The judge model through the real `prep grade` and `prep judge check`: verdicts that follow
the judge's per-point answers by prep's rules, when it is asked, its cache, every way it can
fail (never fatal), the privacy notice, and prep without the `llm` library."""

from __future__ import annotations

import json
import sys

import pytest
import yaml

from .support import GOOD, judge_config, said

ZERO_UNSURE = "ZeRO partitions memory: first the optimizer, then gradients."
BATCH_UNSURE = "We used 1024 sequences; the network between nodes was slow when syncing."
ZERO_FULL = (
    "stage 1 shards the optimizer states, stage 2 also shards the gradients, stage 3 also shards "
    "the parameters"
)
NO_IDEA = "I have no idea."
MIXED = [  # answers the words decide, and answers they cannot (checked in each test that needs it)
    ("zero-stages", ZERO_UNSURE),
    ("dp-batch-size", BATCH_UNSURE),
    ("zero-stages", ZERO_FULL),
    ("dp-vs-mp", GOOD),
    ("dp-vs-mp", NO_IDEA),
]


def batch(tmp_path, rows) -> str:
    path = tmp_path / "attempts.yaml"
    path.write_text(yaml.safe_dump([{"question": q, "answer": a} for q, a in rows]), encoding="utf-8")
    return str(path)


def graded(run, tmp_path, rows, *options: str, config=None) -> list[dict]:
    """The JSON of `prep grade --file` over *rows*, with the config file *config*, if given."""
    before = ["--config", str(config)] if config else []
    result = run(*before, "grade", "--file", batch(tmp_path, rows), "--json", *options)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def expected(points: list[str], pitfalls_said: int) -> tuple[str, int]:
    """The verdict and score the issue's rules give per-point statuses (quotes all genuine)."""
    share = points.count("said") / len(points)
    if "contradicted" in points or pitfalls_said or share < 0.25:
        verdict = "fail"
    else:
        verdict = "pass" if share >= 0.75 else "partial"
    return verdict, round(100 * share)


# Per-point statuses for dp-vs-mp (5 key points, 2 pitfalls), each quoting GOOD's own words.
QUOTES = [
    "each GPU holds a full copy of the model",
    "processes a different part of the batch",
    "gradients are all-reduced",
    "Model parallelism splits the model across GPUs",
    "when it does not fit on one GPU",
]
CASES = [
    (["said"] * 5, 0),
    (["said", "said", "said", "not_said", "said"], 0),
    (["said", "said", "not_said", "not_said", "said"], 0),
    (["said", "not_said", "not_said", "not_said", "not_said"], 0),
    (["not_said"] * 5, 0),
    (["said", "said", "said", "contradicted", "said"], 0),
    (["said"] * 5, 1),
]


def test_judged_verdicts_match_the_doubles_per_point_answers_exactly(run, judges, tmp_path):
    # The judge decides every answer here; the batch has one answer per case, each told apart
    # by a tag the table looks it up by.
    config = judge_config(tmp_path / "config.toml", "prep-table", when="always")
    rows = []
    for number, (statuses, pitfalls) in enumerate(CASES):
        answer = f"{GOOD} (case {number})"
        points = [(n, s, QUOTES[n - 1] if s != "not_said" else "") for n, s in enumerate(statuses, 1)]
        judges.reply(answer, said(*points, pitfalls=((2, "the model across GPUs"),) if pitfalls else ()))
        rows.append(("dp-vs-mp", answer))
    results = graded(run, tmp_path, rows, config=config)
    for (statuses, pitfalls), result in zip(CASES, results):
        verdict, score = expected(statuses, pitfalls)
        assert (result["verdict"], result["score"]) == (verdict, score), statuses
        assert result["judge"] == {"model": "prep-table", "used": True, "error": None}
        said_texts = [m["text"] for m in result["matched"]]
        assert len(said_texts) == statuses.count("said")
        assert [m["excerpt"] for m in result["matched"]] == [
            q for q, s in zip(QUOTES, statuses) if s == "said"
        ]
        assert len(result["contradicted"]) == statuses.count("contradicted")
        assert len(result["pitfalls"]) == pitfalls
        assert result["rating"] == {"pass": "good", "partial": "hard", "fail": "again"}[verdict]


def test_the_schema_and_the_question_are_what_the_model_is_sent(run, judges, tmp_path):
    from prep.grading.judge_exchange import SCHEMA

    config = judge_config(tmp_path / "config.toml", "prep-table", when="always")
    graded(run, tmp_path, [("dp-vs-mp", GOOD)], config=config)
    (call,) = judges.calls()
    assert call["model"] == "prep-table" and call["schema"] == SCHEMA
    prompt = call["prompt"]
    assert "What is the difference between data parallelism and model parallelism?" in prompt
    assert "1. in data parallelism every GPU holds a full replica of the model" in prompt
    assert "5. model parallelism is needed when the model does not fit on one GPU" in prompt
    assert "2. data parallelism splits the model across GPUs" in prompt  # the pitfalls, numbered
    assert f"<<<ANSWER\n{GOOD}\nANSWER>>>" in prompt


def test_when_unsure_the_model_is_called_once_per_unsure_verdict_and_never_otherwise(run, judges, tmp_path):
    words = graded(run, tmp_path, MIXED)
    unsure = [row for row, result in zip(MIXED, words) if result["verdict"] == "unsure"]
    assert unsure and len(unsure) < len(MIXED)  # the batch has both kinds
    config = judge_config(tmp_path / "config.toml", "prep-table")  # when = "unsure", the default
    results = graded(run, tmp_path, MIXED, config=config)
    sent = [call["prompt"] for call in judges.calls()]
    assert len(sent) == len(unsure)
    assert all(f"<<<ANSWER\n{answer}\nANSWER>>>" in prompt for (_, answer), prompt in zip(unsure, sent))
    for word, result in zip(words, results):
        assert result["judge"]["used"] == (word["verdict"] == "unsure")
        if word["verdict"] != "unsure":
            assert result == {**word, "judge": result["judge"]}  # the words' grade, as it was


def test_when_always_every_answer_is_judged(run, judges, tmp_path):
    config = judge_config(tmp_path / "config.toml", "prep-table", when="always")
    results = graded(run, tmp_path, MIXED, config=config)
    assert len(judges.calls()) == len(MIXED)
    assert all(r["judge"]["used"] for r in results)


def test_with_no_judge_set_the_model_is_never_called(run, judges, tmp_path):
    results = graded(run, tmp_path, MIXED)
    assert judges.calls() == []
    assert all(r["judge"] is None for r in results)
    config = judge_config(tmp_path / "config.toml", "prep-table", when="always")
    graded(run, tmp_path, MIXED, config=config)
    assert judges.calls()  # the same batch with a judge set does call it
    judges.log.unlink()
    result = run("--config", str(config), "grade", "--file", batch(tmp_path, MIXED), "--json", "--no-judge")
    assert result.exit_code == 0 and judges.calls() == []
    assert all(r["judge"] is None for r in json.loads(result.stdout))


def test_judge_option_overrides_the_config_for_one_run(run, judges, tmp_path):
    words = graded(run, tmp_path, [("zero-stages", ZERO_UNSURE)])
    assert words[0]["verdict"] == "unsure"
    judges.reply(
        ZERO_UNSURE,
        said((1, "said", "first the optimizer"), (2, "said", "then gradients"), (3, "not_said", "")),
    )
    results = graded(run, tmp_path, [("zero-stages", ZERO_UNSURE)], "--judge", "prep-table")
    assert results[0]["judge"]["used"] and results[0]["verdict"] == "partial" and results[0]["score"] == 67
    both = run("grade", "zero-stages", "--answer", ZERO_UNSURE, "--judge", "prep-table", "--no-judge")
    assert both.exit_code == 2 and "exclude each other" in both.output


def test_a_model_that_always_errors_leaves_every_grade_in_place(run, judges, tmp_path):
    words = graded(run, tmp_path, MIXED)
    config = judge_config(tmp_path / "config.toml", "prep-raising", when="always")
    result = run("--config", str(config), "grade", "--file", batch(tmp_path, MIXED), "--json")
    assert result.exit_code == 0
    results = json.loads(result.stdout)
    for word, judged in zip(words, results):
        assert judged["judge"] == {"model": "prep-raising", "used": False, "error": judged["judge"]["error"]}
        assert "overloaded" in judged["judge"]["error"]
        assert {**judged, "judge": None} == {**word, "judge": None}
    failures = [line for line in result.stderr.splitlines() if "the word-level grade stands" in line]
    assert len(failures) == 1  # one line, however many answers it failed on


@pytest.mark.parametrize(
    ("model", "why"),
    [("prep-malformed", "not the JSON asked for"), ("prep-slow", "no reply within 0.2 s")],
)
def test_a_malformed_reply_or_a_timeout_keeps_the_words_grade(run, judges, tmp_path, monkeypatch, model, why):
    monkeypatch.setenv("PREP_TEST_JUDGE_SLEEP", "2")
    config = judge_config(tmp_path / "config.toml", model, when="always", timeout_seconds=0.2)
    word = json.loads(run("grade", "dp-vs-mp", "--answer", GOOD, "--json").stdout)
    result = run("--config", str(config), "grade", "dp-vs-mp", "--answer", GOOD, "--json")
    assert result.exit_code == 0
    judged = json.loads(result.stdout)
    assert judged["judge"]["used"] is False and why in judged["judge"]["error"]
    assert {**judged, "judge": None} == {**word, "judge": None}
    assert f"judge {model}: " in result.stderr


def test_quotes_not_in_the_answer_count_as_not_said(run, judges, tmp_path):
    config = judge_config(tmp_path / "config.toml", "prep-table", when="always")
    judges.reply(
        GOOD,
        said(
            *((n, "said", q) for n, q in enumerate(QUOTES[:4], 1)),
            (5, "said", "pipeline parallelism splits the layers"),  # not in the answer
            pitfalls=((1, "data parallelism reduces memory"),),  # made up: not a pitfall said
        ),
    )
    (result,) = graded(run, tmp_path, [("dp-vs-mp", GOOD)], config=config)
    assert (result["verdict"], result["score"]) == ("pass", 80)
    assert [m["excerpt"] for m in result["matched"]] == QUOTES[:4]
    assert result["pitfalls"] == []


def test_a_reply_in_prose_and_code_fences_is_read(run, judges, tmp_path):
    judges.reply(GOOD, said(*((n, "said", q) for n, q in enumerate(QUOTES, 1))))
    config = judge_config(tmp_path / "config.toml", "prep-table-prose", when="always")
    (result,) = graded(run, tmp_path, [("dp-vs-mp", GOOD)], config=config)
    assert result["judge"]["used"] and result["verdict"] == "pass" and result["score"] == 100
    assert judges.calls()[0]["schema"] is None  # no schema support: asked in the prompt alone


def test_replies_are_cached_so_a_regrade_asks_nothing(run, judges, tmp_path, state_file):
    judges.reply(GOOD, said(*((n, "said", q) for n, q in enumerate(QUOTES, 1))))
    config = judge_config(tmp_path / "config.toml", "prep-table", when="always")
    first = graded(run, tmp_path, [("dp-vs-mp", GOOD)], config=config)
    second = graded(run, tmp_path, [("dp-vs-mp", GOOD)], config=config)
    assert len(judges.calls()) == 1 and first == second
    other = graded(run, tmp_path, [("dp-vs-mp", GOOD + " ")], config=config)
    assert len(judges.calls()) == 2 and other[0]["judge"]["used"]  # another answer: asked
    import sqlite3

    rows = sqlite3.connect(state_file).execute("SELECT model, answer FROM judge_replies").fetchall()
    assert sorted(rows) == sorted([("prep-table", GOOD), ("prep-table", GOOD + " ")])


def test_a_failed_reply_is_not_cached(run, judges, tmp_path):
    config = judge_config(tmp_path / "config.toml", "prep-malformed", when="always")
    for _ in range(2):
        graded(run, tmp_path, [("dp-vs-mp", GOOD)], config=config)
    assert len(judges.calls()) == 2


def test_the_privacy_notice_is_said_once_and_remembered_in_the_config(run, judges, tmp_path):
    config = judge_config(tmp_path / "config.toml", "prep-table", when="always")
    first = run("--config", str(config), "grade", "dp-vs-mp", "--answer", GOOD, "--json")
    assert "prep-table now gets the question" in first.stderr and "your answer" in first.stderr
    assert 'notified = ["prep-table"]' in config.read_text()
    again = run("--config", str(config), "grade", "dp-vs-mp", "--answer", GOOD + ".", "--json")
    assert again.exit_code == 0 and "now gets" not in again.stderr
    other = run("--config", str(config), "grade", "dp-vs-mp", "--answer", GOOD, "--judge", "prep-table-prose")
    assert "prep-table-prose now gets the question" in other.stderr  # another model: said for it


def test_a_model_llm_does_not_know_is_an_error_before_anything_is_sent(run, judges, tmp_path):
    config = judge_config(tmp_path / "config.toml", "no-such-model", when="always")
    result = run("--config", str(config), "grade", "dp-vs-mp", "--answer", GOOD)
    assert result.exit_code == 2
    assert "config.toml:5: llm knows no model 'no-such-model'" in result.stderr
    assert "now gets" not in result.stderr and "notified" not in config.read_text()


def test_a_model_named_with_judge_that_llm_does_not_know_is_said_even_when_not_asked(run, judges):
    # The words decide this answer (no judge is asked under when = "unsure"); the typo is said all the same.
    result = run("grade", "dp-vs-mp", "--answer", "no idea", "--judge", "no-such-model")
    assert result.exit_code == 2 and "--judge: llm knows no model 'no-such-model'" in result.stderr


def test_without_the_llm_library_the_judge_options_say_how_to_install_it(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "llm", None)  # as if `pip install 'prep[judge]'` never ran
    for args in (["grade", "dp-vs-mp", "--answer", GOOD, "--judge", "some-model"], ["judge", "check", "m"]):
        result = run(*args)
        assert result.exit_code == 2
        assert result.stderr.strip().splitlines() == [
            "prep: the judge needs the llm library, which is not installed: pip install 'prep[judge]'"
        ]
    plain = run("grade", "dp-vs-mp", "--answer", GOOD, "--json")  # no judge asked for: prep works
    assert plain.exit_code == 0 and json.loads(plain.stdout)["judge"] is None


def test_bad_judge_settings_name_the_line(run, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[judge]\nmodel = "m"\nwhen = "sometimes"\n')
    result = run("--config", str(config), "grade", "dp-vs-mp", "--answer", GOOD)
    assert result.exit_code == 1
    assert 'config.toml:3: [judge] when must be "unsure" or "always", not "sometimes"' in result.stderr
    config.write_text('[judge]\nmodel = "m"\ntimeout_seconds = 0\n')
    assert (
        "timeout_seconds must be"
        in run("--config", str(config), "grade", "dp-vs-mp", "--answer", GOOD).stderr
    )


def test_judge_check_sends_one_fixed_example(run, judges, tmp_path):
    from prep.review.judge_check import EXAMPLE_ANSWER

    judges.reply(
        EXAMPLE_ANSWER,
        said(
            (1, "said", "we keep the key and value vectors already computed for the earlier tokens"),
            (2, "said", "instead of reprocessing the prefix"),
            (3, "said", "grows with the context length and with the batch size"),
        ),
    )
    result = run("judge", "check", "prep-table", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["model"] == "prep-table" and data["verdict"] == data["expected"] == "pass"
    assert data["schema_requested"] is True and data["schema_followed"] == "yes"
    assert data["seconds"] >= 0 and data["error"] is None
    prose = run("judge", "check", "prep-table-prose")
    assert prose.exit_code == 0
    assert "schema followed: after lenient parsing" in prose.stdout and "latency:" in prose.stdout
    broken = run("judge", "check", "prep-malformed")
    assert broken.exit_code == 1 and "schema followed: no" in broken.stdout
    assert run("judge", "check").exit_code == 1  # no model named, none in the config


def test_a_batch_table_says_who_decided_each_grade_when_a_judge_is_set(run, judges, tmp_path):
    plain = run("grade", "--file", batch(tmp_path, MIXED))
    assert plain.exit_code == 0 and " by" not in plain.stdout.splitlines()[0]
    config = judge_config(tmp_path / "config.toml", "prep-table")
    result = run("--config", str(config), "grade", "--file", batch(tmp_path, MIXED))
    lines = result.stdout.splitlines()
    assert lines[0].split()[-1] == "by"
    decided = [
        line.split()[-1]
        for line in lines
        if line.split()[:1] in (["zero-stages"], ["dp-vs-mp"], ["dp-batch-size"])
    ]
    assert decided.count("judge") == len(judges.calls()) >= 1 and "words" in decided


def test_a_weak_story_judged_complete_still_suggests_hard_at_best(run, judges, tmp_path):
    # biggest-failure has no key points: it is judged against its prepared answer's 4 sentences.
    story = "I would probably add a version check to the data pipeline and rerun the training."
    quote = "add a version check to the data pipeline"
    judges.reply(story, said(*((n, "said", quote) for n in range(1, 5))))
    config = judge_config(tmp_path / "config.toml", "prep-table", when="always")
    (result,) = graded(run, tmp_path, [("biggest-failure", story)], config=config)
    assert result["judge"]["used"] and (result["verdict"], result["score"]) == ("pass", 100)
    assert result["structure"]["verdict"] == "weak" and result["rating"] == "hard"
