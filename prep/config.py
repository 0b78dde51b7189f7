"""User settings from a TOML file ([drill] section), overridable by command-line options."""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from prep.errors import UsageError, display_path

# Documented in the README ("Configuration").
DEFAULTS = {
    "desired_retention": 0.9,
    "new_per_day": 10,
    "learning_steps": ["1m", "10m"],
    "relearning_steps": ["10m"],
    "fuzz": True,
}
# Settings prep asks about once and then keeps (absent: not asked yet).
ASKED = ("teach_writes_bank",)  # `t` in a drill adds the user's words to the bank


@dataclass(frozen=True)
class SchedulerConfig:
    desired_retention: float = 0.9
    learning_steps: tuple[timedelta, ...] = (timedelta(minutes=1), timedelta(minutes=10))
    relearning_steps: tuple[timedelta, ...] = (timedelta(minutes=10),)
    maximum_interval_days: int = 36500
    fuzz: bool = True  # spread due dates a little; tests turn it off for determinism
    parameters: tuple[float, ...] | None = None  # personal FSRS weights, else the defaults


@dataclass(frozen=True)
class DrillConfig:
    new_per_day: int = 10
    scheduler: SchedulerConfig = field(default_factory=SchedulerConfig)
    teach_writes_bank: bool | None = None  # None: ask the first time


MAX_STEP = timedelta(days=365)  # a (re)learning step longer than a year is a typo


def parse_duration(text: str) -> timedelta:
    """'90s', '10m', '2h' or '1d' -> timedelta."""
    units = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}
    text = str(text).strip()
    try:
        value = float(text[:-1])
        unit = units[text[-1]]
    except (KeyError, ValueError, IndexError):
        raise UsageError(f"bad duration {text!r}: use a number and s, m, h or d, e.g. '10m'") from None
    if not math.isfinite(value) or value <= 0:
        raise UsageError(f"bad duration {text!r}: must be a positive number of s, m, h or d")
    if value * {"s": 1, "m": 60, "h": 3600, "d": 86400}[text[-1]] > MAX_STEP.total_seconds():
        raise UsageError(f"bad duration {text!r}: at most 365d")
    return timedelta(**{unit: value})


def _toml(value: object) -> str:
    """A value as TOML writes it: true, not True; "10m", not '10m'."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def _line_of(text: str, key: str) -> int:
    """The line that sets *key* in the [drill] section (TOML parsers keep no positions)."""
    section = ""
    for number, line in enumerate(text.splitlines(), 1):
        header = re.match(r"\s*\[\s*([^\]]+?)\s*\]", line)
        if header:
            section = header.group(1).strip('"')
        elif section == "drill" and re.match(rf"\s*\"?{re.escape(key)}\"?\s*=", line):
            return number
    return 0


def load(path: Path, *, overrides: dict | None = None, explicit: bool = False) -> DrillConfig:
    """The drill settings: defaults < config file [drill] section < command-line overrides.
    *explicit*: the file was named (--config, $PREP_CONFIG), so it must exist."""
    values = dict(DEFAULTS)
    where = ""
    text = ""
    if path.is_dir():
        raise UsageError(f"{display_path(path)} is a directory, not a config file")
    if explicit and not path.is_file():
        raise UsageError(f"config file not found: {display_path(path)}")
    if path.is_file():
        where = f"{display_path(path)}: "
        try:
            text = path.read_text(encoding="utf-8")
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
            raise UsageError(f"{where}cannot read config: {exc}") from None
        values.update(_drill_section(data, where))
    overridden = {k: v for k, v in (overrides or {}).items() if v is not None}
    values.update(overridden)

    def at(key: str) -> str:  # "config.toml:3: ", where the bad value was written
        if key in overridden or not where:
            return ""
        line = _line_of(text, key)
        return f"{where[:-2]}:{line}: " if line else where

    retention = values["desired_retention"]
    if isinstance(retention, bool) or not isinstance(retention, (int, float)) or not 0.5 <= retention <= 0.99:
        raise UsageError(
            f"{at('desired_retention')}desired_retention must be between 0.5 and 0.99, not {_toml(retention)}"
        )
    new_per_day = values["new_per_day"]
    if isinstance(new_per_day, bool) or not isinstance(new_per_day, int) or new_per_day < 0:
        raise UsageError(
            f"{at('new_per_day')}new_per_day must be a whole number >= 0, not {_toml(new_per_day)}"
        )
    for flag in ("fuzz", "teach_writes_bank"):
        if flag in values and not isinstance(values[flag], bool):
            raise UsageError(f"{at(flag)}{flag} must be true or false, not {_toml(values[flag])}")
    return DrillConfig(
        new_per_day=new_per_day,
        teach_writes_bank=values.get("teach_writes_bank"),
        scheduler=SchedulerConfig(
            desired_retention=float(retention),
            learning_steps=_steps(values, "learning_steps", at("learning_steps")),
            relearning_steps=_steps(values, "relearning_steps", at("relearning_steps")),
            fuzz=values["fuzz"],
        ),
    )


def _drill_section(data: dict, where: str) -> dict:
    """The [drill] table of a parsed config file; anything else in the file is an error."""
    stray = sorted(k for k, v in data.items() if k != "drill" and not isinstance(v, dict))
    if stray:
        raise UsageError(
            f"{where}setting{'s' if len(stray) != 1 else ''} {', '.join(stray)} outside a section: "
            "settings go under [drill]"
        )
    other = set(data) - {"drill"}
    if other:
        raise UsageError(
            f"{where}unknown section{'s' if len(other) != 1 else ''} "
            f"{', '.join(f'[{s}]' for s in sorted(other))} (known: [drill])"
        )
    section = data.get("drill", {})
    if not isinstance(section, dict):
        raise UsageError(f"{where}[drill] must be a table")
    unknown = set(section) - set(DEFAULTS) - set(ASKED)
    if unknown:
        raise UsageError(
            f"{where}unknown setting{'s' if len(unknown) != 1 else ''} in [drill]: "
            f"{', '.join(sorted(unknown))} (known: {', '.join([*DEFAULTS, *ASKED])})"
        )
    return section


def _steps(values: dict, name: str, where: str) -> tuple[timedelta, ...]:
    steps = values[name]
    if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
        raise UsageError(f'{where}{name} must be a list of durations like ["1m", "10m"], not {_toml(steps)}')
    try:
        return tuple(parse_duration(s) for s in steps)
    except UsageError as error:
        raise UsageError(f"{where}{name}: {error.message}") from None


def remember(path: Path, key: str, value: bool | int | float | str) -> None:
    """Set one [drill] setting in the config file, every other line as it was (the file and the
    section are created when missing). For the answers prep asks for once and keeps."""
    from prep.files import atomic_write

    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    lines = text.splitlines(keepends=True)
    setting = f"{key} = {_toml(value)}\n"
    line = _line_of(text, key)
    if line:
        lines[line - 1] = setting
    else:
        header = next((i for i, ln in enumerate(lines) if re.match(r"\s*\[\s*\"?drill\"?\s*\]", ln)), None)
        if header is None:
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += "\n"
            lines += (["\n"] if lines else []) + ["[drill]\n"]
            header = len(lines) - 1
        lines.insert(header + 1, setting)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, "".join(lines))
