"""Shell completion (`prep --install-completion`) through typer: question ids and categories
for its parameters, command names from their summaries, help text without rich.

The command lines that complete an id or a category are answered before typer loads
(``prep.cli.quick.tab``); typer answers the others (command and option names), with the same
ids and categories where a command line reaches them.
"""

from __future__ import annotations

import typer

from prep.cli.quick import tab


def _bank(ctx: typer.Context) -> str | None:
    """The --bank of the command line being completed, if it gives one."""
    bank = ctx.find_root().params.get("bank_option")
    return str(bank) if bank else None


def question_ids(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """Ids starting with what is typed, each with its prompt (shown by zsh and fish)."""
    return tab.ids(_bank(ctx), incomplete)


def categories(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """Categories starting with what is typed, each with its title, in bank order."""
    return tab.categories(_bank(ctx), incomplete)


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
