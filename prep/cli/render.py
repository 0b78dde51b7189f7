"""Rich renderables for the bank. Functions here build output; they hold no logic of their own.

Rich honours NO_COLOR and drops colour and box-drawing styles when output is not a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from prep.cli.hanging import Hanging
from prep.cli.plain import counted
from prep.cli.render_star import star_summary

if TYPE_CHECKING:
    from prep.bank.contents import Bank
    from prep.bank.lint import Report
    from prep.bank.schema import Answer, Question
    from prep.bank.search import Hit

KIND_STYLE = {"technical": "cyan", "behavioral": "magenta", "strategy": "yellow", "ask": "green"}


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
    names = {bank.category_of[q.id] for q in shown}
    category_width = min(20, max((len(n) for n in names), default=0))  # "structured-output" whole
    categories = len(names) > 1 and room >= 50
    room -= category_width + 2 if categories else 0
    roomy = room >= 60
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    if whole_ids:
        table.add_column("id", style="bold", no_wrap=True, min_width=longest)
    else:  # squeezed below the width its text wrapped to, rich would crop letters: fold instead
        table.add_column("id", style="bold", overflow="fold", max_width=id_width)
    if categories:
        table.add_column("category", no_wrap=True, overflow="ellipsis", max_width=category_width)
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


def bank_in_use(location) -> str:  # type: ignore[no-untyped-def]
    """Which bank a command works on: "bundled", or the folder of a bank of one's own."""
    from pathlib import Path

    from prep.paths import QUESTIONS_DIR, source_checkout

    if location.key != "bundled":
        return f"Bank: {location.key}"  # the folder's absolute path
    here = Path.cwd()
    if location.origin == "bundled" and (here / QUESTIONS_DIR).is_dir() and source_checkout(here):
        return "Bank: bundled (this checkout's questions/ are its source: --bank . drills and edits them)"
    return "Bank: bundled"


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
        parts.append(_claim_list(question.key_points, None, aliases))  # numbered: `prep teach --point N`
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
        label = answer_label(bank, answer)
        parts.append(Text(f"\n{label}", style="bold underline"))
        parts.append(Panel(Text(answer.answer), box=box.ROUNDED, border_style="blue"))
    named = [bank.stories[i] for i in bank.stories_of(question.id) if i in bank.stories]
    if named:
        parts.append(Text("\nStories", style="bold underline"))
        grid = marked_lines()
        for story in named:
            grid.add_row(Text("  ★ "), Text(f"{story.id}: ", style="bold") + Text(story.title))
        parts.append(grid)
    if question.follow_ups:
        parts.append(Text("\nFollow-ups", style="bold underline"))
        grid = marked_lines()
        for follow in question.follow_ups:
            prompt = bank.questions[follow].prompt if follow in bank.questions else "?"
            grid.add_row(Text("  → "), Text(f"{follow}: ", style="bold") + Text(prompt))
        parts.append(grid)
    return Group(*parts)


def _claim_list(claims, mark: Text | None, aliases: bool) -> Table:  # type: ignore[no-untyped-def]
    """Claims under their marks (None: numbered from 1), wrapped lines indented under the text;
    with *aliases*, each other phrasing on a line of its own below its claim."""
    grid = marked_lines()
    for number, claim in enumerate(claims, 1):
        taught = Text(f"  (+{counted(len(claim.taught), 'taught phrasing')})", style="dim")
        shown = mark if mark is not None else Text(f"  {number}. ")
        grid.add_row(shown, Text(claim.text) + (taught if claim.taught and not aliases else Text()))
        others = [("= ", a) for a in claim.aliases] + [("taught: ", t) for t in claim.taught]
        for label, alias in others if aliases else ():
            phrasing = marked_lines()
            phrasing.add_row(Text(label, style="dim"), Text(alias, style="dim"))
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
        + (f", {counted(len(bank.stories), 'story', 'stories')}" if bank.stories else "")
    )
    if report.ok:
        lines.append(Text.assemble(("✓ ", "green bold"), f"bank is valid: {counts} — {where}"))
    else:
        n = len(report.problems)
        lines.append(Text(f"✗ {n} problem{'s' if n != 1 else ''} in {where}", style="red bold"))
    return lines


VERDICT_STYLE = {"pass": "bold green", "partial": "bold yellow", "fail": "bold red", "unsure": "bold cyan"}


def score_bar(score: int, verdict: str, pass_at: int = 70, width: int = 30) -> Text:
    """The score as a bar and its verdict; where this question passes lower than the usual 70
    (its key points have few phrasings), the mark it passes at."""
    filled = round(width * score / 100)
    style = VERDICT_STYLE.get(verdict, "")
    return Text.assemble(
        ("█" * filled, style),
        ("░" * (width - filled), "dim"),
        f" {score:3d}/100  ",
        (verdict.upper(), style),
        (f"  (passes at {pass_at} here)", "dim") if pass_at < 70 else "",
    )


def grade_report(  # type: ignore[no-untyped-def]
    grade,
    *,
    teach_hint: str = "press t to teach it",
    numbers: dict[str, int] | None = None,
    judged_by: str | None = None,
    unsure_hint: str = "; tick what you covered, or rate",
) -> Group:
    """Why the attempt scored what it scored: matched and missed points, pitfalls, notes.
    *numbers*: key point text -> number, shown before each point (as the tick list numbers them)
    and put in *teach_hint*, how to teach the grader a key point it did not recognise ("{n}").
    *judged_by*: the judge model whose grade this is (each point it found said shows its quote).
    *unsure_hint*: what to do about an unsure grade, after saying why it is one."""
    parts: list = [score_bar(grade.score, grade.verdict, grade.pass_at)]
    if judged_by:
        parts.append(Text(f"  judged by {judged_by}: each point with the words it quoted", style="dim"))
    numbers = numbers or {}
    unknown = {text for text, n in numbers.items() if n in grade.unknown}
    story = grade.structure is not None and grade.structure.own_story
    points = marked_lines()
    for point in grade.matched:
        line = Text(_numbered(point.text, numbers), style="green")
        if point.excerpt:
            line.append(f'  ← "{point.excerpt}"', style="dim")
        points.add_row(Text("  ✓ ", style="green"), line)
    wrongly = {s.text for s in (*grade.swapped, *grade.contradicted)}  # shown below, as such
    for point in (p for p in grade.missed if p.text not in wrongly):
        hint = teach_hint.replace("{n}", str(numbers.get(point.text, "N")))
        marker, line = _missed_row(point, grade.mode, hint, point.text in unknown, story)
        number = numbers.get(point.text)
        points.add_row(marker, Text(f"{number}. ", style=line.style) + line if number else line)
    for wrong, label in (
        [(p, "wrong claim: ") for p in grade.pitfalls]
        + [(s, "said of the wrong one: ") for s in grade.swapped]
        + [(c, "said the other way round: ") for c in grade.contradicted]
    ):
        line = Text(label, style="bold red") + Text(_numbered(wrong.text, numbers))
        if wrong.excerpt:
            line.append(f'  ← "{wrong.excerpt}"', style="dim")
        points.add_row(Text("  ⚠ ", style="bold red"), line)
    if points.row_count:
        parts.append(points)
    if grade.verdict == "unsure":
        why = (
            "your story is your own: its words cannot show whether it covers "
            if story
            else "the words cannot tell whether you said "
        )
        how = "" if story else ", written only one or two ways"
        parts.append(Hanging(f"  unsure: {why}{_points(grade.unknown)}{how}{unsure_hint}", 2, "cyan"))
    for note in grade.notes:
        parts.append(Hanging(f"  note: {note}", 2, "yellow"))
    return Group(*parts)


def answer_label(bank: Bank, answer: Answer) -> str:
    """What a prepared answer is to the user: theirs, a model answer written for study, or, in the
    bundled bank, an example (its answers tell the stories of the person who wrote them)."""
    from prep.paths import BUNDLED_KEY

    if answer.source == "model":
        return "Model answer"
    return "Example answer" if bank.location.key == BUNDLED_KEY else "Your prepared answer"


def _numbered(text: str, numbers: dict[str, int]) -> str:
    """A key point as the tick list numbers it ("3. ..."), or as it is, when numbers are not given."""
    return f"{numbers[text]}. {text}" if text in numbers else text


def unrecognised(point, mode: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether a key point not found may simply not have been recognised: it is written only one
    or two ways (not enough for its absence to prove it was not said). The drill and the mock
    report mark it alike: "?", not "missed". A judge's result has no phrasings (0)."""
    from prep.grading.settings import DEFAULT_SETTINGS

    return mode == "key_points" and 0 < point.phrasings < DEFAULT_SETTINGS.telling_phrasings


def _missed_row(point, mode: str, teach_hint: str, unknown: bool, story: bool = False) -> tuple[Text, Text]:  # type: ignore[no-untyped-def]
    """A key point the grader did not find: "not recognised" where the words cannot tell (teach
    it with `t`), else "missed"; in a story of the user's own, "not shown by its words"."""
    if unknown and story:
        return Text("  ? ", style="yellow"), Text(point.text, style="yellow") + Text(
            "  (your own story: its words cannot show whether it covers this)", style="dim"
        )
    if unknown or unrecognised(point, mode):
        return Text("  ? ", style="yellow"), Text(point.text, style="yellow") + Text(
            f"  (not recognised: {_ways(point.phrasings)} to go by; {teach_hint})", style="dim"
        )
    label = "missed" if mode == "key_points" else "not covered"
    line = Text(point.text, style="red")
    line.append(f"  ({label}; {point.score:.0f}% said)" if point.score else f"  ({label})", style="dim")
    return Text("  ✗ ", style="red"), line


def _points(numbers: tuple[int, ...]) -> str:
    return ("point " if len(numbers) == 1 else "points ") + ", ".join(str(n) for n in numbers)


def _report_points(grade) -> list[Text]:  # type: ignore[no-untyped-def]
    """What one mock answer missed, as the drill marks it: "?" where the words cannot tell."""
    wrongly = {s.text: label for label, found in (("said of the wrong one", grade.swapped),
               ("said the other way round", grade.contradicted)) for s in found}  # fmt: skip
    lines = []
    for point in grade.missed:
        if point.text in wrongly:
            lines.append(Text(f"  ⚠ {wrongly[point.text]}: ", style="bold red") + Text(point.text))
        elif unrecognised(point, grade.mode):
            lines.append(Text("  ? not recognised: ", style="yellow") + Text(point.text))
        else:
            lines.append(Text("  ✗ missed: ", style="red") + Text(point.text))
    for pitfall in grade.pitfalls:
        lines.append(Text("  ⚠ wrong claim: ", style="bold red") + Text(pitfall.text))
    return lines


def _ways(phrasings: int) -> str:
    return "only its text" if phrasings <= 1 else f"only {phrasings} wordings"


def packed(items: list[Text], width: int, style: str = "", separator: str = "  ·  ") -> list[Text]:
    """Items joined by " · " into lines no wider than *width*, broken only between items: "due
    this week 3" never splits across two lines."""
    lines: list[Text] = []
    for item in items:
        if lines and lines[-1].cell_len + len(separator) + item.cell_len <= width:
            lines[-1].append(separator)
            lines[-1].append_text(item)
        else:
            lines.append(Text(style=style).append_text(item))
    return lines


def when_text(moment) -> str:  # type: ignore[no-untyped-def]
    """ "today 17:39", "tomorrow 09:01", "Tue 01 Dec 09:01", with the year when it is not this year."""
    if not moment:
        return "—"
    from datetime import timedelta

    from prep.clock import now

    local, today = moment.astimezone(), now().astimezone().date()
    if local.date() in (today, today + timedelta(days=1)):
        return ("today " if local.date() == today else "tomorrow ") + local.strftime("%H:%M")
    return local.strftime("%a %d %b %H:%M" if local.year == today.year else "%a %d %b %Y %H:%M")


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(round(seconds)), 60)
    return f"{minutes}m{seconds:02d}s"


def summary_table(summary, *, detailed: bool = False, width: int = 100) -> Group:  # type: ignore[no-untyped-def]
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
                Text(g.verdict, style=VERDICT_STYLE.get(g.verdict, ""))
                if g
                else Text("no answer", style="dim"),
                f"{r.elapsed:.0f}s" if r.elapsed is not None else "—",
            )
        parts.append(table)
        # What to go over afterwards: the key points each answer missed, and any wrong claim.
        for r in summary.results:
            if r.grade is None or not (r.grade.missed or r.grade.pitfalls or r.grade.structure):
                continue
            parts.append(Text(r.question_id, style="bold"))
            parts += _report_points(r.grade)
            if r.grade.structure is not None:
                parts.append(Text("  ") + star_summary(r.grade.structure))
        kept = [r.question_id for r in summary.results if r.grade and r.grade.verdict == "unsure"]
        if summary.recorded and kept:
            parts.append(
                Text(
                    f"not scheduled (the words could not tell): {', '.join(kept)}; kept as practice, "
                    "they come back in your next drill to tick or rate",
                    style="cyan",
                )
            )
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
    figures = [f"cards {done}{tally}", spent, f"still due {summary.due_left}", f"next due {next_due}"]
    parts += packed([Text(f) for f in figures], width, separator=" · ")
    return Group(*parts)
