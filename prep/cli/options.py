"""What the commands share on their command lines: option types, the filters of a selection,
and the setup of a command group (`prep export ...`, `prep state ...`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperGroup

from prep.cli.quick.completion import categories, question_ids
from prep.cli.usage import SuggestingGroup


def option(*names: str, help: str, **settings) -> typer.models.OptionInfo:  # type: ignore[no-untyped-def]
    """A typer option whose default is not shown in --help (the help text says it where it matters)."""
    return typer.Option(*names, help=help, show_default=False, **settings)


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of the usual output.")]
CategoryOption = Annotated[
    list[str] | None,
    typer.Option(
        "--category",
        "-c",
        metavar="CATEGORY",
        help="Only this category (repeat for several).",
        show_default=False,
        autocompletion=categories,
    ),
]
TagOption = Annotated[
    list[str] | None,
    typer.Option(
        "--tag",
        "-t",
        metavar="TAG",
        help="Only questions with this tag (repeat for any of several).",
        show_default=False,
    ),
]
KindOption = Annotated[
    list[str] | None,
    typer.Option(
        "--kind",
        "-k",
        metavar="KIND",
        help="Only this kind: technical, behavioral, strategy or ask (repeatable).",
        show_default=False,
    ),
]
OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output", "-o", metavar="FILE", help="File to write (default: standard output).", show_default=False
    ),
]


def question_argument(help: str, metavar: str = "ID") -> typer.models.ArgumentInfo:
    """A question id argument; the shell completes it from the bank's ids."""
    return typer.Argument(metavar=metavar, help=help, autocompletion=question_ids)


QuestionArgument = Annotated[str, question_argument("The question's id (see `prep list`).")]


def filters(
    category: list[str] | None, tag: list[str] | None, kind: list[str] | None
) -> dict[str, list[str]]:
    """The -c/--tag/--kind options as keyword arguments of ``bank.selection.select``."""
    return {"categories": category or [], "tags": tag or [], "kinds": kind or []}


class SubcommandGroup(SuggestingGroup, TyperGroup):
    """Lists each subcommand with its whole first paragraph of help; click cuts the summary at
    45 characters."""

    def format_commands(self, ctx, formatter) -> None:  # type: ignore[no-untyped-def]
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, " ".join((command.help or "").strip().split("\n\n")[0].split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def command_group(help_text: str) -> typer.Typer:
    """A group of subcommands (`prep export`, `prep state`), shown and parsed like the rest of prep."""
    return typer.Typer(
        help=help_text, cls=SubcommandGroup, no_args_is_help=True, rich_markup_mode=None, add_completion=False
    )


JudgeModel = Annotated[
    str | None,
    option(
        "--judge",
        metavar="MODEL",
        help="Judge with this llm model (id or alias) for this run, over [judge] model in the config "
        "(docs/judge.md; needs pip install 'prep[judge]').",
    ),
]
NoJudge = Annotated[
    bool, typer.Option("--no-judge", help="No judge model for this run: the words alone grade.")
]
