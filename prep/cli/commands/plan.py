"""`prep plan`: the interview date, the minutes a day, and the plan that prepares for it."""

import re
from datetime import date, timedelta
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption, KindOption, TagOption, filters
from prep.cli.output import echo
from prep.cli.render_plan import example_date, interview_text, save_command, undo_text, what_if_note
from prep.config import InterviewConfig


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
        help="The interview date, YYYY-MM-DD or +14d (days from today): the plan for it, kept with --save.",
        show_default=False,
    ),
]
Minutes = Annotated[
    int | None,
    typer.Option(
        "--minutes",
        metavar="N",
        parser=_minutes,
        help="Minutes a day to prepare, 5-600 (default 45): the plan with them, kept with --save.",
        show_default=False,
    ),
]
Save = Annotated[
    bool,
    typer.Option("--save", help="Keep --interview and --minutes in the config: drill follows this plan."),
]
Clear = Annotated[bool, typer.Option("--clear", help="Forget the interview date: drill is plain FSRS again.")]
Json = Annotated[bool, typer.Option("--json", help="Print the plan as JSON.")]


def plan(
    ctx: typer.Context,
    interview: Interview = None,
    minutes: Minutes = None,
    save: Save = False,
    clear: Clear = False,
    category: CategoryOption = None,
    tag: TagOption = None,
    kind: KindOption = None,
    as_json: Json = False,
) -> None:
    """Plan for an interview day: how ready you will be, and what to drill each day until then.

    Shows the expected recall on the day now and if you follow the plan, per category, the days
    ahead (new questions and reviews against the budget) and the questions at risk. --interview
    and --minutes show the plan with them (a what-if); --save keeps them in the config
    ([interview]), and `prep drill` then follows the plan until the day, and goes back to plain
    FSRS after it. -c, --tag and --kind plan for those questions alone.
    """
    from prep.cli.quick.plan import show_plan
    from prep.errors import CommandLineError

    app: AppContext = ctx.obj
    if clear and (interview is not None or minutes is not None or save):
        raise CommandLineError("--clear cannot go with --interview, --minutes or --save")
    if clear:
        _clear(app, quiet=as_json)
        return
    if save and interview is None and minutes is None:
        raise CommandLineError("--save keeps --interview or --minutes: give one of them")
    asked = None
    if interview is not None or minutes is not None:
        asked, saved = _asked(app, interview, minutes, save)
        if save:
            _save(app, asked, saved)
    show_plan(app.quick_start(filters(category, tag, kind)), as_json=as_json, interview=asked)
    if asked is not None and not save:
        echo(what_if_note(asked, saved), err=True)


def _asked(
    app: AppContext, interview: date | None, minutes: int | None, save: bool
) -> tuple[InterviewConfig, InterviewConfig | None]:
    """The interview the options ask for (what they leave out as saved), and the saved one."""
    from prep import config
    from prep.errors import UsageError

    try:
        saved = config.load(app.config_path, explicit=app.config_named).interview
    except UsageError:
        if not (save and interview is not None):
            raise
        saved = None  # a config the loader refuses: a new date saved rewrites [interview]
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
    return config.InterviewConfig(interview, minutes), saved


def _save(app: AppContext, asked: InterviewConfig, saved: InterviewConfig | None) -> None:
    """Write the [interview] section, and say what was saved and how to go back (on standard
    error: standard output is the plan)."""
    from prep import config
    from prep.errors import display_path

    config.save_interview(app.config_path, asked)
    echo(
        f"saved in {display_path(app.config_path)}: {interview_text(asked)} ({undo_text(saved, asked)})",
        err=True,
    )


def _clear(app: AppContext, quiet: bool) -> None:
    """Remove the [interview] section and say so, with how to set it again (on standard error
    with *quiet*: standard output is then the JSON)."""
    from prep import config
    from prep.errors import UsageError

    try:
        saved, broken = config.load(app.config_path, explicit=app.config_named).interview, False
    except UsageError:
        saved, broken = None, True  # a config the loader refuses: --clear mends [interview]
    config.save_interview(app.config_path, None)
    if saved is None and not broken:
        echo("No interview date was set.", err=quiet)
    else:
        again = f" (`{save_command(saved)}` sets it again)" if saved else ""
        echo(f"Interview date cleared: drill is plain FSRS again{again}.", err=quiet)
    if quiet:
        echo('{"interview": null}')
