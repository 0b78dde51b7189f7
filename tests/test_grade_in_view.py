"""The score and the key points stay on screen when the rating is asked, however long the
prepared answer: it is cut to the room left (and `a` shows it whole), in a real terminal at
100x30 and at 70x20."""

from __future__ import annotations

import io

import pytest

from .support import spawn_prep, terminal_env, write

LONG_ANSWER = " ".join(
    f"Sentence {n} of a long prepared answer that explains data and model parallelism at length."
    for n in range(1, 41)
)

BANK = """\
category: parallelism
title: Parallelism
questions:
  - id: dp-vs-mp
    prompt: What is the difference between data parallelism and model parallelism?
    key_points:
      - every GPU holds a full replica of the model
      - gradients are averaged across GPUs with all-reduce
      - the model itself is split across GPUs
      - model parallelism is needed when the model does not fit on one GPU
"""


@pytest.fixture
def long_answer_bank(tmp_path):
    root = tmp_path / "long"
    write(root / "questions" / "parallelism.yaml", BANK)
    write(
        root / "answers" / "answers.yaml",
        "answers:\n  - question: dp-vs-mp\n    answer: >\n      " + LONG_ANSWER + "\n",
    )
    return root


def _screen_at_the_rating(bank, state_file, home, rows: int, columns: int):  # type: ignore[no-untyped-def]
    """What the terminal shows when the Rate prompt appears, and the child, still running."""
    import pyte

    screen = pyte.Screen(columns, rows)
    stream = pyte.Stream(screen)
    seen = io.StringIO()
    child = spawn_prep(
        bank,
        state_file,
        "drill",
        env={**terminal_env(home), "PAGER": "cat", "COLUMNS": str(columns), "LINES": str(rows)},
        dimensions=(rows, columns),
    )
    child.logfile_read = seen
    child.expect("Your answer")
    child.sendline("Every GPU holds a full replica of the model and the gradients are all-reduced.")
    child.sendline("")
    child.expect(r"\(Enter = \w+\)")
    stream.feed(seen.getvalue())
    return [line.rstrip() for line in screen.display], child, seen


@pytest.mark.parametrize(("rows", "columns"), [(30, 100), (20, 70)])
def test_the_score_and_key_points_are_in_view_when_the_rating_is_asked(
    long_answer_bank, state_file, isolated_home, rows, columns
):
    shown, child, _ = _screen_at_the_rating(long_answer_bank, state_file, isolated_home, rows, columns)
    try:
        text = "\n".join(shown)
        assert "/100" in text, text  # the score bar
        assert "✓ 1. every GPU holds a full replica of the model" in text, text
        for point in ("the model itself is split", "model parallelism is needed when"):
            assert point in text, text
        assert "press a to read" in text, text
        assert "Rate:" in text
    finally:
        child.close(force=True)


def test_a_shows_the_whole_prepared_answer_and_asks_again(long_answer_bank, state_file, isolated_home):
    _, child, seen = _screen_at_the_rating(long_answer_bank, state_file, isolated_home, 20, 70)
    try:
        child.send("a")
        child.expect("Sentence 40 of a long")
        child.expect("Rate:")
        child.send("3")
        child.expect("next review")
    finally:
        child.close(force=True)
