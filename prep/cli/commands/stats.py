"""`prep stats`, `prep history` and `prep optimize`."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption, question_argument
from prep.cli.plain import counted, emit_json


def stats(
    ctx: typer.Context,
    category: CategoryOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Every figure as one JSON object.")] = False,
) -> None:
    """Where you stand: totals, weakest categories, a 14-day forecast, a 12-week heatmap, leeches.

    With an interview date set (`prep plan --interview`), also how ready you will be on the
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
    from prep.cli.render import console
    from prep.cli.render_stats import stats_view

    out = console()
    out.print(stats_view(data, width=out.width))
    if plan is not None:
        from prep.cli.render_plan import plan_text

        out.print()
        for line in plan_text(plan, rows, out.width):
            out.print(line, soft_wrap=True)


def history(
    ctx: typer.Context,
    question_id: Annotated[str, question_argument("The question whose reviews to list.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The review log of one question: date, rating, score, time and the answer you typed.

    Answers from a cram or a mock interview without --record, and answers typed and then
    skipped or quit before a rating, are listed too, marked: they are kept, but they never
    changed the schedule.
    """
    from prep.review.stats import history as review_history

    app: AppContext = ctx.obj
    bank = app.bank()
    question = bank.questions.get(question_id)
    with app.store(write=False) as store:
        rows = review_history(store, question_id)
    if question is None and not rows:
        bank.question(question_id)  # unknown: NotFound, with a did-you-mean
    # A question removed from the bank keeps its history until `prep state prune`: it is shown.
    if as_json:
        emit_json(rows)
        return
    from rich.table import Table

    from prep.cli.render import console

    out = console()
    out.print(question.prompt if question else f"{question_id} (no longer in the bank)", style="bold")
    if not rows:
        out.print("No reviews yet.")
        return
    table = Table(show_edge=False)
    for column in ("when", "rating", "grader", "score", "time", "your answer"):
        table.add_column(column, overflow="fold")
    for r in rows:
        rating = r["rating"] or "—"
        if not r["scheduled"]:  # practice: kept, never scheduled
            rating += " (not rated)" if r["mode"] == "drill" else f" ({r['mode']})"
        table.add_row(
            r["reviewed_at"][:16].replace("T", " "),
            rating,
            r["suggested"] or "—",
            (str(r["score"]) if r["score"] is not None else "—")
            + (f" (you ticked {', '.join(map(str, r['ticked']))})" if r.get("ticked") else ""),
            f"{r['elapsed_seconds']:.0f}s" if r["elapsed_seconds"] else "—",
            r["answer"] or "",
        )
    out.print(table)


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
        typer.echo(f"Not fitted yet: {reason}.")
        return
    d, p = result["default"], result["personal"]
    typer.echo(f"Fitted on {result['reviews']} reviews ({result['items']} training items).")
    typer.echo(f"  log loss  default {d['log_loss']:.4f}  personal {p['log_loss']:.4f}")
    typer.echo(f"  RMSE      default {d['rmse']:.4f}  personal {p['rmse']:.4f}")
    typer.echo(
        "Saved: the scheduler now uses your parameters."
        if result["saved"]
        else "Not saved: the defaults fit your history as well or better."
    )
