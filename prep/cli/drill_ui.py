"""The drill's terminal UI: rich panels and one-key choices on a TTY, plain lines otherwise.

When standard input is not a terminal (a script, a pipe, CliRunner), answers are read as blocks
of lines ending with a blank line, followed by one line with the choice (1-4, Enter, u, s, q, or
"t 2 4" to toggle the ticks of key points 2 and 4, as the keys do on a terminal).
"""

from __future__ import annotations

import re
import sys
import time
from typing import Literal, TextIO

from rich.console import Console, RenderableType
from rich.text import Text

from prep.bank.schema import Question
from prep.cli import answer_panel
from prep.cli.hanging import Hanging
from prep.cli.keys import line_editing, pasting, read_key, unfinished_line
from prep.cli.output import console, echo
from prep.cli.plain import counted
from prep.cli.render import KIND_STYLE, answer_label, difficulty, grade_report, prompt_panel
from prep.cli.render_star import star_strip
from prep.grading.grade import Grade
from prep.rating import Rating
from prep.review.queue import QueueItem
from prep.review.session import Session, spoken_seconds
from prep.review.ui import AnswerInterrupted, Choice, InputEnded

# An Enter this soon after the last input (a key such as the "3" of a rating, or the Enter that
# ended a line) is a habit or a double press: no one reads the next prompt in that time, so it
# is not an answer to it (an empty answer, a suggestion accepted, a question skipped).
STRAY_ENTER_SECONDS = 0.5
KEYS_HELP = "1 Again  2 Hard  3 Good  4 Easy  ·  t tick points  u undo  e edit  s skip  q quit"


class ConsoleUI:
    def __init__(
        self,
        session: Session,
        *,
        stdin: TextIO | None = None,
        interactive: bool | None = None,
        editor=None,
        stderr: bool = False,
    ) -> None:  # type: ignore[no-untyped-def]
        self.session = session
        self.stdin = stdin or sys.stdin
        if interactive is None:
            interactive = self.stdin.isatty() and (sys.stderr if stderr else sys.stdout).isatty()
        self.interactive = interactive
        # No markup: prompts, key points and typed text are shown as written ("[mask]", "[/]").
        # Not a terminal: plain lines, unwrapped, for scripts and logs.
        self.out = (
            Console(highlight=False, markup=False, stderr=stderr)
            if interactive
            else console(stderr, no_color=True, force_terminal=False, emoji=False, width=100, soft_wrap=True)
        )
        self._started = time.monotonic()
        self._entered_at = -STRAY_ENTER_SECONDS  # when the last key or line came in
        self._gap = STRAY_ENTER_SECONDS  # and how long after the one before it
        self._editor = editor
        self._toggles: list[str] = []  # the numbers given with a scripted "t 2 4"
        self._whole_answer: RenderableType | None = None  # the prepared answer, when it was cut

    # --- output -------------------------------------------------------------------------

    def show_card(self, question: Question, item: QueueItem, position: int, total: int) -> None:
        bank = self.session.bank
        category = bank.category(question.id).title
        meta = (
            f"{category} · {question.kind} · difficulty {difficulty(question.difficulty)} · "
            f"target {question.target_seconds}s"
        )
        label = {
            "new": "new",
            "due": "due",
            "follow-up": "follow-up",
            "cram": "cram",
            "mock": "mock",
            "again": "again",
        }[item.reason]
        if self.interactive:
            self.out.print()
            self.out.print(
                prompt_panel(
                    question.prompt,
                    Text(meta, style=KIND_STYLE.get(question.kind, "")),
                    self.out.width,
                    title=f"[{position}/{total}] {label}",
                    title_align="left",
                    border_style="cyan",
                )
            )
        else:
            self.out.print(f"\n[{position}/{total}] {label} · {meta}\nQ ({question.id}): {question.prompt}")
        self._started = time.monotonic()

    def notify(self, message: str) -> None:
        self.out.print(Hanging(f"· {message}", 2, "yellow"))

    def show_grade(
        self,
        question: Question,
        graded: Grade | None,
        answer: str,
        elapsed: float | None,
        judged_by: str | None = None,
    ) -> None:
        """The time taken, the grade (or the key points, when nothing was graded), then the
        prepared answer: on a terminal, cut to the room left so that the grade stays in view."""
        shown: list[RenderableType] = []
        if answer.strip():
            shown.append(Text(_timing(answer, elapsed, question.target_seconds), style="dim"))
        if graded is not None:
            numbers = {point.text: n for n, point in enumerate(question.key_points, 1)}
            shown.append(grade_report(graded, judged_by=judged_by, numbers=numbers))
            if graded.structure is not None:
                shown.append(star_strip(graded.structure, question.target_seconds, spoken_seconds(answer)))
        else:
            shown += self._revealed(question)
        for part in shown:
            self.out.print(part)
        self._whole_answer = None
        stored = self.session.bank.answers.get(question.id)
        if not stored:
            return
        label = answer_label(self.session.bank, stored)
        if not self.interactive:
            self.out.print(f"{label}:\n{stored.answer}")
            return
        panel, cut = answer_panel.fitted(self.out, label, stored.answer, answer_panel.height(self.out, shown))
        self.out.print(panel)
        if cut:
            self._whole_answer = answer_panel.whole(label, stored.answer)

    def _revealed(self, question: Question) -> list[RenderableType]:
        parts: list[RenderableType] = []
        if not question.key_points and question.id not in self.session.bank.answers:
            parts.append(
                Text(
                    "Nothing to grade against: this question has no key points and no prepared answer. "
                    "Rate yourself (prep edit adds key points).",
                    style="dim",
                )
            )
        if question.key_points:
            parts.append(Text("Key points:", style="bold"))
            parts += [Text(f"  • {point.text}") for point in question.key_points]
        if question.pitfalls:
            parts.append(Text("Don't say:", style="bold red"))
            parts += [Text(f"  ✗ {pitfall.text}") for pitfall in question.pitfalls]
        return parts

    def _read_whole_answer(self) -> None:
        """`a`: the prepared answer that was cut, whole, in the pager (on standard error with
        --json, whose standard output holds the summary alone)."""
        if self._whole_answer is None:
            self.notify("the prepared answer is shown whole above")
            return
        if self.out.stderr:
            self.out.print(self._whole_answer)
            return
        with self.out.pager(styles=False):  # less shows escape codes as text without -R
            self.out.print(self._whole_answer)

    # --- input --------------------------------------------------------------------------

    def read_answer(self, question: Question) -> tuple[str, float | None] | None:
        if self.session.mode == "flip":
            self.out.print("(think of your answer, then press Enter to reveal; q to quit)", style="dim")
            key = self._key(fresh=True)
            if key is None or key.strip().lower() == "q":
                return None
            return "", self._elapsed()
        empty = (
            "leave empty to pass" if self.session.mode == "mock" else "leave empty to reveal and self-grade"
        )
        self.out.print(f"Your answer (finish with a blank line; {empty}):", style="dim")
        lines: list[str] = []
        while True:
            try:
                line = self._readline("  " if self.interactive else "")
            except KeyboardInterrupt:
                if self.interactive:  # the line being typed is in readline's buffer, not yet in lines
                    lines.append(unfinished_line())
                raise AnswerInterrupted("\n".join(lines).strip("\n"), self._elapsed()) from None
            if line is None:
                if not lines and not self.interactive:
                    raise InputEnded  # the script ran out of input: the session ends, interrupted
                break
            if not lines and line.strip().lower() == "q":
                return None  # q quits at every prompt of the drill, this one too, at its Enter
            if not line.strip():
                if not lines and self.interactive and self._gap < STRAY_ENTER_SECONDS:
                    continue  # the Enter after the previous prompt's key: the answer is still to come
                if self.interactive and pasting(self.stdin):
                    lines.append("")  # a blank line inside a pasted answer: the rest is on its way
                    continue
                break
            lines.append(line.rstrip("\n"))
        answer = "\n".join(lines).strip("\n")
        if answer.strip().lower() == "q":  # q quits at every prompt of the drill, this one too
            return None
        return answer, self._elapsed()

    def choose(self, suggested: Rating | None, can_tick: bool) -> Choice:
        default = f"Enter = {suggested}" if suggested else "choose 1-4" + (" or t" if can_tick else "")
        # Without a grade (flip mode, an empty answer) there are no grader's ticks to correct.
        keys = KEYS_HELP if can_tick else KEYS_HELP.replace("t tick points  ", "")
        if self._whole_answer is not None:
            keys = keys.replace("e edit", "a answer  e edit")
        while True:
            self.out.print(
                Hanging(f"Rate: {keys}  ({default})", len("Rate: "), "bold" if self.interactive else "")
            )
            key = self._key(fresh=True)
            if key is None or key == "q":
                return Choice("quit")
            if key in ("", "\r", "\n"):
                if suggested:
                    return Choice("rate", suggested)
                self.notify(
                    "no suggestion to accept: choose 1-4"
                    + (", or t to tick what you covered" if can_tick else "")
                )
                continue
            if key in ("u", "s", "e"):
                return Choice({"u": "undo", "s": "skip", "e": "edit"}[key])  # type: ignore[arg-type]
            if key == "a" and self.interactive:
                self._read_whole_answer()
                continue
            if key.split()[:1] == ["t"]:
                self._toggles = key.split()[1:]
                return Choice("teach")
            rating = Rating.parse(key)
            if rating:
                return Choice("rate", rating)
            self.notify(f"unknown choice {key!r}")

    def tick(self, question: Question, ticked: set[int]) -> set[int] | None:
        points = question.key_points
        ticked = set(ticked)
        if not self.interactive:
            self.out.print("Tick the key points you covered (the grader's ticks shown):")
            self._tick_lines(points, ticked, redraw=False)
            toggles, self._toggles = self._toggles, []
            return self._toggled(ticked, toggles, len(points))
        if len(points) > 9:  # two-digit numbers: a line of them
            self.out.print("Tick the key points you covered (the grader's ticks shown):", style="bold")
            self._tick_lines(points, ticked, redraw=False)
            line = self._readline("  numbers to tick or untick, then Enter: ")
            return None if line is None else self._toggled(ticked, line.split(), len(points))
        self.out.print(
            "Tick the key points you covered (the grader's ticks are set): a number ticks or unticks "
            "it, Enter confirms, q cancels",
            style="bold",
        )
        self._tick_lines(points, ticked, redraw=False)
        fresh = True
        while True:
            key, fresh = self._key(fresh=fresh), False
            if key is None or key == "q":
                return None
            if key == "":
                return ticked
            if key.isdigit() and 1 <= int(key) <= len(points):
                ticked ^= {int(key)}
                self._tick_lines(points, ticked, redraw=True)

    def _tick_lines(self, points, ticked: set[int], *, redraw: bool) -> None:  # type: ignore[no-untyped-def]
        """The numbered key points with their boxes; *redraw*: over the ones drawn just before
        (each cut to one line of the terminal, so that they can be)."""
        lines = [f"  {n}. [{'x' if n in ticked else ' '}] {p.text}" for n, p in enumerate(points, 1)]
        if not self.interactive:
            for line in lines:
                self.out.print(line)
            return
        width = max(self.out.width - 1, 20)
        lines = [line if len(line) <= width else line[: width - 1] + "…" for line in lines]
        out = self.out.file
        if redraw:
            out.write(f"\x1b[{len(lines)}A")
        out.write("".join(f"\r\x1b[K{line}\n" for line in lines))
        out.flush()

    def _toggled(self, ticked: set[int], toggles: list[str], count: int) -> set[int]:
        for item in toggles:
            if item.isdigit() and 1 <= int(item) <= count:
                ticked ^= {int(item)}
            else:
                self.notify(f"no key point {item!r}: the points are numbered 1 to {count}")
        return ticked

    def pick_clause(
        self, question: Question, point: int, clauses: tuple[str, ...]
    ) -> int | tuple[int, ...] | str | None:
        text = question.key_points[point - 1].text
        self.out.print(f"Which part of your answer says key point {point} ({text})?", style="bold")
        for n, clause in enumerate(clauses, 1):
            self.out.print(f"  {n}. {clause}")
        line = self._readline("  its number (two or more: 4 5), or type the words; Enter skips: ")
        while line == "" and self.interactive and self._gap < STRAY_ENTER_SECONDS:
            line = self._readline()  # the double Enter of the line before: not a skip
        if line is None or not line.strip() or line.strip().lower() == "q":
            return None
        line = line.strip()
        numbers = clause_numbers(line)
        if numbers is None:
            return line  # the words themselves
        wrong = [n for n in numbers if not 1 <= n <= len(clauses)]
        if wrong:
            self.notify(
                f"no clause {wrong[0]}: they are numbered 1 to {len(clauses)}; key point {point} not taught"
            )
            return None
        return numbers[0] if len(numbers) == 1 else tuple(numbers)  # clauses that say it together

    def confirm(self, question: str) -> bool | None:
        if not self.interactive:
            return None
        self.out.print(f"{question} [Y/n]", style="bold")
        key = self._key(fresh=True)
        return None if key is None else key in ("", "y")

    def offer_follow_up(self, question: Question) -> bool | Literal["undo"] | None:
        self.out.print(Hanging(f"↳ The interviewer digs deeper: {question.prompt}", 2))
        self.out.print("Drill this follow-up now? [y/N, u undoes the rating, q quits]", style="dim")
        key = self._key(fresh=True)
        while self.interactive and key is not None and key.lower() not in ("y", "n", "u", "q", ""):
            key = self._key()  # another key (a rating pressed twice): not an answer to the offer
        if key is None or key.lower() == "q":
            return None  # q quits everywhere in the drill
        if key.lower() == "u":
            return "undo"
        return key.lower().startswith("y")

    def edit(self, question: Question) -> None:
        if self._editor is None:
            self.notify("editing is not available here")
            return
        from prep.errors import PrepError

        try:
            message = self._editor(question)
        except PrepError as error:  # the editor failed or is missing: the drill goes on
            message = f"{error.message}; the question is unchanged" + (
                f" ({error.hint})" if error.hint else ""
            )
        if message:
            self.notify(message)

    def _elapsed(self) -> float | None:
        """Seconds spent answering; unknown when answers come from a script or a pipe."""
        return time.monotonic() - self._started if self.interactive else None

    def _readline(self, prompt: str = "") -> str | None:
        line = self._read_line(prompt)
        self._came_in()
        if line is None:
            return None
        # Bytes that are not UTF-8 arrive as lone surrogates, which no database can store: keep
        # the rest of the answer, with U+FFFD where such a byte was.
        return line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")

    def _read_line(self, prompt: str) -> str | None:
        try:
            if self.interactive:
                line_editing()
                if self.out.stderr:  # --json: stdout is kept for the summary, even the prompt
                    echo(prompt, err=True, nl=False)
                    return input()
                return input(prompt)
            line = self.stdin.readline()
            return None if line == "" else line.rstrip("\n")
        except EOFError:
            return None

    def _key(self, *, fresh: bool = False) -> str | None:
        """One key on a terminal (no Enter needed; None for Ctrl-D); one line otherwise, and
        InputEnded at the end of the input. *fresh*: the first key of a prompt just shown, where
        an Enter right after the previous prompt's key is that key's habitual Enter, not a choice."""
        if not self.interactive:
            line = self._readline()
            if line is None:
                raise InputEnded
            return line.strip().lower()
        key = read_key(self.stdin, flush=fresh)
        self._came_in()
        while fresh and key == "" and self._gap < STRAY_ENTER_SECONDS:
            key = read_key(self.stdin, flush=False)
            self._came_in()
        return key

    def _came_in(self) -> None:
        """Note an input's time, and how long after the one before it it came."""
        now = time.monotonic()
        self._gap, self._entered_at = now - self._entered_at, now


def _timing(answer: str, elapsed: float | None, target: int) -> str:
    """How long the answer took to type, against the target, and how long it would take to say."""
    typed = (
        f"{elapsed:.0f}s typed ({'within' if elapsed <= target else 'over'} the {target}s target) · "
        if elapsed is not None
        else f"target {target}s · "
    )
    return f"⏱  {typed}about {spoken_seconds(answer):.0f}s spoken ({counted(len(answer.split()), 'word')})"


def clause_numbers(line: str) -> list[int] | None:
    """The clause numbers a line gives ("4", "4 5", "4,5", "4-6"), or None when it is words."""
    numbers: list[int] = []
    for item in re.split(r"[\s,]+", line.strip()):
        low, dash, high = item.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            return None
        numbers.extend(range(int(low), int(high) + 1) if dash else [int(low)])
    return numbers or None
