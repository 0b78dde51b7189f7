"""Opening the user's editor on a bank file, at the right line."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from prep.errors import UsageError

# How editors are told the line to open at: "+LINE FILE" (vi, nano, emacs and their kin),
# "-g FILE:LINE" (VS Code and its forks), "FILE:LINE" (Sublime Text, Zed, Helix). Any other
# editor gets the file alone.
_PLUS_LINE = {
    "vi", "vim", "nvim", "gvim", "mvim", "view", "nano", "pico", "emacs", "emacsclient", "micro", "kak",
    "joe", "jed", "mg", "ne", "gedit",
}  # fmt: skip
_GOTO_FLAG = {"code", "code-insiders", "codium", "cursor"}
_COLON_LINE = {"subl", "sublime_text", "zed", "hx", "helix"}


def editor_command() -> list[str]:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not editor:
        editor = "notepad" if os.name == "nt" else "vi"
    return shlex.split(editor)


def editor_argv(path: Path, line: int | None = None) -> list[str]:
    """$VISUAL/$EDITOR with its own arguments, then *path*, at *line* the way that editor takes it."""
    argv = editor_command()
    # "/usr/bin/vim.basic", "code.cmd": the editor's name is what comes before the first dot.
    name = Path(argv[0]).name.lower().split(".")[0]
    if line and name in _PLUS_LINE:
        return [*argv, f"+{line}", str(path)]
    if line and name in _GOTO_FLAG:
        return [*argv, "-g", f"{path}:{line}"]
    if line and name in _COLON_LINE:
        return [*argv, f"{path}:{line}"]
    return [*argv, str(path)]


def open_editor(path: Path, line: int | None = None) -> None:
    """Run $VISUAL/$EDITOR on *path* and wait for it."""
    argv = editor_argv(path, line)
    try:
        status = subprocess.call(argv)
    except OSError as exc:
        raise UsageError(
            f"cannot run the editor {argv[0]!r}: {exc.strerror or exc}",
            hint="set $EDITOR to your editor's command",
        ) from None
    if status != 0:
        raise UsageError(f"the editor {argv[0]!r} exited with status {status}; nothing was changed by prep")
