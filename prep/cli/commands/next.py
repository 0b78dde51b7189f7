"""`prep next`: the card a drill would show first (the work is the quick path's, ``prep.cli.quick``)."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption, KindOption, TagOption, filters


def next_card(
    ctx: typer.Context,
    category: CategoryOption = None,
    tag: TagOption = None,
    kind: KindOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show the card `prep drill` would show first, and how many are due, without starting.

    Fast enough for a shell prompt: when the bank has not changed it is answered from the cache
    and the state database alone. While an interview date is set, the counts are today's part of
    the plan, and it says how many days are left (making the plan takes a little longer).
    """
    from prep.cli.quick.next import show_next

    app: AppContext = ctx.obj
    show_next(app.quick_start(filters(category, tag, kind)), as_json=as_json)
