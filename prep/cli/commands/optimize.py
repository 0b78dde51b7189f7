"""`prep optimize`: personal FSRS parameters fitted to your review history."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.output import echo, emit_json
from prep.cli.plain import counted


def optimize(
    ctx: typer.Context,
    min_reviews: Annotated[
        int, typer.Option("--min-reviews", metavar="N", min=1, help="Reviews needed before fitting.")
    ] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Fit personal FSRS parameters to your review history; the scheduler then uses them."""
    from prep.review.optimize import optimize as fit

    app: AppContext = ctx.obj
    # A missing state has no reviews to fit: read as empty, without creating the file.
    with app.store(write=app.state_path.exists()) as store:
        result = fit(store, min_reviews)
    if as_json:
        emit_json(result)
        return
    if not result["fitted"]:
        reason = (
            result.get("reason")
            or f"{counted(result['needed'], 'more review')} needed (have {result['reviews']}, "
            f"need {result['min_reviews']})"
        )
        echo(f"Not fitted yet: {reason}.")
        return
    d, p = result["default"], result["personal"]
    echo(f"Fitted on {result['reviews']} reviews ({result['items']} training items).")
    echo(f"  log loss  default {d['log_loss']:.4f}  personal {p['log_loss']:.4f}")
    echo(f"  RMSE      default {d['rmse']:.4f}  personal {p['rmse']:.4f}")
    echo(
        "Saved: the scheduler now uses your parameters."
        if result["saved"]
        else "Not saved: the defaults fit your history as well or better."
    )
