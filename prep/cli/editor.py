"""Opening the user's editor on a bank file, at the right line."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from prep.errors import UsageError

# Editors known to accept "+LINE" before the file name.
_PLUS_LINE = {"vi", "vim", "nvim", "nano", "emacs", "emacsclient", "micro", "kak", "joe", "jed", "mg", "ne"}


def editor_command() -> list[str]:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not editor:
        editor = "notepad" if os.name == "nt" else "vi"
    return shlex.split(editor)


def open_editor(path: Path, line: int | None = None) -> None:
    """Run $VISUAL/$EDITOR on *path* and wait for it."""
    argv = editor_command()
    if line and Path(argv[0]).name in _PLUS_LINE:
        argv.append(f"+{line}")
    argv.append(str(path))
    try:
        status = subprocess.call(argv)
    except OSError as exc:
        raise UsageError(
            f"cannot run the editor {argv[0]!r}: {exc.strerror or exc}",
            hint="set $EDITOR to your editor's command",
        ) from None
    if status != 0:
        raise UsageError(f"the editor {argv[0]!r} exited with status {status}; nothing was changed by prep")
