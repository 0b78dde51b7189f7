"""What the quick commands (`prep next`, `prep plan`, `prep stats`) read before typer and pydantic load: the
bank's location, its question index filtered as asked, the settings and the review state."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from prep.bank.cache import IndexRow
    from prep.config import DrillConfig
    from prep.paths import BankLocation
    from prep.state.store import Store


class QuickStart(NamedTuple):
    location: BankLocation
    rows: list[IndexRow]  # the selected questions, in bank order
    settings: DrillConfig
    state: Path
    named_state: bool  # the user named it (--state or $PREP_STATE)

    def store(self, *, shown: bool = False) -> Store:
        """The review state of this bank, read only, with what other devices appended to its
        shared history taken in. *shown*: it is shown to the user, so a state file they named
        that is not there is said."""
        from prep.cli.output import warn
        from prep.review.shared import open_store

        settings = self.settings.scheduler
        return open_store(
            self.state,
            self.location.key,
            lambda: settings,
            write=False,
            warn=warn,
            named=shown and self.named_state,
        )


def quick_start(
    bank_option: Path | None,
    state_option: Path | None,
    config_option: Path | None,
    filters: dict[str, list[str]],
) -> QuickStart:
    """The bank, its selected rows, the settings and the state file the global options name."""
    import os

    from prep import config as config_module
    from prep.bank.index import question_index
    from prep.bank.selection import select_rows
    from prep.paths import ENV_CONFIG, config_path, find_bank, state_named, state_path

    location = find_bank(bank_option)
    rows = select_rows(question_index(location), **filters)
    explicit = config_option is not None or bool(os.environ.get(ENV_CONFIG))
    settings = config_module.load(config_path(config_option), explicit=explicit)
    return QuickStart(location, rows, settings, state_path(state_option), state_named(state_option))
