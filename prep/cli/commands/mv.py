"""`prep mv`: rename a question id everywhere, its review history included."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import question_argument
from prep.cli.plain import counted, report_change
from prep.errors import UsageError


def mv(
    ctx: typer.Context,
    old: Annotated[str, question_argument("The current id.", metavar="OLD")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The new id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print what was changed as JSON.")] = False,
) -> None:
    """Rename a question id everywhere: definition, answers, follow-ups and review history."""
    from prep.bank import authoring
    from prep.state import history

    app: AppContext = ctx.obj
    location, bank, _question = app.writable_question(old)
    if new == old:
        raise UsageError(f"{old!r} already has that id; nothing to rename")
    if new in bank.questions:  # said before the history, which is the lesser reason
        raise UsageError(f"a question with id {new!r} already exists; choose another id")
    with app.store() as store:
        if history.has_history(store, new):
            raise UsageError(f"the review history already has entries for {new!r}; choose another id")
        # Rolled back if the files cannot be changed.
        with history.renaming(store, old, new) as (moved, practiced):
            change = authoring.rename_question(location, bank, old, new)
    change.detail["reviews_moved"] = moved
    change.detail["practice_moved"] = practiced
    history = counted(moved, "review") + (
        f" and {counted(practiced, 'practice answer')}" if practiced else ""
    )
    report_change(
        change, as_json, f"renamed {old} to {new} in {counted(len(change.files), 'file')}; {history} moved"
    )
