"""`prep history`: the review log of one question."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import question_argument
from prep.cli.output import echo, emit_json


def history(
    ctx: typer.Context,
    question_id: Annotated[str, question_argument("The question whose reviews to list.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The review log of one question: date, rating, score, time and the answer you typed.

    A question renamed with `prep mv` is found by any of its former ids too.

    Answers from a cram or a mock interview without --record, and answers typed and then
    skipped or quit before a rating, are listed too, marked: they are kept, but they never
    changed the schedule.
    """
    from prep.review.stats import history as review_history

    app: AppContext = ctx.obj
    bank = app.bank()
    renamed = bank.former_ids().get(question_id) if question_id not in bank.questions else None
    if renamed is not None:  # a former id (`prep mv` keeps it in formerly): the question it became
        echo(f"{question_id} was renamed {renamed} (prep mv): its history follows it", err=True)
        question_id = renamed
    question = bank.questions.get(question_id)
    with app.store(write=False, shown=not as_json) as store:
        rows = review_history(store, question_id)
    if question is None and not rows:
        bank.question(question_id)  # unknown: NotFound, with a did-you-mean
    # A question removed from the bank keeps its history until `prep state prune`: it is shown.
    if as_json:
        emit_json(rows)
        return
    from rich.table import Table

    from prep.cli.output import console

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
            (r["suggested"] or "—") + _judged(r.get("decided_by")),
            (str(r["score"]) if r["score"] is not None else "—")
            + (f" (you ticked {', '.join(map(str, r['ticked']))})" if r.get("ticked") else ""),
            f"{r['elapsed_seconds']:.0f}s" if r["elapsed_seconds"] else "—",
            r["answer"] or "",
        )
    out.print(table)


def _judged(decided_by: str | None) -> str:
    """ " (judge MODEL)" after the grader's suggestion when a judge model decided the verdict."""
    return (
        f" (judge {decided_by.removeprefix('judge:')})"
        if decided_by and decided_by.startswith("judge:")
        else ""
    )
