"""`prep import` (the module's name avoids the keyword)."""

from pathlib import Path
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.output import echo, emit_json
from prep.cli.plain import counted
from prep.cli.quick.completion import categories
from prep.errors import UsageError


def import_file(
    ctx: typer.Context,
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="CSV/TSV with a header row (as `prep export csv` writes), or "
            "Anki's 'Notes in Plain Text' export.",
        ),
    ],
    category: Annotated[
        str,
        typer.Option(
            "--category",
            "-c",
            metavar="CATEGORY",
            help="Category to add the questions to (created if new).",
            autocompletion=categories,
        ),
    ],
    title: Annotated[
        str | None,
        typer.Option(
            "--title",
            metavar="TEXT",
            help="Title of a new category (default: the "
            "file's category_title for that category, else one made from its name).",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print what was added and skipped as JSON.")
    ] = False,
) -> None:
    """Import questions, appended to a category file the way `prep add` writes them.

    Notes of prep's own Anki deck (exported from Anki as 'Notes in Plain Text') update the
    questions their Id names, wherever they are; other rows are added to the category.
    """
    from prep.exchange.csvio import parse_import
    from prep.exchange.importer import import_rows

    app: AppContext = ctx.obj
    location = app.writable_bank_location()
    if not file.is_file():
        raise UsageError(f"{file} is a directory, not a file" if file.is_dir() else f"no such file: {file}")
    source = parse_import(file)
    result = import_rows(location, app.bank(), source, category, title, retired=app.retired_ids())
    if as_json:
        emit_json(result.to_dict())
        return
    summary = f"added {counted(len(result.added), 'question')} to {category}"
    if result.updated or result.unchanged:  # prep's own Anki notes update their questions
        summary += f"; updated {counted(len(result.updated), 'question')} ({len(result.unchanged)} unchanged)"
    echo(summary)
    notes = [(line, f"skipped: {reason}") for line, reason in result.skipped]
    notes += [(line, f"id {old!r} is taken; imported as {new!r}") for line, old, new in result.renamed]
    notes += [
        (line, f"follow-up {target!r} of {qid} left out: not a question of the bank or of this file{hint}")
        for line, qid, target, hint in ((*d[:3], f"; {d[3]}" if d[3] else "") for d in result.dropped)
    ]
    for line, note in sorted(notes):
        echo(f"{source.file}:{line}: {note}", err=True)
