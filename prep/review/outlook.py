"""What `prep next` says: the card a drill would show first, and how many are due and new today.

Answered from the question index and the state database alone, so that a shell prompt can ask
it without paying for pydantic or YAML. Time is passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from prep.review.queue import build_queue

if TYPE_CHECKING:
    from prep.bank.cache import IndexRow
    from prep.config import InterviewConfig
    from prep.state.store import Store


def next_card(
    store: Store,
    now: datetime,
    selected: Sequence[IndexRow],
    *,
    new_per_day: int,
    interview: InterviewConfig | None = None,
    at_risk_below: float = 0.9,
) -> dict[str, Any]:
    """{"due": N, "new": N, "next": {id, prompt, category, reason, due, state} or None}, and
    while an interview is ahead, "interview": {date, days_left, today}: the drill then follows
    the plan, so the due and new cards are what is left of the plan's for today, and "today"
    is today's part of the plan as `prep plan` shows it (see ``Plan.today_part``)."""
    from prep.review import plan as planning  # only the interview plan needs fsrs

    plan = None
    if planning.ahead(interview, now):
        assert interview is not None
        items = planning.items_of(selected)
        plan, queue = planning.todays_plan(store, items, interview, now, at_risk_below=at_risk_below)
    else:
        queue = build_queue(None, store, None, now, selected, new_per_day=new_per_day)  # type: ignore[arg-type]
    first = queue[0] if queue else None
    due = sum(1 for item in queue if item.reason == "due")
    data: dict[str, Any] = {"due": due, "new": len(queue) - due, "next": None}
    if plan is not None:
        data["interview"] = {
            "date": plan.interview.isoformat(),
            "days_left": plan.days_left,
            "today": plan.today_part().counts(),
        }
    if first is not None:
        row = next(r for r in selected if r.id == first.question_id)
        card = store.card(first.question_id)
        data["next"] = {
            "id": first.question_id,
            "prompt": row.prompt,
            "category": row.category,
            "reason": first.reason,
            "due": card.due.isoformat() if card else None,
            "state": card.state_name if card else "new",
        }
    return data
