"""`prep validate`: every problem of the bank as file:line:col."""

import typer

from prep.cli.context import AppContext
from prep.cli.options import JsonOption
from prep.cli.output import emit_json
from prep.errors import EXIT_INVALID_BANK


def validate(
    ctx: typer.Context,
    as_json: JsonOption = False,
) -> None:
    """Check every file of the bank and list every problem as file:line:col.

    Exits 0 when the bank is valid, 2 when it has problems. Near-duplicate prompts are
    reported as warnings and do not fail validation.
    """
    from prep.bank import lint
    from prep.cli.output import console
    from prep.cli.render import validation_report

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
