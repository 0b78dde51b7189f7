"""`prep export cram|anki|csv`."""

from pathlib import Path
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption, KindOption, OutputOption, TagOption, command_group, filters
from prep.cli.output import echo, write_output
from prep.cli.plain import counted
from prep.errors import UsageError, display_path

export_app = command_group("Write the bank out: a markdown cram sheet, an Anki deck, or CSV.")


def _selected(app: AppContext, category, tag, kind):  # type: ignore[no-untyped-def]
    from prep.bank.selection import select

    bank = app.bank()
    return bank, select(bank, **filters(category, tag, kind))


@export_app.command("cram")
def cram(
    ctx: typer.Context,
    output: OutputOption = None,
    category: CategoryOption = None,
    tag: TagOption = None,
    kind: KindOption = None,
    weakest: Annotated[
        int | None,
        typer.Option(
            "--weakest",
            metavar="N",
            min=1,
            help="Only the N weakest questions (lowest recall probability, most lapses), weakest first; "
            "with --ask, questions to ask are not counted.",
            show_default=False,
        ),
    ] = None,
    due: Annotated[bool, typer.Option("--due", help="Only questions due now.")] = False,
    questions_only: Annotated[
        bool,
        typer.Option("--questions-only", help="A practice sheet: prompts only, no key points or answers."),
    ] = False,
    ask: Annotated[
        bool,
        typer.Option(
            "--ask",
            help="Put the questions to ask the interviewer (kind 'ask') in a final section, "
            "all of them, whatever --weakest and --due keep.",
        ),
    ] = False,
    for_interview: Annotated[
        bool,
        typer.Option(
            "--for-interview",
            help="Order by predicted recall on the interview day (`prep plan --interview DATE --save`), "
            "lowest first; with --weakest, the N lowest.",
        ),
    ] = False,
) -> None:
    """A markdown cram sheet: contents, a section per category, key points, answers, pitfalls."""
    from prep import clock
    from prep.exchange.cram import CramOptions, CramSelection, cram_questions, cram_sheet

    app: AppContext = ctx.obj
    bank, questions = _selected(app, category, tag, kind)
    now = clock.now()
    interview = _interview_day(app, now) if for_interview else None
    selection = CramSelection(weakest=weakest, due=due, ask=ask, interview=interview)
    if selection.needs_history:
        _settings, store, scheduler = app.open_schedule(write=False)
        with store:
            questions = cram_questions(questions, selection, now, store, scheduler, bank.category_of)
    else:
        questions = cram_questions(questions, selection, now)
    options = CramOptions(questions_only=questions_only, ask_section=ask)
    if interview is not None:
        options = CramOptions(
            questions_only, ask, f"Interview cram sheet for {interview.strftime('%A %d %B %Y')}"
        )
    write_output(cram_sheet(bank, questions, now, options), output)


def _interview_day(app: AppContext, now):  # type: ignore[no-untyped-def]
    """The saved interview date, for --for-interview: set, and not past."""
    from prep import config
    from prep.review.plan import today_of

    saved = config.load(app.config_path, explicit=app.config_named).interview
    if saved is None:
        raise UsageError(
            "--for-interview: no interview date is set",
            hint="set it with `prep plan --interview DATE --save`",
        )
    if saved.date < today_of(now):
        raise UsageError(
            f"--for-interview: the interview on {saved.date.isoformat()} has passed",
            hint="set the next one with `prep plan --interview DATE --save`",
        )
    return saved.date


@export_app.command("anki")
def anki(
    ctx: typer.Context,
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE", help="The .apkg file to write.")],
    category: CategoryOption = None,
    tag: TagOption = None,
    kind: KindOption = None,
) -> None:
    """An Anki package (.apkg): a deck per category under 'prep'; re-importing updates notes."""
    from prep.exchange.anki import anki_package

    app: AppContext = ctx.obj
    if output.suffix != ".apkg":
        raise UsageError(f"{output}: Anki packages end in .apkg")
    bank, questions = _selected(app, category, tag, kind)
    count = anki_package(bank, questions, output)
    echo(f"wrote {counted(count, 'note')} to {display_path(output)}")


@export_app.command("csv")
def csv_export(
    ctx: typer.Context,
    output: OutputOption = None,
    category: CategoryOption = None,
    tag: TagOption = None,
    kind: KindOption = None,
    tsv: Annotated[bool, typer.Option("--tsv", help="Tab-separated instead of comma-separated.")] = False,
) -> None:
    """CSV with a header row and one row per question, which `prep import` reads back unchanged.

    Columns: id, category, prompt, key_points, pitfalls, answer, tags, kind, difficulty,
    target_seconds, answer_source, follow_ups, notes, formerly, category_title. List cells (key
    points, pitfalls, tags, follow-ups, former ids) hold JSON lists.
    """
    from prep.exchange.csvio import to_csv

    app: AppContext = ctx.obj
    bank, questions = _selected(app, category, tag, kind)
    write_output(to_csv(bank, questions, "\t" if tsv else ","), output)
