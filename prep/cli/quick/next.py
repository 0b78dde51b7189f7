"""`prep next`, light enough to answer before typer and pydantic are imported: the command's
work and its output, shared by the typer command and the console script's quick path."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prep.cli.quick.opening import QuickStart


def show_next(start: QuickStart, *, as_json: bool) -> None:
    """Print what `prep next` says of the selected questions."""
    from prep import clock
    from prep.cli.output import echo, emit_json
    from prep.review.outlook import next_card

    settings = start.settings
    with start.store() as store:
        data = next_card(
            store,
            clock.now(),
            start.rows,
            new_per_day=settings.new_per_day,
            interview=settings.interview,
            at_risk_below=settings.scheduler.desired_retention,
        )
    if as_json:
        emit_json(data)
        return
    interview = data.get("interview")
    until = ""
    if interview:
        days = interview["days_left"]
        until = f" · interview in {days} day{'s' if days != 1 else ''}"
    if data["next"] is None:
        done = "Nothing left in today's plan" if interview else "Nothing due"
        echo(f"{done}{until}.")
    else:
        first = data["next"]
        counts = f"{data['due']} due now, {data['new']} new today{until}"
        echo(f"{counts}. Next ({first['reason']}): {first['id']}\n  {first['prompt']}")
