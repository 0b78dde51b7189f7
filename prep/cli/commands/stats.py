"""`prep stats`: where you stand, and with an interview date how ready you will be."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption
from prep.cli.output import emit_json


def stats(
    ctx: typer.Context,
    category: CategoryOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Every figure as one JSON object.")] = False,
) -> None:
    """Where you stand: totals, weakest categories, a 14-day forecast, a 12-week heatmap, leeches.

    With an interview date set (`prep plan --interview DATE --save`), also how ready you will be on the
    day, now and if you follow the plan, and the days ahead.
    """
    from prep import clock
    from prep.bank.index import question_index
    from prep.bank.selection import select_rows
    from prep.review.stats import compute

    app: AppContext = ctx.obj
    rows = select_rows(question_index(app.bank_location()), categories=category or ())
    settings, store, scheduler = app.open_schedule(write=False)
    plan = None
    with store:
        data = compute(store, scheduler, clock.now(), rows, selected=bool(category))
        if settings.interview is not None:  # readiness for the interview day, as `prep plan` shows it
            from prep.review.plan import interview_plan, items_of

            retention = settings.scheduler.desired_retention
            plan = interview_plan(
                store, items_of(rows), settings.interview, clock.now(), at_risk_below=retention
            )
            data["interview"] = plan.to_dict()
    if as_json:
        emit_json(data)
        return
    from prep.cli.output import console
    from prep.cli.render_stats import stats_view

    out = console()
    out.print(stats_view(data, width=out.width))
    if plan is not None:
        from prep.cli.render_plan import plan_text

        out.print()
        for line in plan_text(plan, rows, out.width):
            out.print(line, soft_wrap=True)
