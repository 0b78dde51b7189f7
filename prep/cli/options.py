"""A command group for `prep state` and `prep export` that lists each subcommand with its whole
first paragraph of help; click cuts the summary at 45 characters."""

from typer.core import TyperGroup


class SubcommandGroup(TyperGroup):
    def format_commands(self, ctx, formatter) -> None:  # type: ignore[no-untyped-def]
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, " ".join((command.help or "").strip().split("\n\n")[0].split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
