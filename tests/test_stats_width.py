"""`prep stats` uses the width of the terminal for category titles, and no more."""

from __future__ import annotations

import pytest

from .support import write

LONG_TITLE = "Parallelism, sharding and distributed training at scale"  # 56 characters


@pytest.fixture
def long_titles(bank_dir):
    path = bank_dir / "questions" / "parallelism.yaml"
    path.write_text(path.read_text().replace("title: Parallelism\n", f"title: {LONG_TITLE}\n"))
    write(
        bank_dir / "questions" / "ask.yaml",
        "category: ask\ntitle: Questions to ask the interviewer about the team\nquestions:\n"
        "  - id: ask-team\n    prompt: How does the team decide what to build next?\n    kind: ask\n",
    )
    return bank_dir


def _category_rows(output: str) -> list[str]:
    lines = output.splitlines()
    start = lines.index("By category, weakest first") + 3  # the title, the header, its rule
    return lines[start : lines.index("", start)]


@pytest.mark.parametrize("columns", [110, 140])
def test_titles_are_whole_when_the_terminal_has_room(run, long_titles, columns):
    result = run("stats", env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    rows = _category_rows(result.output)
    assert any(LONG_TITLE in row for row in rows), rows
    assert any("Questions to ask the interviewer about the team" in row for row in rows), rows
    assert max(len(line) for line in result.output.splitlines()) <= columns


@pytest.mark.parametrize("columns", [80, 60])
def test_a_narrow_terminal_shortens_titles_and_keeps_every_figure(run, long_titles, columns):
    result = run("stats", env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    rows = _category_rows(result.output)
    long_row = next(row for row in rows if row.lstrip().startswith("Par"))
    assert "…" in long_row and LONG_TITLE not in long_row
    if columns == 80:
        assert long_row.lstrip().startswith("Parallelism, sharding"), long_row
    assert all(len(row) <= columns for row in rows)
    assert all(row.split()[-1].isdigit() for row in rows), rows  # lapses, the last column, is whole


@pytest.mark.parametrize("columns", ["60", "80", "120"])
def test_the_summary_lines_break_between_figures_never_inside_one(run, columns):
    run("drill", input="no idea\n\n1\nq\n")  # one review, so every figure is there
    output = run("stats", env={"COLUMNS": columns}).output
    head = output.split("\n\nBy category")[0].splitlines()
    assert all(len(line) <= int(columns) for line in head)
    figures = [part.strip() for line in head for part in line.split("  ·  ")]
    assert "due this week 1" in figures and "1 review" in figures
    assert any(f.startswith("you accepted the grader's rating") and f.endswith("of 1 time") for f in figures)
