"""The bank's schema: pydantic models of question and answer files.

The YAML files are the source of truth; these models are the contract other tools rely on
(field names documented in the README). ``extra="forbid"`` turns typos into errors.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from prep.bank.naming import ID_PATTERN

Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=120)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Kind = Literal["technical", "behavioral", "strategy", "ask"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Claim(_Strict):
    """A short claim plus other ways of saying it; a plain string is accepted as the text.
    *taught* phrasings are the user's own words, added from a drill or `prep teach`."""

    text: Text
    aliases: tuple[Text, ...] = ()
    taught: tuple[Text, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, value: Any) -> Any:
        return {"text": value} if isinstance(value, str) else value

    @property
    def phrasings(self) -> tuple[str, ...]:
        return (self.text, *self.aliases, *self.taught)

    @property
    def written(self) -> tuple[str, ...]:
        """Its text and aliases: the ways of saying it written for everyone, not one answer's words."""
        return (self.text, *self.aliases)

    @property
    def entry(self) -> str | dict[str, Any]:
        """The claim as the bank writes it (see claim_entry)."""
        return claim_entry(self.text, self.aliases, self.taught)


def claim_entry(text: str, aliases: Sequence[str] = (), taught: Sequence[str] = ()) -> str | dict[str, Any]:
    """A claim as the bank writes it: the plain text, unless it has aliases or taught
    phrasings, each list given only when it has items."""
    entry: dict[str, Any] = {"text": text}
    if aliases:
        entry["aliases"] = list(aliases)
    if taught:
        entry["taught"] = list(taught)
    return entry if len(entry) > 1 else text


class Question(_Strict):
    id: Id
    prompt: Text
    kind: Kind = "technical"
    difficulty: int = Field(default=2, ge=1, le=3)
    tags: tuple[Text, ...] = ()
    target_seconds: int = Field(default=60, gt=0, le=3600)
    key_points: tuple[Claim, ...] = ()
    pitfalls: tuple[Claim, ...] = ()
    follow_ups: tuple[Id, ...] = ()
    notes: Text | None = None
    # Ids the question had before `prep mv`, oldest first: its identity outside the bank (the
    # Anki note it updates) comes from the oldest.
    formerly: tuple[Id, ...] = ()

    @property
    def first_id(self) -> str:
        """The id the question was created with: ``formerly[0]``, else its id."""
        return self.formerly[0] if self.formerly else self.id


class CategoryFile(_Strict):
    """questions/<category>.yaml"""

    category: Id
    title: Text
    description: Text | None = None
    questions: tuple[Question, ...] = ()


class Answer(_Strict):
    question: Id
    answer: Text
    # "own": the candidate's prepared answer; "model": a reference answer written for study.
    source: Literal["own", "model"] = "own"
    # The ids of the stories (in any answers file) this answer is built from.
    stories: tuple[Id, ...] = ()


class Story(_Strict):
    """One of the candidate's own stories, told in its STAR parts, reused across behavioral
    questions; *metrics* are the numbers it can quote ("40% cheaper", "two weeks lost")."""

    id: Id
    title: Text
    situation: Text
    task: Text
    action: Text
    result: Text
    metrics: tuple[Text, ...] = ()


class AnswersFile(_Strict):
    """answers/<any>.yaml"""

    answers: tuple[Answer, ...] = ()
    stories: tuple[Story, ...] = ()


def content_hash(question: Question) -> str:
    """Fingerprint of what a card asks; when it changes, past reviews were of other wording."""
    text = "\n".join([question.prompt, *(p.text for p in question.key_points)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
