"""Progress figures from the review log and card states: computed with SQL aggregates, no UI.

``compute`` returns one plain dict (what `prep stats --json` prints); rendering lives in
``render_stats``. Time is passed in.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any

from prep.bank.cache import IndexRow
from prep.errors import PrepError
from prep.review.scheduler import Scheduler
from prep.state.cards import format_time, parse_time
from prep.review.queue import start_of_day
from prep.state.store import Store

LEECH_LAPSES = 8  # Anki's default leech threshold
FORECAST_DAYS = 14
HEATMAP_WEEKS = 12


def compute(store: Store, scheduler: Scheduler, now: datetime, questions: Sequence[IndexRow],
            *, selected: bool = False) -> dict[str, Any]:
    """Every figure of `prep stats`, from index rows (see ``cache.question_index``) and the log.

    With ``selected`` (stats of a -c selection), the activity figures (reviews, heatmap,
    streaks, time, grader agreement) count only the selected questions' reviews; otherwise they
    count every review, including those of questions since removed from the bank. The heatmap,
    the streaks and the time spent count practice too: a night of cramming is a night of work."""
    by_id = {q.id: q for q in questions}
    wanted = set(by_id)
    cards = {qid: card for qid, card in store.cards().items() if qid in wanted}
    today = start_of_day(now)
    local_today = today.date()

    # --- totals and forecast ---
    end_today = today + timedelta(days=1)
    due_today = sum(1 for c in cards.values() if c.due < end_today)
    due_week = sum(1 for c in cards.values() if c.due < today + timedelta(days=7))
    forecast = [0] * FORECAST_DAYS
    for card in cards.values():
        day = max(0, (card.due.astimezone().date() - local_today).days)
        if day < FORECAST_DAYS:
            forecast[day] += 1
    learning = sum(1 for c in cards.values() if c.state in (1, 3))
    totals = {
        "questions": len(wanted),
        "new": len(wanted) - len(cards),
        "learning": learning,
        "review": len(cards) - learning,
        "due_today": due_today,
        "due_this_week": due_week,
    }

    # --- per-question aggregates over the whole log, in one query ---
    per_question: dict[str, tuple[int, int, float | None, float]] = {}
    for qid, n, passed, avg_score, seconds in store.db.execute(
        "SELECT question_id, COUNT(*), SUM(rating >= 3), AVG(score), TOTAL(elapsed_seconds)"
        " FROM reviews NOT INDEXED GROUP BY question_id"  # a table scan beats 100k index lookups
    ):
        if qid in wanted:
            per_question[qid] = (n, passed or 0, avg_score, seconds)

    retrievability = {qid: scheduler.retrievability(card, now) for qid, card in cards.items()}
    categories = []
    grouped: dict[str, list[str]] = defaultdict(list)
    for q in questions:
        grouped[q.category].append(q.id)
    for category_id, ids in grouped.items():
        reviewed = [i for i in ids if i in cards]
        reviews = sum(per_question.get(i, (0, 0, None, 0))[0] for i in ids)
        passed = sum(per_question.get(i, (0, 0, None, 0))[1] for i in ids)
        scored = [(per_question[i][2], per_question[i][0]) for i in ids if i in per_question and per_question[i][2] is not None]
        categories.append({
            "category": category_id,
            "title": by_id[ids[0]].category_title or category_id,
            "questions": len(ids),
            "reviewed": len(reviewed),
            "retrievability": round(sum(retrievability[i] for i in reviewed) / len(reviewed), 4) if reviewed else None,
            "pass_rate": round(passed / reviews, 4) if reviews else None,
            "average_score": round(sum(s * n for s, n in scored) / sum(n for _, n in scored), 1) if scored else None,
            "lapses": sum(cards[i].lapses for i in reviewed),
            "reviews": reviews,
        })
    # Weakest first: reviewed categories by recall probability as shown (whole percent: right
    # after a session every category sits at 99%, and a tenth of a percent is noise), then by
    # how often they pass and score; never-reviewed ones last.
    categories.sort(key=lambda c: (c["retrievability"] is None, round(100 * (c["retrievability"] or 0)),
                                   c["pass_rate"] if c["pass_rate"] is not None else 1.0,
                                   c["average_score"] if c["average_score"] is not None else 100.0,
                                   -c["lapses"]))

    # --- activity: heatmap, streak, time ---
    first_day = local_today - timedelta(days=HEATMAP_WEEKS * 7 - 1)
    first_day -= timedelta(days=first_day.weekday())  # calendar columns start on Monday
    # One JSON parameter, however many questions are selected.
    scope, scope_args = ("question_id IN (SELECT value FROM json_each(?))", (json.dumps(sorted(wanted)),)) \
        if selected else ("1", ())
    all_days = _activity_per_day(store, now, scope, scope_args)
    per_day = {d: n for d, n in all_days.items() if d >= first_day}
    streak = 0
    day = local_today if all_days.get(local_today) else local_today - timedelta(days=1)
    while all_days.get(day):
        streak += 1
        day -= timedelta(days=1)
    longest = _longest_streak(all_days)
    week_ago = format_time(now - timedelta(days=7))
    seconds_total, seconds_week, review_count = store.db.execute(
        "SELECT TOTAL(elapsed_seconds), TOTAL(CASE WHEN reviewed_at >= ? THEN elapsed_seconds END), COUNT(*)"
        f" FROM reviews WHERE {scope}", (week_ago, *scope_args)
    ).fetchone()
    practice_total, practice_week, practice_count = store.db.execute(
        "SELECT TOTAL(elapsed_seconds), TOTAL(CASE WHEN practiced_at >= ? THEN elapsed_seconds END), COUNT(*)"
        f" FROM practice WHERE {scope}", (week_ago, *scope_args)
    ).fetchone()
    seconds_total, seconds_week = seconds_total + practice_total, seconds_week + practice_week
    suggested, agreed = store.db.execute(
        f"SELECT COUNT(*), TOTAL(rating = suggested) FROM reviews WHERE suggested IS NOT NULL AND {scope}", scope_args
    ).fetchone()

    leeches = sorted(
        ({"id": qid, "lapses": c.lapses, "prompt": by_id[qid].prompt} for qid, c in cards.items()
         if c.lapses >= LEECH_LAPSES),
        key=lambda item: -item["lapses"],
    )
    stored_hashes = store.content_hashes()
    changed = [
        {"id": qid, "prompt": by_id[qid].prompt}
        for qid in cards
        if stored_hashes.get(qid) and by_id[qid].content_hash and stored_hashes[qid] != by_id[qid].content_hash
    ]
    return {
        "now": now.isoformat(),
        "totals": totals,
        "categories": categories,
        "forecast": [{"date": (local_today + timedelta(days=i)).isoformat(), "due": n} for i, n in enumerate(forecast)],
        "heatmap": [{"date": d.isoformat(), "reviews": per_day.get(d, 0)}
                    for d in (first_day + timedelta(days=i) for i in range((local_today - first_day).days + 1))],
        "streak_days": streak,
        "longest_streak_days": longest,
        "reviews": int(review_count),
        "practice": int(practice_count),  # cram and unrecorded mock answers: activity, not reviews
        "time_spent_seconds": round(seconds_total, 1),
        "time_spent_last_7_days_seconds": round(seconds_week, 1),
        "grader_agreement": round(agreed / suggested, 4) if suggested else None,
        "graded_reviews": int(suggested),
        "leeches": leeches,
        "changed_since_review": changed,
    }


def _activity_per_day(store: Store, now: datetime, scope: str = "1", args: tuple = ()) -> dict[date, int]:
    """Reviews and practice answers per local calendar day, from one scan grouped by UTC hour (cheap: fixed-width
    text) and shifted to local days in Python; faster than SQLite's per-row 'localtime'."""
    offset = now.astimezone().utcoffset() or timedelta(0)
    counts: dict[date, int] = defaultdict(int)
    for hour, n in store.db.execute(
        "SELECT substr(t, 1, 13) AS h, COUNT(*) FROM (SELECT reviewed_at AS t, question_id FROM reviews"
        f" UNION ALL SELECT practiced_at, question_id FROM practice) WHERE {scope} GROUP BY h", args
    ):
        counts[(datetime.fromisoformat(hour + ":00") + offset).date()] += n
    return dict(counts)


def _longest_streak(per_day: dict[date, int]) -> int:
    longest = current = 0
    previous: date | None = None
    for day in sorted(per_day):
        current = current + 1 if previous and (day - previous).days == 1 else 1
        longest = max(longest, current)
        previous = day
    return longest


def history(store: Store, question_id: str) -> list[dict[str, Any]]:
    """Every review of a question, and every practice answer (cram, a mock without --record),
    oldest first; ``scheduled`` tells them apart."""
    names = {1: "again", 2: "hard", 3: "good", 4: "easy"}
    rows = [
        {
            "reviewed_at": r.reviewed_at.isoformat(),
            "rating": names.get(r.rating, r.rating),
            "suggested": names.get(r.suggested) if r.suggested else None,
            "score": r.score,
            "elapsed_seconds": r.elapsed_seconds,
            "mode": r.mode,
            "answer": r.answer,
            "scheduled": True,
        }
        for r in store.reviews(question_id)
    ]
    rows += [
        {
            "reviewed_at": parse_time(p["practiced_at"]).isoformat(),
            "rating": names.get(p["rating"]) if p["rating"] else None,
            "suggested": None,
            "score": p["score"],
            "elapsed_seconds": p["elapsed_seconds"],
            "mode": p["mode"],
            "answer": p["answer"],
            "scheduled": False,
        }
        for p in store.practice(question_id)
    ]
    return sorted(rows, key=lambda row: row["reviewed_at"])


__all__ = ["compute", "history", "parse_time"]


# --- personal FSRS parameters ------------------------------------------------------------------

def training_items(store: Store) -> list[list[tuple[int, int]]]:
    """Per-card review sequences as (rating, days since the previous review), the FSRS dataset.

    Each review on a later day than the one before it gives an item: the card's history up to
    that review, which FSRS learns to predict. A review on the same day (an Again relearned
    within the session) stays in the history of later items but predicts nothing itself:
    FSRS cannot evaluate an item whose last gap is zero days.
    """
    sequences: dict[str, list[tuple[int, date]]] = defaultdict(list)
    for qid, when, rating in store.db.execute(
        "SELECT question_id, reviewed_at, rating FROM reviews ORDER BY question_id, reviewed_at, id"
    ):
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

    items = [rs.FSRSItem([rs.FSRSReview(rating, delta) for rating, delta in seq]) for seq in training_items(store)]
    if not items:
        return {"fitted": False, "reviews": count, "needed": 0, "min_reviews": min_reviews,
                "reason": "no card has been reviewed on two different days yet"}
    defaults = list(rs.DEFAULT_PARAMETERS)
    try:
        fitted = list(rs.FSRS(defaults).compute_parameters(items))
        before = rs.FSRS(defaults).evaluate(items)
        after = rs.FSRS(fitted).evaluate(items)
    except ValueError as exc:  # the optimizer's only word for data it cannot use is "InvalidInput"
        raise PrepError(f"FSRS could not fit your history ({exc}); the scheduler keeps its parameters") from None
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
