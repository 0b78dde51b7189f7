"""The story bank: the candidate's own stories and the behavioral questions each one answers.

A behavioral answer is built from a handful of stories, each reused for several questions. A
prepared answer names the stories it is built from (``stories:`` in the answers file); this
module says which questions each story covers, and which behavioral questions no story covers
yet (`prep stories`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from prep.bank.contents import Bank
from prep.bank.schema import Question, Story
from prep.errors import display_path

STAR_FIELDS = ("situation", "task", "action", "result")


@dataclass(frozen=True)
class StoryUse:
    """A story, where it is written, and the questions whose answers name it (bank order)."""

    story: Story
    file: str
    line: int
    questions: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.story.model_dump(),
            "metrics": list(self.story.metrics),
            "questions": list(self.questions),
            "file": self.file,
            "line": self.line,
        }


@dataclass(frozen=True)
class Coverage:
    stories: tuple[StoryUse, ...]
    uncovered: tuple[Question, ...]  # behavioral questions whose answer names no story

    def to_dict(self) -> dict[str, Any]:
        return {
            "stories": [use.to_dict() for use in self.stories],
            "uncovered": [{"id": q.id, "prompt": q.prompt} for q in self.uncovered],
        }


def story_coverage(bank: Bank, *, categories: Sequence[str] = (), tags: Sequence[str] = ()) -> Coverage:
    """Every story with the questions it covers, and the behavioral questions no story covers;
    with *categories* or *tags*, only those questions count."""
    from prep.bank.selection import select

    chosen = select(bank, categories=categories, tags=tags)
    uses = []
    for story_id, story in bank.stories.items():
        origin = bank.story_origin[story_id]
        covered = tuple(q.id for q in chosen if story_id in bank.stories_of(q.id))
        uses.append(StoryUse(story, display_path(origin.file), origin.line, covered))
    uncovered = tuple(q for q in chosen if q.kind == "behavioral" and not bank.stories_of(q.id))
    return Coverage(tuple(uses), uncovered)


def stories_for(bank: Bank, questions: Sequence[Question]) -> list[Story]:
    """The stories the answers of *questions* name, in the bank's order of stories."""
    named = {story_id for q in questions for story_id in bank.stories_of(q.id)}
    return [story for story_id, story in bank.stories.items() if story_id in named]
