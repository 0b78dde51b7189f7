"""How `prep stories` prints the story bank: each story with the questions it covers, then the
behavioral questions that no story covers yet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from prep.cli.plain import counted

if TYPE_CHECKING:
    from prep.bank.stories import Coverage


def coverage_report(coverage: Coverage, width: int = 100) -> Group:
    parts: list = []
    if coverage.stories:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(overflow="fold")
        for use in coverage.stories:
            numbers = f"  ({counted(len(use.story.metrics), 'number')})" if use.story.metrics else ""
            grid.add_row(Text(use.story.id, style="bold"), Text(use.story.title) + Text(numbers, style="dim"))
            covers = Text(", ".join(use.questions)) if use.questions else Text("nothing yet", style="yellow")
            grid.add_row(Text("  covers", style="dim"), covers)
        parts.append(grid)
        parts.append(Text(counted(len(coverage.stories), "story", "stories"), style="dim"))
    else:
        parts.append(Text("No stories yet: `prep add --story` writes one (see the README, Stories)."))
    if coverage.uncovered:
        parts.append(Text(""))
        parts.append(
            Text(f"Behavioral questions no story covers yet ({len(coverage.uncovered)}):", style="bold")
        )
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column(overflow="fold")
        for question in coverage.uncovered:
            grid.add_row(f"  {question.id}", Text(question.prompt, style="dim"))
        parts.append(grid)
        parts.append(
            Text("name a story in the question's answer (`stories: [ID]`), or `prep add --story --for ID`")
        )
    elif coverage.stories:
        parts.append(Text("Every behavioral question has a story.", style="green"))
    return Group(*parts)
