"""Single key presses on a terminal, one-key choices that read a line when there is none, and
the terminal's side of typing a line (editing, an interrupted line, a paste on its way)."""

from __future__ import annotations

import os
import sys
from typing import TextIO

from prep.cli.output import echo


def choose_key(prompt: str, keys: str, *, default: str, err: bool = False) -> str | None:
    """One of *keys* (Enter: *default*): a single key press on a terminal, else a line holding
    just that key. Anything else is asked again; None at the end of the input (or Ctrl-D)."""
    interactive = sys.stdin.isatty()
    listed = ", ".join(keys[:-1]) + f" or {keys[-1]}"
    while True:
        echo(f"{prompt} ", err=err, nl=not interactive)
        if interactive:
            key = read_key(sys.stdin)
            echo("", err=err)
        else:
            line = sys.stdin.readline()
            key = None if line == "" else line.strip().lower()
        if key is None:
            return None
        key = key or default
        if len(key) == 1 and key in keys:
            return key
        echo(f"press {listed} (Enter: {default})", err=err)


def read_key(stream: TextIO, *, flush: bool = True) -> str | None:
    """One key press. *flush*: what was typed before the prompt is dropped (keys typed ahead must
    not answer a prompt not yet seen); without it, the next key of a burst is kept (the Enter
    after a tick's number)."""
    import termios
    import tty

    fd = stream.fileno()
    old = termios.tcgetattr(fd)
    try:
        # cbreak keeps Ctrl-C working (ISIG), with no echo and no line buffering
        tty.setcbreak(fd, termios.TCSAFLUSH if flush else termios.TCSANOW)
        while True:
            char = one_key(fd)
            if char is not None:
                break
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
    if char == "\x04":  # Ctrl-D
        return None
    return "" if char in ("\r", "\n") else char.lower()


def one_key(fd: int) -> str | None:
    """One keypress as text: a whole UTF-8 character ("é" is two bytes), or None for a key
    that sends an escape sequence (arrows, function keys), which the drill ignores."""
    import select

    first = os.read(fd, 1)
    if not first:
        return "\x04"  # the terminal went away: as Ctrl-D
    if first == b"\x1b":
        while select.select([fd], [], [], 0.02)[0]:  # the rest of the sequence follows at once
            os.read(fd, 16)
        return None
    lead = first[0]
    extra = 3 if lead >= 0xF0 else 2 if lead >= 0xE0 else 1 if lead >= 0xC0 else 0
    data = first + b"".join(os.read(fd, 1) for _ in range(extra))
    return data.decode(errors="replace")


def line_editing() -> None:
    """Arrow keys, Home/End and history while typing an answer, as in any shell.

    Without readline, input() reads the raw terminal: arrow keys type escape codes, and a line
    ended by Ctrl-D instead of Enter loses its last character."""
    try:
        import readline  # noqa: F401  (importing it is what enables it)
    except ImportError:  # pragma: no cover - Python built without readline
        pass


def unfinished_line() -> str:
    """What was typed on the line Ctrl-C interrupted: readline still holds it."""
    try:
        import readline
    except ImportError:  # pragma: no cover - Python built without readline
        return ""
    return readline.get_line_buffer()


def pasting(stream: TextIO) -> bool:
    """Whether more text is already waiting on the terminal: a paste arrives all at once, while
    a person who meant to finish has typed nothing after the blank line."""
    import select

    try:
        return bool(select.select([stream], [], [], 0.05)[0])
    except (OSError, ValueError):
        return False
