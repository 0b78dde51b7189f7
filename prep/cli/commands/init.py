"""`prep init`: a copy of the bundled bank, as a bank of your own."""

from pathlib import Path
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.output import echo, emit_json
from prep.cli.plain import counted
from prep.errors import StateError, display_path


def init(
    ctx: typer.Context,
    directory: Annotated[
        Path, typer.Argument(metavar="DIR", help="Where to put questions/ and answers/.")
    ] = Path("."),
    as_json: Annotated[bool, typer.Option("--json", help="Print what was created as JSON.")] = False,
) -> None:
    """Copy the bundled bank into DIR (default: here) as a bank of your own to edit and extend.

    prep then uses it whenever it runs in DIR (or with --bank DIR / PREP_BANK=DIR). The bundled
    bank itself lives inside the installed package and is never changed.
    """
    from prep.bank import authoring
    from prep.paths import BUNDLED_KEY, BankLocation
    from prep.state.history import carry_over
    from prep.state.store import Store

    app: AppContext = ctx.obj
    created = authoring.copy_bundled_bank(directory)
    carried = 0
    if app.state_path.exists():  # the copy starts with the progress made on the bundled bank
        try:
            with Store(app.state_path, bank_key=BankLocation(directory, "option").key) as store:
                carried = carry_over(store, BUNDLED_KEY)
        except StateError as error:  # the bank is created; its history can be imported later
            echo(f"prep: the bundled bank's history was not carried over: {error.message}", err=True)
    if as_json:
        emit_json({"created": [display_path(p) for p in created], "reviews_carried_over": carried})
    else:
        history = f"; your {counted(carried, 'review')} of the bundled bank carried over" if carried else ""
        echo(
            f"created {', '.join(display_path(p) for p in created)}: run prep in {display_path(directory)} "
            f"to use it{history}"
        )
