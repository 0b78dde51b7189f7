"""The `prep` command line: global options, error handling, and command registration.

Each command lives in ``prep.cli.commands.<command>`` (``import_`` for `prep import`): it
parses options, makes one call into the library and renders the result. Heavy modules (rich,
pydantic, fsrs) are imported inside commands, and only the command being run is built (typer's
parameter processing costs ~5 ms a command), so that ``prep --help`` starts fast; `prep next`
and `prep plan` are answered before this module loads (``prep.cli.quick``).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperGroup

from prep import __version__
from prep.cli.context import AppContext
from prep.cli.output import echo
from prep.cli.usage import SuggestingGroup, fail, is_usage_error
from prep.errors import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_STATE, CommandLineError, PrepError

# Every command: name -> (module in prep.cli.commands, attribute, one-line summary). The
# attribute is a command function or, for command groups, a typer.Typer. The summary is the
# first line of its help, kept here so `prep --help` imports no command module (a test checks
# they agree). Order here is the order in `prep --help`.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "drill": ("drill", "drill", "Drill questions with spaced repetition: due cards first, then new ones."),
    "next": (
        "next",
        "next_card",
        "Show the card `prep drill` would show first, and how many are due, without starting.",
    ),
    "plan": (
        "plan",
        "plan",
        "Plan for an interview day: how ready you will be, and what to drill each day until then.",
    ),
    "grade": (
        "grade",
        "grade",
        "Score an answer against a question's key points, pitfalls and prepared answer.",
    ),
    "judge": (
        "judge",
        "judge_app",
        "Try the judge model that grades what the words alone cannot decide.",
    ),
    "list": (
        "list",
        "list_questions",
        "List the questions of the bank, optionally filtered and fuzzy-searched.",
    ),
    "show": ("show", "show", "Show one question: prompt, key points, pitfalls, your answer and follow-ups."),
    "search": ("search", "search", "Fuzzy-search prompts, key points, tags and answers, best match first."),
    "validate": (
        "validate",
        "validate",
        "Check every file of the bank and list every problem as file:line:col.",
    ),
    "init": (
        "init",
        "init",
        "Copy the bundled bank into DIR (default: here) as a bank of your own to edit and extend.",
    ),
    "add": (
        "add",
        "add",
        "Add a question: asks for each field, or takes them all as options for scripts.",
    ),
    "answer": ("answer", "answer", "Write or replace your own prepared answer to a question."),
    "stories": (
        "stories",
        "stories",
        "List your stories with the questions each covers, and the behavioral questions none covers yet.",
    ),
    "teach": (
        "teach",
        "teach",
        "Teach the grader your words: add the part of an answer that says each key point as a phrasing.",
    ),
    "edit": (
        "edit",
        "edit",
        "Open the question (or its answer) in $VISUAL/$EDITOR at its line, then re-validate.",
    ),
    "mv": (
        "mv",
        "mv",
        "Rename a question id everywhere: definition, answers, follow-ups and review history.",
    ),
    "rm": (
        "rm",
        "rm",
        "Remove a question and its answer (its review history stays in the state database).",
    ),
    "stats": (
        "stats",
        "stats",
        "Where you stand: totals, weakest categories, a 14-day forecast, a 12-week heatmap, leeches.",
    ),
    "history": (
        "history",
        "history",
        "The review log of one question: date, rating, score, time and the answer you typed.",
    ),
    "optimize": (
        "optimize",
        "optimize",
        "Fit personal FSRS parameters to your review history; the scheduler then uses them.",
    ),
    "export": ("export", "export_app", "Write the bank out: a markdown cram sheet, an Anki deck, or CSV."),
    "import": (
        "import_",
        "import_file",
        "Import questions, appended to a category file the way `prep add` writes them.",
    ),
    "state": (
        "state",
        "state_app",
        "Check, export, import, prune or share your review history (the SQLite state database).",
    ),
}


def _target(name: str):  # type: ignore[no-untyped-def]
    module, attribute, _summary = COMMANDS[name]
    return getattr(importlib.import_module(f"prep.cli.commands.{module}"), attribute)


def help_summary(target) -> str:  # type: ignore[no-untyped-def]
    """The first line of a command's (or command group's) help."""
    text = target.info.help if isinstance(target, typer.Typer) else target.__doc__
    return (text or "").strip().split("\n")[0]


class _PrepGroup(SuggestingGroup, TyperGroup):
    """Builds only the command that runs, and turns every PrepError and every usage error into
    a one-line message and its documented exit code, in one place."""

    def list_commands(self, ctx):  # type: ignore[no-untyped-def]
        return list(COMMANDS)

    def get_command(self, ctx, name):  # type: ignore[no-untyped-def]
        if name not in self.commands and name in COMMANDS:
            target = _target(name)
            if isinstance(target, typer.Typer):
                command = typer.main.get_command(target)
            else:
                single = typer.Typer(rich_markup_mode=None, add_completion=False)
                single.command(name)(target)
                command = typer.main.get_command(single)
            command.name = name
            self.commands[name] = command
        return self.commands.get(name)

    def shell_complete(self, ctx, incomplete):  # type: ignore[no-untyped-def]
        # Command names with their summaries from COMMANDS, like help: Tab builds no command.
        from prep.cli.quick.completion import command_items

        summaries = {name: summary for name, (_module, _attribute, summary) in COMMANDS.items()}
        return command_items(summaries, incomplete) + super(TyperGroup, self).shell_complete(ctx, incomplete)

    def format_commands(self, ctx, formatter):  # type: ignore[no-untyped-def]
        # Summaries come from COMMANDS, so help builds (and imports) no command at all.
        rows = [(name, summary) for name, (_module, _attribute, summary) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def make_context(self, info_name, args, *rest, **kwargs):  # type: ignore[no-untyped-def]
        # Python reads bytes that are not UTF-8 in argv as lone surrogates, which no file, YAML
        # or database can store: say so before anything runs.
        for arg in args:
            try:
                arg.encode("utf-8")
            except UnicodeEncodeError:
                shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                echo(f"prep: an argument is not valid UTF-8 text: {shown}", err=True)
                sys.exit(EXIT_ERROR)
        argv = list(args)
        try:
            ctx = super().make_context(info_name, args, *rest, **kwargs)
        except BrokenPipeError:  # `prep --help | head -1`
            _discard_stdout()
            raise typer.Exit(EXIT_OK) from None
        except Exception as error:
            if is_usage_error(error) and not kwargs.get("resilient_parsing"):
                fail(error, None, argv)
            raise
        ctx.meta["prep.argv"] = argv  # names the command in a usage error click gives no context
        return ctx

    def invoke(self, ctx):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except PrepError as error:
            if _debug(ctx):
                raise
            if isinstance(error, CommandLineError):  # worded as the parser's own refusals are
                fail(error, ctx, ctx.meta.get("prep.argv", []))
            from prep.cli.report import report

            ctx.exit(report(error))
        except BrokenPipeError:  # `prep list | head -1`: the reader has all it wanted
            _discard_stdout()
            ctx.exit(EXIT_OK)
        except KeyboardInterrupt:
            if _debug(ctx):
                raise
            echo("prep: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except typer.Abort:  # Ctrl-C or Ctrl-D at a question prep asked: nothing was written yet
            if _debug(ctx):
                raise
            echo("prep: cancelled", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except (typer.Exit, SystemExit):
            raise
        except Exception as error:  # a bug: say so briefly, the traceback only with --debug
            if is_usage_error(error):
                fail(error, ctx, ctx.meta.get("prep.argv", []))
            if _debug(ctx) or "click" in error.__class__.__module__:
                raise
            if error.__class__.__module__ == "sqlite3":  # e.g. corruption found mid-session
                echo(f"prep: state database error: {error}", err=True)
                echo("  run `prep state check` for what to do; nothing rated before this was lost", err=True)
                ctx.exit(EXIT_STATE)
            echo(
                f"prep: internal error: {error.__class__.__name__}: {error}\n"
                "Run again with --debug for the traceback, and please report it.",
                err=True,
            )
            ctx.exit(EXIT_ERROR)


def _discard_stdout() -> None:
    """The reader of the pipe on standard output has gone (`prep list | head -1`): that is a
    success, and what is still buffered for it goes nowhere, instead of failing at exit."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (a test runner's stream): nothing to flush
        pass


def _debug(ctx) -> bool:  # type: ignore[no-untyped-def]
    obj = ctx.find_object(AppContext)
    return bool(obj and obj.debug)


app = typer.Typer(
    cls=_PrepGroup,
    name="prep",
    help="Interview prep for ML-systems and LLM-engineering roles: a YAML question bank, "
    "graded typed answers and spaced-repetition drills.",
    no_args_is_help=True,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        echo(f"prep {__version__}")
        raise typer.Exit()


@app.callback()
def _global_options(
    ctx: typer.Context,
    bank_option: Annotated[
        Path | None,
        typer.Option(
            "--bank",
            metavar="DIR",
            help="Bank directory holding questions/ and answers/. "
            "Default: $PREP_BANK, else this directory if it has questions/, else the bundled bank.",
            show_default=False,
        ),
    ] = None,
    state_option: Annotated[
        Path | None,
        typer.Option(
            "--state",
            metavar="FILE",
            help="SQLite file with your review history. Default: $PREP_STATE, else the user data dir.",
            show_default=False,
        ),
    ] = None,
    config_option: Annotated[
        Path | None,
        typer.Option(
            "--config",
            metavar="FILE",
            help="Config file (TOML). Default: $PREP_CONFIG, else config.toml in the user config dir.",
            show_default=False,
        ),
    ] = None,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show full tracebacks instead of one-line errors.")
    ] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    ctx.obj = AppContext(
        bank_option=bank_option, state_option=state_option, config_option=config_option, debug=debug
    )


def main() -> None:
    """Console-script entry point."""
    import os

    # typer builds a pydantic TypeAdapter per option; without this, pydantic scans every
    # installed package's entry points for plugins on each start. prep uses no plugins.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if os.environ.get("_PREP_COMPLETE"):  # the shell asks for completions (see prep.cli.quick.completion)
        from prep.cli.quick.completion import use_plain_help_text

        use_plain_help_text()
    try:
        app(prog_name="prep")
    finally:  # output still buffered when the reader of a pipe has gone: the exit status stands
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _discard_stdout()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
