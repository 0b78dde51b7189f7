"""Commands that read the bank: validate, list, show, search."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption, JsonOption, KindOption, QuestionArgument, TagOption, filters
from prep.cli.plain import emit_json
from prep.errors import EXIT_INVALID_BANK


def question_json(bank, question) -> dict:  # type: ignore[no-untyped-def]
    data = question.model_dump(mode="json")
    data["category"] = bank.category_of[question.id]
    answer = bank.answers.get(question.id)
    data["answer"] = answer.answer if answer else None
    data["answer_source"] = answer.source if answer else None
    return data


def validate(
    ctx: typer.Context,
    as_json: JsonOption = False,
) -> None:
    """Check every file of the bank and list every problem as file:line:col.

    Exits 0 when the bank is valid, 2 when it has problems. Near-duplicate prompts are
    reported as warnings and do not fail validation.
    """
    from prep.bank import lint
    from prep.cli.render import console, validation_report

    app: AppContext = ctx.obj
    report = lint.validate(app.bank_location())
    if as_json:
        emit_json(report.to_dict())
    else:
        out = console()
        for line in validation_report(report):
            out.print(line, soft_wrap=True)
    if not report.ok:
        raise typer.Exit(EXIT_INVALID_BANK)


def list_questions(
    ctx: typer.Context,
    category: CategoryOption = None,
    tag: TagOption = None,
    kind: KindOption = None,
    search: Annotated[
        str | None,
        typer.Option(
            "--search",
            "-s",
            metavar="TEXT",
            help="Fuzzy text to look for in ids, prompts, key points, tags and answers.",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """List the questions of the bank, optionally filtered and fuzzy-searched."""
    from prep.bank.search import find
    from prep.bank.selection import select

    app: AppContext = ctx.obj
    bank = app.bank()
    questions = select(bank, **filters(category, tag, kind))
    hits = find(bank, search, questions) if search is not None else None
    if as_json:
        rows = [h.question for h in hits] if hits is not None else questions
        emit_json([question_json(bank, q) for q in rows])
        return
    _print_table(bank, questions, hits)


def search(
    ctx: typer.Context,
    text: Annotated[
        str, typer.Argument(metavar="TEXT", help="What to look for; typos and word order are tolerated.")
    ],
    limit: Annotated[
        int, typer.Option("--limit", "-l", metavar="N", min=1, help="Show at most this many matches.")
    ] = 20,
    as_json: JsonOption = False,
) -> None:
    """Fuzzy-search prompts, key points, tags and answers, best match first."""
    from prep.bank.search import find

    app: AppContext = ctx.obj
    bank = app.bank()
    hits = find(bank, text, limit=limit)
    if as_json:
        emit_json(
            [
                {
                    "id": h.question.id,
                    "score": round(h.score, 1),
                    "field": h.field,
                    "text": h.text,
                    "prompt": h.question.prompt,
                }
                for h in hits
            ]
        )
        return
    _print_table(bank, [h.question for h in hits], hits)


def _print_table(bank, questions, hits) -> None:  # type: ignore[no-untyped-def]
    from prep.cli.render import console, question_table

    out = console()
    shown = len(hits) if hits is not None else len(questions)
    if not shown:
        out.print("No questions match.")
        return
    out.print(question_table(bank, questions, hits, width=out.width))
    out.print(f"{shown} question{'s' if shown != 1 else ''}", style="dim")


def show(
    ctx: typer.Context,
    question_id: QuestionArgument,
    no_answer: Annotated[bool, typer.Option("--no-answer", help="Hide the prepared answer.")] = False,
    aliases: Annotated[
        bool,
        typer.Option(
            "--aliases",
            help="Also list every other phrasing of each key point and pitfall that the grader accepts.",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Show one question: prompt, key points, pitfalls, your answer and follow-ups."""
    from prep.cli.render import console, question_detail

    app: AppContext = ctx.obj
    bank = app.bank()
    question = bank.question(question_id)
    if as_json:
        emit_json(question_json(bank, question))
        return
    out = console()
    out.print(question_detail(bank, question, show_answer=not no_answer, width=out.width, aliases=aliases))
