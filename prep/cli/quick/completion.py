"""Shell completion (`prep --install-completion`): question ids and categories, from the
parsed-bank cache's question index.

This runs on every Tab key, so it imports only what it needs, and it is silent: a bank that
cannot be read gives no completions, never a message (the shell would print it mid-line).
"""

from __future__ import annotations

import typer

_HELP_WIDTH = 72  # zsh and fish show the prompt beside each id: one line of it


def _index(ctx: typer.Context) -> list:  # type: ignore[type-arg]
    """The question index of the bank the command line names (--bank, $PREP_BANK, here)."""
    try:
        from prep.bank.index import question_index
        from prep.paths import find_bank

        return question_index(find_bank(ctx.find_root().params.get("bank_option")))
    except Exception:  # no bank, an invalid one, an unreadable cache: nothing to offer
        return []


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _HELP_WIDTH else text[: _HELP_WIDTH - 1].rstrip() + "…"


def question_ids(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """Ids starting with what is typed, each with its prompt (shown by zsh and fish)."""
    return [(row.id, _one_line(row.prompt)) for row in _index(ctx) if row.id.startswith(incomplete)]


def categories(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """Categories starting with what is typed, each with its title, in bank order."""
    found: dict[str, str] = {}
    for row in _index(ctx):
        if row.category.startswith(incomplete):
            found.setdefault(row.category, _one_line(row.category_title or row.category))
    return list(found.items())


def command_items(commands: dict[str, str], incomplete: str) -> list:  # type: ignore[type-arg]
    """Completion items for command names, from their summaries: no command is built."""
    item = _completion_item_class()
    return [item(name, help=summary) for name, summary in commands.items() if name.startswith(incomplete)]


def _completion_item_class():  # type: ignore[no-untyped-def]
    try:
        from typer._click.shell_completion import CompletionItem
    except ImportError:  # typer on top of click
        from click.shell_completion import CompletionItem
    return CompletionItem


def use_plain_help_text() -> None:
    """zsh and fish completions without rich: typer runs every help text through rich to strip
    markup, and importing rich costs more than the rest of a completion. prep's help has no
    markup, so the text is used as it is."""
    try:
        from typer import _completion_classes as classes
    except ImportError:  # pragma: no cover - another typer: its own formatting, only slower
        return

    def plain(text: str) -> str:
        return text

    classes._sanitize_help_text = plain  # type: ignore[attr-defined]
