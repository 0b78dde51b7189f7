"""Command lines prep cannot parse: an unknown command or option, a missing argument, a value of
the wrong kind. Each becomes one line in prep's form, naming the command, a second line saying
where to look, and exit code 2:

    prep: list: no such option: --categry; did you mean --category?
      see `prep list --help`

Click raises these errors; they are recognised by class name, as typer may carry its own copy of
click.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import NoReturn

import typer

from prep.cli.output import echo
from prep.errors import EXIT_USAGE

# Click's wording, in prep's: (pattern, replacement).
_REWORDED = [
    (r"Option '(.+)' requires an argument\.?", r"option \1 needs a value"),
    (r"Option '(.+)' requires (\d+) arguments\.?", r"option \1 needs \2 values"),
    (r"Option '(.+)' does not take a value\.?", r"option \1 takes no value"),
]
_EXTRA = r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)"


def _class_names(error: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(error).__mro__}


def is_usage_error(error: BaseException) -> bool:
    return "UsageError" in _class_names(error)


def did_you_mean(word: str, names: Iterable[str], quote: bool = True) -> str:
    """ "; did you mean 'list'?" when *word* is close to one or two of *names*, else ""."""
    close = difflib.get_close_matches(word, list(names), n=2)
    shown = [repr(name) if quote else name for name in close]
    return f"; did you mean {' or '.join(shown)}?" if shown else ""


class SuggestingGroup:
    """For command groups: an unknown command is a usage error naming the commands it is close to."""

    def resolve_command(self, ctx, args):  # type: ignore[no-untyped-def]
        name = args[0] if args else ""
        unknown = name and not name.startswith("-") and self.get_command(ctx, name) is None  # type: ignore[attr-defined]
        if unknown and not ctx.resilient_parsing:
            ctx.fail(f"no such command {name!r}{did_you_mean(name, self.list_commands(ctx))}")  # type: ignore[attr-defined]
        return super().resolve_command(ctx, args)  # type: ignore[misc]


def fail(error: BaseException, root: typer.Context | None, argv: list[str]) -> NoReturn:
    """Print *error* as prep does and exit 2. *root* and *argv* name the command when click did
    not say which one it was parsing."""
    if "NoArgsIsHelpError" in _class_names(error):  # `prep` or `prep export` alone: the help
        error.show()  # type: ignore[attr-defined]
        raise typer.Exit(EXIT_USAGE)
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        words = ctx.command_path.split()[1:]
    else:
        words = _command_words(root, argv) if root is not None else []
    command = " ".join(words)
    echo(f"prep: {command + ': ' if command else ''}{describe(error)}", err=True)
    echo(f"  see `{' '.join(['prep', *words, '--help'])}`", err=True)
    raise typer.Exit(EXIT_USAGE)


def describe(error: BaseException) -> str:
    """What is wrong with the command line, in prep's words."""
    names = _class_names(error)
    param = getattr(error, "param", None)
    if "NoSuchOption" in names:
        option = error.option_name  # type: ignore[attr-defined]
        return f"no such option: {option}{did_you_mean(option, error.possibilities or (), quote=False)}"  # type: ignore[attr-defined]
    if "MissingParameter" in names and param is not None:
        return f"missing {param.param_type_name} {_param_name(param)}"
    if "BadParameter" in names and param is not None:
        return f"invalid value for {_param_name(param)}: {_sentence(error.message)}"  # type: ignore[attr-defined]
    message = getattr(error, "message", None) or str(error)
    extra = re.fullmatch(_EXTRA, message)
    if extra:
        words = extra.group(1)
        return f"unexpected extra argument{'s' if ' ' in words else ''}: {words}"
    for pattern, replacement in _REWORDED:
        if re.fullmatch(pattern, message):
            return re.sub(pattern, replacement, message)
    return _sentence(message).rstrip(".")


def _param_name(param) -> str:  # type: ignore[no-untyped-def]
    """--mode for an option (its long name), ID for an argument."""
    if param.param_type_name == "option":
        return max(param.opts, key=len)
    return getattr(param, "metavar", None) or (param.name or "").upper()


def _sentence(text: str) -> str:
    """Click's and pydantic's capitalised messages as the rest of a line ("Input should ..." to
    "input should ..."); words in capitals ("ID") stay."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _command_words(root: typer.Context, argv: list[str]) -> list[str]:
    """The command and subcommand names in *argv* ("export", "csv"), skipping options and
    their values."""
    words: list[str] = []
    command = root.command
    args = iter(argv)
    for arg in args:
        if not hasattr(command, "get_command"):
            break
        if arg.startswith("-"):
            if any(arg in p.opts and not getattr(p, "is_flag", True) for p in command.params):
                next(args, None)  # the option's value
            continue
        sub = command.get_command(root, arg)
        if sub is None:
            break
        words.append(arg)
        command = sub
    return words
