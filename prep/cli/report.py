"""How a PrepError reaches the user: every detail line, then one `prep: ...` line and its hint,
on standard error. Light on purpose: the quick path of `prep next` uses it before typer loads."""

from __future__ import annotations

from prep.cli.output import echo
from prep.errors import PrepError


def report(error: PrepError) -> int:
    """Print the error as prep prints every error; return its exit code."""
    lines = [*error.details(), f"prep: {error.message}"]
    if error.hint:
        lines.append(f"  {error.hint}")
    echo("\n".join(lines), err=True)
    return error.exit_code
