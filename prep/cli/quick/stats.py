"""`prep stats`, light enough to answer before typer and pydantic are imported (like `prep next`
and `prep plan`): the figures from the question index and the state database, printed as JSON,
or as text (rich, only then). Shared by the typer command and the console script's quick path."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prep.cli.quick.opening import QuickStart


def show_stats(start: QuickStart, *, selected: bool, as_json: bool) -> None:
    """Print the figures of the selected questions (*selected*: a -c selection, whose activity
    counts only its own reviews)."""
    from prep import clock
    from prep.cli.output import emit_json
    from prep.review.stats import with_readiness

    with start.store(shown=not as_json) as store:
        data, plan = with_readiness(store, start.settings, clock.now(), start.rows, selected=selected)
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
        for line in plan_text(plan, start.rows, out.width):
            out.print(line, soft_wrap=True)
