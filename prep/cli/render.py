"""Rich renderables for the bank. Functions here build output; they hold no logic of their own.

Rich honours NO_COLOR and drops colour and box-drawing styles when output is not a terminal.
"""

from __future__ import annotations

import io
import sys
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from prep.cli.plain import counted

if TYPE_CHECKING:
    from prep.bank.lint import Report
    from prep.bank.loaded import Bank
    from prep.bank.schema import Question
    from prep.bank.search import Hit

KIND_STYLE = {"technical": "cyan", "behavioral": "magenta", "strategy": "yellow", "ask": "green"}


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich would exit 1; a reader that has all it wanted (`prep list | head -1`) is a success,
        # which prep.cli.app decides, as it does for every other write.
        self.quiet = True
        raise BrokenPipeError


def console(stderr: bool = False, **options: Any) -> Console:
    # No markup: bank text and typed answers are printed as written, "[mask]" and "[/]" included.
    stream = sys.stderr if stderr else sys.stdout
    if not _is_terminal(stream):
        options["file"] = TrimmedLines(stream)
    return _Console(**{"stderr": stderr, "highlight": False, "soft_wrap": False, "markup": False, **options})


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class TrimmedLines(io.TextIOBase):
    """A file or pipe gets lines without the spaces rich pads tables and wrapped text with to
    the console's width: noise in a log, and in a diff."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self._partial = ""

    def write(self, text: str) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        if lines:
            self.stream.write("\n".join(line.rstrip(" ") for line in lines) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._partial:  # a prompt waiting for input on the same line keeps its spaces
            self.stream.write(self._partial)
            self._partial = ""
        self.stream.flush()

    def isatty(self) -> bool:
        return False


def difficulty(level: int) -> str:
    return "●" * level + "○" * (3 - level)


def question_table(
    bank: Bank, questions: list[Question], hits: list[Hit] | None = None, width: int = 120
) -> Table:
    rows = hits if hits is not None else questions
    shown = [row.question if hits is not None else row for row in rows]
    # Columns give way in this order as the terminal narrows: kind and difficulty, category
    # (`prep show` has them all), and last the id's single line. An id is what every other
    # command takes, so it stays whole while the prompt keeps 20 columns.
    longest = max((len(q.id) for q in shown), default=2)
    match = 15 if hits is not None else 0
    whole_ids = longest + match + 24 <= width
    id_width = longest if whole_ids else max(12, width - match - 24)  # folded: as wide as leaves 20
    room = width - id_width - match - 4  # what the prompt would get alone
    categories = len({bank.category_of[q.id] for q in shown}) > 1 and room >= 50
    room -= 16 if categories else 0
    roomy = room >= 60
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    if whole_ids:
        table.add_column("id", style="bold", no_wrap=True, min_width=longest)
    else:  # squeezed below the width its text wrapped to, rich would crop letters: fold instead
        table.add_column("id", style="bold", overflow="fold", max_width=id_width)
    if categories:
        table.add_column("category", overflow="fold", max_width=14)
    if roomy:
        table.add_column("kind", no_wrap=True)
        table.add_column("diff", no_wrap=True)
    table.add_column("prompt", overflow="fold", ratio=1, min_width=16)
    if hits is not None:
        table.add_column("match", no_wrap=True, min_width=12, max_width=14)  # "81 key point"
    for row, q in zip(rows, shown):
        cells = [q.id]
        if categories:
            cells.append(bank.category_of[q.id])
        if roomy:
            cells += [Text(q.kind, style=KIND_STYLE.get(q.kind, "")), difficulty(q.difficulty)]
        cells.append(Text(q.prompt))
        if hits is not None:
            cells.append(f"{row.score:.0f} {row.field}")
        table.add_row(*cells)
    return table


def prompt_panel(prompt: str, meta: Text, width: int, **panel: object) -> Panel:
    """The prompt in a panel, its details in the bottom border when they fit there; in a narrow
    terminal they go under the prompt instead, so nothing (the target time) is cut off."""
    body = Text(prompt, style="bold")
    if meta.cell_len + 6 <= width:
        return Panel(body, subtitle=meta, subtitle_align="right", **panel)  # type: ignore[arg-type]
    return Panel(Group(body, meta), **panel)  # type: ignore[arg-type]


def question_detail(
    bank: Bank, question: Question, *, show_answer: bool = True, width: int = 80, aliases: bool = False
) -> Group:
    category = bank.category(question.id)
    meta = Text.assemble(
        (category.title, "bold"),
        "  ·  ",
        (question.kind, KIND_STYLE.get(question.kind, "")),
        "  ·  difficulty ",
        difficulty(question.difficulty),
        f"  ·  target {question.target_seconds}s",
    )
    parts: list = [prompt_panel(question.prompt, meta, width, title=question.id, title_align="left")]
    if question.tags:
        parts.append(Text("tags: " + ", ".join(question.tags), style="dim"))
    if question.key_points:
        parts.append(Text("\nKey points", style="bold underline"))
        parts.append(_claim_list(question.key_points, Text("  • "), aliases))
    if question.pitfalls:
        parts.append(Text("\nDon't say", style="bold underline red"))
        parts.append(_claim_list(question.pitfalls, Text("  ✗ ", style="red"), aliases))
    if not aliases and any(c.aliases for c in (*question.key_points, *question.pitfalls)):
        parts.append(Text("(other phrasings the grader accepts: prep show --aliases)", style="dim"))
    if question.notes:
        parts.append(Text("\nNotes", style="bold underline"))
        parts.append(Text(question.notes))
    answer = bank.answers.get(question.id)
    if show_answer and answer:
        label = "Your answer" if answer.source == "own" else "Model answer"
        parts.append(Text(f"\n{label}", style="bold underline"))
        parts.append(Panel(Text(answer.answer), box=box.ROUNDED, border_style="blue"))
    if question.follow_ups:
        parts.append(Text("\nFollow-ups", style="bold underline"))
        grid = marked_lines()
        for follow in question.follow_ups:
            prompt = bank.questions[follow].prompt if follow in bank.questions else "?"
            grid.add_row(Text("  → "), Text(f"{follow}: ", style="bold") + Text(prompt))
        parts.append(grid)
    return Group(*parts)


def _claim_list(claims, mark: Text, aliases: bool) -> Table:  # type: ignore[no-untyped-def]
    """Claims under their marks, wrapped lines indented under the text; with *aliases*, each
    other phrasing on a line of its own below its claim."""
    grid = marked_lines()
    for claim in claims:
        grid.add_row(mark, Text(claim.text))
        for alias in claim.aliases if aliases else ():
            phrasing = marked_lines()
            phrasing.add_row(Text("= ", style="dim"), Text(alias, style="dim"))
            grid.add_row("", phrasing)
    return grid


def marked_lines() -> Table:
    """Rows of a mark ("✓", "•", "→") and a text, the mark in a column of its own so that a long
    text wraps under itself, not under the mark."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column()
    return grid


def validation_report(report: Report) -> list[Text]:
    from prep.errors import display_path

    lines: list = [Text(str(p), style="red") for p in report.problems]
    lines += [Text(f"warning: {w}", style="yellow") for w in report.warnings]
    bank = report.bank
    where = f"{display_path(bank.location.root)} ({bank.location.origin})"
    counts = (
        f"{counted(len(bank.questions), 'question')} in {counted(len(bank.categories), 'category')}, "
        f"{counted(len(bank.answers), 'answer')}"
    )
    if report.ok:
        lines.append(Text.assemble(("✓ ", "green bold"), f"bank is valid: {counts} — {where}"))
    else:
        n = len(report.problems)
        lines.append(Text(f"✗ {n} problem{'s' if n != 1 else ''} in {where}", style="red bold"))
    return lines


VERDICT_STYLE = {"pass": "bold green", "partial": "bold yellow", "fail": "bold red"}


def score_bar(score: int, verdict: str, width: int = 30) -> Text:
    filled = round(width * score / 100)
    style = VERDICT_STYLE.get(verdict, "")
    return Text.assemble(
        ("█" * filled, style), ("░" * (width - filled), "dim"), f" {score:3d}/100  ", (verdict.upper(), style)
    )


def grade_report(grade, *, answer_text: str | None = None, answer_source: str = "own") -> Group:  # type: ignore[no-untyped-def]
    """Why the attempt scored what it scored: matched and missed points, pitfalls, notes."""
    parts: list = [score_bar(grade.score, grade.verdict)]
    points = marked_lines()
    for point in grade.matched:
        line = Text(point.text, style="green")
        if point.excerpt:
            line.append(f'  ← "{point.excerpt}"', style="dim")
        points.add_row(Text("  ✓ ", style="green"), line)
    for point in grade.missed:
        label = "missed" if grade.mode == "key_points" else "not covered"
        line = Text(point.text, style="red")
        if point.score:
            line.append(f"  ({label}; {point.score:.0f}% said)", style="dim")
        points.add_row(Text("  ✗ ", style="red"), line)
    for pitfall in grade.pitfalls:
        line = Text("wrong claim: ", style="bold red") + Text(pitfall.text)
        if pitfall.excerpt:
            line.append(f'  ← "{pitfall.excerpt}"', style="dim")
        points.add_row(Text("  ⚠ ", style="bold red"), line)
    if points.row_count:
        parts.append(points)
    for note in grade.notes:
        parts.append(Text(f"  note: {note}", style="yellow"))
    if answer_text:
        label = "Your prepared answer" if answer_source == "own" else "Model answer"
        parts.append(Panel(Text(answer_text), title=label, title_align="left", border_style="blue"))
    return Group(*parts)


def when_text(moment) -> str:  # type: ignore[no-untyped-def]
    """ "Tue 01 Dec 09:01", with the year when it is not this year."""
    if not moment:
        return "—"
    from prep.clock import now

    local = moment.astimezone()
    same_year = local.year == now().astimezone().year
    return local.strftime("%a %d %b %H:%M" if same_year else "%a %d %b %Y %H:%M")


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(round(seconds)), 60)
    return f"{minutes}m{seconds:02d}s"


def summary_table(summary, *, detailed: bool = False) -> Group:  # type: ignore[no-untyped-def]
    """End-of-session summary; with ``detailed`` a row per question (the mock-interview report)."""
    parts: list = []
    if detailed and summary.results:
        table = Table(title="Mock interview report", box=box.SIMPLE_HEAD, show_edge=False)
        for column in ("#", "question", "score", "verdict", "time"):
            # The id is the handle for `prep show` and `prep history`: folded, never cut short.
            table.add_column(
                column, overflow="fold" if column == "question" else "ellipsis", no_wrap=column != "question"
            )
        for i, r in enumerate(summary.results, 1):
            g = r.grade
            table.add_row(
                str(i),
                r.question_id,
                str(g.score) if g else "—",
                Text(g.verdict, style=VERDICT_STYLE[g.verdict]) if g else Text("no answer", style="dim"),
                f"{r.elapsed:.0f}s" if r.elapsed is not None else "—",
            )
        parts.append(table)
        # What to go over afterwards: the key points each answer missed, and any wrong claim.
        for r in summary.results:
            if r.grade is None or not (r.grade.missed or r.grade.pitfalls):
                continue
            parts.append(Text(r.question_id, style="bold"))
            for point in r.grade.missed:
                parts.append(Text("  ✗ missed: ", style="red") + Text(point.text))
            for pitfall in r.grade.pitfalls:
                parts.append(Text("  ⚠ wrong claim: ", style="bold red") + Text(pitfall.text))
        parts.append(Text(""))
    done = len(summary.rated)
    # Counts of what happened, each named: ratings where the session recorded them, else the
    # grader's verdicts. One "passed" figure would have to pick between the two.
    counts = summary.ratings if any(summary.ratings.values()) else summary.verdicts if done else {}
    tally = "".join(f" · {name} {n}" for name, n in counts.items())
    next_due = "now" if summary.due_left else when_text(summary.next_due)
    spent = f"time {_clock(summary.wall_seconds)} in the session"
    spent += f", {_clock(summary.seconds)} answering" if summary.answering_timed else " (answering not timed)"
    if not summary.interrupted:
        headline = "Session done."
    elif summary.recorded:
        headline = "Session interrupted — everything rated is saved."
    elif summary.practice_kept:
        headline = (
            "Session interrupted — your answers so far are kept as practice; the schedule is untouched."
        )
    else:
        headline = (
            "Session interrupted — nothing was recorded (this kind of session leaves the schedule alone)."
        )
    parts.append(Text(headline, style="bold"))
    parts.append(Text(f"cards {done}{tally} · {spent} · still due {summary.due_left} · next due {next_due}"))
    return Group(*parts)


_SHADES = " ░▒▓█"


def stats_view(data: dict, width: int = 100) -> Group:  # type: ignore[type-arg]
    """`prep stats` at a glance: totals, weakest categories, forecast, heatmap, leeches."""
    t = data["totals"]
    parts: list = [
        Text.assemble(
            ("Questions ", "bold"),
            f"{t['questions']}  ·  new {t['new']}  ·  learning {t['learning']}  ·  review {t['review']}  ·  ",
            ("due today ", "bold"),
            (str(t["due_today"]), "bold red" if t["due_today"] else ""),
            f"  ·  due this week {t['due_this_week']}",
        ),
        Text(
            f"Streak {counted(data['streak_days'], 'day')} (longest {data['longest_streak_days']})  ·  "
            f"{counted(data['reviews'], 'review')}"
            + (f" + {counted(data['practice'], 'practice answer')}" if data.get("practice") else "")
            + f"  ·  time spent {_duration(data['time_spent_seconds'])} "
            f"(last 7 days {_duration(data['time_spent_last_7_days_seconds'])})"
            + (
                f"  ·  you accepted the grader's rating {data['grader_agreement']:.0%} of "
                f"{counted(data['graded_reviews'], 'time')}"
                if data["grader_agreement"] is not None
                else ""
            ),
            style="dim",
        ),
    ]
    parts += [Text(""), _category_table(data["categories"], width)]
    forecast = data["forecast"]
    top = max([f["due"] for f in forecast] + [1])
    parts.append(Text("\nDue in the next 14 days", style="bold"))
    for f in forecast:
        day = datetime_label(f["date"])
        bar = "█" * round(30 * f["due"] / top) if f["due"] else ""
        parts.append(Text.assemble(f"  {day}  ", (bar, "cyan"), f" {f['due']}" if f["due"] else " ·"))
    parts.append(Text("\nReviews and practice, last 12 weeks", style="bold"))
    parts += heatmap(data["heatmap"])
    if data["leeches"]:
        parts.append(Text("\nLeeches (8+ lapses): rewrite or split these", style="bold red"))
        parts += [Text(f"  {l['id']} ({l['lapses']} lapses): {l['prompt']}") for l in data["leeches"]]
    changed = data["changed_since_review"]
    if changed:
        parts.append(Text("\nChanged since you last reviewed them", style="bold yellow"))
        parts += [
            Text(f"  {c['id']}: {c['prompt']}", overflow="ellipsis", no_wrap=True) for c in changed[:10]
        ]
        if len(changed) > 10:
            parts.append(
                Text(f"  … and {len(changed) - 10} more (prep stats --json lists them all)", style="dim")
            )
    return Group(*parts)


def _category_table(categories: list, width: int) -> Table:  # type: ignore[type-arg]
    """Categories, weakest first: every figure whole, and the titles get the width that is left."""
    headers = ("questions", "seen", "recall", "pass", "score", "lapses")
    rows = []
    for c in categories:
        recall = c["retrievability"]
        rows.append(
            (
                str(c["questions"]),
                str(c["reviewed"]),
                Text(f"{recall:.0%}", style="red" if recall < 0.8 else "green")
                if recall is not None
                else Text("—", style="dim"),
                f"{c['pass_rate']:.0%}" if c["pass_rate"] is not None else "—",
                f"{c['average_score']:.0f}" if c["average_score"] is not None else "—",
                str(c["lapses"]),
            )
        )
    figures = [max([len(h), *(len(str(row[i])) for row in rows)]) for i, h in enumerate(headers)]
    # Each column is padded by a space either side, and columns are one space apart.
    room = width - sum(w + 3 for w in figures) - 2
    table = Table(
        title="By category, weakest first", box=box.SIMPLE_HEAD, title_justify="left", show_edge=False
    )
    table.add_column("category", no_wrap=True, overflow="ellipsis", max_width=max(room, 4))
    for header, figure in zip(headers, figures):
        table.add_column(header, justify="right", no_wrap=True, min_width=figure)
    for c, row in zip(categories, rows):
        table.add_row(c["title"], *row)
    return table


def datetime_label(iso_day: str) -> str:
    from datetime import date

    return date.fromisoformat(iso_day).strftime("%a %d %b")


def heatmap(days: list) -> list[Text]:  # type: ignore[type-arg]
    """A GitHub-style calendar: a row per weekday, a column per week, shade by review count."""
    from datetime import date

    if not days:
        return []
    top = max([d["reviews"] for d in days] + [1])
    first = date.fromisoformat(days[0]["date"])
    columns = (len(days) + 6) // 7
    grid = [[" "] * columns for _ in range(7)]
    for d in days:
        offset = (date.fromisoformat(d["date"]) - first).days
        n = d["reviews"]
        level = 0 if n == 0 else 1 + min(3, int(3 * n / top))
        grid[offset % 7][offset // 7] = _SHADES[level] if n else "·"
    names = ["Mon", "   ", "Wed", "   ", "Fri", "   ", "Sun"]
    rows = [Text(f"  {names[i]} " + " ".join(grid[i]), style="green") for i in range(7)]
    busiest = max(d["reviews"] for d in days)
    scale = f"max {busiest}/day" if busiest else "no reviews in these weeks"
    rows.append(
        Text(f"      less {_SHADES[1]}{_SHADES[2]}{_SHADES[3]}{_SHADES[4]} more ({scale})", style="dim")
    )
    return rows


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes == 0:
        return f"{seconds:.0f}s"  # "0m" after a first short session reads as nothing done
    return f"{minutes // 60}h{minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m"
