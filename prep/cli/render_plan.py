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
    from prep.bank.cache import IndexRow
    from prep.config import InterviewConfig
    from prep.review.plan import Plan, PlanDay, Progress
    from prep.review.queue import QueueItem

NO_DATE = (
    "No interview date set. Set one, and the minutes a day you have, with\n"
    "  prep plan --interview {example} --minutes 45 --save     (or --interview +14d)\n"
)

BAR = 30  # characters for the daily budget
NEW, REVIEW, FREE = "▒", "█", "·"
DAYS_SHOWN = 21  # a longer plan shows its first two weeks, then sums up the rest
AT_RISK_SHOWN = 10


def example_date() -> str:
    """A date two weeks from today, for examples in hints: never one in the past."""
    from datetime import timedelta

    from prep import clock

    return (clock.now().astimezone().date() + timedelta(days=14)).isoformat()


def interview_text(interview: InterviewConfig) -> str:
    return f"interview {interview.date.isoformat()}, {interview.minutes_per_day} minutes a day"


def save_command(interview: InterviewConfig) -> str:
    """The command line that saves *interview*."""
    return f"prep plan --interview {interview.date.isoformat()} --minutes {interview.minutes_per_day} --save"


def undo_text(saved: InterviewConfig | None, now: InterviewConfig) -> str:
    """After saving *now* over *saved*: what it replaced, and the command that goes back."""
    if saved is None:
        return "`prep plan --clear` forgets it"
    if (saved.date, saved.minutes_per_day) == (now.date, now.minutes_per_day):
        return "as it was"
    return f"before: {interview_text(saved)}; `{save_command(saved)}` goes back"


def what_if_note(asked: InterviewConfig, saved: InterviewConfig | None) -> str:
    """After a plan shown for options not saved: that drill does not follow it, and how it would."""
    if saved is not None and (saved.date, saved.minutes_per_day) == (asked.date, asked.minutes_per_day):
        return "This is the saved plan: drill follows it."
    follows = f"drill follows the saved one ({interview_text(saved)})" if saved else "drill follows no plan"
    return f"Not saved: {follows}. `{save_command(asked)}` makes drill follow this one."


def plan_text(plan: Plan, rows: list[IndexRow], width: int | None = None) -> list[str]:
    """The plan as `prep plan` prints it, at the terminal's width."""
    from prep.cli.plain import terminal_width

    if width is None:  # through a pipe, the terminal the pipe's reader shows it in (else 80)
        width = terminal_width()
    titles = {r.category: r.category_title or r.category for r in rows}
    prompts = {r.id: r.prompt for r in rows}
    return plan_lines(plan, titles, prompts, width)


def day_label(day: date, today: date) -> str:
    return day.strftime("%a %d %b" if day.year == today.year else "%a %d %b %Y")


def _percent(value: float) -> str:
    """Rounded down near the ends: a recall of 0.998 is not "100%", 0.003 is not "0%"."""
    if 0.995 <= value < 1.0:
        return "99%"
    if 0.0 < value < 0.005:
        return "<1%"
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
        *_unreached(plan, width),
        "",
        *category_lines(plan, titles, width),
    ]
    if plan.days:
        lines += ["", *day_lines(plan)]
    if plan.days_left > 0:  # on the day and after there is no plan to be at risk with
        lines += ["", *risk_lines(plan, prompts, width)]
    return lines


def _unreached(plan: Plan, width: int) -> list[str]:
    """Lines when the minutes a day cannot introduce every question never seen before the day:
    how many they reach, and that the minutes go to first answers rather than reviews (each
    sentence broken between words to *width*)."""
    import textwrap

    left = plan.questions - len(plan.recall_planned)  # never seen, and never reached by the plan
    introduced = plan.unseen - left
    if plan.days_left <= 0 or left <= 0:
        return []
    reviews = sum(len(day.reviews) for day in plan.days)
    planned = f"{_counted(reviews, 'review')} in all" if reviews else "no review"
    sentences = [
        f"At {plan.minutes_per_day} minutes a day the plan reaches {introduced} of the {plan.unseen} "
        f"questions never seen; {left} stay unseen (more --minutes, or fewer questions with -c or --tag)",
        f"Its minutes go to first answers, with {planned}: a first answer raises recall on the day "
        "more than a review does",
    ]
    return [line for text in sentences for line in textwrap.wrap(text, width, subsequent_indent="  ")]


def category_lines(plan: Plan, titles: Mapping[str, str], width: int) -> list[str]:
    """Per category, weakest on the day with the plan first: questions, unseen, recall on the
    day now and with the plan. A title line, then the columns under their names (as `prep
    stats` shows its categories)."""
    ahead = plan.days_left > 0
    figures = "  questions  unseen    now  with plan" if ahead else "  questions  unseen    now"
    label = "category"
    categories = sorted(plan.categories, key=lambda c: c.with_plan)
    names = [titles.get(c.category, c.category) for c in categories]
    room = max(len(label), min(max((len(n) for n in names), default=8), width - len(figures) - 3))
    lines = ["By category, weakest first", f"  {label.ljust(room)}{figures}"]
    for name, c in zip(names, categories):
        name = name if len(name) <= room else name[: room - 1] + "…"
        now, planned = _percent(c.now), f" {_percent(c.with_plan):>10}" if ahead else ""
        lines.append(f"  {name.ljust(room)}  {c.questions:9d} {c.unseen:7d} {now:>6}{planned}")
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
        reviews = f"{len(day.reviews):4d} {'review ' if len(day.reviews) == 1 else 'reviews'}"
        lines.append(
            f"  {day_label(day.date, plan.today)}  {_bar(day, plan.minutes_per_day)}  {len(day.new):3d} new "
            f"{reviews} {day.minutes:4.0f} min"
        )
        if day.date == plan.today:
            lines += _today_note(plan)
    rest = plan.days[len(shown) :]
    if rest:
        minutes = sum(d.minutes for d in rest)
        lines.append(
            f"  … {_counted(len(rest), 'more day')} to {day_label(rest[-1].date, plan.today)}: "
            f"{sum(len(d.new) for d in rest)} new, {_counted(sum(len(d.reviews) for d in rest), 'review')}, "
            f"{minutes:.0f} min (prep plan --json lists every day)"
        )
    return lines


def _today_note(plan: Plan) -> list[str]:
    """Under today's bar: the minutes answered today, and the questions answered before and due
    again that a drill asks on top of today's part."""
    part = plan.today_part()
    notes = [f"{plan.spent_today:.0f} min done"] if plan.spent_today >= 0.5 else []
    if part.due_again:
        notes.append(f"+{part.due_again} due again (answered before), {_more(part.due_again_minutes)}")
    return [" " * 14 + "; ".join(notes)] if notes else []


def _more(minutes: float) -> str:
    """The minutes questions due again add to the day."""
    if minutes < 0.5:
        return "under a minute more"
    return f"about {_counted(max(1, round(minutes)), 'minute')} more"  # round(0.5) is 0


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
    """The line a drill that follows the plan starts with (or says there is nothing left):
    today's part of the plan, as it was set when the day began, how much of it is answered, the
    questions due again asked first on top of it (as `prep plan` shows them under today's bar),
    and how much this session asks when --new or --limit cut it."""
    share = plan.share()
    part = plan.today_part()
    left = len(share) - part.answered
    pending = set(share) - plan.done
    again = sum(1 for item in queue if item.question_id not in pending)  # answered before, due again
    if not queue:
        if left:
            still = " still to answer" if part.answered else ""
            return f"Nothing to ask: --new or --limit leaves none of today's {left} planned questions{still}."
        done = f": all {len(share)} answered" if share else ""
        return f"Nothing left in today's plan{done}. `prep plan` shows the days ahead; --cram drills anyway."
    minutes = f", about {part.minutes:.0f} of {plan.minutes_per_day} minutes" if plan.days else ""
    progress = f", {part.answered} of them answered" if part.answered else ""
    extra = ""
    if part.due_again:
        more = _more(part.due_again_minutes)
        extra = f", +{part.due_again} due again (answered before, {more}: asked first)"
    session = f" This session asks {len(queue)} of them." if len(queue) < left + again else ""
    return (
        f"Following your interview plan: interview {day_label(plan.interview, plan.today)}, in "
        f"{_counted(plan.days_left, 'day')}. Today {_counted(part.reviews, 'review')} and {part.new} new"
        f"{minutes}{progress}{extra}; expected recall on the day {_percent(plan.expected_with_plan)} if you "
        f"keep to it.{session}"
    )


def plan_closing(selected: Progress, whole: Progress | None, selection: str) -> str:
    """Where a session that followed the plan leaves today's part of it. *whole*: for a drill of
    some of the bank's questions (*selection*, such as "-c inference"), the whole bank's part."""
    which = f" for {selection}" if whole else ""
    if selected.left:
        text = (
            f"Interview plan{which}: {selected.answered} of today's {_counted(selected.share, 'question')} "
            "answered; `prep drill` goes on with the rest"
        )
    elif selected.share:
        text = (
            f"Today's part of the interview plan{which} is done "
            f"({selected.answered} of {selected.share} answered)"
        )
    else:
        text = f"Nothing was left in today's part of the interview plan{which}"
    if whole is not None and whole.left:
        unanswered = max(0, whole.share - whole.answered)
        again = whole.left - unanswered  # answered before and due again: asked on top of the share
        parts = [f"{unanswered} of its {whole.share} not yet answered"] + (
            [f"{again} due again"] if again > 0 else []
        )
        text += (
            f". The whole bank's plan has {_counted(whole.left, 'question')} left today "
            f"({' and '.join(parts)}): `prep drill` without filters asks them"
        )
    return f"{text}. `prep plan` shows the days ahead."
