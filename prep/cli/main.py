"""The `prep` console script. `prep next`, `prep plan` and `prep stats` are answered straight
away when their arguments are the plain ones (a shell prompt calls `prep next` on every line,
and typer with its pydantic adapters costs more than the answer), and so is a Tab that
completes a question id or a category; every other command line goes to the typer app."""

from __future__ import annotations

import os
import sys

_GLOBALS = {"--bank": "bank", "--state": "state", "--config": "config"}
_FILTERS = {"-c": "categories", "--category": "categories", "-t": "tags", "--tag": "tags", "-k": "kinds",
            "--kind": "kinds"}  # fmt: skip


def main() -> None:
    if os.environ.get("_PREP_COMPLETE"):  # the shell asks for completions: ids and categories here
        from prep.cli.quick.tab import complete

        completed = complete(os.environ)
        if completed is not None:
            sys.exit(completed)
    code = quick_next(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from prep.cli.app import main as app_main

    app_main()


QUICK = ("next", "plan", "stats")  # commands answered here when their command line is plain


def quick_next(argv: list[str]) -> int | None:
    """Run `prep next` (or `prep plan` showing the plan) and return its exit code, or None when
    *argv* is anything else (help, an unknown option, another command, `plan --interview`) or a
    command line the options' values make meaningless (`-k nope`): the typer app then parses
    it, errors and all."""
    command = next((name for name in QUICK if _parse(argv, name) is not None), None)
    if command is None:
        return None
    paths, filters, as_json = _parse(argv, command)  # type: ignore[misc]
    if command == "stats" and (filters["tags"] or filters["kinds"]):
        return None  # stats selects by category alone: typer says so
    from pathlib import Path

    from prep.cli.output import echo
    from prep.cli.quick.opening import quick_start
    from prep.cli.report import report
    from prep.errors import CommandLineError, PrepError

    if command == "plan":
        from prep.cli.quick.plan import show_plan as show
    elif command == "stats":
        from functools import partial

        from prep.cli.quick.stats import show_stats

        show = partial(show_stats, selected=bool(filters["categories"]))
    else:
        from prep.cli.quick.next import show_next as show
    try:
        start = quick_start(
            *(Path(paths[k]) if k in paths else None for k in ("bank", "state", "config")), filters
        )
        show(start, as_json=as_json)
        sys.stdout.flush()
    except CommandLineError:  # the typer app words it as every command line it refuses
        return None
    except PrepError as error:
        return report(error)
    except BrokenPipeError:  # `prep next | head -1`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        echo("prep: interrupted", err=True)
        return 130
    return 0


def _parse(
    argv: list[str], command: str = "next"
) -> tuple[dict[str, str], dict[str, list[str]], bool] | None:
    """(global paths, filters, --json) of a plain `prep [--bank|--state|--config X] COMMAND
    [-c|-t|-k X] [--json]` command line, else None."""
    paths: dict[str, str] = {}
    filters: dict[str, list[str]] = {"categories": [], "tags": [], "kinds": []}
    as_json, seen_next, i = False, False, 0
    while i < len(argv):
        token = argv[i]
        name, eq, value = token.partition("=")
        table = _FILTERS if seen_next else _GLOBALS
        if token == command and not seen_next:
            seen_next = True
        elif seen_next and token == "--json":
            as_json = True
        elif name in table and (eq or i + 1 < len(argv)):
            if not eq:
                i, value = i + 1, argv[i + 1]
            if seen_next:
                filters[table[name]].append(value)
            else:
                paths[table[name]] = value
        else:
            return None
        i += 1
    return (paths, filters, as_json) if seen_next else None
