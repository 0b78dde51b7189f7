"""`prep plan` shown, light enough to answer before typer and pydantic are imported (like
`prep next`): the plan from the question index and the state database, printed as JSON or as
text. Shared by the typer command (after it saves a date) and the console script's quick path."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prep.cli.quick.opening import QuickStart
    from prep.config import InterviewConfig


def show_plan(start: QuickStart, *, as_json: bool, interview: InterviewConfig | None = None) -> None:
    """Print the plan for the selected questions: for the saved interview, or for *interview*
    (`prep plan --interview ... --minutes ...` without --save: a what-if)."""
    from prep import clock
    from prep.cli.output import echo, emit_json
    from prep.cli.render_plan import NO_DATE, example_date, plan_text
    from prep.review.plan import interview_plan, items_of

    rows, settings = start.rows, start.settings
    interview = interview or settings.interview
    if interview is None:
        if as_json:
            echo(json.dumps({"interview": None}))
        else:
            echo(NO_DATE.format(example=example_date()), nl=False)
        return
    with start.store(shown=not as_json) as store:
        plan = interview_plan(
            store,
            items_of(rows),
            interview,
            clock.now(),
            at_risk_below=settings.scheduler.desired_retention,
        )
    if as_json:
        emit_json(plan.to_dict())
        return
    echo("\n".join(plan_text(plan, rows)))
