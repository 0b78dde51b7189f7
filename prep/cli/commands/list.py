"""`prep list`: the questions of the bank, filtered and fuzzy-searched."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.listing import print_questions, question_json
from prep.cli.options import CategoryOption, JsonOption, KindOption, TagOption, filters
from prep.cli.output import emit_json


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
    print_questions(bank, questions, hits)
