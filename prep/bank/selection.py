"""Selecting and searching questions: shared by list, search, drill and export."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prep.errors import NotFound, UsageError
from prep.suggest import KINDS, did_you_mean

if TYPE_CHECKING:  # annotations only: filtering cache rows must not import pydantic
    from prep.bank.load import Bank
    from prep.bank.schema import Question


def select(
    bank: Bank,
    *,
    categories: Sequence[str] = (),
    tags: Sequence[str] = (),
    kinds: Sequence[str] = (),
) -> list[Question]:
    """Questions matching every given filter (any of several values of one filter), in bank order."""
    for category in categories:
        if category not in bank.categories:
            hint = did_you_mean(category, bank.categories) or f"categories: {', '.join(bank.categories)}"
            raise NotFound(f"no category {category!r}", hint=hint)
    for kind in kinds:
        if kind not in KINDS:
            raise UsageError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
    wanted_tags = {t.lower() for t in tags}
    _check_tags(wanted_tags, {t.lower() for q in bank.questions.values() for t in q.tags})
    return [
        q
        for q in bank.questions.values()
        if (not categories or bank.category_of[q.id] in categories)
        and (not kinds or q.kind in kinds)
        and (not wanted_tags or wanted_tags & {t.lower() for t in q.tags})
    ]


def select_rows(rows, *, categories: Sequence[str] = (), tags: Sequence[str] = (), kinds: Sequence[str] = ()):  # type: ignore[no-untyped-def]
    """The same filters as ``select``, over cache index rows (no bank needed)."""
    known = {r.category for r in rows}
    for category in categories:
        if category not in known:
            raise NotFound(f"no category {category!r}", hint=did_you_mean(category, known) or
                           f"categories: {', '.join(sorted(known))}")
    for kind in kinds:
        if kind not in KINDS:
            raise UsageError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
    wanted_tags = {t.lower() for t in tags}
    _check_tags(wanted_tags, {t.lower() for r in rows for t in r.tags})
    return [
        r for r in rows
        if (not categories or r.category in categories)
        and (not kinds or r.kind in kinds)
        and (not wanted_tags or wanted_tags & {t.lower() for t in r.tags})
    ]


def _check_tags(wanted: set[str], known: set[str]) -> None:
    """A tag no question has is a typo, not an empty selection (as for categories)."""
    for tag in sorted(wanted - known):
        raise NotFound(f"no question is tagged {tag!r}", hint=did_you_mean(tag, known) or "see `prep list` for tags")


@dataclass(frozen=True)
class Hit:
    question: Question
    score: float  # 0-100
    field: str  # which field matched best: prompt, key point, tag, answer, id
    text: str  # the text of that field


FIELD_WEIGHT = {"id": 1.0, "prompt": 1.0, "key point": 0.95, "tag": 0.9, "answer": 0.85}


def search(
    bank: Bank, text: str, questions: Iterable[Question] | None = None, limit: int | None = None,
    cutoff: float = 60.0,
) -> list[Hit]:
    """Fuzzy search over ids, prompts, key points, tags and answers, best match first.

    rapidfuzz's WRatio weighs whole, partial and word-order-free matches by length; a match in
    the prompt counts a little more than one in a key point, tag or answer.
    """
    from rapidfuzz import fuzz, utils

    from prep.text import sentences, stem

    if not text.strip():
        raise UsageError("the search text is empty")
    needle = utils.default_process(text)
    words = [(w, stem(w)) for w in needle.split() if len(w) > 1]
    literal = text.strip().casefold()  # "C++", "C#": nothing but a letter is left after processing

    def score(name: str, value: str) -> float:
        # WRatio rewards a partial match of the whole query, so "rms norm" would find every
        # "gradient norm": each query word must also be there (another form of it, or a typo
        # apart), or the score shrinks by the share of words missing.
        if not words:
            return 100.0 * FIELD_WEIGHT[name] if literal in value.casefold() else 0.0
        hay = utils.default_process(value)
        said = [(h, stem(h)) for h in hay.split()]
        found = sum(any(h.startswith(w) or s == ws or fuzz.ratio(w, h) >= 80 for h, s in said) for w, ws in words)
        return fuzz.WRatio(needle, hay) * FIELD_WEIGHT[name] * found / len(words)
    hits = []
    for question in bank.questions.values() if questions is None else questions:
        fields = [("id", question.id.replace("-", " ")), ("prompt", question.prompt)]
        fields += [("key point", p) for kp in question.key_points for p in kp.phrasings]
        fields += [("tag", t) for t in question.tags]
        answer = bank.answer_text(question.id)
        if answer:  # sentence by sentence: a long text would dilute a short query
            fields += [("answer", sentence) for sentence in sentences(answer)]
        best = max(((score(name, value), name, value) for name, value in fields), key=lambda item: item[0])
        if best[0] >= cutoff:
            hits.append(Hit(question, best[0], best[1], best[2]))
    hits.sort(key=lambda h: -h.score)
    return hits[:limit] if limit else hits
