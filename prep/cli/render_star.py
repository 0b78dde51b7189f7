"""The STAR strip: how a behavioral answer is built (situation, task, action, result), its flags
as one line of advice each, and its spoken length against the question's target. Shown under the
key-point grade in a drill, and as one line per answer in the mock interview report. A plan that
the question asked for ("how would you...") is marked so, and its advice speaks of a plan."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text

from prep.cli.hanging import Hanging

if TYPE_CHECKING:
    from prep.grading.star import Structure

STRUCTURE_STYLE = {"strong": "bold green", "adequate": "bold yellow", "weak": "bold red"}
# What an interviewer would ask next, for each flag of the analyser.
ADVICE = {
    "no-result": "no result: end with what came of it; what changed, for whom, by how much?",
    "no-action": "no action: say what you did yourself, step by step (I measured, I proposed, I built)",
    "result-not-quantified": "your result has no number: how much faster, how many, by when?",
    "we-not-i": "mostly “we”: say what you did yourself (I measured, I proposed, I built)",
    "hypothetical": "what you would do, not what you did: tell a time it really happened",
    "long-setup": "the setup takes over half the answer: get to what you did sooner",
}
# The same, for a plan: what the speaker would do, as the question asked.
PLAN_ADVICE = {
    "no-result": "no result: end with what your plan would achieve, and how you would know it worked",
    "no-action": "no action: say what you would do, step by step (I'd measure, I'd propose, I'd build)",
    "result-not-quantified": "your plan's result has no number: what would you measure, what counts as done?",
    "we-not-i": "mostly “we”: say what you would do yourself (I'd measure, I'd propose, I'd build)",
    "long-setup": "restating the question takes over half the answer: get to your plan sooner",
}


def advice(flag: str, plan: bool) -> str:
    """One line of advice for *flag*, worded for a plan when the answer is one."""
    return (plan and PLAN_ADVICE.get(flag)) or ADVICE.get(flag, flag)


def star_parts(structure: Structure) -> Text:
    """'STAR  ✓ situation  ✓ task  ✓ action  ✗ result  · weak'; a plan asked for reads
    'STAR, a plan, as asked  · situation  · task  ✓ action  ✓ result  · strong': the question
    sets its situation and task."""
    line = Text("STAR", style="bold")
    if structure.plan:
        line.append(", a plan, as asked", style="bold")
    for part, present in structure.parts.items():
        if present:
            line.append(f"  ✓ {part}", style="green")
        elif structure.plan and part in ("situation", "task"):
            line.append(f"  · {part}", style="dim")
        else:
            line.append(f"  ✗ {part}", style="red")
    line.append("  · ")
    line.append(structure.verdict, style=STRUCTURE_STYLE.get(structure.verdict, ""))
    return line


def timing_line(spoken: float, target: int, plan: bool = False) -> Text:
    """The answer's spoken length against the question's target (a story usually has 90-150s)."""
    text = f"about {spoken:.0f}s spoken, target {target}s"
    if spoken < 0.7 * target:
        done = "what you would do and what it would achieve" if plan else "what you did and what came of it"
        text += f": short; there is time for {done}"
    elif spoken > 1.3 * target:
        text += ": long; cut the setup and keep the result"
    return Text(f"  ⏱ {text}", style="dim")  # printed as Hanging(..., 4) by the strip


def star_strip(structure: Structure, target: int, spoken: float) -> Group:
    """The strip under the grade: parts, one line of advice per flag, the timing, and why a weak
    story's suggestion is Hard at best."""
    lines: list[Text | Hanging] = [star_parts(structure)]
    lines += [Hanging(f"  · {advice(flag, structure.plan)}", 4, "yellow") for flag in structure.flags]
    lines.append(Hanging(timing_line(spoken, target, structure.plan), 4))
    if structure.verdict == "weak":
        told = "plan" if structure.plan else "story"
        lines.append(Text(f"  a weak {told} is suggested Hard at best", style="dim"))
    return Group(*lines)


def star_summary(structure: Structure) -> Text:
    """One line for the mock interview report: the parts, the verdict and the flags."""
    line = star_parts(structure)
    if structure.flags:
        line.append("  (" + ", ".join(structure.flags) + ")", style="dim")
    return line
