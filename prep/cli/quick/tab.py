"""Tab completion answered before typer loads: question ids and categories, from the parsed-bank
cache's question index.

The shell runs `prep` on every Tab key, and typer (the app, the command it builds, pydantic for
its options) costs several times the answer. So the command lines that complete an id or a
category are read here, with what ``TABS`` says of each command; every other one (a command or
an option name, a file, an option written with `=`) goes to typer, which answers it as before
(``prep.cli.quick.completion``). The output is typer's, byte for byte, for bash, zsh and fish.
Silent: a bank that cannot be read completes nothing (the shell would print a message mid-line).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

HELP_WIDTH = 72  # zsh and fish show the prompt beside each id: one line of it
_SPACE = re.compile(r"\s")


class Tab(NamedTuple):
    """What Tab completes in one command's line: how many leading arguments are question ids,
    the options whose value is an id or a category, and every option that takes a value (so that
    its value is not counted as an argument)."""

    ids: int = 0
    id_options: frozenset[str] = frozenset()
    category_options: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()


def _tab(ids: int = 0, id_options: str = "", categories: bool = False, values: str = "") -> Tab:
    category = frozenset({"-c", "--category"}) if categories else frozenset()
    return Tab(ids, frozenset(id_options.split()), category, frozenset(values.split()) | category)


_FILTERS = "-t --tag -k --kind"

# Every command line that completes an id or a category. A test checks this against the
# commands' own options (tests/test_completion.py): a new option that takes a value, or a new
# argument or option that completes ids or categories, is added here too.
TABS: dict[tuple[str, ...], Tab] = {
    ("drill",): _tab(
        categories=True, values=f"{_FILTERS} -n --new -l --limit -m --mode --count --retention --judge"
    ),
    ("next",): _tab(categories=True, values=_FILTERS),
    ("plan",): _tab(categories=True, values=f"{_FILTERS} --interview --minutes"),
    ("list",): _tab(categories=True, values=f"{_FILTERS} -s --search"),
    ("stats",): _tab(categories=True),
    ("stories",): _tab(categories=True, values="-t --tag"),
    ("add",): _tab(
        id_options="--follow-up --for",
        categories=True,
        values="-p --prompt -K --key-point -k --kind -d --difficulty -t --tag --target-seconds --pitfall "
        "--alias --id --title --follow-up --for --situation --task --action --result --metric",
    ),
    ("import",): _tab(categories=True, values="--title"),
    ("export", "cram"): _tab(categories=True, values=f"{_FILTERS} -o --output --weakest"),
    ("export", "anki"): _tab(categories=True, values=f"{_FILTERS} -o --output"),
    ("export", "csv"): _tab(categories=True, values=f"{_FILTERS} -o --output"),
    ("grade",): _tab(ids=1, values="-a --answer --elapsed -f --file --judge"),
    ("show",): _tab(ids=1),
    ("answer",): _tab(ids=1, values="--text"),
    ("teach",): _tab(ids=1, values="-a --answer --forget --point --clause --words"),
    ("edit",): _tab(ids=1),
    ("mv",): _tab(ids=1),
    ("rm",): _tab(ids=1),
    ("history",): _tab(ids=1),
}
GLOBAL_VALUES = ("--bank", "--state", "--config")  # the global options that take a value
GLOBAL_FLAGS = ("--debug",)


def complete(environ: Mapping[str, str]) -> int | None:
    """Print what the shell asks for (``_PREP_COMPLETE`` in *environ*, with the command line as
    typer's scripts pass it) and return the exit status; None when typer is to answer."""
    shell = environ.get("_PREP_COMPLETE", "").removeprefix("complete_")
    if shell not in ("bash", "zsh", "fish"):
        return None
    args, incomplete = _command_line(shell, environ)
    asked = _asked(args, incomplete)
    if asked is None:
        return None
    bank, kind = asked
    items = ids(bank, incomplete) if kind == "id" else categories(bank, incomplete)
    from prep.cli.output import echo

    if shell == "fish" and environ.get("_TYPER_COMPLETE_FISH_ACTION") == "is-args":
        return 0 if items else 1
    echo(_formatted(shell, items))
    return 0


def ids(bank: str | None, incomplete: str) -> list[tuple[str, str]]:
    """Ids starting with what is typed, each with its prompt (shown by zsh and fish)."""
    return [(qid, one_line(prompt)) for qid, prompt in _matches(bank, "id", incomplete)]


def categories(bank: str | None, incomplete: str) -> list[tuple[str, str]]:
    """Categories starting with what is typed, each with its title, in bank order."""
    return [(name, one_line(title or name)) for name, title in _matches(bank, "category", incomplete)]


def one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= HELP_WIDTH else text[: HELP_WIDTH - 1].rstrip() + "…"


def _matches(bank: str | None, column: str, prefix: str) -> list[tuple[str, str]]:
    """What the bank --bank names (else $PREP_BANK, or the folder's, or the bundled one) has
    for Tab (see ``prep.bank.index.completions``)."""
    try:
        from pathlib import Path

        from prep.bank.index import completions
        from prep.paths import find_bank

        return completions(find_bank(Path(bank) if bank else None), column, prefix)
    except Exception:  # no bank, an invalid one, an unreadable cache: nothing to offer
        return []


def _command_line(shell: str, environ: Mapping[str, str]) -> tuple[list[str], str]:
    """The words before the one being completed, and that one, as typer reads them."""
    if shell == "bash":
        words = split_words(environ.get("COMP_WORDS", ""))
        try:
            cword = int(environ.get("COMP_CWORD", ""))
        except ValueError:
            cword = len(words)
        return words[1:cword], words[cword] if cword < len(words) else ""
    line = environ.get("_TYPER_COMPLETE_ARGS", "")
    words = split_words(line)[1:]
    if words and not line.endswith(" "):
        return words[:-1], words[-1]
    return words, ""


def split_words(line: str) -> list[str]:
    """Shell words as click splits them (an unclosed quote ends the last word)."""
    import shlex

    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    try:
        words.extend(lexer)
    except ValueError:
        words.append(lexer.token)
    return words


def _asked(args: list[str], incomplete: str) -> tuple[str | None, str] | None:
    """(the --bank given, "id" or "category") when the word being completed is a question id or
    a category; None for anything else."""
    if incomplete.startswith("-") or "=" in args or "--" in args:
        return None
    bank, i = None, 0
    while i < len(args) and args[i].startswith("-"):
        name, eq, value = args[i].partition("=")
        if name in GLOBAL_VALUES and not eq:
            i += 1
            if i == len(args):
                return None  # the value of --bank itself: a directory
            value = args[i]
        elif name not in GLOBAL_VALUES + GLOBAL_FLAGS:
            return None
        bank = value if name == "--bank" else bank
        i += 1
    path = tuple(args[i : i + 2]) if tuple(args[i : i + 2]) in TABS else tuple(args[i : i + 1])
    tab = TABS.get(path)
    if tab is None:
        return None
    arguments, expecting = 0, None
    for word in args[i + len(path) :]:
        if expecting is not None:
            expecting = None
        elif word.startswith("-"):
            name, eq, _value = word.partition("=")
            expecting = name if name in tab.values and not eq else None
        else:
            arguments += 1
    if expecting is None:
        return (bank, "id") if arguments < tab.ids else None
    if expecting in tab.category_options:
        return bank, "category"
    return (bank, "id") if expecting in tab.id_options else None


def _formatted(shell: str, items: list[tuple[str, str]]) -> str:
    """*items* (value, help) as typer's completion classes print them for *shell*."""
    if shell == "bash":
        return "\n".join(value for value, _help in items)
    if shell == "fish":
        return "\n".join(f"{value}\t{_SPACE.sub(' ', text)}" if text else value for value, text in items)

    def escape(text: str) -> str:
        for old, new in (('"', '""'), ("'", "''"), ("$", "\\$"), ("`", "\\`"), (":", r"\\:")):
            text = text.replace(old, new)
        return text

    shown = [f'"{escape(value)}":"{escape(text)}"' if text else f'"{escape(value)}"' for value, text in items]
    return f"_arguments '*: :(({chr(10).join(shown)}))'" if shown else "_files"
