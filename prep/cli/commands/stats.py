"""`prep stats`: where you stand, and with an interview date how ready you will be."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption, filters


def stats(
    ctx: typer.Context,
    category: CategoryOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Every figure as one JSON object.")] = False,
) -> None:
    """Where you stand: totals, weakest categories, a 14-day forecast, a 12-week heatmap, leeches.

    With an interview date set (`prep plan --interview DATE --save`), also how ready you will be on the
    day, now and if you follow the plan, and the days ahead.
    """
    from prep.cli.quick.stats import show_stats

    app: AppContext = ctx.obj
    show_stats(app.quick_start(filters(category, None, None)), selected=bool(category), as_json=as_json)
