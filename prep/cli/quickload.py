"""What the light commands (`prep next`, `prep plan`) read before typer and pydantic load: the
bank's location, its question index filtered as asked, and the settings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prep.bank.cache import IndexRow
    from prep.config import DrillConfig
    from prep.paths import BankLocation


def quick_load(
    bank: Path | None, config: Path | None, filters: dict[str, list[str]]
) -> tuple[BankLocation, list[IndexRow], DrillConfig]:
    import os

    from prep import config as config_module
    from prep.bank.index import question_index
    from prep.bank.selection import select_rows
    from prep.paths import ENV_CONFIG, config_path, find_bank

    location = find_bank(bank)
    rows = select_rows(question_index(location), **filters)
    explicit = config is not None or bool(os.environ.get(ENV_CONFIG))
    return location, rows, config_module.load(config_path(config), explicit=explicit)
