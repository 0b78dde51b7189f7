"""`prep plan` shown, light enough to answer before typer and pydantic are imported (like
`prep next`): the plan from the question index and the state database, printed as JSON or as
text. Shared by the typer command (after it saves a date) and the console script's quick path."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prep.bank.cache import IndexRow
    from prep.config import DrillConfig
    from prep.review.plan import Plan

NO_DATE = (
    "No interview date set. Set one, and the minutes a day you have, with\n"
    "  prep plan --interview {example} --minutes 45     (or --interview +14d)\n"
)


def example_date() -> str:
    """A date two weeks from today, for examples in hints: never one in the past."""
    from datetime import timedelta

    from prep import clock

    return (clock.now().astimezone().date() + timedelta(days=14)).isoformat()


def show_plan(
    bank: Path | None,
    state: Path | None,
    config: Path | None,
    filters: dict[str, list[str]],
    *,
    as_json: bool,
) -> None:
    """Print the plan for these global options and filters (PrepError on bad input)."""
    from prep import clock
    from prep.cli.quickload import quick_load
    from prep.paths import state_path
    from prep.state.store import Store

    location, rows, settings = quick_load(bank, config, filters)
    if settings.interview is None:
        sys.stdout.write(
            json.dumps({"interview": None}) + "\n" if as_json else NO_DATE.format(example=example_date())
        )
        return
    with Store(state_path(state), write=False, bank=location.key) as store:
        plan = rows_plan(store, rows, settings, clock.now())
    if as_json:
        sys.stdout.write(json.dumps(plan.to_dict(), indent=2) + "\n")
        return
    sys.stdout.write("\n".join(plan_text(plan, rows)) + "\n")


def rows_plan(store, rows: list[IndexRow], settings: DrillConfig, now) -> Plan:  # type: ignore[no-untyped-def]
    """The plan for index rows, under the settings' interview (which must be set)."""
    from prep.review.interview import plan_for

    assert settings.interview is not None
    questions = [(r.id, r.category, r.target_seconds) for r in rows]
    return plan_for(
        store, questions, settings.interview, now, at_risk_below=settings.scheduler.desired_retention
    )


def plan_text(plan: Plan, rows: list[IndexRow], width: int | None = None) -> list[str]:
    """The plan as `prep plan` prints it, at the terminal's width."""
    import shutil

    from prep.cli.render_plan import plan_lines

    if width is None:
        width = shutil.get_terminal_size((100, 24)).columns if sys.stdout.isatty() else 100
    titles = {r.category: r.category_title or r.category for r in rows}
    prompts = {r.id: r.prompt for r in rows}
    return plan_lines(plan, titles, prompts, width)
