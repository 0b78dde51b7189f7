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
    with start.store(shown=not as_json) as store:
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
        return
    first = data["next"]
    plain = f"{data['due']} due now, {data['new']} new today"
    counts = _plan_counts(interview["today"]) if interview else plain
    echo(f"{counts}{until}. Next ({first['reason']}): {first['id']}\n  {first['prompt']}")


def _plan_counts(today: dict[str, int]) -> str:
    """Today's part of the interview plan, in the words of `prep plan` and a drill's opening
    line: planned when the day began, how much of it is answered, and what is due again."""
    reviews = f"{today['reviews']} review{'s' if today['reviews'] != 1 else ''}"
    answered = f", {today['answered']} of them answered" if today["answered"] else ""
    again = f", +{today['due_again']} due again" if today["due_again"] else ""
    return f"Today {reviews} and {today['new']} new{answered}{again}"
