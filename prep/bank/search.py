"""Fuzzy search over ids, prompts, key points, tags and answers: `prep search` and `list --search`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prep.errors import UsageError

if TYPE_CHECKING:
    from prep.bank.contents import Bank
    from prep.bank.schema import Question


@dataclass(frozen=True)
class Hit:
    question: Question
    score: float  # 0-100
    field: str  # which field matched best: prompt, key point, tag, answer, id
    text: str  # the text of that field


FIELD_WEIGHT = {"id": 1.0, "prompt": 1.0, "key point": 0.95, "tag": 0.9, "answer": 0.85}


def find(
    bank: Bank,
    text: str,
    questions: Iterable[Question] | None = None,
    limit: int | None = None,
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

    def found(hay: str) -> int:
        said = [(h, stem(h)) for h in hay.split()]
        return sum(
            any(h.startswith(w) or s == ws or fuzz.ratio(w, h) >= 80 for h, s in said) for w, ws in words
        )

    def score(name: str, value: str, hay: str, share: float) -> float:
        # WRatio rewards a partial match of the whole query, so "rms norm" would find every
        # "gradient norm": each query word must also be in the question (another form of it, or
        # a typo apart; in any of its fields: "kv cache memory" finds the KV-cache question whose
        # answer speaks of memory), or the score shrinks by the share of words missing.
        if not words:
            return 100.0 * FIELD_WEIGHT[name] if literal in value.casefold() else 0.0
        return fuzz.WRatio(needle, hay) * FIELD_WEIGHT[name] * share

    hits = []
    for question in bank.questions.values() if questions is None else questions:
        fields = [("id", question.id.replace("-", " ")), ("prompt", question.prompt)]
        fields += [("key point", p) for kp in question.key_points for p in kp.phrasings]
        fields += [("tag", t) for t in question.tags]
        answer = bank.answer_text(question.id)
        if answer:  # sentence by sentence: a long text would dilute a short query
            fields += [("answer", sentence) for sentence in sentences(answer)]
        hays = [utils.default_process(v) for _, v in fields]
        share = found(" ".join(hays)) / len(words) if words else 1.0
        best = max(
            ((score(n, v, hay, share), n, v) for (n, v), hay in zip(fields, hays)), key=lambda item: item[0]
        )
        if best[0] >= cutoff:
            hits.append(Hit(question, best[0], best[1], best[2]))
    hits.sort(key=lambda h: -h.score)
    return hits[:limit] if limit else hits
