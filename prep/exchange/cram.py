"""The cram sheet: markdown for the night before, a section per category, ready to print.

Returns text; nothing prints. Escaping is limited to what CommonMark would act on.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

from prep.bank.contents import Bank
from prep.bank.schema import Question, Story
from prep.review.plan import recall_on_day
from prep.review.queue import weakest_first

if TYPE_CHECKING:
    from prep.review.scheduler import Scheduler
    from prep.state.store import Store

# Only what CommonMark (and GitHub's tables and strikethrough) would act on, so that the raw
# sheet stays readable: "NCCL_DEBUG", "C++" and "(1 x 4)" are left as written. An underscore
# inside a word never starts emphasis; "#", "+" and "-" matter only at the start of a line.
_INLINE_SPECIAL = re.compile(r"([\\`*\[\]|~])")
_EDGE_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")  # "_x_" can emphasise; "a_b" cannot
_LINE_START_NUMBER = re.compile(r"^(\d+)([.)])")  # "1." starts a list; a digit cannot be escaped, the dot can


def md_text(text: str) -> str:
    """Text from the YAML, made inert in markdown: no HTML, no emphasis, no structure."""
    escaped = _INLINE_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))
    if "_" in escaped:
        escaped = _EDGE_UNDERSCORE.sub(r"\\_", escaped)
    lines = []
    for line in escaped.splitlines():
        line = line.lstrip()  # four spaces of indent would make a code block
        if line[:1] in ("-", "=", ">", ":", "#", "+"):
            line = "\\" + line
        elif line[:1].isdigit():
            line = _LINE_START_NUMBER.sub(r"\1\\\2", line)
        lines.append(line)
    return "\n".join(lines)


def md_inline(text: str) -> str:
    """md_text on one line: line breaks become spaces (headings, table cells, list items)."""
    return md_text(" ".join(text.split()))


def anchor(question_id: str) -> str:
    return f"q-{question_id}"


@dataclass(frozen=True)
class CramSelection:
    """Which questions of a selection go on the sheet."""

    weakest: int | None = None  # only the N weakest (lowest recall probability, most lapses)
    due: bool = False  # only those due now
    ask: bool = False  # questions of kind 'ask' go to their own section: all of them, not counted
    interview: date | None = None  # lowest predicted recall on this day first (and for --weakest)

    @property
    def needs_history(self) -> bool:
        return self.weakest is not None or self.due or self.interview is not None


def cram_questions(
    questions: Sequence[Question],
    selection: CramSelection,
    now: datetime,
    store: Store | None = None,
    scheduler: Scheduler | None = None,
    category_of: Mapping[str, str] | None = None,
) -> list[Question]:
    """The questions of the sheet in the order to print: those due now (``due``), the N weakest
    first (``weakest``), or all by their predicted recall on the interview day, lowest first
    (``interview``; with ``weakest``, the N lowest). With ``ask``, the questions to ask are
    neither filtered nor counted among the N: every one of *questions* follows, for the final
    section. *store* and *scheduler* are needed when ``selection.needs_history``. With
    *category_of*, the interview order puts the category least likely recalled first (the sheet
    keeps a category's questions together)."""
    asks = [q for q in questions if selection.ask and q.kind == "ask"]
    chosen = [q for q in questions if not (selection.ask and q.kind == "ask")]
    if selection.needs_history:
        assert store is not None and scheduler is not None, "weakest and due need the review history"
        if selection.due:
            due_ids = {qid for qid, _ in store.due_ids(now)}
            chosen = [q for q in chosen if q.id in due_ids]
        if selection.interview is not None:
            recall = recall_on_day(store, [q.id for q in chosen], selection.interview, now)
            chosen = sorted(chosen, key=lambda q: recall[q.id])[: selection.weakest]
            if category_of is not None:
                chosen = _weakest_category_first(chosen, recall, category_of)
        elif selection.weakest is not None:
            chosen = weakest_first(chosen, store.cards(), scheduler, now, unseen_first=True)[
                : selection.weakest
            ]
    return chosen + asks


def _weakest_category_first(
    chosen: list[Question], recall: Mapping[str, float], category_of: Mapping[str, str]
) -> list[Question]:
    """By the category's mean recall on the day, then the question's, lowest first."""
    totals: dict[str, list[float]] = {}
    for q in chosen:
        totals.setdefault(category_of[q.id], []).append(recall[q.id])
    mean = {category: sum(values) / len(values) for category, values in totals.items()}
    return sorted(chosen, key=lambda q: (mean[category_of[q.id]], recall[q.id]))


@dataclass(frozen=True)
class CramOptions:
    questions_only: bool = False
    ask_section: bool = False
    title: str = "Interview cram sheet"


def cram_sheet(
    bank: Bank, questions: Sequence[Question], now: datetime, options: CramOptions = CramOptions()
) -> str:
    """The markdown cram sheet: title, date, table of contents, a section per category.

    *questions* come in the order to print (e.g. weakest first); categories appear in the order
    of their first question. Questions of kind 'ask' go to a final section with ``ask_section``.
    """
    main = [q for q in questions if not (options.ask_section and q.kind == "ask")]
    asks = [q for q in questions if options.ask_section and q.kind == "ask"]
    on_sheet = {q.id for q in main}  # the questions with an anchor to link to
    groups: dict[str, list[Question]] = {}
    for q in main:
        groups.setdefault(bank.category_of[q.id], []).append(q)

    out: list[str] = [
        f"# {md_inline(options.title)}",
        "",
        (
            f"_{now.astimezone().strftime('%A %d %B %Y')}_ · "
            f"{len(questions)} question{'s' if len(questions) != 1 else ''}"
        ),
        "",
    ]
    out += ["## Contents", ""]
    for category_id, items in groups.items():
        out.append(f"- [{md_inline(bank.categories[category_id].title)}](#{_category_anchor(category_id)})")
        out += [f"  - [{md_inline(q.prompt)}](#{anchor(q.id)})" for q in items]
    stories = _sheet_stories(bank, main, options)
    if stories:
        out.append("- [Your stories](#your-stories)")
    if asks:
        out.append("- [Questions to ask](#questions-to-ask)")
    out.append("")
    for category_id, items in groups.items():
        category = bank.categories[category_id]
        out += [f'<a id="{_category_anchor(category_id)}"></a>', "", f"## {md_inline(category.title)}", ""]
        for q in items:
            out += _question_block(bank, q, options, on_sheet)
    out += _story_section(stories)
    if asks:
        out += ['<a id="questions-to-ask"></a>', "", "## Questions to ask", ""]
        for q in asks:
            answer = bank.answer_text(q.id)
            out.append(f"- {md_inline(answer if answer and not options.questions_only else q.prompt)}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _category_anchor(category_id: str) -> str:
    return f"category-{category_id}"


def _question_block(bank: Bank, q: Question, options: CramOptions, on_sheet: set[str]) -> list[str]:
    out = [f'<a id="{anchor(q.id)}"></a>', "", f"### {md_inline(q.prompt)}", ""]
    out += [f"`{q.id}` · {q.kind} · difficulty {q.difficulty} · {q.target_seconds}s", ""]
    if options.questions_only:
        return out
    if q.key_points:
        out += [f"- {md_inline(k.text)}" for k in q.key_points] + [""]
    answer = bank.answer_text(q.id)
    if answer:
        # Each line of the answer its own paragraph: markdown would run "> a" and "> b" together.
        lines = [line for line in md_text(answer).splitlines() if line.strip()]
        out += [part for i, line in enumerate(lines) for part in ([">"] if i else []) + ["> " + line]] + [""]
    named = [bank.stories[i] for i in bank.stories_of(q.id) if i in bank.stories]
    if named:
        out += ["Stories: " + "; ".join(f"[{md_inline(s.title)}](#{story_anchor(s.id)})" for s in named), ""]
    if q.follow_ups:
        out += ["Follow-ups: " + "; ".join(_follow_up(bank, f, on_sheet) for f in q.follow_ups), ""]
    if q.pitfalls:
        out += ["**Don't say:**", ""] + [f"- {md_inline(p.text)}" for p in q.pitfalls] + [""]
    if q.notes:
        out += [f"**Notes:** {md_inline(q.notes)}", ""]
    return out


def story_anchor(story_id: str) -> str:
    return f"story-{story_id}"


def _sheet_stories(bank: Bank, questions: Sequence[Question], options: CramOptions) -> list[Story]:
    """Every story, when the sheet has a behavioral question to tell them for (and answers)."""
    if options.questions_only or not any(q.kind == "behavioral" for q in questions):
        return []
    return list(bank.stories.values())


def _story_section(stories: Sequence[Story]) -> list[str]:
    """Each story in four lines, one per STAR part, its numbers after the result."""
    if not stories:
        return []
    out = ['<a id="your-stories"></a>', "", "## Your stories", ""]
    for story in stories:
        numbers = f" ({md_inline('; '.join(story.metrics))})" if story.metrics else ""
        out += [f'<a id="{story_anchor(story.id)}"></a>', "", f"### {md_inline(story.title)}", ""]
        out += [
            f"- **Situation:** {md_inline(story.situation)}",
            f"- **Task:** {md_inline(story.task)}",
            f"- **Action:** {md_inline(story.action)}",
            f"- **Result:** {md_inline(story.result)}{numbers}",
            "",
        ]
    return out


def _follow_up(bank: Bank, qid: str, on_sheet: set[str]) -> str:
    """A link to a follow-up on the sheet; one that is not (a filtered sheet) is named as text."""
    if qid not in bank.questions:
        return md_inline(qid)
    prompt = md_inline(bank.questions[qid].prompt)
    return f"[{prompt}](#{anchor(qid)})" if qid in on_sheet else f"{prompt} (`{qid}`, not on this sheet)"
