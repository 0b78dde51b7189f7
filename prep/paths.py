"""Where the bank, the review state and the config live.

Order everywhere: an explicit option, then an environment variable, then a sensible default.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from prep.errors import NotFound

APP_NAME = "prep"
ENV_BANK = "PREP_BANK"
ENV_STATE = "PREP_STATE"
ENV_CONFIG = "PREP_CONFIG"
ENV_HOME = "PREP_HOME"  # one directory for state and config (tests point it at tmp_path)

YAML_SUFFIXES = (".yaml", ".yml")
QUESTIONS_DIR = "questions"
BUNDLED_DIR = "_bundled"  # where the wheel carries the bundled bank
ANSWERS_DIR = "answers"
BUNDLED_KEY = "bundled"


@dataclass(frozen=True)
class BankLocation:
    root: Path
    origin: str  # "option", "env", "cwd" or "bundled": shown by `prep validate`

    @property
    def questions(self) -> Path:
        return self.root / QUESTIONS_DIR

    @property
    def answers(self) -> Path:
        return self.root / ANSWERS_DIR

    @property
    def key(self) -> str:
        """Which bank this is, in the review history: "bundled" for the bank shipped with prep
        (wherever it is installed), else the bank folder's absolute path."""
        root = self.root.resolve()
        if self.installed or root == bundled_bank_root().resolve():
            return BUNDLED_KEY
        return str(root)

    @property
    def read_only(self) -> bool:
        """prep never writes here: the bundled bank inside the installed package, and the bundled
        bank found by default (from a checkout of prep, its source: edited only when named with
        --bank or $PREP_BANK)."""
        return self.installed or self.origin == "bundled"

    @property
    def installed(self) -> bool:
        """The bundled bank inside the installed package, however it was named (found, --bank,
        $PREP_BANK, a symlink, the working directory): an upgrade replaces it, so prep never
        writes there. A source checkout's own bank is the repository's, and may be edited."""
        try:
            return self.root.resolve() == installed_bundle_dir().resolve()
        except OSError:
            return False


def installed_bundle_dir() -> Path:
    """Where a wheel puts the bundled bank: inside the package."""
    return Path(__file__).resolve().parent / BUNDLED_DIR


def bundled_bank_root() -> Path:
    """The bank shipped with prep: inside the wheel, or at the top of a source checkout."""
    installed = installed_bundle_dir()
    if (installed / QUESTIONS_DIR).is_dir():
        return installed
    return installed.parent.parent


def source_checkout(folder: Path) -> bool:
    """Whether *folder* is a checkout of prep's own source (its pyproject.toml names the project
    prep): its questions/ are the bundled bank's source, not a bank of the user's own."""
    try:
        text = (folder / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    import tomllib  # deferred: only a folder with both questions/ and pyproject.toml gets here

    try:
        return tomllib.loads(text).get("project", {}).get("name") == APP_NAME
    except tomllib.TOMLDecodeError:
        return False


def find_bank(option: Path | None = None, cwd: Path | None = None) -> BankLocation:
    """Resolve the bank directory: --bank, then $PREP_BANK, then ./questions (unless the folder
    is a checkout of prep, whose questions/ are the bundled bank's source), then bundled."""
    if option is not None:
        location = BankLocation(Path(option).expanduser(), "option")
    elif os.environ.get(ENV_BANK):
        location = BankLocation(Path(os.environ[ENV_BANK]).expanduser(), "env")
    else:
        here = cwd or Path.cwd()
        if (here / QUESTIONS_DIR).is_dir() and not source_checkout(here):
            return BankLocation(here, "cwd")
        return BankLocation(bundled_bank_root(), "bundled")
    if not location.root.is_dir():
        source = "--bank" if location.origin == "option" else f"${ENV_BANK}"
        if location.root.exists():
            message = f"{location.root} is a file, not a bank directory (from {source})"
        else:
            message = f"bank directory not found: {location.root} (from {source})"
        raise NotFound(message, hint="a bank is a directory holding questions/ (and optionally answers/)")
    if not location.questions.is_dir():
        raise NotFound(
            f"{location.root} has no {QUESTIONS_DIR}/ directory",
            hint="a bank is a directory holding questions/ (and optionally answers/)",
        )
    return location


def _user_dir(kind: str) -> Path:
    """$PREP_HOME (its cache/ subfolder for the cache), else the platformdirs folder of *kind*."""
    home = os.environ.get(ENV_HOME)
    if home:
        return Path(home).expanduser() / ("cache" if kind == "cache" else "")
    import platformdirs  # deferred: only commands that touch state, config or cache pay for it

    folder = {
        "data": platformdirs.user_data_dir,
        "config": platformdirs.user_config_dir,
        "cache": platformdirs.user_cache_dir,
    }[kind]
    return Path(folder(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Where parsed banks are cached."""
    return _user_dir("cache")


def state_path(option: Path | None = None) -> Path:
    """The SQLite review-state file: --state, then $PREP_STATE, then the user data dir."""
    if option is not None:
        return Path(option).expanduser()
    if os.environ.get(ENV_STATE):
        return Path(os.environ[ENV_STATE]).expanduser()
    return _user_dir("data") / "state.sqlite3"


def state_named(option: Path | None = None) -> bool:
    """The user named the state file (--state or $PREP_STATE): a missing one is worth a word."""
    return option is not None or bool(os.environ.get(ENV_STATE))


def config_path(option: Path | None = None) -> Path:
    """The TOML config file: --config, then $PREP_CONFIG, then the user config dir."""
    if option is not None:
        return Path(option).expanduser()
    if os.environ.get(ENV_CONFIG):
        return Path(os.environ[ENV_CONFIG]).expanduser()
    return _user_dir("config") / "config.toml"


def bank_files(directory: Path) -> list[Path]:
    """The YAML files directly inside *directory*, sorted; hidden files are skipped."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix in YAML_SUFFIXES and not p.name.startswith("."))
