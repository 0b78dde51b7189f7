"""The STAR strip: how a behavioral answer is built (situation, task, action, result), its flags
as one line of advice each, and its spoken length against the question's target. Shown under the
key-point grade in a drill, and as one line per answer in the mock interview report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text

if TYPE_CHECKING:
    from prep.grading.star import Structure

STRUCTURE_STYLE = {"strong": "bold green", "adequate": "bold yellow", "weak": "bold red"}
# What an interviewer would ask next, for each flag of the analyser.
ADVICE = {
    "no-result": "no result: end with what came of it; what changed, for whom, by how much?",
    "result-not-quantified": "your result has no number: how much faster, how many, by when?",
    "we-not-i": "mostly “we”: say what you did yourself (I measured, I proposed, I built)",
    "hypothetical": "what you would do, not what you did: tell a time it really happened",
    "long-setup": "the setup takes over half the answer: get to what you did sooner",
}


def star_parts(structure: Structure) -> Text:
    """'STAR  ✓ situation  ✓ task  ✓ action  ✗ result  · weak'"""
    line = Text("STAR", style="bold")
    for part, present in structure.parts.items():
        line.append(f"  ✓ {part}" if present else f"  ✗ {part}", style="green" if present else "red")
    line.append("  · ")
    line.append(structure.verdict, style=STRUCTURE_STYLE.get(structure.verdict, ""))
    return line


def timing_line(spoken: float, target: int) -> Text:
    """The answer's spoken length against the question's target (a story usually has 90-150s)."""
    text = f"about {spoken:.0f}s spoken, target {target}s"
    if spoken < 0.7 * target:
        text += ": short; there is time for what you did and what came of it"
    elif spoken > 1.3 * target:
        text += ": long; cut the setup and keep the result"
    return Text(f"  ⏱ {text}", style="dim")


def star_strip(structure: Structure, target: int, spoken: float) -> Group:
    """The strip under the grade: parts, one line of advice per flag, the timing, and why a weak
    story's suggestion is Hard at best."""
    lines = [star_parts(structure)]
    lines += [Text(f"  · {ADVICE.get(flag, flag)}", style="yellow") for flag in structure.flags]
    lines.append(timing_line(spoken, target))
    if structure.verdict == "weak":
        lines.append(Text("  a weak story is suggested Hard at best", style="dim"))
    return Group(*lines)


def star_summary(structure: Structure) -> Text:
    """One line for the mock interview report: the parts, the verdict and the flags."""
    line = star_parts(structure)
    if structure.flags:
        line.append("  (" + ", ".join(structure.flags) + ")", style="dim")
    return line
