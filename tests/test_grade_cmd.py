"""`prep grade` from the command line: one attempt, stdin, a batch file, errors."""

from __future__ import annotations

import json

from .support import GOOD, write


def test_grade_with_answer_option(run):
    result = run("grade", "dp-vs-mp", "--answer", GOOD)
    assert result.exit_code == 0
    assert "PASS" in result.output
    assert "suggested rating: good" in result.output


def test_grade_json_is_exactly_one_object(run):
    result = run("grade", "dp-vs-mp", "--answer", "gradients are all-reduced", "--json")
    data = json.loads(result.output)
    assert data["question"] == "dp-vs-mp"
    assert data["verdict"] in ("fail", "partial")
    assert [m["text"] for m in data["matched"]] == ["gradients are averaged across GPUs with all-reduce"]
    assert len(data["missed"]) == 4


def test_grade_reads_stdin_when_no_answer(run):
    result = run("grade", "dp-vs-mp", "--json", input=GOOD)
    assert json.loads(result.output)["verdict"] == "pass"


def test_grade_elapsed_allows_easy(run):
    data = json.loads(run("grade", "dp-vs-mp", "--answer", GOOD, "--elapsed", "20", "--json").output)
    assert data["rating"] == "easy"


def test_grade_file_batch(run, tmp_path):
    attempts = write(
        tmp_path / "attempts.yaml",
        f"""\
        - question: dp-vs-mp
          answer: "{GOOD}"
        - question: zero-stages
          answer: I have no idea.
        """,
    )
    result = run("grade", "--file", str(attempts), "--json")
    data = json.loads(result.output)
    assert [(d["question"], d["verdict"]) for d in data] == [("dp-vs-mp", "pass"), ("zero-stages", "fail")]


def test_grade_file_with_unknown_question_points_at_the_line(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    attempts = write(
        tmp_path / "attempts.yaml", "- question: dp-vs-mp\n  answer: x\n- question: nope\n  answer: y\n"
    )
    result = run("grade", "--file", str(attempts), "--json")
    assert result.exit_code == 2
    assert "attempts.yaml:3:3: no question with id 'nope'" in result.output


def test_grade_unknown_id(run):
    result = run("grade", "nope", "--answer", "x")
    assert result.exit_code == 1
    assert "no question with id 'nope'" in result.output


def test_grade_needs_an_id_or_a_file(run):
    result = run("grade", "--answer", "x")
    assert result.exit_code == 1
    assert "give a question ID" in result.output


def test_grade_file_refuses_what_it_would_misread(run, tmp_path, monkeypatch):
    """A typo in a field name is not an empty answer, and a negative time is not a time."""
    monkeypatch.chdir(tmp_path)
    attempts = write(
        tmp_path / "attempts.yaml",
        (
            "- question: dp-vs-mp\n  answr: typo\n"
            "- question: dp-vs-mp\n  answer: fine\n  extra: 1\n"
            "- question: dp-vs-mp\n  answer: fine\n  elapsed: -3\n"
            "- question: dp-vs-mp\n  answer: 5\n"
        ),
    )
    result = run("grade", "--file", str(attempts), "--json")
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert "attempts.yaml:2:3: unknown field 'answr' (fields: question, answer, elapsed)" in lines
    assert "attempts.yaml:1:3: missing field 'answer'" in lines
    assert "attempts.yaml:5:3: unknown field 'extra' (fields: question, answer, elapsed)" in lines
    assert "attempts.yaml:8:3: elapsed must be a number of seconds, 0 or more" in lines
    assert "attempts.yaml:10:3: answer must be text" in lines
    assert "prep: the input has 5 problems; fix them and try again" in lines


def test_grade_refuses_an_empty_answer(run):
    for args, stdin in ((("grade", "dp-vs-mp", "-a", "  "), None), (("grade", "dp-vs-mp"), "\n")):
        result = run(*args, input=stdin)
        assert result.exit_code == 1 and "the answer is empty: nothing to grade" in result.output


def test_a_point_said_of_the_wrong_thing_is_shown_once_and_not_offered_for_teaching(run, tmp_path):
    bank = tmp_path / "queue"
    (bank / "questions").mkdir(parents=True)
    (bank / "questions" / "q.yaml").write_text(
        "category: conc\ntitle: Concurrency\nquestions:\n  - id: queue\n"
        "    prompt: Around a bounded queue, what does the producer do and what does the consumer do?\n"
        "    key_points:\n"
        "      - the producer creates items and puts them into the queue\n"
        "      - the producer blocks when the queue is full\n"
        "      - the consumer takes items out of the queue and processes them\n"
    )
    swapped = (
        "The consumer is the side that makes the work: it builds each item and puts it into the queue, "
        "blocking whenever the queue is full. The producer takes items off the queue and processes them."
    )
    output = run("grade", "queue", "--answer", swapped, bank=bank).output
    assert "said of the wrong one: 2. the producer blocks when the queue is full" in output
    assert "teach queue --point 2" not in output  # teaching it would teach the swap
    assert output.count("the producer blocks when the queue is full") == 1
