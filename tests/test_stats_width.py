"""`prep stats` uses the width of the terminal for category titles, and no more."""

from __future__ import annotations

import json
import re

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
    assert max(len(line) for line in result.stdout.splitlines()) <= columns


def _titles(rows: list[str]) -> str:
    """The category column's text, its lines run together: what comes before the figures."""
    return " ".join(re.split(r"\s{2,}", row.strip())[0] for row in rows)


@pytest.mark.parametrize("columns", [80, 60])
def test_a_narrow_terminal_wraps_titles_and_keeps_every_figure(run, long_titles, columns):
    result = run("stats", env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    rows = _category_rows(result.output)
    assert "…" not in "\n".join(rows)  # no title is cut short
    if columns == 80:  # words wrap whole, over as many lines as they need
        assert LONG_TITLE in _titles(rows), rows
    assert all(len(row) <= columns for row in rows)
    figures = [row for row in rows if re.search(r"\d\s+\d", row)]
    assert len(figures) == 3 and all(row.split()[-1].isdigit() for row in figures), rows


def test_every_bundled_category_title_is_whole_at_80_columns(run):
    from prep.paths import bundled_bank_root

    result = run("stats", env={"COLUMNS": "80"}, bank=bundled_bank_root())
    titles = _titles(_category_rows(result.output))
    for category in json.loads(run("stats", "--json", bank=bundled_bank_root()).output)["categories"]:
        assert category["title"] in titles, (category["title"], titles)


@pytest.mark.parametrize("columns", ["60", "80", "120"])
def test_the_summary_lines_break_between_figures_never_inside_one(run, columns):
    run("drill", input="no idea\n\n1\nq\n")  # one review, so every figure is there
    output = run("stats", env={"COLUMNS": columns}).output
    head = output.split("\n\nBy category")[0].splitlines()
    assert all(len(line) <= int(columns) for line in head)
    figures = [part.strip() for line in head for part in line.split("  ·  ")]
    assert "due this week 1" in figures and "1 review" in figures
    assert any(f.startswith("you accepted the grader's rating") and f.endswith("of 1 time") for f in figures)
