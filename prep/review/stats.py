"""Progress figures from the review log and card states: the figures of `prep stats`, no UI.

``compute`` returns one plain dict (what `prep stats --json` prints); the CLI renders it. The
store answers each aggregate in one SQL query; time is passed in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from prep.bank.cache import IndexRow
from prep.rating import Rating
from prep.review.queue import start_of_day
from prep.review.scheduler import Scheduler, with_parameters
from prep.state import reports
from prep.state.cards import CardState
from prep.state.reports import Overrides, QuestionTotals
from prep.state.store import Store

if TYPE_CHECKING:
    from prep.config import DrillConfig
    from prep.review.plan import Plan

LEECH_LAPSES = 8  # Anki's default leech threshold
FORECAST_DAYS = 14
HEATMAP_WEEKS = 12


def compute(
    store: Store,
    scheduler: Scheduler,
    now: datetime,
    questions: Sequence[IndexRow],
    *,
    selected: bool = False,
) -> dict[str, Any]:
    """Every figure of `prep stats`, from index rows (see ``bank.index.question_index``) and the log.

    With ``selected`` (stats of a -c selection), the activity figures (reviews, heatmap,
    streaks, time, grader agreement) count only the selected questions' reviews; otherwise they
    count every review, including those of questions since removed from the bank. The heatmap,
    the streaks and the time spent count practice too: a night of cramming is a night of work."""
    by_id = {q.id: q for q in questions}
    cards = {qid: card for qid, card in store.cards().items() if qid in by_id}
    scope = set(by_id) if selected else None
    totals = reports.review_totals(store, now - timedelta(days=7))  # one pass over the log
    return {
        "now": now.isoformat(),
        "totals": _totals(cards, len(by_id), now),
        "categories": _categories(store, scheduler, now, questions, cards, totals),
        "forecast": _forecast(cards, now),
        **_activity(store, now, scope, totals),
        "leeches": _leeches(cards, by_id),
        "changed_since_review": _changed(store, cards, by_id),
    }


def with_readiness(
    store: Store,
    settings: DrillConfig,
    now: datetime,
    questions: Sequence[IndexRow],
    *,
    selected: bool = False,
) -> tuple[dict[str, Any], Plan | None]:
    """Every figure of `prep stats` (``compute``), with the scheduler *settings* and the user's
    own FSRS weights, and while an interview date is set, its plan: in the figures as
    ``interview``, as `prep plan --json` has it, and returned for the lines `prep plan` shows."""
    scheduler = with_parameters(settings.scheduler, store.fsrs_parameters())
    data = compute(store, scheduler, now, questions, selected=selected)
    if settings.interview is None:
        return data, None
    from prep.review.plan import interview_plan, items_of

    retention = settings.scheduler.desired_retention
    plan = interview_plan(store, items_of(questions), settings.interview, now, at_risk_below=retention)
    data["interview"] = plan.to_dict()
    return data, plan


def _totals(cards: dict[str, CardState], questions: int, now: datetime) -> dict[str, int]:
    today = start_of_day(now)
    learning = sum(1 for c in cards.values() if c.state in (1, 3))
    return {
        "questions": questions,
        "new": questions - len(cards),
        "learning": learning,
        "review": len(cards) - learning,
        "due_now": sum(1 for c in cards.values() if c.due <= now),  # what `prep next` counts as due
        "due_today": sum(1 for c in cards.values() if c.due < today + timedelta(days=1)),
        "due_this_week": sum(1 for c in cards.values() if c.due < today + timedelta(days=7)),
    }


def _forecast(cards: dict[str, CardState], now: datetime) -> list[dict[str, Any]]:
    """Cards falling due on each of the next days (overdue ones count today)."""
    local_today = start_of_day(now).date()
    counts = [0] * FORECAST_DAYS
    for card in cards.values():
        day = max(0, (card.due.astimezone().date() - local_today).days)
        if day < FORECAST_DAYS:
            counts[day] += 1
    return [{"date": (local_today + timedelta(days=i)).isoformat(), "due": n} for i, n in enumerate(counts)]


def _categories(
    store: Store,
    scheduler: Scheduler,
    now: datetime,
    questions: Sequence[IndexRow],
    cards: dict[str, CardState],
    totals: dict[str, QuestionTotals],
) -> list[dict[str, Any]]:
    """Per category, weakest first: recall probability now, pass rate, score, lapses."""
    taught = reports.taught_questions(store)
    retrievability = {qid: scheduler.retrievability(card, now) for qid, card in cards.items()}
    grouped: dict[str, list[IndexRow]] = defaultdict(list)
    for q in questions:
        grouped[q.category].append(q)
    categories = []
    for category_id, rows in grouped.items():
        ids = [r.id for r in rows]
        reviewed = [i for i in ids if i in cards]
        counted = [totals[i] for i in ids if i in totals]
        reviews = sum(t.reviews for t in counted)
        scored = [(t.average_score, t.reviews) for t in counted if t.average_score is not None]
        categories.append(
            {
                "category": category_id,
                "title": rows[0].category_title or category_id,
                "questions": len(ids),
                "reviewed": len(reviewed),
                "retrievability": round(sum(retrievability[i] for i in reviewed) / len(reviewed), 4)
                if reviewed
                else None,
                "pass_rate": round(sum(t.passed for t in counted) / reviews, 4) if reviews else None,
                "average_score": round(sum(s * n for s, n in scored) / sum(n for _, n in scored), 1)
                if scored
                else None,
                "lapses": sum(cards[i].lapses for i in reviewed),
                "reviews": reviews,
                "overrides": _override_rates(
                    [t.overrides for t in counted],
                    [totals[i].overrides for i in ids if i in totals and i in taught],
                    sum(i in taught for i in ids),
                ),
            }
        )
    # Weakest first: reviewed categories by recall probability as shown (whole percent: right
    # after a session every category sits at 99%, and a tenth of a percent is noise), then by
    # how often they pass and score; never-reviewed ones last.
    categories.sort(
        key=lambda c: (
            c["retrievability"] is None,
            round(100 * (c["retrievability"] or 0)),
            c["pass_rate"] if c["pass_rate"] is not None else 1.0,
            c["average_score"] if c["average_score"] is not None else 100.0,
            -c["lapses"],
        )
    )
    return categories


def _override_rates(counted: list[Overrides], taught_counts: list[Overrides], taught: int) -> dict[str, Any]:
    """How often the user rated otherwise than the grader suggested: over the category's graded
    reviews, and, over the questions taught (*taught* of them), before and after each one's
    first teaching."""

    def rate(graded: int, overridden: int) -> float | None:
        return round(overridden / graded, 4) if graded else None

    graded = sum(o.before + o.after for o in counted)
    before = sum(o.before for o in taught_counts), sum(o.overridden_before for o in taught_counts)
    after = sum(o.after for o in taught_counts), sum(o.overridden_after for o in taught_counts)
    return {
        "rate": rate(graded, sum(o.overridden_before + o.overridden_after for o in counted)),
        "graded": graded,
        "taught_questions": taught,
        "before_teaching": rate(*before) if taught else None,
        "after_teaching": rate(*after) if taught else None,
        "graded_after_teaching": after[0],
    }


def _activity(
    store: Store, now: datetime, scope: set[str] | None, totals: dict[str, QuestionTotals]
) -> dict[str, Any]:
    """The heatmap, streaks, time spent and grader agreement (*scope*: of these questions only;
    else of every review, of questions since removed too)."""
    local_today = start_of_day(now).date()
    first_day = local_today - timedelta(days=HEATMAP_WEEKS * 7 - 1)
    first_day -= timedelta(days=first_day.weekday())  # calendar columns start on Monday
    all_days = _activity_per_day(store, now, scope)
    counted = [t for qid, t in totals.items() if scope is None or qid in scope]
    practice = reports.practice_time(store, now - timedelta(days=7), scope)
    seconds = sum(t.seconds for t in counted) + practice.seconds
    recent = sum(t.seconds_since for t in counted) + practice.seconds_since
    suggested, agreed = sum(t.graded for t in counted), sum(t.agreed for t in counted)
    return {
        "heatmap": [
            {"date": d.isoformat(), "reviews": all_days.get(d, 0)}
            for d in (first_day + timedelta(days=i) for i in range((local_today - first_day).days + 1))
        ],
        "streak_days": _current_streak(all_days, local_today),
        "longest_streak_days": _longest_streak(all_days),
        "reviews": sum(t.reviews for t in counted),
        "practice": practice.answers,  # cram and unrecorded mock answers: activity, not reviews
        "time_spent_seconds": round(seconds, 1),
        "time_spent_last_7_days_seconds": round(recent, 1),
        "grader_agreement": round(agreed / suggested, 4) if suggested else None,
        "graded_reviews": suggested,
    }


def _leeches(cards: dict[str, CardState], by_id: dict[str, IndexRow]) -> list[dict[str, Any]]:
    return sorted(
        (
            {"id": qid, "lapses": c.lapses, "prompt": by_id[qid].prompt}
            for qid, c in cards.items()
            if c.lapses >= LEECH_LAPSES
        ),
        key=lambda item: -item["lapses"],
    )


def _changed(store: Store, cards: dict[str, CardState], by_id: dict[str, IndexRow]) -> list[dict[str, Any]]:
    """Cards last reviewed under other wording (the prompt or key points changed since)."""
    stored = store.content_hashes()
    return [
        {"id": qid, "prompt": by_id[qid].prompt}
        for qid in cards
        if stored.get(qid) and by_id[qid].content_hash and stored[qid] != by_id[qid].content_hash
    ]


def _activity_per_day(store: Store, now: datetime, scope: set[str] | None) -> dict[date, int]:
    """Reviews and practice answers per local calendar day."""
    offset = now.astimezone().utcoffset() or timedelta(0)
    counts: dict[date, int] = defaultdict(int)
    for hour, n in reports.activity_by_hour(store, scope):
        counts[(datetime.fromisoformat(hour + ":00") + offset).date()] += n
    return dict(counts)


def _current_streak(per_day: dict[date, int], today: date) -> int:
    """Days in a row with activity, up to today (or yesterday, if today has none yet)."""
    streak = 0
    day = today if per_day.get(today) else today - timedelta(days=1)
    while per_day.get(day):
        streak += 1
        day -= timedelta(days=1)
    return streak


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
    rows = [
        {
            "reviewed_at": r.reviewed_at.isoformat(),
            "rating": Rating.name_of(r.rating),
            "suggested": Rating.name_of(r.suggested) if r.suggested else None,
            "score": r.score,
            "elapsed_seconds": r.elapsed_seconds,
            "mode": r.mode,
            "answer": r.answer,
            "scheduled": True,
            "verdict": r.verdict,
            "ticked": list(r.ticked) if r.ticked is not None else None,
            "decided_by": r.decided_by,
        }
        for r in store.reviews(question_id)
    ]
    rows += [
        {
            "reviewed_at": p.practiced_at.isoformat(),
            "rating": Rating.name_of(p.rating) if p.rating else None,
            "suggested": None,
            "score": p.score,
            "elapsed_seconds": p.elapsed_seconds,
            "mode": p.mode,
            "answer": p.answer,
            "scheduled": False,
            "verdict": p.verdict,
            "ticked": None,
            "decided_by": p.decided_by,
        }
        for p in store.practice(question_id)
    ]
    return sorted(rows, key=lambda row: row["reviewed_at"])
