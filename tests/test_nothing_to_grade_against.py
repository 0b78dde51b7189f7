"""A question with nothing to grade against (no key points, no prepared answer): a drill asks for a
rating without suggesting one, and `prep grade` and `prep teach` say why they cannot help."""

from __future__ import annotations

from .support import NOW, reviews, write

BARE = """\
category: bare
title: Bare
questions:
  - id: no-rubric
    prompt: Tell me something you learned this week.
"""


def test_with_nothing_to_grade_against_the_user_rates_without_a_suggestion(run, bank_dir, state_file):
    write(bank_dir / "questions" / "bare.yaml", BARE)
    result = run("drill", "-c", "bare", input="I learned about ring buffers.\n\n\n3\n", env=NOW)
    assert result.exit_code == 0, result.output
    assert "FAIL" not in result.output and "Nothing to grade against" in result.output
    assert "no suggestion to accept: choose 1-4" in result.output  # Enter alone rates nothing
    assert reviews(state_file) == [("no-rubric", 3, None, None, "I learned about ring buffers.", "type")]


def test_grade_says_when_there_is_nothing_to_grade_against(run, bank_dir):
    write(bank_dir / "questions" / "bare.yaml", BARE)
    result = run("grade", "no-rubric", "--answer", "ring buffers")
    assert result.exit_code == 1
    assert "nothing to grade against" in result.output and "Traceback" not in result.output


def test_teaching_a_question_without_key_points_says_so(run):
    result = run("teach", "biggest-failure", "--point", "1", "--answer", "I shipped a data check.")
    assert result.exit_code == 1
    assert "biggest-failure has no key points: there is nothing to teach" in result.stderr
