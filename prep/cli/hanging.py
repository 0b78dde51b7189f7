"""A line that, when the terminal wraps it, goes on under its own text rather than at column 0:
"Rate: 1 Again ... s skip" and, on the next line, "      q quit (Enter = good)". On a console
that does not wrap (a script's plain lines), the line is printed whole, as it always was."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult


class Hanging:
    """*text*, its wrapped lines indented by its first *indent* characters' width (its marker:
    "  ", "Rate: ", "  ⏱ ")."""

    def __init__(self, text: Text | str, indent: int, style: str = "") -> None:
        self.text = Text(text, style=style) if isinstance(text, str) else text
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.no_wrap or cell_len(self.text.plain) <= options.max_width:
            yield self.text
            return
        head, tail = self.text.divide([self.indent])
        room = max(options.max_width - cell_len(head.plain), 10)
        for n, line in enumerate(tail.wrap(console, room)):
            line.rstrip()
            yield (head if n == 0 else Text(" " * cell_len(head.plain))) + line
