"""`prep validate`: every problem of the bank, plus advice such as near-duplicate prompts."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from prep.bank.contents import Bank
from prep.bank.load import check_bank
from prep.errors import Problem, display_path
from prep.paths import BankLocation

NEAR_DUPLICATE_CUTOFF = 90.0
EXACT_LIMIT = 4000  # up to this many prompts every pair is compared (16M pairs, about a second)
RARE_TOKENS = 4  # beyond it, only pairs sharing one of each prompt's rarest words are compared,
CANDIDATES = 256  # ... and at most this many of them (the nearest in the bank) per prompt


def near_duplicate_prompts(bank: Bank, cutoff: float = NEAR_DUPLICATE_CUTOFF) -> list[tuple[str, str, float]]:
    """For each question whose prompt is nearly the text of an earlier one (rapidfuzz ratio >=
    cutoff), that earlier question: at most one warning per question, so a bank of templated
    prompts ("What does the term X mean?") gets one line per question, not one per pair.

    Small banks compare every pair. Large ones compare only pairs that share one of each
    prompt's rarest words, at most CANDIDATES of them: two prompts 90% alike share nearly all
    their words, so this finds them without the quadratic cost (100M pairs at 10,000 questions).
    """
    import numpy as np  # rapidfuzz's cdist returns a numpy array
    from rapidfuzz import fuzz, process, utils

    ids = list(bank.questions)
    prompts = [utils.default_process(bank.questions[i].prompt) for i in ids]
    if len(prompts) < 2:
        return []
    if len(prompts) <= EXACT_LIMIT:
        scores = np.triu(
            process.cdist(
                prompts, prompts, scorer=fuzz.ratio, score_cutoff=cutoff, dtype=np.uint8, workers=-1
            ),
            k=1,
        )
        first, best = scores.argmax(axis=0), scores.max(axis=0)  # each column's most similar earlier row
        return [(ids[first[c]], ids[c], float(best[c])) for c in np.flatnonzero(best).tolist()]

    words = [set(p.split()) for p in prompts]
    frequency: dict[str, int] = {}
    for ws in words:
        for w in ws:
            frequency[w] = frequency.get(w, 0) + 1
    postings: dict[str, list[int]] = {}
    rare = []
    for i, ws in enumerate(words):
        chosen = sorted(ws, key=lambda w: (frequency[w], w))[:RARE_TOKENS]
        rare.append(chosen)
        for w in chosen:
            postings.setdefault(w, []).append(i)
    pairs = []
    for j, chosen in enumerate(rare):
        # Postings are in bank order: the nearest earlier ones are a slice just before j.
        nearest = (
            postings[w][max(0, k - CANDIDATES) : k] for w in chosen for k in [bisect_left(postings[w], j)]
        )
        earlier = sorted({i for run in nearest for i in run}, reverse=True)[:CANDIDATES]
        if not earlier:
            continue
        found = process.extractOne(
            prompts[j], [prompts[i] for i in earlier], scorer=fuzz.ratio, score_cutoff=cutoff
        )
        if found is not None:
            pairs.append((ids[earlier[found[2]]], ids[j], float(found[1])))
    return pairs


@dataclass
class Report:
    """What `prep validate` reports: counts, errors and warnings."""

    bank: Bank
    problems: list[Problem]
    warnings: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "bank": str(self.bank.location.root),
            "origin": self.bank.location.origin,
            "categories": len(self.bank.categories),
            "questions": len(self.bank.questions),
            "answers": len(self.bank.answers),
            "stories": len(self.bank.stories),
            "problems": [p.to_dict() for p in self.problems],
            "warnings": [w.to_dict() for w in self.warnings],
        }


def validate(location: BankLocation) -> Report:
    """Every problem of the bank, plus warnings such as near-duplicate prompts."""
    bank, problems = check_bank(location)
    warnings = []
    for first, second, score in near_duplicate_prompts(bank):
        origin = bank.question_origin[second]
        other = bank.question_origin[first]
        warnings.append(
            Problem(
                display_path(origin.file),
                origin.line,
                1,
                f"prompt of {second!r} is {score:.0f}% similar to {first!r} "
                f"({display_path(other.file)}:{other.line})",
            )
        )
    warnings += single_phrasing_warnings(bank)
    warnings += story_warnings(bank)
    for folder in (location.questions, location.answers):
        # A folder named like a YAML file is already an error of its own ("is a directory").
        for nested in (
            sorted(
                p
                for p in folder.iterdir()
                if p.is_dir() and not p.name.startswith(".") and p.suffix not in (".yaml", ".yml")
            )
            if folder.is_dir()
            else []
        ):
            warnings.append(
                Problem(
                    display_path(nested),
                    0,
                    0,
                    f"is a folder: prep reads only the files directly "
                    f"in {folder.name}/, so the questions in it are not part of the bank",
                )
            )
    return Report(bank, sorted(problems), warnings)


def single_phrasing_warnings(bank: Bank) -> list[Problem]:
    """One line per question with key points that have only their text: the grader can recognise
    such a point in one wording alone, and misses most correct answers that word it otherwise."""
    found = []
    for qid, question in bank.questions.items():
        alone = [n for n, point in enumerate(question.key_points, 1) if len(point.phrasings) == 1]
        if not alone:
            continue
        origin = bank.question_origin[qid]
        which = f"key point {alone[0]} is" if len(alone) == 1 else f"key points {_numbers(alone)} are"
        found.append(
            Problem(
                display_path(origin.file),
                origin.line,
                1,
                f"{qid}: {which} graded on one phrasing; add aliases or teach it from a drill (`t`)",
            )
        )
    return found


def story_warnings(bank: Bank) -> list[Problem]:
    """Stories named in the answer to a question that is not behavioral: `prep stories` counts
    coverage of behavioral questions only, and the drill analyses only their structure."""
    found = []
    for qid, answer in bank.answers.items():
        kind = bank.questions[qid].kind if qid in bank.questions else "behavioral"  # in a broken file
        if answer.stories and kind != "behavioral":
            origin = bank.answer_origin[qid]
            found.append(
                Problem(
                    display_path(origin.file),
                    origin.line,
                    1,
                    f"{qid}: the answer names stories, but it is a {kind} question (stories are for "
                    "behavioral ones)",
                )
            )
    return found


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers[:-1]) + f" and {numbers[-1]}"
