"""What every command shares: the global options, and the bank loaded once on demand."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from prep import paths

if TYPE_CHECKING:
    from prep.bank.contents import Bank


@dataclass
class AppContext:
    bank_option: Path | None = None
    state_option: Path | None = None
    config_option: Path | None = None
    debug: bool = False
    _bank: Bank | None = field(default=None, repr=False)

    def quick_start(self, filters: dict[str, list[str]]):  # type: ignore[no-untyped-def]
        """What `prep next` and `prep plan` read first (see ``prep.cli.quick.opening``)."""
        from prep.cli.quick.opening import quick_start

        return quick_start(self.bank_option, self.state_option, self.config_option, filters)

    def bank_location(self) -> paths.BankLocation:
        return paths.find_bank(self.bank_option)

    def writable_bank_location(self) -> paths.BankLocation:
        """The bank, for a command that changes it: never the copy inside the installed package."""
        location = self.bank_location()
        if location.read_only:
            from prep.errors import UsageError

            hint = (
                "run `prep init` to copy it to ./questions and ./answers, then run prep in that folder "
                "(or point --bank / PREP_BANK at it)"
            )
            if location.installed:
                raise UsageError(
                    "the bundled bank is part of the installed package: changes there are lost when prep "
                    "is upgraded or reinstalled",
                    hint=hint,
                )
            raise UsageError(
                f"the bundled bank ({location.root}) is prep's source, changed only when "
                "named with --bank or PREP_BANK",
                hint=hint,
            )
        return location

    def writable_question(self, question_id: str):  # type: ignore[no-untyped-def]
        """For a command that changes one question: the writable bank's location, the bank, and
        the question (NotFound, with a suggestion, when there is no such id). Files past the size
        limit are read here, so that the command can shrink them; what it writes is checked."""
        from prep.bank.load import load_bank
        from prep.bank.yamlsource import OVERSIZED_READ_LIMIT

        location = self.writable_bank_location()
        if self._bank is None:
            self._bank = load_bank(location, read_limit=OVERSIZED_READ_LIMIT)
        return location, self._bank, self._bank.question(question_id)

    def bank(self) -> Bank:
        """The validated bank; raises BankInvalid (exit 2) when it has problems."""
        if self._bank is None:
            from prep.bank.load import load_bank

            self._bank = load_bank(self.bank_location())
        return self._bank

    @property
    def bank_key(self) -> str:
        """Which bank the review history's rows belong to (see BankLocation.key)."""
        return self.bank_location().key

    def store(self, *, write: bool = True, take_in: bool = True, shown: bool = False):  # type: ignore[no-untyped-def]
        """The review state of this bank, with what other devices appended to its shared
        history taken in (unless *take_in* is false: a command that only looks at it). *shown*:
        the command shows the history to the user, so a state file they named that is not there
        is said (a mistyped path must not pass for an empty history)."""
        if not take_in:
            from prep.state.store import Store

            return Store(self.state_path, write=write, bank_key=self.bank_key)
        from prep.cli.output import warn
        from prep.review.shared import open_store

        named = shown and paths.state_named(self.state_option)
        return open_store(
            self.state_path, self.bank_key, self._scheduler_settings, write=write, warn=warn, named=named
        )

    def replay(self, store):  # type: ignore[no-untyped-def]
        """How this device replays a card's reviews (see ``review.shared.replay_for``)."""
        from prep.review.shared import replay_for

        return replay_for(self._scheduler_settings(), store)

    def _scheduler_settings(self):  # type: ignore[no-untyped-def]
        from prep import config

        return config.load(self.config_path, explicit=self.config_named).scheduler

    @property
    def schedule_files(self):  # type: ignore[no-untyped-def]
        from prep.cli.output import warn
        from prep.review.setup import ScheduleFiles

        return ScheduleFiles(self.state_path, self.config_path, self.config_named, self.bank_key, warn)

    def open_schedule(
        self,
        retention: float | None = None,
        new: int | None = None,
        *,  # type: ignore[no-untyped-def]
        write: bool = True,
    ):
        """Drill settings, the state store and the scheduler (see ``review.setup.open_schedule``)."""
        from prep.review.setup import open_schedule

        return open_schedule(self.schedule_files, retention, new, write=write)

    def retired_ids(self) -> frozenset[str]:
        """Ids the review history has but the bank no longer does (removed, not yet pruned): a new
        question given one of them would inherit that history."""
        from prep.state.history import history_ids

        with self.store(write=False) as store:
            return frozenset(history_ids(store) - set(self.bank().questions))

    @property
    def state_path(self) -> Path:
        return paths.state_path(self.state_option)

    @property
    def config_path(self) -> Path:
        return paths.config_path(self.config_option)

    @property
    def config_named(self) -> bool:
        """The user named a config file (--config or $PREP_CONFIG): it must exist."""
        import os

        return self.config_option is not None or bool(os.environ.get(paths.ENV_CONFIG))
