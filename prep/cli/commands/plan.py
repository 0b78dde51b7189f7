"""`prep plan`: the interview date, the minutes a day, and the plan that prepares for it."""

import re
from datetime import date, timedelta
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption, KindOption, TagOption, filters
from prep.cli.output import echo
from prep.cli.render_plan import example_date


def _today() -> date:
    from prep import clock
    from prep.review.queue import start_of_day

    return start_of_day(clock.now()).date()


def _interview_date(value: str | date) -> date:
    """--interview: YYYY-MM-DD, or +Nd / +Nw from today; not past, at most a year away."""
    if isinstance(value, date):
        return value
    from prep.config import interview_problem

    text, today = value.strip(), _today()
    relative = re.fullmatch(r"\+(\d{1,4})([dw])", text)
    try:
        when = (
            today + timedelta(days=int(relative[1]) * (7 if relative[2] == "w" else 1))
            if relative
            else date.fromisoformat(text)
        )
    except ValueError:
        raise typer.BadParameter(
            f"{value!r} is not a date: use YYYY-MM-DD, or +14d for 14 days from today"
        ) from None
    problem = interview_problem(when, today)
    if problem:
        raise typer.BadParameter(problem)
    return when


def _minutes(value: str | int) -> int:
    from prep.config import MINUTES_RANGE

    low, high = MINUTES_RANGE
    try:
        minutes = int(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a whole number of minutes") from None
    if not low <= minutes <= high:
        raise typer.BadParameter(f"{minutes} minutes a day is outside {low}-{high}")
    return minutes


Interview = Annotated[
    date | None,
    typer.Option(
        "--interview",
        metavar="DATE",
        parser=_interview_date,
        help="The interview date, YYYY-MM-DD or +14d (days from today); saved in the config.",
        show_default=False,
    ),
]
Minutes = Annotated[
    int | None,
    typer.Option(
        "--minutes",
        metavar="N",
        parser=_minutes,
        help="Minutes a day to prepare, 5-600 (default 45); saved in the config.",
        show_default=False,
    ),
]
Clear = Annotated[bool, typer.Option("--clear", help="Forget the interview date: drill is plain FSRS again.")]
Json = Annotated[bool, typer.Option("--json", help="Print the plan as JSON.")]


def plan(
    ctx: typer.Context,
    interview: Interview = None,
    minutes: Minutes = None,
    clear: Clear = False,
    category: CategoryOption = None,
    tag: TagOption = None,
    kind: KindOption = None,
    as_json: Json = False,
) -> None:
    """Plan for an interview day: how ready you will be, and what to drill each day until then.

    With --interview (and --minutes), saves the date and the daily budget in the config
    ([interview]); `prep drill` then follows the plan until the day, and goes back to plain
    FSRS after it. Shows the expected recall on the day now and if you follow the plan, per
    category, the days ahead (new questions and reviews against the budget) and the questions
    at risk. -c, --tag and --kind plan for those questions alone.
    """
    from prep.cli.quick.plan import show_plan

    app: AppContext = ctx.obj
    if clear or interview is not None or minutes is not None:
        _save(app, interview, minutes, clear, quiet=as_json)
        if clear:
            if as_json:
                echo('{"interview": null}')
            return
    show_plan(app.quick_start(filters(category, tag, kind)), as_json=as_json)


def _save(app: AppContext, interview: date | None, minutes: int | None, clear: bool, quiet: bool) -> None:
    """Write the [interview] section the options ask for, and say so (on standard error, but for
    --clear without *quiet*: that is all it prints)."""
    from prep import config
    from prep.errors import CommandLineError, UsageError, display_path

    if clear and (interview is not None or minutes is not None):
        raise CommandLineError("--clear cannot go with --interview or --minutes")
    path = app.config_path
    try:
        saved, broken = config.load(path, explicit=app.config_named).interview, False
    except UsageError:
        if not (clear or interview is not None):
            raise
        saved, broken = None, True  # a config the loader refuses: these options rewrite [interview]
    if clear:
        config.save_interview(path, None)
        cleared = saved or broken
        message = (
            "Interview date cleared: drill is plain FSRS again." if cleared else "No interview date was set."
        )
        echo(message, err=quiet)
        return
    if interview is None:
        if saved is None:
            raise UsageError(
                "no interview date is set for --minutes to go with",
                hint=f"give the date too: `prep plan --interview {example_date()} --minutes 45` (or +14d)",
            )
        problem = config.interview_problem(saved.date, _today())
        if problem:
            raise UsageError(
                f"the saved interview date {problem}", hint="give a new one with --interview DATE"
            )
        interview = saved.date
    if minutes is None:
        minutes = saved.minutes_per_day if saved else config.MINUTES_PER_DAY
    config.save_interview(path, config.InterviewConfig(interview, minutes))
    echo(
        f"saved in {display_path(path)}: interview {interview.isoformat()}, {minutes} minutes a day", err=True
    )
