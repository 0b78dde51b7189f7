"""Everything prep prints goes through here: lines of text on standard output or standard error,
JSON, and the rich console for tables, panels and styled text. Light, because the quick paths
print with it too: rich is imported by ``console`` alone, when a command asks for it."""

from __future__ import annotations

import io
import sys
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    """*text* and a newline (none with *nl* false) on standard output, or standard error with
    *err*, written at once (a reader of a pipe sees it before prep goes on)."""
    stream = sys.stderr if err else sys.stdout
    stream.write(f"{text}\n" if nl else text)
    stream.flush()


def write_output(text: str, path: Path | None) -> None:
    """An export: to *path* (its folder made, written whole or not at all, said on stderr), or
    to standard output when there is none."""
    if path is None:
        echo(text, nl=False)
        return
    from prep.errors import display_path
    from prep.files import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text)
    echo(f"wrote {display_path(path)}", err=True)


def warn(text: str) -> None:
    """A line about something prep skipped or did on its own, on standard error."""
    echo(f"prep: {text}", err=True)


def emit_json(data: object) -> None:
    """*data* as indented JSON on standard output; what JSON has no type for (dates, paths) as text."""
    import json

    echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def console(stderr: bool = False, **options: Any) -> Console:
    """The rich console, on standard output (standard error with *stderr*)."""
    # No markup: bank text and typed answers are printed as written, "[mask]" and "[/]" included.
    stream = sys.stderr if stderr else sys.stdout
    if not _is_terminal(stream):
        options["file"] = TrimmedLines(stream)
    settings = {"stderr": stderr, "highlight": False, "soft_wrap": False, "markup": False, **options}
    return _console_class()(**settings)


@cache
def _console_class() -> type[Console]:
    from rich.console import Console

    class PipeConsole(Console):
        def on_broken_pipe(self) -> None:
            # rich would exit 1; a reader that has all it wanted (`prep list | head -1`) is a
            # success, which prep.cli.app decides, as it does for every other write.
            self.quiet = True
            raise BrokenPipeError

    return PipeConsole


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class TrimmedLines(io.TextIOBase):
    """A file or pipe gets lines without the spaces rich pads tables and wrapped text with to
    the console's width: noise in a log, and in a diff."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self._partial = ""

    def write(self, text: str) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        if lines:
            self.stream.write("\n".join(line.rstrip(" ") for line in lines) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._partial:  # a prompt waiting for input on the same line keeps its spaces
            self.stream.write(self._partial)
            self._partial = ""
        self.stream.flush()

    def isatty(self) -> bool:
        return False
