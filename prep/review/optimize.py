"""Personal FSRS parameters: fitted to the user's own review history (`prep optimize`)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Any

from prep.errors import PrepError
from prep.state import reports
from prep.state.cards import parse_time
from prep.state.store import Store


def training_items(store: Store) -> list[list[tuple[int, int]]]:
    """Per-card review sequences as (rating, days since the previous review), the FSRS dataset.

    Each review on a later day than the one before it gives an item: the card's history up to
    that review, which FSRS learns to predict. A review on the same day (an Again relearned
    within the session) stays in the history of later items but predicts nothing itself:
    FSRS cannot evaluate an item whose last gap is zero days.
    """
    sequences: dict[str, list[tuple[int, date]]] = defaultdict(list)
    for qid, when, rating in reports.rating_sequences(store):
        sequences[qid].append((rating, parse_time(when).astimezone().date()))
    items = []
    for reviews in sequences.values():
        steps = [(reviews[0][0], 0)] + [
            (rating, (day - reviews[i][1]).days) for i, (rating, day) in enumerate(reviews[1:])
        ]
        for end in range(2, len(steps) + 1):
            if steps[end - 1][1] > 0:
                items.append(steps[:end])
    return items


def optimize(store: Store, min_reviews: int = 100) -> dict[str, Any]:
    """Fit personal FSRS parameters and compare them with the defaults on the user's history."""
    count = store.review_count()
    if count < min_reviews:
        return {"fitted": False, "reviews": count, "needed": min_reviews - count, "min_reviews": min_reviews}
    import fsrs_rs_python as rs

    items = [
        rs.FSRSItem([rs.FSRSReview(rating, delta) for rating, delta in seq]) for seq in training_items(store)
    ]
    if not items:
        return {
            "fitted": False,
            "reviews": count,
            "needed": 0,
            "min_reviews": min_reviews,
            "reason": "no card has been reviewed on two different days yet",
        }
    defaults = list(rs.DEFAULT_PARAMETERS)
    try:
        fitted = list(rs.FSRS(defaults).compute_parameters(items))
        before = rs.FSRS(defaults).evaluate(items)
        after = rs.FSRS(fitted).evaluate(items)
    except ValueError as exc:  # the optimizer's only word for data it cannot use is "InvalidInput"
        raise PrepError(
            f"FSRS could not fit your history ({exc}); the scheduler keeps its parameters"
        ) from None
    improved = after.log_loss <= before.log_loss
    if improved:
        store.set_fsrs_parameters(fitted)
    return {
        "fitted": True,
        "saved": improved,
        "reviews": count,
        "items": len(items),
        "default": {"log_loss": round(before.log_loss, 5), "rmse": round(before.rmse_bins, 5)},
        "personal": {"log_loss": round(after.log_loss, 5), "rmse": round(after.rmse_bins, 5)},
        "parameters": [round(p, 4) for p in fitted],
    }
