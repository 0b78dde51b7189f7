"""`prep search`: prompts, key points, tags and answers, best match first."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.listing import print_questions
from prep.cli.options import JsonOption
from prep.cli.output import emit_json


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
    print_questions(bank, [h.question for h in hits], hits)
