"""`prep rm`: remove a question and its answer."""

from typing import Annotated

import typer

from prep.cli import plain
from prep.cli.context import AppContext
from prep.cli.options import question_argument
from prep.cli.output import echo, emit_json
from prep.cli.plain import counted, report_change
from prep.errors import UsageError


def rm(
    ctx: typer.Context,
    question_id: Annotated[str, question_argument("The question to remove.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was changed as JSON.")] = False,
) -> None:
    """Remove a question and its answer (its review history stays in the state database)."""
    from prep.bank import authoring

    app: AppContext = ctx.obj
    location, bank, question = app.writable_question(question_id)
    if not yes:
        if not plain.interactive():
            raise UsageError("refusing to remove without confirmation; pass --yes")
        # The question goes to stderr, so that stdout holds only the result (JSON with --json).
        echo(f"{question_id}: {' '.join(question.prompt.split())}", err=True)
        what = f"{question_id} and its answer" if question_id in bank.answers else question_id
        if not typer.confirm(f"Remove {what}?", default=False, err=True):
            if as_json:
                emit_json({"id": question_id, "files": [], "created": [], "removed": False})
            else:
                echo("nothing removed")
            return
    change = authoring.remove_question(location, bank, question_id)
    report_change(change, as_json, f"removed {question_id} ({counted(len(change.files), 'file')} changed)")
