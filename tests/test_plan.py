"""The interview plan as a pure function: FSRS's memory model, the cap on due dates, the daily
budget, introductions, and the JSON it gives. No database, no clock: everything is passed in."""

from __future__ import annotations

import itertools
import json
import random
from datetime import UTC, date, datetime, timedelta

import fsrs
import pytest

from prep.config import SchedulerConfig
from prep.rating import Rating
from prep.review.plan.memory import MemoryModel
from prep.review.plan.plan import Memory, PlanInput, PlanItem, make_plan, memory_of
from prep.review.plan.search import INTRO_LEAD
from prep.review.scheduler import Scheduler
from prep.state.cards import new_card

TODAY = date(2026, 3, 2)
MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def fitted_parameters() -> tuple[float, ...]:
    """A valid personal parameter set, as `prep optimize` could fit one: each default moved
    within fsrs's bounds."""
    from fsrs.scheduler import DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    rng = random.Random(3)
    return tuple(
        min(max(p * rng.uniform(0.7, 1.3), low), high)
        for p, low, high in zip(DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS)
    )


@pytest.mark.parametrize("parameters", [None, fitted_parameters()], ids=["default", "fitted"])
def test_every_step_of_the_memory_model_is_fsrs_own(parameters):
    model = MemoryModel(parameters)
    reference = fsrs.Scheduler(parameters=parameters or fsrs.scheduler.DEFAULT_PARAMETERS)
    ratings = list(fsrs.Rating)
    for rating in ratings:
        assert model.first(rating) == pytest.approx(
            (
                reference._initial_stability(rating=rating),
                reference._initial_difficulty(rating=rating, clamp=True),
            )
        )
    for stability, difficulty, recall, rating in itertools.product(
        (0.05, 0.3, 2.3, 17.0, 400.0), (1.0, 3.2, 6.5, 10.0), (0.2, 0.75, 0.97), ratings
    ):
        assert model.after_review(stability, difficulty, recall, rating) == pytest.approx(
            (
                reference._next_stability(
                    difficulty=difficulty, stability=stability, retrievability=recall, rating=rating
                ),
                reference._next_difficulty(difficulty=difficulty, rating=rating),
            ),
            rel=1e-12,
        )
        assert model.again_today(stability, difficulty, rating)[0] == pytest.approx(
            reference._short_term_stability(stability=stability, rating=rating), rel=1e-12
        )
    card = fsrs.Card(stability=5.0, difficulty=4.0, state=fsrs.State.Review, last_review=MORNING)
    for days in (0, 1, 3, 30, 365):
        assert model.recall(5.0, days) == pytest.approx(
            reference.get_card_retrievability(card, current_datetime=MORNING + timedelta(days=days)),
            rel=1e-12,
        )


def test_a_card_reviewed_day_after_day_is_what_the_drill_scheduler_makes_of_it():
    """The plan's day steps and `prep drill`'s scheduler (fsrs.review_card) agree on a card
    introduced and then recalled on later days."""
    model, scheduler = MemoryModel(), Scheduler(SchedulerConfig(fuzz=False))
    card = scheduler.review(new_card("q", MORNING), Rating.GOOD, MORNING)
    stability, difficulty = model.first()
    last = 0
    for day in (1, 3, 8, 20):
        when = MORNING + timedelta(days=day)
        recall = model.recall(stability, day - last)
        assert recall == pytest.approx(scheduler.retrievability(card, when))
        card = scheduler.review(card, Rating.GOOD, when)
        stability, difficulty = model.after_review(stability, difficulty, recall)
        last = day
        assert (stability, difficulty) == pytest.approx((card.stability, card.difficulty))


def test_the_best_day_for_a_last_review_is_the_day_before_the_interview():
    """What the search counts on when it puts a card's last review on the latest day with time."""
    from prep.review.plan.value import Card, outcome

    model = MemoryModel()
    for stability, difficulty, last, horizon in itertools.product(
        (0.1, 2.3, 30.0, 3000.0), (1.0, 5.0, 10.0), (0, -5, -200), (2, 14, 90)
    ):
        card = Card(60.0, stability, difficulty, last)
        worth = [
            outcome(model, card, (day,), horizon, 0.24).recall for day in range(max(0, last + 1), horizon)
        ]
        assert max(worth) == worth[-1] > outcome(model, card, (), horizon, 0.24).recall


def _items(n: int, categories: int = 2, seconds: float = 60.0) -> list[PlanItem]:
    return [PlanItem(f"q{i:03d}", f"cat-{i % categories}", seconds) for i in range(n)]


def _plan(items, cards=None, *, days=14, minutes=60, **options):  # type: ignore[no-untyped-def]
    data = PlanInput(
        items=items, cards=cards or {}, today=TODAY, interview=TODAY + timedelta(days=days),
        minutes_per_day=minutes, **options,
    )  # fmt: skip
    return make_plan(data, MemoryModel())


def test_due_dates_are_capped_at_the_day_before_the_interview():
    """Cards FSRS would next show long after the interview (stable ones, reviewed recently) are
    reviewed before it, and never on or after the day; with time enough, every card is."""
    scheduler = Scheduler(SchedulerConfig(fuzz=False))
    cards = {}
    for i in range(20):
        card = scheduler.review(new_card(f"q{i:03d}", MORNING), Rating.EASY, MORNING - timedelta(days=40))
        card = scheduler.review(card, Rating.EASY, MORNING - timedelta(days=3))
        assert card.due.date() > TODAY + timedelta(days=10)  # FSRS alone: after the interview
        cards[card.question_id] = memory_of(card)
    plan = _plan(_items(20), cards, days=10, minutes=120)
    interview = TODAY + timedelta(days=10)
    assert set(plan.schedule) == set(cards)  # every card gets a review before the day
    for days in plan.schedule.values():
        assert days and max(days) < interview
        assert max(days) == interview - timedelta(days=1)  # the last review as late as it can be
    assert plan.expected_with_plan > plan.expected_now


def test_a_budget_too_small_for_the_bank_is_never_exceeded_and_says_what_is_at_risk():
    plan = _plan(_items(400), days=7, minutes=20)
    assert all(day.minutes <= 20 for day in plan.days)
    assert sum(len(day.new) for day in plan.days) < 400  # not every question fits
    never = [qid for qid in (item.id for item in _items(400)) if qid not in plan.schedule]
    assert never and set(never) <= set(plan.at_risk)
    assert plan.at_risk[: len(never)] == never  # recall 0 on the day: first, in bank order
    assert 0 < plan.expected_with_plan < 0.5
    ample = _plan(_items(400), days=7, minutes=600)
    assert ample.expected_with_plan > plan.expected_with_plan + 0.3


def test_every_question_is_introduced_by_the_third_day_before_the_weakest_category_first():
    scheduler = Scheduler(SchedulerConfig(fuzz=False))
    # cat-1 has been reviewed and is remembered; cat-0 has never been seen: it is the weakest,
    # though the bank lists cat-1's new questions first.
    cards = {}
    for i in range(1, 40, 2):
        card = scheduler.review(new_card(f"q{i:03d}", MORNING), Rating.GOOD, MORNING - timedelta(days=1))
        cards[card.question_id] = memory_of(card)
    items = [PlanItem(f"r{i:03d}", "cat-1", 60.0) for i in range(20)] + _items(40)
    plan = _plan(items, cards, days=12, minutes=60)
    introduced = {qid: days[0] for qid, days in plan.schedule.items() if qid not in cards}
    assert len(introduced) == 40  # the 20 unseen of cat-0 and the 20 new of cat-1
    assert max(introduced.values()) <= TODAY + timedelta(days=12 - INTRO_LEAD)
    # cat-0's questions first, in bank order, until it has caught up; then both take turns.
    today = plan.days[0].new
    assert today[:8] == [f"q{i:03d}" for i in range(0, 16, 2)]
    assert {qid[0] for qid in today[-10:]} == {"q", "r"}
    assert plan.days[0].new[0] == "q000"


def test_categories_equally_weak_take_turns_so_a_short_plan_covers_each():
    # Three never-seen categories, listed one after the other; a day has room for six new.
    items = [PlanItem(f"{c}{i}", f"cat-{c}", 60.0) for c in "abc" for i in range(10)]
    plan = _plan(items, days=1, minutes=10)
    today = plan.days[0].new
    assert 3 <= len(today) < 30
    assert {qid[0] for qid in today[:3]} == {"a", "b", "c"}  # one of each before a second of any
    assert [qid for qid in today if qid[0] == "a"] == sorted(q for q in today if q[0] == "a")  # bank order


def test_a_category_a_few_questions_in_waits_only_until_the_others_catch_up():
    scheduler = Scheduler(SchedulerConfig(fuzz=False))
    card = scheduler.review(new_card("a0", MORNING), Rating.GOOD, MORNING - timedelta(days=1))
    items = [PlanItem(f"{c}{i}", f"cat-{c}", 60.0) for c in "abc" for i in range(10)]
    plan = _plan(items, {"a0": memory_of(card)}, days=1, minutes=10)
    today = plan.days[0].new
    assert "a" in {qid[0] for qid in today[:5]}  # one question in is a head start of one turn
    covered = [sum(1 for qid in [*today, "a0"] if qid[0] == c) for c in "abc"]  # seen, or new today
    assert max(covered) - min(covered) <= 1


def test_a_category_started_is_not_left_the_worst_while_others_get_its_minutes():
    """Alignment is 6 questions into its preparation (the others not started), and the minutes
    cannot introduce every question: its 10 unseen ones share the minutes with the others',
    rather than wait behind all of them and be the ones left out."""
    scheduler = Scheduler(SchedulerConfig(fuzz=False))
    categories = ("alignment", "evals", "infra", "robots", "serving", "data")
    items = [PlanItem(f"{c}-{i:02d}", c, 90.0) for c in categories for i in range(16)]
    cards = {}
    for i in range(6):
        card = scheduler.review(
            new_card(f"alignment-{i:02d}", MORNING), Rating.GOOD, MORNING - timedelta(days=9)
        )
        cards[card.question_id] = memory_of(scheduler.review(card, Rating.GOOD, MORNING - timedelta(days=6)))
    for minutes in (10, 15):
        plan = _plan(items, cards, days=12, minutes=minutes)
        assert sum(len(day.new) for day in plan.days) < 90  # not every question fits
        readiness = {c.category: c for c in plan.categories}
        worst = min(plan.categories, key=lambda c: c.with_plan)
        assert worst.category != "alignment" and readiness["alignment"].now > 0.3
        assert max(c.with_plan for c in plan.categories) - worst.with_plan < 0.1
        assert any(qid.startswith("alignment") and qid not in cards for qid in plan.schedule)


def test_the_spread_of_introductions_ends_two_reviews_before_the_interview():
    """Unhurried (every day has room), new questions are spread evenly over the days up to
    INTRO_LEAD days before the interview, and none is left for later."""
    from prep.review.plan.search import Planner
    from prep.review.plan.value import Card

    planner = Planner(MemoryModel(), {}, 12, [3600.0] * 12, first_fail=0.24)
    planner.introduce([(f"q{i:03d}", 60.0) for i in range(100)])
    intro_days = sorted(days[0] for days in planner.days.values())
    assert intro_days[0] == 0 and intro_days[-1] == 12 - INTRO_LEAD
    assert (
        max(intro_days.count(d) for d in set(intro_days)) - min(intro_days.count(d) for d in set(intro_days))
        <= 1
    )
    assert all(isinstance(planner.cards[qid], Card) for qid in planner.days)


def test_new_questions_a_day_follow_from_what_is_left():
    """More unseen questions, or fewer days, mean more new ones a day: nothing like new_per_day."""
    relaxed = _plan(_items(30), days=20, minutes=120)
    pressed = _plan(_items(120), days=8, minutes=120)
    per_day = [len(day.new) for day in pressed.days if day.new]
    assert max(per_day) > 10
    assert sum(per_day) == 120 and sum(len(day.new) for day in relaxed.days) == 30


def test_your_own_time_per_answer_counts_over_the_target():
    items = [PlanItem("slow", "a", 600.0), PlanItem("quick", "a", 600.0)]
    plan = _plan(items, days=5, minutes=12, own_seconds={"quick": 30.0})
    assert "quick" in plan.schedule and "slow" not in plan.schedule  # ten minutes do not fit, with a margin


def test_one_quick_answer_does_not_make_a_question_look_free():
    quick = _plan([PlanItem("q", "a", 60.0)], days=5, minutes=30, own_seconds={"q": 3.0})
    assert quick.days[0].new == ["q"] and quick.days[0].seconds >= 15.0  # a quarter of its 60 s at least


def test_what_was_answered_today_is_progress_not_a_smaller_share():
    """Today's part is planned with the whole day's minutes; what was answered of it today
    (and the minutes it took) is progress through it: the rest is what is left."""
    fresh = _plan(_items(200), days=10, minutes=30)
    answered = frozenset(fresh.days[0].new[:5])
    later = _plan(_items(200), days=10, minutes=30, spent_today=25, done=answered)
    assert later.days[0].new == fresh.days[0].new and fresh.days[0].minutes > 20
    reviews, new = later.today_ids()
    assert reviews == [] and new == fresh.days[0].new[5:] and later.share() == fresh.share()


def test_on_the_day_and_after_there_is_nothing_to_plan():
    for days in (0, -3):
        plan = _plan(_items(10), days=days)
        assert plan.days == [] and plan.today_ids() == ([], [])
        assert plan.days_left == days


def test_the_json_has_exactly_the_documented_shape():
    cards = {"q000": Memory(5.0, 5.0, TODAY - timedelta(days=2))}
    plan = _plan(_items(12), cards, days=6, minutes=30)
    data = json.loads(json.dumps(plan.to_dict()))
    assert list(data) == [
        "interview", "days_left", "minutes_per_day", "questions", "unseen", "expected_recall_on_day", "days",
        "at_risk", "due_again",
    ]  # fmt: skip
    assert data["interview"] == "2026-03-08" and data["days_left"] == 6 and data["minutes_per_day"] == 30
    assert data["questions"] == 12 and data["unseen"] == 11
    assert list(data["expected_recall_on_day"]) == ["now", "with_plan"]
    now = data["expected_recall_on_day"]["now"]
    assert now == pytest.approx(MemoryModel().recall(5.0, 8) / 12, abs=1e-4)  # an unseen question counts 0
    assert [d["date"] for d in data["days"]] == [(TODAY + timedelta(days=i)).isoformat() for i in range(6)]
    for day in data["days"]:
        assert list(day) == ["date", "new", "reviews", "minutes"]
        assert isinstance(day["new"], int) and isinstance(day["reviews"], int) and day["minutes"] <= 30
    assert all(isinstance(qid, str) for qid in data["at_risk"])
    assert data["due_again"] == {"questions": 0, "minutes": 0.0}  # made from no state: nothing due again
