"""`prep drill`: spaced-repetition sessions over the bank."""

from enum import Enum
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption, JudgeModel, KindOption, NoJudge, TagOption, filters, option
from prep.cli.output import emit_json
from prep.cli.plain import counted
from prep.errors import EXIT_INTERRUPTED


class DrillMode(str, Enum):
    type = "type"
    flip = "flip"
    mock = "mock"


def _mode(value: str | DrillMode) -> DrillMode:
    """--mode in prep's words when it is not one of the modes (typer's own message is pydantic's)."""
    try:
        return DrillMode(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a mode; choose type, flip or mock") from None


NewCards = Annotated[
    int | None,
    option(
        "--new",
        "-n",
        metavar="N",
        min=0,
        help=(
            "New cards allowed today (default 10, or the config; "
            "with an interview ahead, at most N of the plan's)."
        ),
    ),
]

Limit = Annotated[
    int | None,
    option(
        "--limit",
        "-l",
        metavar="N",
        min=1,
        help="Stop after this many cards; follow-ups you accept and cards you rate Again come on top.",
    ),
]

Shuffle = Annotated[bool, typer.Option("--shuffle", help="Shuffle the order of due and new cards.")]

Cram = Annotated[
    bool, typer.Option("--cram", help="Drill anything, weakest first, without touching the schedule.")
]

Mode = Annotated[
    DrillMode,
    typer.Option(
        "--mode",
        "-m",
        metavar="MODE",
        parser=_mode,
        help="type: type answers and get graded; flip: "
        "reveal and self-grade; mock: a timed mock interview with a report at the end.",
    ),
]

Count = Annotated[int, typer.Option("--count", metavar="N", min=1, help="Questions in a mock interview.")]

Record = Annotated[
    bool, typer.Option("--record", help="Mock mode: let the mock interview's grades update the schedule.")
]

Retention = Annotated[
    float | None,
    option(
        "--retention",
        metavar="0.5-0.99",
        min=0.5,
        max=0.99,
        help="Desired retention for scheduling (default 0.9, or the config).",
    ),
]

SummaryJson = Annotated[bool, typer.Option("--json", help="Print the session summary as JSON at the end.")]


def drill(
    ctx: typer.Context,
    category: CategoryOption = None,
    tag: TagOption = None,
    kind: KindOption = None,
    new: NewCards = None,
    limit: Limit = None,
    shuffle: Shuffle = False,
    cram: Cram = False,
    mode: Mode = DrillMode.type,
    count: Count = 8,
    record: Record = False,
    retention: Retention = None,
    as_json: SummaryJson = False,
    judge: JudgeModel = None,
    no_judge: NoJudge = False,
) -> None:
    """Drill questions with spaced repetition: due cards first, then new ones.

    Type your answer (finish with a blank line), see what it covered and missed, and
    rate it: 1 Again, 2 Hard, 3 Good, 4 Easy, Enter accepts the suggestion; t ticks the key
    points you covered and teaches the grader your words for those it missed; u undoes the last
    rating, e edits the question, s skips, q quits. Every rating is saved at once.

    While an interview date is set (`prep plan --interview DATE --save`), the drill asks today's part of
    the interview plan instead, and goes back to plain FSRS after the day.
    """
    from prep import clock
    from prep.bank.selection import select
    from prep.cli.drill_ui import ConsoleUI
    from prep.cli.render import summary_table
    from prep.grading.grade import grade
    from prep.review.drill import Drill
    from prep.review.setup import DrillOptions, start_drill

    app: AppContext = ctx.obj
    _check_record(record, mode)
    bank = app.bank()
    questions = select(bank, **filters(category, tag, kind))
    options = DrillOptions(
        mode=mode.value,
        new=new,
        limit=limit,
        shuffle=shuffle,
        cram=cram,
        count=count,
        record=record,
        retention=retention,
    )
    started = start_drill(bank, questions, options, app.schedule_files, clock=clock.now, grader=grade)
    session = started.session
    # With --json, stdout carries only the summary: the session itself is shown on stderr.
    ui = ConsoleUI(session, editor=lambda q: _edit_during_drill(app, session, q, err=as_json), stderr=as_json)
    judging = _judge(app, judge, no_judge, ui, started)
    _opening(ui, started, bank, questions)
    if not started.queue:
        if as_json:
            emit_json(session.finish().to_dict())
        return
    summary = Drill(session, started.queue, ui, _teacher(app, started), judging).run()
    ui.out.print()
    ui.out.print(summary_table(summary, detailed=mode is DrillMode.mock, width=ui.out.width))
    if started.plan is not None:
        ui.out.print(_plan_note(bank, started, category, tag, kind))
    if as_json:
        emit_json(summary.to_dict())
    started.store.close()
    if summary.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


def _opening(ui, started, bank, questions) -> None:  # type: ignore[no-untyped-def]
    """What a drill says before its first card: that it keeps nothing (a read-only state), the
    bank it drills, that it follows the interview plan, or why there is nothing to drill."""
    from prep import clock
    from prep.cli.render import bank_in_use, when_text
    from prep.cli.render_plan import plan_opening
    from prep.review.queue import due_outlook

    if not started.session.can_keep:
        ui.notify("the state database is read-only here: answers in this session are not kept")
    ui.out.print(bank_in_use(bank.location), style="dim")
    if not questions:
        ui.out.print("No question matches these filters together (-c, --tag, --kind).")
    elif started.plan is not None:  # an interview ahead: the drill follows its plan
        ui.out.print(plan_opening(started.plan, started.queue))
    elif not started.queue:
        _, next_due = due_outlook(started.store, bank, clock.now(), started.session.scope)
        when = when_text(next_due) if next_due else "none scheduled (nothing here reviewed yet)"
        ui.out.print(
            f"Nothing to drill now. Next card due: {when}.\n"
            "Use --cram to drill anyway, or --new N to allow more new cards today."
        )


def _check_record(record: bool, mode: DrillMode) -> None:
    if record and mode is not DrillMode.mock:
        from prep.errors import UsageError

        raise UsageError("--record applies to a mock interview: add --mode mock")


def _plan_note(bank, started, category, tag, kind) -> str:  # type: ignore[no-untyped-def]
    """Where a session that followed the interview plan leaves today's part of it (and, for a
    drill of some questions, the whole bank's)."""
    from prep import clock
    from prep.cli.render_plan import plan_closing
    from prep.review.setup import plan_progress

    selected, whole = plan_progress(bank, started, clock.now())
    named = (("-c", category), ("--tag", tag), ("-k", kind))
    words = [f"{flag} {value}" for flag, values in named for value in values or ()]
    return plan_closing(selected, whole, " ".join(words) or "these questions")


def _judge(app: AppContext, model: str | None, off: bool, ui, started):  # type: ignore[no-untyped-def]
    """The judge of this drill, its model found before the first card (so that a name llm does
    not know stops the drill before it starts, not in the middle)."""
    from prep.cli.judging import open_judge

    judging = open_judge(app, model, off, notify=ui.notify, store=started.store)
    if judging is not None:
        judging.model()
    return judging


def _teacher(app: AppContext, started):  # type: ignore[no-untyped-def]
    """How `t` in this drill teaches: into the bank, if it can be written and the user agrees."""
    from prep import clock, config
    from prep.errors import UsageError, display_path
    from prep.review.teaching import DrillTeacher

    try:
        location, refusal = app.writable_bank_location(), ""
    except UsageError as error:
        location, refusal = None, f"{error.message} ({error.hint})" if error.hint else error.message
    path = app.schedule_files.config
    return DrillTeacher(
        location=location,
        writes_bank=started.settings.teach_writes_bank,
        remember=lambda choice: config.remember(path, "teach_writes_bank", choice),
        store=started.store if started.session.can_keep else None,
        clock=clock.now,
        refusal=refusal,
        config=display_path(path),
    )


def _edit_during_drill(app: AppContext, session, question, *, err: bool) -> str:  # type: ignore[no-untyped-def]
    """Open the question in the editor; keep drilling with the new text if the bank is valid.
    An edit that left problems is edited again, reverted or kept, as in `prep edit`."""
    from prep.cli.checked_edit import edit_checked

    location = app.writable_bank_location()  # not the bundled bank inside the installed package
    checked = edit_checked(location, session.bank.question_origin[question.id], err=err)
    if checked.outcome == "reverted":
        return "edit reverted: the question is as it was"
    if checked.outcome == "kept":
        return (
            f"kept with {counted(len(checked.problems), 'problem')}, so the old text is used here "
            "(`prep validate` lists them; `prep next`, `list` and `stats` refuse the bank until it is fixed)"
        )
    if not checked.changed:
        return "no changes"
    session.bank = checked.bank
    return "question reloaded"
