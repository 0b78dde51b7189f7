"""`prep show`: one question in full."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.listing import question_json
from prep.cli.options import JsonOption, QuestionArgument
from prep.cli.output import emit_json


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
    from prep.cli.output import console
    from prep.cli.render import question_detail

    app: AppContext = ctx.obj
    bank = app.bank()
    question = bank.question(question_id)
    if as_json:
        emit_json(question_json(bank, question))
        return
    out = console()
    out.print(question_detail(bank, question, show_answer=not no_answer, width=out.width, aliases=aliases))
