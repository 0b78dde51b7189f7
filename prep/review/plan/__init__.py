"""The interview plan: which questions to introduce and review on each day before an interview,
so that as much as possible is remembered on the day (docs/interview.md).

The rest of prep calls what this module exports. Inside, each module builds on the one before:
``memory`` (FSRS in whole days), ``value`` (what a schedule of reviews is worth), ``search``
(the ``Planner`` that chooses the days), ``plan`` (the pure ``make_plan`` and the ``Plan`` it
returns), ``inputs`` (what the plan reads from the review state) and ``today`` (today's part
of it as a drill's queue).
"""

from prep.review.plan.inputs import interview_plan, recall_on_day, today_of
from prep.review.plan.plan import Plan, PlanDay, PlanItem, items_of
from prep.review.plan.today import Progress, ahead, progress, todays_plan

__all__ = [
    "Plan",
    "PlanDay",
    "PlanItem",
    "Progress",
    "ahead",
    "interview_plan",
    "items_of",
    "progress",
    "recall_on_day",
    "today_of",
    "todays_plan",
]
