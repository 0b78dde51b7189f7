"""User settings from a TOML file ([drill] section), overridable by command-line options."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from .errors import UsageError, display_path
from .scheduler import SchedulerConfig

# Documented in the README ("Configuration").
DEFAULTS = {
    "desired_retention": 0.9,
    "new_per_day": 10,
    "learning_steps": ["1m", "10m"],
    "relearning_steps": ["10m"],
    "fuzz": True,
}


@dataclass(frozen=True)
class DrillConfig:
    new_per_day: int = 10
    scheduler: SchedulerConfig = field(default_factory=SchedulerConfig)


def parse_duration(text: str) -> timedelta:
    """'90s', '10m', '2h' or '1d' -> timedelta."""
    units = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}
    text = str(text).strip()
    try:
        value = float(text[:-1])
        unit = units[text[-1]]
    except (KeyError, ValueError, IndexError):
        raise UsageError(f"bad duration {text!r}: use a number and s, m, h or d, e.g. '10m'") from None
    if value <= 0:
        raise UsageError(f"bad duration {text!r}: must be positive")
    return timedelta(**{unit: value})


def load(path: Path, *, overrides: dict | None = None) -> DrillConfig:
    """The drill settings: defaults < config file [drill] section < command-line overrides."""
    values = dict(DEFAULTS)
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
            raise UsageError(f"{display_path(path)}: cannot read config: {exc}") from None
        section = data.get("drill", {})
        if not isinstance(section, dict):
            raise UsageError(f"{display_path(path)}: [drill] must be a table")
        unknown = set(section) - set(DEFAULTS)
        if unknown:
            raise UsageError(
                f"{display_path(path)}: unknown setting{'s' if len(unknown) != 1 else ''} in [drill]: {', '.join(sorted(unknown))} "
                f"(known: {', '.join(DEFAULTS)})"
            )
        values.update(section)
    values.update({k: v for k, v in (overrides or {}).items() if v is not None})
    retention = values["desired_retention"]
    if not isinstance(retention, (int, float)) or not 0.5 <= retention < 1:
        raise UsageError(f"desired_retention must be between 0.5 and 0.99, not {retention!r}")
    new_per_day = values["new_per_day"]
    if not isinstance(new_per_day, int) or new_per_day < 0:
        raise UsageError(f"new_per_day must be a whole number >= 0, not {new_per_day!r}")
    return DrillConfig(
        new_per_day=new_per_day,
        scheduler=SchedulerConfig(
            desired_retention=float(retention),
            learning_steps=tuple(parse_duration(s) for s in values["learning_steps"]),
            relearning_steps=tuple(parse_duration(s) for s in values["relearning_steps"]),
            fuzz=bool(values["fuzz"]),
        ),
    )
