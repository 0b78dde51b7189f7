"""Plain text in and out, shared by every command: text from standard input, whether a person
is at the terminal, the terminal's width and a list wrapped to it, counted nouns for messages,
what a change to the bank reports, and a list typed line by line."""

from __future__ import annotations

import sys

from prep.cli.output import echo, emit_json
from prep.errors import UsageError


def read_stdin_text() -> str:
    """All of standard input as text; bytes that are not UTF-8 are an error, not a crash later."""
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"standard input is not valid UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start})"
        ) from None


def interactive() -> bool:
    """A person can answer questions: standard input is a terminal."""
    return sys.stdin.isatty()


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """ "1 question", "2 questions", "1 category", "3 categories"."""
    if n == 1:
        return f"{n} {singular}"
    if plural is None:  # "category" -> "categories", but "day" -> "days"
        consonant_y = singular.endswith("y") and singular[-2:-1] not in ("a", "e", "i", "o", "u")
        plural = singular[:-1] + "ies" if consonant_y else singular + "s"
    return f"{n} {plural}"


def terminal_width(fallback: int = 80) -> int:
    """The columns of the terminal the user reads: standard output's, or, through a pipe
    (`prep plan | less`), standard error's, which still shows it; $COLUMNS first, as rich reads
    it; else *fallback*."""
    import os

    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream.isatty():
                return os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, OSError, ValueError):
            continue
    return fallback


def wrapped_list(label: str, items: list[str], width: int | None = None) -> str:
    """ "label: a, b, c" broken between items, never inside one, to the terminal's width, the
    lines after the first indented by two spaces."""
    import textwrap

    lines = textwrap.wrap(
        f"{label}: {', '.join(items)}",
        width=width or terminal_width(),
        subsequent_indent="  ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    return "\n".join(lines)


def report_change(change, as_json: bool, message: str) -> None:  # type: ignore[no-untyped-def]
    """What a command changed in the bank: its JSON with --json, else one line."""
    if as_json:
        emit_json(change.to_dict())
    else:
        echo(message)


def ask_list(label: str, finish: str = "finish") -> list[str]:
    """Lines typed at a prompt until an empty one."""
    import typer

    echo(f"{label} (one per line, empty line to {finish}):")
    items = []
    while True:
        line = typer.prompt("", default="", show_default=False, prompt_suffix="  > ")
        if not line.strip():
            return items
        items.append(line.strip())
