"""Rendering of `prep stats`: totals, weakest categories, forecast, heatmap, leeches."""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from prep.cli.plain import counted
from prep.cli.render import packed

_SHADES = " ░▒▓█"


def stats_view(data: dict, width: int = 100) -> Group:  # type: ignore[type-arg]
    """`prep stats` at a glance: totals, weakest categories, forecast, heatmap, leeches."""
    t = data["totals"]
    totals = [
        Text.assemble(("Questions ", "bold"), str(t["questions"])),
        Text(f"new {t['new']}"),
        Text(f"learning {t['learning']}"),
        Text(f"review {t['review']}"),
        Text.assemble(
            ("due today ", "bold"),
            (str(t["due_today"]), "bold red" if t["due_today"] else ""),
            f" ({t['due_now']} now)" if t["due_now"] != t["due_today"] else "",
        ),
        Text(f"due this week {t['due_this_week']}"),
    ]
    practice = f" + {counted(data['practice'], 'practice answer')}" if data.get("practice") else ""
    activity = [
        Text(f"Streak {counted(data['streak_days'], 'day')} (longest {data['longest_streak_days']})"),
        Text(counted(data["reviews"], "review") + practice),
        Text(
            f"time spent {_duration(data['time_spent_seconds'])} "
            f"(last 7 days {_duration(data['time_spent_last_7_days_seconds'])})"
        ),
    ]
    if data["grader_agreement"] is not None:
        activity.append(
            Text(
                f"you accepted the grader's rating {data['grader_agreement']:.0%} of "
                f"{counted(data['graded_reviews'], 'time')}"
            )
        )
    parts: list = [*packed(totals, width), *packed(activity, width, style="dim")]
    parts += [Text(""), _category_table(data["categories"], width)]
    legend = (
        "recall: predicted now, of the questions seen; good+: reviews you rated Good or Easy; "
        "score: the grader's mean"
    )
    if any(c["overrides"]["taught_questions"] for c in data["categories"]):
        legend += (
            "; overrode: how often you rated otherwise than the grader suggested; a→b: before and "
            "after the questions you taught (t in a drill, or prep teach) learned your words"
        )
    parts.append(Text(legend, style="dim"))
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
    """Categories, weakest first: every figure whole, and the titles get the width that is left
    (over two lines where they need it)."""
    # How often the user overrode the grader, once they have taught it: it shows the grader improve.
    taught = any(c["overrides"]["taught_questions"] for c in categories)
    headers = ("questions", "seen", "recall", "good+", "score", "lapses", "overrode")[: 7 if taught else 6]
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
                _overrode(c["overrides"]),
            )[: len(headers)]
        )
    figures = [max([len(h), *(len(str(row[i])) for row in rows)]) for i, h in enumerate(headers)]
    # Each column is padded by a space either side, and columns are one space apart.
    room = width - sum(w + 3 for w in figures) - 2
    table = Table(
        title="By category, weakest first", box=box.SIMPLE_HEAD, title_justify="left", show_edge=False
    )
    # Too long for the room left, a title goes on to a second line: it is never cut.
    table.add_column("category", overflow="fold", max_width=max(room, 4))
    for header, figure in zip(headers, figures):
        table.add_column(header, justify="right", no_wrap=True, min_width=figure)
    for c, row in zip(categories, rows):
        table.add_row(c["title"], *row)
    return table


def _overrode(overrides: dict) -> str:  # type: ignore[type-arg]
    """How often you rated otherwise than the grader suggested; "40%→10%" before and after
    teaching it your words, once you have and have reviewed since."""
    before, after = overrides["before_teaching"], overrides["after_teaching"]
    if before is not None and after is not None:
        return f"{before:.0%}→{after:.0%}"
    return f"{overrides['rate']:.0%}" if overrides["rate"] is not None else "—"


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
