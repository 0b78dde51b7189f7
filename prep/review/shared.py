"""Opening the review state of a bank whose history is shared (``prep.state.sharing``): what
the other devices appended is taken in first, so that every command that reads the schedule
reads it with their reviews, replayed by this device's scheduler."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from prep.config import SchedulerConfig
from prep.errors import StateReadOnly, display_path
from prep.paths import ENV_STATE
from prep.state.sharing import ENV_DEVICE, device_files, device_id, history_dir
from prep.state.store import Store

if TYPE_CHECKING:
    from prep.state.cards import CardState
    from prep.state.replay import Replay


def replay_for(settings: SchedulerConfig, store: Store) -> Replay:
    """How this device replays a card's reviews: its scheduler settings, with the personal FSRS
    weights `prep optimize` saved in the state, as a drill schedules."""
    from prep.review.scheduler import with_parameters  # deferred: most commands replay nothing

    return with_parameters(settings, store.fsrs_parameters()).replay


def open_store(
    state: Path,
    bank_key: str,
    settings: Callable[[], SchedulerConfig],
    *,
    write: bool,
    warn: Callable[[str], None] | None = None,
    named: bool = False,
) -> Store:
    """The bank's review state, with what other devices appended to its shared history taken
    in. *settings* gives the scheduler's settings, asked only when a card is to be replayed;
    *warn* is told of each line of a device file skipped. A history that is shared is kept in a
    state file even by a command that only reads (it is made if need be), so that what was
    taken in is not read again next time. A state file the user *named* that is not there is
    said (and, if the shared history made it, so is that), so that a mistyped path does not pass
    for an empty history, nor for the shared one."""
    missing = named and not write and not state.exists()
    store = _open_store(state, bank_key, settings, write=write, warn=warn)
    if missing and warn is not None:
        made = "made it from the bank's shared history" if state.exists() else "nothing is recorded there yet"
        warn(f"no state database at {display_path(state)}: {made} (check --state or ${ENV_STATE})")
    return store


def _open_store(
    state: Path,
    bank_key: str,
    settings: Callable[[], SchedulerConfig],
    *,
    write: bool,
    warn: Callable[[str], None] | None = None,
) -> Store:
    """`open_store` but for the word on a missing state file."""
    folder = history_dir(bank_key)
    if folder is None:  # not shared: nothing to take in (and nothing more to import)
        return Store(state, write=write, bank_key=bank_key)
    if not write and not state.exists() and any(device_files(folder).values()):
        try:
            return _open_store(state, bank_key, settings, write=True, warn=warn)
        except StateReadOnly:
            pass  # nowhere to keep it: read it into the passing state below
    from prep.state import takein

    store = Store(state, write=write, bank_key=bank_key)
    try:
        taken = takein.take_in(store, _lazily(lambda: replay_for(settings(), store)))
    except BaseException:
        store.close()
        raise
    if taken is not None and warn is not None:
        for problem in taken.problems:
            warn(f"{problem} (skipped)")
        if taken.stranger is not None:
            warn(stranger_text(taken.stranger, device_id(store)))
    return store


def stranger_text(path: str, device: str) -> str:
    """The one line saying that this device's own file holds events it never wrote: another
    machine writes as the same device, and what to do about it."""
    return (
        f"{path} is this device's own file, yet holds events this state never wrote: another machine "
        f"seems to write as '{device}' too, and git merges of that file will conflict; give each "
        f"machine its own name (set {ENV_DEVICE} to another name on one of them)"
    )


def _lazily(make: Callable[[], Replay]) -> Replay:
    """A replay whose scheduler is built on its first use (most take-ins replay nothing)."""
    made: list[Replay] = []

    def replay(question_id: str, reviews: Sequence[tuple[datetime, int]]) -> list[CardState]:
        if not made:
            made.append(make())
        return made[0](question_id, reviews)

    return replay
