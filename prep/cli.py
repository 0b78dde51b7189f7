"""The `prep` command line: global options, error handling, and command registration.

Commands live in ``prep.commands.*``: each parses options, makes one call into the library and
renders the result. Heavy modules (rich, pydantic, fsrs) are imported inside commands so that
``prep --help`` starts fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup

from . import __version__
from .commands import author_cmds, bank_cmds, drill_cmds, export_cmds, grade_cmds, state_cmds, stats_cmds
from .context import AppContext
from .errors import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_STATE, PrepError


def _is_usage_error(error: BaseException) -> bool:
    return any(cls.__name__ == "UsageError" for cls in type(error).__mro__)


class _PrepGroup(TyperGroup):
    """Turns every PrepError into a one-line message and its documented exit code, in one place."""

    def make_context(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return super().make_context(*args, **kwargs)
        except Exception as error:
            if _is_usage_error(error):
                error.exit_code = EXIT_ERROR  # type: ignore[attr-defined] # 2 means "invalid bank"
            raise

    def invoke(self, ctx):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except PrepError as error:
            if _debug(ctx):
                raise
            for line in error.details():
                typer.echo(line, err=True)
            typer.echo(f"prep: {error.message}", err=True)
            if error.hint:
                typer.echo(f"  {error.hint}", err=True)
            ctx.exit(error.exit_code)
        except KeyboardInterrupt:
            if _debug(ctx):
                raise
            typer.echo("prep: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as error:  # noqa: BLE001 - a bug: say so briefly, trace only on --debug
            if _is_usage_error(error):
                error.exit_code = EXIT_ERROR  # type: ignore[attr-defined]
                raise
            if _debug(ctx) or "click" in error.__class__.__module__:
                raise
            if error.__class__.__module__ == "sqlite3":  # e.g. corruption found mid-session
                typer.echo(f"prep: state database error: {error}", err=True)
                typer.echo("  run `prep state check` for what to do; nothing rated before this was lost", err=True)
                ctx.exit(EXIT_STATE)
            typer.echo(
                f"prep: internal error: {error.__class__.__name__}: {error}\n"
                "Run again with --debug for the traceback, and please report it.",
                err=True,
            )
            ctx.exit(EXIT_ERROR)


def _debug(ctx) -> bool:  # type: ignore[no-untyped-def]
    obj = ctx.find_object(AppContext)
    return bool(obj and obj.debug)


app = typer.Typer(
    cls=_PrepGroup,
    name="prep",
    help="Interview prep for ML-systems and LLM-engineering roles: a YAML question bank, "
    "graded typed answers and spaced-repetition drills.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"prep {__version__}")
        raise typer.Exit()


@app.callback()
def _global_options(
    ctx: typer.Context,
    bank: Annotated[
        Optional[Path],
        typer.Option(
            "--bank",
            help="Bank directory holding questions/ and answers/. "
            "Default: $PREP_BANK, else ./questions if present, else the bundled bank.",
            show_default=False,
        ),
    ] = None,
    state: Annotated[
        Optional[Path],
        typer.Option(
            "--state",
            help="SQLite file with your review history. Default: $PREP_STATE, else the user data dir.",
            show_default=False,
        ),
    ] = None,
    config: Annotated[
        Optional[Path],
        typer.Option(
            "--config",
            help="Config file (TOML). Default: $PREP_CONFIG, else config.toml in the user config dir.",
            show_default=False,
        ),
    ] = None,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show full tracebacks instead of one-line errors.")
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    ctx.obj = AppContext(bank_option=bank, state_option=state, config_option=config, debug=debug)


bank_cmds.register(app)
grade_cmds.register(app)
drill_cmds.register(app)
author_cmds.register(app)
export_cmds.register(app)
stats_cmds.register(app)
state_cmds.register(app)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="prep")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
