"""Rich renderables for the bank. Functions here build output; they hold no logic of their own.

Rich honours NO_COLOR and drops colour and box-drawing styles when output is not a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from .bank import Bank, Report
    from .models import Question
    from .query import Hit

KIND_STYLE = {"technical": "cyan", "behavioral": "magenta", "strategy": "yellow", "ask": "green"}


def console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def difficulty(level: int) -> str:
    return "●" * level + "○" * (3 - level)


def question_table(bank: "Bank", questions: "list[Question]", hits: "list[Hit] | None" = None) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("category", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("diff", no_wrap=True)
    table.add_column("prompt", overflow="fold", ratio=1)
    if hits is not None:
        table.add_column("match", no_wrap=True)
    rows = hits if hits is not None else questions
    for row in rows:
        q = row.question if hits is not None else row
        cells = [
            q.id,
            bank.category_of[q.id],
            Text(q.kind, style=KIND_STYLE.get(q.kind, "")),
            difficulty(q.difficulty),
            escape(q.prompt),
        ]
        if hits is not None:
            cells.append(f"{row.score:.0f} {row.field}")
        table.add_row(*cells)
    return table


def question_detail(bank: "Bank", question: "Question", *, show_answer: bool = True) -> Group:
    category = bank.category(question.id)
    meta = Text.assemble(
        (category.title, "bold"),
        "  ·  ",
        (question.kind, KIND_STYLE.get(question.kind, "")),
        "  ·  difficulty ",
        difficulty(question.difficulty),
        f"  ·  target {question.target_seconds}s",
    )
    parts: list = [
        Panel(Text(question.prompt, style="bold"), title=question.id, subtitle=meta, title_align="left")
    ]
    if question.tags:
        parts.append(Text("tags: " + ", ".join(question.tags), style="dim"))
    if question.key_points:
        parts.append(Text("\nKey points", style="bold underline"))
        for point in question.key_points:
            line = Text("  • ") + Text(point.text)
            if point.aliases:
                line.append("  (" + "; ".join(point.aliases) + ")", style="dim")
            parts.append(line)
    if question.pitfalls:
        parts.append(Text("\nDon't say", style="bold underline red"))
        for pitfall in question.pitfalls:
            parts.append(Text("  ✗ ", style="red") + Text(pitfall.text))
    answer = bank.answers.get(question.id)
    if show_answer and answer:
        label = "Your answer" if answer.source == "own" else "Model answer"
        parts.append(Text(f"\n{label}", style="bold underline"))
        parts.append(Panel(Text(answer.answer), box=box.ROUNDED, border_style="blue"))
    if question.follow_ups:
        parts.append(Text("\nFollow-ups", style="bold underline"))
        for follow in question.follow_ups:
            prompt = bank.questions[follow].prompt if follow in bank.questions else "?"
            parts.append(Text(f"  → {follow}: ", style="bold") + Text(prompt))
    return Group(*parts)


def validation_report(report: "Report") -> list[Text]:
    from .errors import display_path

    lines: list = [Text(str(p), style="red") for p in report.problems]
    lines += [Text(f"warning: {w}", style="yellow") for w in report.warnings]
    bank = report.bank
    where = f"{display_path(bank.location.root)} ({bank.location.origin})"
    counts = (
        f"{len(bank.questions)} questions in {len(bank.categories)} categories, "
        f"{len(bank.answers)} answers"
    )
    if report.ok:
        lines.append(Text.assemble(("✓ ", "green bold"), f"bank is valid: {counts} — {where}"))
    else:
        n = len(report.problems)
        lines.append(
            Text(f"✗ {n} problem{'s' if n != 1 else ''} in {where}", style="red bold")
        )
    return lines
