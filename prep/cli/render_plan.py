"""The interview plan as text: readiness on the day, per category, a bar chart of the days
ahead (new questions and reviews against the daily budget), and the questions at risk.

Plain strings, no rich: `prep plan` is answered before typer and rich are imported, and
`prep stats` prints the same lines. Functions here build output; they hold no logic of their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prep.review.plan import Plan, PlanDay
    from prep.review.queue import QueueItem

BAR = 30  # characters for the daily budget
NEW, REVIEW, FREE = "▒", "█", "·"
DAYS_SHOWN = 21  # a longer plan shows its first two weeks, then sums up the rest
AT_RISK_SHOWN = 10


def day_label(day: date, today: date) -> str:
    return day.strftime("%a %d %b" if day.year == today.year else "%a %d %b %Y")


def _percent(value: float) -> str:
    return f"{value:.0%}"


def _counted(n: int, singular: str) -> str:
    return f"{n} {singular}" if n == 1 else f"{n} {singular}s"


def headline(plan: Plan) -> str:
    """One line: when the interview is, and the daily budget."""
    when = day_label(plan.interview, plan.today)
    left = plan.days_left
    if left > 0:
        return f"Interview {when}, in {_counted(left, 'day')} · {plan.minutes_per_day} minutes a day"
    if left == 0:
        return f"Interview today ({when}): drill is back to plain FSRS"
    return (
        f"The interview on {when} was {_counted(-left, 'day')} ago: drill is back to plain FSRS "
        "(`prep plan --clear` forgets the date)"
    )


def plan_lines(
    plan: Plan, titles: Mapping[str, str], prompts: Mapping[str, str], width: int = 100
) -> list[str]:
    """`prep plan` (and the interview part of `prep stats`) as lines of text."""
    lines = [
        headline(plan),
        f"{_counted(plan.questions, 'question')}, {plan.unseen} never seen",
        f"Expected recall on the day: {_percent(plan.expected_now)} now, "
        f"{_percent(plan.expected_with_plan)} if you follow the plan"
        if plan.days_left > 0
        else f"Expected recall today: {_percent(plan.expected_now)}",
        "",
        *category_lines(plan, titles, width),
    ]
    if plan.days:
        lines += ["", *day_lines(plan)]
    lines += ["", *risk_lines(plan, prompts, width)]
    return lines


def category_lines(plan: Plan, titles: Mapping[str, str], width: int) -> list[str]:
    """Per category, weakest on the day with the plan first: questions, unseen, recall on the
    day now and with the plan."""
    figures, label = " questions  unseen    now  with plan", "by category, weakest first"
    categories = sorted(plan.categories, key=lambda c: c.with_plan)
    names = [titles.get(c.category, c.category) for c in categories]
    room = max(len(label), min(max((len(n) for n in names), default=8), width - len(figures) - 3))
    lines = [f"  {label.ljust(room)}{figures}"]
    for name, c in zip(names, categories):
        name = name if len(name) <= room else name[: room - 1] + "…"
        now, planned = _percent(c.now), _percent(c.with_plan)
        lines.append(f"  {name.ljust(room)} {c.questions:9d} {c.unseen:7d} {now:>6} {planned:>10}")
    return lines


def _bar(day: PlanDay, budget: float) -> str:
    scale = BAR / (budget * 60) if budget else 0.0
    new = round(day.new_seconds * scale)
    reviews = round(day.seconds * scale) - new
    return (NEW * new + REVIEW * reviews).ljust(BAR, FREE)[: BAR + 5]


def day_lines(plan: Plan) -> list[str]:
    """A bar per day to the day before the interview: new and reviews against the budget."""
    lines = [f"Days ahead: {NEW} new, {REVIEW} reviews, {FREE} free of {plan.minutes_per_day} minutes"]
    shown = plan.days if len(plan.days) <= DAYS_SHOWN else plan.days[:14]
    for day in shown:
        note = ""
        if day.date == plan.today and plan.spent_today >= 0.5:
            note = f" ({plan.spent_today:.0f} min done)"
        lines.append(
            f"  {day_label(day.date, plan.today)}  {_bar(day, plan.minutes_per_day)}  {len(day.new):3d} new "
            f"{len(day.reviews):4d} reviews {day.minutes:4.0f} min{note}"
        )
    rest = plan.days[len(shown) :]
    if rest:
        minutes = sum(d.minutes for d in rest)
        lines.append(
            f"  … {_counted(len(rest), 'more day')} to {day_label(rest[-1].date, plan.today)}: "
            f"{sum(len(d.new) for d in rest)} new, {sum(len(d.reviews) for d in rest)} reviews, "
            f"{minutes:.0f} min (prep plan --json lists every day)"
        )
    return lines


def risk_lines(plan: Plan, prompts: Mapping[str, str], width: int) -> list[str]:
    """The questions predicted to be recalled least on the day, even with the plan."""
    if not plan.at_risk:
        return [
            f"No question at risk: each is predicted at {_percent(plan.at_risk_below)} or more on the day."
        ]
    lines = [
        f"At risk on the day (under {_percent(plan.at_risk_below)} even with the plan): "
        f"{_counted(len(plan.at_risk), 'question')}"
    ]
    for qid in plan.at_risk[:AT_RISK_SHOWN]:
        line = f"  {_percent(plan.recall_planned.get(qid, 0.0)):>4}  {qid}  {prompts.get(qid, '')}"
        lines.append(line if len(line) <= width else line[: width - 1] + "…")
    if len(plan.at_risk) > AT_RISK_SHOWN:
        lines.append(f"  … and {len(plan.at_risk) - AT_RISK_SHOWN} more (prep plan --json lists them all)")
    return lines


def plan_opening(plan: Plan, queue: Sequence[QueueItem]) -> str:
    """The line a drill that follows the plan starts with (or says there is nothing left)."""
    if not queue:
        return "Nothing left in today's plan. `prep plan` shows the days ahead; --cram drills anyway."
    new = sum(1 for item in queue if item.reason == "new")
    minutes = f", about {plan.days[0].minutes:.0f} of {plan.minutes_per_day} minutes" if plan.days else ""
    return (
        f"Following your interview plan: interview {day_label(plan.interview, plan.today)}, in "
        f"{_counted(plan.days_left, 'day')}. Today {_counted(len(queue) - new, 'review')} and {new} new"
        f"{minutes}; expected recall on the day {_percent(plan.expected_with_plan)} if you keep to it."
    )
