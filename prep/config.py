"""User settings from a TOML file ([drill], [interview] and [judge] sections), overridable by
command-line options; `prep plan` writes the [interview] section."""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
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
INTERVIEW_KEYS = ("date", "minutes_per_day")
# The judge model (docs/judge.md); `notified`: the models prep has said it sends answers to.
JUDGE_KEYS = ("model", "when", "timeout_seconds", "notified")
JUDGE_WHEN = ("unsure", "always")
JUDGE_TIMEOUT = 30.0
MAX_JUDGE_TIMEOUT = 600.0
SECTIONS = {"drill": (*DEFAULTS, *ASKED), "interview": INTERVIEW_KEYS, "judge": JUDGE_KEYS}
MINUTES_PER_DAY = 45  # the interview plan's daily budget when none is given
MINUTES_RANGE = (5, 600)
MAX_DAYS_AHEAD = 365  # an interview further away than a year is a typo


@dataclass(frozen=True)
class SchedulerConfig:
    desired_retention: float = 0.9
    learning_steps: tuple[timedelta, ...] = (timedelta(minutes=1), timedelta(minutes=10))
    relearning_steps: tuple[timedelta, ...] = (timedelta(minutes=10),)
    maximum_interval_days: int = 36500
    fuzz: bool = True  # spread due dates a little; tests turn it off for determinism
    parameters: tuple[float, ...] | None = None  # personal FSRS weights, else the defaults


@dataclass(frozen=True)
class InterviewConfig:
    """The interview date and the minutes a day to prepare ([interview] in the config)."""

    date: date
    minutes_per_day: int = MINUTES_PER_DAY
    origin: str = ""  # "config.toml:7: ", where the date is written, for messages about it


@dataclass(frozen=True)
class JudgeConfig:
    """The [judge] section: which model judges (None: no judge), for which answers ("unsure":
    those the words cannot decide; "always"), how long to wait for it, and the models the user
    has been told get their answers."""

    model: str | None = None
    when: str = "unsure"
    timeout_seconds: float = JUDGE_TIMEOUT
    notified: tuple[str, ...] = ()
    origin: str = ""  # "config.toml:3: " where the model is named, or "--judge: "


@dataclass(frozen=True)
class DrillConfig:
    new_per_day: int = 10
    scheduler: SchedulerConfig = field(default_factory=SchedulerConfig)
    interview: InterviewConfig | None = None
    teach_writes_bank: bool | None = None  # None: ask the first time
    judge: JudgeConfig = field(default_factory=JudgeConfig)


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


def _line_of(text: str, key: str, in_section: str = "drill") -> int:
    """The line that sets *key* in a section (TOML parsers keep no positions)."""
    section = ""
    for number, line in enumerate(text.splitlines(), 1):
        header = re.match(r"\s*\[\s*([^\]]+?)\s*\]", line)
        if header:
            section = header.group(1).strip('"')
        elif section == in_section and re.match(rf"\s*\"?{re.escape(key)}\"?\s*=", line):
            return number
    return 0


def _read(path: Path, explicit: bool) -> tuple[dict, str]:
    """The file's sections, checked for unknown names, and its text ({} and "" when absent)."""
    if path.is_dir():
        raise UsageError(f"{display_path(path)} is a directory, not a config file")
    if explicit and not path.is_file():
        raise UsageError(f"config file not found: {display_path(path)}")
    if not path.is_file():
        return {}, ""
    where = f"{display_path(path)}: "
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
        raise UsageError(f"{where}cannot read config: {exc}") from None
    stray = sorted(k for k, v in data.items() if k not in SECTIONS and not isinstance(v, dict))
    if stray:
        home = "[interview]" if all(k in INTERVIEW_KEYS for k in stray) else "[drill]"
        raise UsageError(
            f"{where}setting{'s' if len(stray) != 1 else ''} {', '.join(stray)} outside a section: "
            f"settings go under {home}"
        )
    other = set(data) - set(SECTIONS)
    if other:
        raise UsageError(
            f"{where}unknown section{'s' if len(other) != 1 else ''} "
            f"{', '.join(f'[{s}]' for s in sorted(other))} (known: {', '.join(f'[{s}]' for s in SECTIONS)})"
        )
    for name, known in SECTIONS.items():
        section = data.get(name, {})
        if not isinstance(section, dict):
            raise UsageError(f"{where}[{name}] must be a table")
        unknown = set(section) - set(known)
        if unknown:
            raise UsageError(
                f"{where}unknown setting{'s' if len(unknown) != 1 else ''} in [{name}]: "
                f"{', '.join(sorted(unknown))} (known: {', '.join(known)})"
            )
    return data, text


def load(path: Path, *, overrides: dict | None = None, explicit: bool = False) -> DrillConfig:
    """The settings: defaults < config file ([drill], [interview]) < command-line overrides.
    *explicit*: the file was named (--config, $PREP_CONFIG), so it must exist."""
    data, text = _read(path, explicit)
    values = {**DEFAULTS, **data.get("drill", {})}
    overridden = {k: v for k, v in (overrides or {}).items() if v is not None}
    values.update(overridden)

    def at(key: str, section: str = "drill") -> str:  # "config.toml:3: ", where the value was written
        if key in overridden or not text:
            return ""
        line = _line_of(text, key, section)
        return f"{display_path(path)}:{line}: " if line else f"{display_path(path)}: "

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
        interview=_interview(data.get("interview"), lambda key: at(key, "interview")),
        judge=_judge(data.get("judge") or {}, lambda key: at(key, "judge")),
    )


def _judge(section: dict, at) -> JudgeConfig:  # type: ignore[no-untyped-def]
    """The [judge] section: model, when, timeout_seconds (and notified, which prep keeps)."""
    model = section.get("model")
    if model is not None and (not isinstance(model, str) or not model.strip()):
        raise UsageError(f"{at('model')}[judge] model must be an llm model id or alias, not {_toml(model)}")
    when = section.get("when", "unsure")
    if when not in JUDGE_WHEN:
        raise UsageError(f'{at("when")}[judge] when must be "unsure" or "always", not {_toml(when)}')
    timeout = section.get("timeout_seconds", JUDGE_TIMEOUT)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not 0 < timeout <= MAX_JUDGE_TIMEOUT
    ):
        raise UsageError(
            f"{at('timeout_seconds')}[judge] timeout_seconds must be a number of seconds above 0 and at "
            f"most {MAX_JUDGE_TIMEOUT:g}, not {_toml(timeout)}"
        )
    notified = section.get("notified", [])
    if not isinstance(notified, list) or not all(isinstance(m, str) for m in notified):
        raise UsageError(
            f"{at('notified')}[judge] notified must be a list of model ids, not {_toml(notified)}"
        )
    return JudgeConfig(
        model.strip() if model else None, when, float(timeout), tuple(notified), at("model") if model else ""
    )


def with_judge(settings: JudgeConfig, model: str | None, off: bool) -> JudgeConfig:
    """*settings* as a command's options leave them: --judge MODEL names the model for this run,
    --no-judge turns the judge off."""
    from dataclasses import replace

    if off:
        return replace(settings, model=None, origin="")
    if model is not None:
        if not model.strip():
            raise UsageError("--judge needs a model id or alias (`llm models` lists them)")
        return replace(settings, model=model.strip(), origin="--judge: ")
    return settings


def _interview(section: dict | None, at) -> InterviewConfig | None:  # type: ignore[no-untyped-def]
    """The [interview] section: a date (TOML date or "YYYY-MM-DD") and minutes_per_day."""
    if not section:
        return None
    if "date" not in section:
        raise UsageError(
            f"{at('minutes_per_day')}[interview] has no date: "
            "set one with `prep plan --interview DATE --save`"
        )
    when = section["date"]
    if isinstance(when, str):
        try:
            when = date.fromisoformat(when)
        except ValueError:
            when = None
    if not isinstance(when, date) or isinstance(when, datetime):
        raise UsageError(
            f"{at('date')}[interview] date must be a date like 2026-05-04, not {_toml(section['date'])}"
        )
    minutes = section.get("minutes_per_day", MINUTES_PER_DAY)
    low, high = MINUTES_RANGE
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not low <= minutes <= high:
        raise UsageError(
            f"{at('minutes_per_day')}minutes_per_day must be a whole number from {low} to {high}, "
            f"not {_toml(minutes)}"
        )
    return InterviewConfig(when, minutes, at("date"))


def _steps(values: dict, name: str, where: str) -> tuple[timedelta, ...]:
    steps = values[name]
    if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
        raise UsageError(f'{where}{name} must be a list of durations like ["1m", "10m"], not {_toml(steps)}')
    try:
        return tuple(parse_duration(s) for s in steps)
    except UsageError as error:
        raise UsageError(f"{where}{name}: {error.message}") from None


# --- the [interview] section, written by `prep plan` ------------------------------------------


def interview_problem(when: date, today: date) -> str | None:
    """Why *when* cannot be an interview date seen from *today*, or None."""
    if when < today:
        return f"{when.isoformat()} is in the past"
    if (when - today).days > MAX_DAYS_AHEAD:
        return f"{when.isoformat()} is more than a year away"
    return None


def save_interview(path: Path, interview: InterviewConfig | None) -> None:
    """Write the [interview] section (None: remove it), keeping the rest of the file as it is."""
    from prep.files import atomic_write

    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    kept = _without_section(text, "interview").rstrip("\n")
    if interview is not None:
        section = (
            f"[interview]\ndate = {interview.date.isoformat()}\n"
            f"minutes_per_day = {interview.minutes_per_day}\n"
        )
        kept = f"{kept}\n\n{section}" if kept else section
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, kept + ("\n" if kept and not kept.endswith("\n") else ""))


def _without_section(text: str, name: str) -> str:
    """*text* without the lines of section [name] (its header to the next header)."""
    lines, inside = [], False
    for line in text.splitlines():
        header = re.match(r"\s*\[\s*([^\]]+?)\s*\]", line)
        if header:
            inside = header.group(1).strip('"') == name
        if not inside:
            lines.append(line)
    return "\n".join(lines)


def remember(
    path: Path, key: str, value: bool | int | float | str | list[str], section: str = "drill"
) -> None:
    """Set one setting of a section ([drill] unless said) in the config file, every other line as
    it was (the file and the section are created when missing). For what prep asks or says once
    and keeps."""
    from prep.files import atomic_write

    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    lines = text.splitlines(keepends=True)
    setting = f"{key} = {_toml(value)}\n"
    line = _line_of(text, key, section)
    if line:
        lines[line - 1] = setting
    else:
        pattern = rf"\s*\[\s*\"?{re.escape(section)}\"?\s*\]"
        header = next((i for i, ln in enumerate(lines) if re.match(pattern, ln)), None)
        if header is None:
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += "\n"
            lines += (["\n"] if lines else []) + [f"[{section}]\n"]
            header = len(lines) - 1
        lines.insert(header + 1, setting)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, "".join(lines))
