"""The one error family of prep, and the exit codes the CLI maps it to.

Core code raises these; only the CLI turns them into a message and an exit status
(see ``prep.cli``), so library callers get exceptions, never printing or exiting.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# Documented in the README ("Exit codes"); scripts may rely on them.
EXIT_OK = 0
EXIT_ERROR = 1  # runtime error: unknown id or category, bad option value, unreadable file
EXIT_INVALID_BANK = 2  # the bank (or another YAML input) has problems, each printed as file:line:col
EXIT_USAGE = 2  # the command line cannot be parsed: unknown command or option, missing argument
EXIT_STATE = 3  # the review-state database cannot be used
EXIT_INTERRUPTED = 130  # Ctrl-C, after saving what was done


class PrepError(Exception):
    """Base of every error prep reports to the user."""

    exit_code = EXIT_ERROR

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def details(self) -> list[str]:
        """Lines printed before the message, unprefixed (e.g. one per bank problem)."""
        return []


class UsageError(PrepError):
    """The user asked for something that does not make sense (bad option value)."""


class CommandLineError(UsageError):
    """A command line that cannot mean anything: a value outside a fixed set (`--kind nope`), or
    options that exclude each other. Exit code 2, as for what the parser itself refuses."""

    exit_code = EXIT_USAGE


class JudgeUnavailable(PrepError):
    """The judge asked for cannot be used at all: the llm library is not installed, or it has no
    model of that name. Exit code 2, as for a setting that cannot mean anything. (A judge that
    fails on an answer is never an error: the word-level grade stands.)"""

    exit_code = EXIT_USAGE


class NotFound(PrepError):
    """A question id, category or file the user named does not exist."""


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the bank, located as precisely as the YAML allows."""

    file: str
    line: int  # 1-based; 0 when the problem concerns the whole file
    column: int  # 1-based; 0 when unknown or meaningless (a record of a CSV file): not printed
    message: str
    path: str = ""  # field path inside the document, e.g. questions[3].key_points[0].text

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}:{self.column}" if self.column else f":{self.line}"
        field = f"{self.path}: " if self.path else ""
        return f"{where}: {field}{self.message}"

    def to_dict(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.path,
            "message": self.message,
        }


class InvalidInput(PrepError):
    """A YAML file the user gave has problems; carries every problem found, not only the first."""

    exit_code = EXIT_INVALID_BANK
    subject = "the input"

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        count = len(self.problems)
        super().__init__(
            f"{self.subject} has {count} problem{'s' if count != 1 else ''}; "
            f"fix {'them' if count != 1 else 'it'} and try again"
        )

    def details(self) -> list[str]:
        return [str(p) for p in self.problems]


class BankInvalid(InvalidInput):
    """The bank failed validation."""

    subject = "the bank"


class ImportInvalid(InvalidInput):
    """Rows of a file given to `prep import` are invalid: every one is listed, nothing is written."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        self.subject = file
        super().__init__(problems)
        self.hint = "nothing was imported"


class WriteFailed(PrepError):
    """A file could not be written (permissions, a full disk); what was written is rolled back."""


class StateError(PrepError):
    """The review-state database cannot be opened, read or written."""

    exit_code = EXIT_STATE


class StateReadOnly(StateError):
    """The state database is healthy but cannot be written here (or created in its folder)."""


def display_path(path: Path | str) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    path = Path(path)
    try:
        return str(path.absolute().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)
