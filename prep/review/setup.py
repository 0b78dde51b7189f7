"""Starting a drill: the schedule it runs on, the questions it selects and the queue its mode asks.

A command hands over the user's choices (``DrillOptions``); it gets back a session and its
queue, ready to run through a UI. Nothing here prints.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from prep import config
from prep.errors import StateReadOnly
from prep.review import plan as planning
from prep.review.queue import QueueItem, build_queue, mock_queue
from prep.review.scheduler import Scheduler, with_parameters
from prep.review.session import Mode, Session
from prep.review.shared import open_store
from prep.state.store import Store

if TYPE_CHECKING:
    from prep.bank.contents import Bank
    from prep.bank.schema import Question
    from prep.review.plan import Plan, Progress


@dataclass(frozen=True)
class ScheduleFiles:
    """Where the review state and the config are; *explicit_config*: the user named the config
    file (--config or $PREP_CONFIG), so it must exist."""

    state: Path
    config: Path
    explicit_config: bool = False
    bank_key: str = ""  # the bank's key in the review history
    warn: Callable[[str], None] | None = None  # told of each line of a shared history skipped


def open_schedule(
    files: ScheduleFiles, retention: float | None = None, new: int | None = None, *, write: bool = True
) -> tuple[config.DrillConfig, Store, Scheduler]:
    """Drill settings (config < options), the state store (with what other devices appended to
    a shared history taken in), and a scheduler using the personal FSRS weights `prep optimize`
    saved, if any. *write*: the command records reviews, so a database that cannot be written
    is refused up front."""
    settings = config.load(
        files.config,
        overrides={"desired_retention": retention, "new_per_day": new},
        explicit=files.explicit_config,
    )

    def replay_settings() -> config.SchedulerConfig:
        # Other devices' reviews are replayed as every command replays them: without this
        # drill's --retention.
        if retention is None:
            return settings.scheduler
        return config.load(files.config, explicit=files.explicit_config).scheduler

    store = open_store(files.state, files.bank_key, replay_settings, write=write, warn=files.warn)
    return settings, store, with_parameters(settings.scheduler, store.fsrs_parameters())


@dataclass(frozen=True)
class DrillOptions:
    """What the user asked of a drill (see `prep drill --help`)."""

    mode: Mode = "type"
    new: int | None = None
    limit: int | None = None
    shuffle: bool = False
    cram: bool = False
    count: int = 8  # questions in a mock interview
    record: bool = False  # a mock interview updates the schedule
    retention: float | None = None

    @property
    def schedules(self) -> bool:
        """Whether ratings change the schedule: mock and cram leave it alone (mock unless --record)."""
        return self.record if self.mode == "mock" else not self.cram


@dataclass
class DrillStart:
    session: Session
    queue: list[QueueItem]
    questions: list[Question]  # what the filters selected (the queue is drawn from them)
    store: Store
    settings: config.DrillConfig
    plan: Plan | None = None  # the interview plan the queue follows, while the interview is ahead


def start_drill(
    bank: Bank,
    questions: list[Question],
    options: DrillOptions,
    files: ScheduleFiles,
    *,
    clock: Callable[[], datetime],
    grader,
    rng: random.Random | None = None,
) -> DrillStart:  # type: ignore[no-untyped-def]
    """Open the schedule and build the queue the mode asks for. A cram or an unrecorded mock
    still keeps what was typed, as practice, where the state can be written; on a read-only
    state it runs without keeping it (a drill that schedules is refused)."""
    rng = rng or random.Random()
    try:
        settings, store, scheduler = open_schedule(files, options.retention, options.new, write=True)
        keep_practice = True
    except StateReadOnly:
        if options.schedules:
            raise
        settings, store, scheduler = open_schedule(files, options.retention, options.new, write=False)
        keep_practice = False
    plan, outlook = None, None
    if options.mode == "mock":
        queue = mock_queue(questions, bank, options.count, rng)
    elif questions and not options.cram and planning.ahead(settings.interview, clock()):
        plan, queue = _planned(bank, questions, options, settings, store, clock(), rng)
        outlook = partial(_plan_outlook, store, plan, [q.id for q in questions])
    else:
        queue = build_queue(
            bank,
            store,
            scheduler,
            clock(),
            questions,
            new_per_day=settings.new_per_day,
            limit=options.limit,
            shuffle=options.shuffle,
            cram=options.cram,
            rng=rng,
        )
    session = Session(
        bank,
        store,
        scheduler,
        clock,
        grader=grader,
        mode=options.mode,
        record=options.schedules,
        scope=frozenset(q.id for q in questions),
        keep_practice=keep_practice,
        outlook=outlook,
    )
    return DrillStart(session, queue, questions, store, settings, plan)


def _plan_outlook(store: Store, plan: Plan, ids: list[str], now: datetime) -> tuple[int, datetime | None]:
    """What a session that followed the plan leaves due: what the plan would still ask today."""
    left = planning.progress(store, plan, ids, now)
    return left.left, left.next_due


def plan_progress(bank: Bank, start: DrillStart, now: datetime) -> tuple[Progress, Progress | None]:
    """Where today's part of the plan a drill followed stands after it, and, when the drill took
    some of the bank's questions (their own plan), where the whole bank's stands."""
    assert start.plan is not None and start.settings.interview is not None
    store, ids = start.store, [q.id for q in start.questions]
    selected = planning.progress(store, start.plan, ids, now)
    if len(ids) == len(bank.questions):
        return selected, None
    everything = _items(bank, list(bank.questions.values()))
    retention = start.settings.scheduler.desired_retention
    whole = planning.interview_plan(store, everything, start.settings.interview, now, at_risk_below=retention)
    return selected, planning.progress(store, whole, [item.id for item in everything], now)


def _items(bank: Bank, questions: list[Question]) -> list[planning.PlanItem]:
    return [planning.PlanItem(q.id, bank.category_of[q.id], q.target_seconds) for q in questions]


def _planned(
    bank: Bank,
    questions: list[Question],
    options: DrillOptions,
    settings: config.DrillConfig,
    store: Store,
    now: datetime,
    rng: random.Random,
) -> tuple[Plan, list[QueueItem]]:
    """Today's part of the interview plan for the selected questions: what the drill asks."""
    assert settings.interview is not None
    return planning.todays_plan(
        store,
        _items(bank, questions),
        settings.interview,
        now,
        at_risk_below=settings.scheduler.desired_retention,
        new=options.new,
        limit=options.limit,
        shuffle=options.shuffle,
        rng=rng,
    )
