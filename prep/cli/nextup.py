"""`prep next`, light enough to answer before typer and pydantic are imported: the command's
work and its output, shared by the typer command and the console script's quick path."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def show_next(
    bank: Path | None,
    state: Path | None,
    config: Path | None,
    filters: dict[str, list[str]],
    *,
    as_json: bool,
) -> None:
    """Print what `prep next` says for these global options and filters (PrepError on bad input)."""
    from prep import clock
    from prep.cli.quickload import quick_load
    from prep.paths import state_path
    from prep.review.outlook import next_card
    from prep.state.store import Store

    location, selected, settings = quick_load(bank, config, filters)
    with Store(state_path(state), write=False, bank=location.key) as store:
        data = next_card(
            store,
            clock.now(),
            selected,
            new_per_day=settings.new_per_day,
            interview=settings.interview,
            at_risk_below=settings.scheduler.desired_retention,
        )
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")
        return
    interview = data.get("interview")
    until = ""
    if interview:
        days = interview["days_left"]
        until = f" · interview in {days} day{'s' if days != 1 else ''}"
    if data["next"] is None:
        done = "Nothing left in today's plan" if interview else "Nothing due"
        sys.stdout.write(f"{done}{until}.\n")
    else:
        first = data["next"]
        counts = f"{data['due']} due now, {data['new']} new today{until}"
        sys.stdout.write(f"{counts}. Next ({first['reason']}): {first['id']}\n  {first['prompt']}\n")
