"""The prepared answer shown after a grade, within the room the terminal has left, so that the
score and the key points above it are still on screen when the rating is asked. An answer that
does not fit is cut, and says how to read it whole (the `a` key)."""

from __future__ import annotations

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.text import Text

# Below the panel: the Rate prompt (two lines in a narrow terminal) and the line the cursor waits on.
PROMPT_LINES = 3
SMALLEST_PANEL = 4  # borders, one line of the answer, and the line saying there is more


def height(console: Console, parts: list[RenderableType]) -> int:
    """How many lines *parts* take in *console*, as printed one after the other."""
    return sum(len(console.render_lines(part, console.options, pad=False)) for part in parts)


def whole(label: str, answer: str) -> Panel:
    return Panel(Text(answer), title=label, title_align="left", border_style="blue")


def fitted(console: Console, label: str, answer: str, above: int) -> tuple[RenderableType, bool]:
    """The answer's panel, cut to the lines left under *above* lines; and whether it was cut."""
    room = console.height - above - PROMPT_LINES
    lines = Text(answer).wrap(console, max(console.width - 4, 10))
    if len(lines) + 2 <= room:
        return whole(label, answer), False
    if room < SMALLEST_PANEL:
        note = Text(f"{label}: {len(lines)} lines, not shown to keep the grade in view; press a to read it")
        return Text.assemble(note, style="dim"), True
    shown = lines[: room - 3]
    body = Text("\n").join(shown)
    body.append(f"\n… {len(lines) - len(shown)} more lines: press a to read the whole answer", style="dim")
    return Panel(body, title=label, title_align="left", border_style="blue"), True
