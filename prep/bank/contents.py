"""What a bank contains once loaded (``load.load_bank``): questions, categories and answers by
id, and where each is defined."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from prep.bank.schema import Answer, Question, Story
from prep.errors import NotFound
from prep.paths import BankLocation
from prep.suggest import did_you_mean


@dataclass(frozen=True)
class Category:
    id: str
    title: str
    description: str | None
    file: Path
    question_ids: tuple[str, ...]


@dataclass(frozen=True)
class Origin:
    """Where something is defined, for messages and for opening an editor at the right line."""

    file: Path
    line: int


@dataclass
class Bank:
    location: BankLocation
    categories: dict[str, Category] = field(default_factory=dict)
    questions: dict[str, Question] = field(default_factory=dict)  # in file order
    category_of: dict[str, str] = field(default_factory=dict)
    answers: dict[str, Answer] = field(default_factory=dict)
    question_origin: dict[str, Origin] = field(default_factory=dict)
    answer_origin: dict[str, Origin] = field(default_factory=dict)
    stories: dict[str, Story] = field(default_factory=dict)  # in file order
    story_origin: dict[str, Origin] = field(default_factory=dict)

    def question(self, question_id: str) -> Question:
        try:
            return self.questions[question_id]
        except KeyError:
            raise NotFound(
                f"no question with id {question_id!r}",
                hint=did_you_mean(question_id, self.questions) or "see `prep list`",
            ) from None

    def answer_text(self, question_id: str) -> str | None:
        answer = self.answers.get(question_id)
        return answer.answer if answer else None

    def story(self, story_id: str) -> Story:
        try:
            return self.stories[story_id]
        except KeyError:
            raise NotFound(
                f"no story with id {story_id!r}",
                hint=did_you_mean(story_id, self.stories) or "see `prep stories`",
            ) from None

    def stories_of(self, question_id: str) -> tuple[str, ...]:
        """The ids of the stories the question's prepared answer is built from."""
        answer = self.answers.get(question_id)
        return answer.stories if answer else ()

    def category(self, question_id: str) -> Category:
        return self.categories[self.category_of[question_id]]

    def former_ids(self) -> dict[str, str]:
        """Each id a question had before it was renamed (its ``formerly`` list), with its id now."""
        return {old: q.id for q in self.questions.values() for old in q.formerly}
