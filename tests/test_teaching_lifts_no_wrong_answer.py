"""Teaching the grader a user's words never helps a wrong answer: taught from every correct answer
of the labelled sets (the points the grader missed, as `t` in a drill teaches them), no wrong
answer of those sets and no pitfall of the question grades better than before, and none the grader
finds a mistake in scores higher."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from prep.bank.load import load_bank
from prep.grading.grade import grade, ticked_points
from prep.grading.teach import Lesson, taught_question, try_lessons
from prep.paths import BankLocation

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data"
RANK = {"fail": 0, "unsure": 1, "partial": 1, "pass": 2}


def _attempts(folder: Path) -> list[dict]:
    return [a for path in sorted(folder.glob("attempts*.yaml")) for a in yaml.safe_load(path.read_text())]


def _text_only(bank):  # type: ignore[no-untyped-def]
    """The bundled bank with each key point cut to its text, as a user writes one."""
    questions = {
        qid: q.model_copy(
            update={"key_points": tuple(k.model_copy(update={"aliases": ()}) for k in q.key_points)}
        )
        for qid, q in bank.questions.items()
    }
    return dataclasses.replace(bank, questions=questions)


def _sets():  # type: ignore[no-untyped-def]
    bundled = _text_only(load_bank(BankLocation(ROOT, "bundled")))
    yield "bundled, tuning", bundled, _attempts(DATA)
    yield "bundled, teaching tuning", bundled, _attempts(DATA / "teach-tuning")
    for name in (
        "swap-tuning",
        "user-tuning",
        "user-tuning-speech",
        "reversal-tuning",
        "authored",
        "user-heldout",
    ):
        yield name, load_bank(BankLocation(DATA / name, "bench")), _attempts(DATA / name)


def _taught(question, answer: str):  # type: ignore[no-untyped-def]
    """The question as a drill leaves it after `t` on *answer*, every point ticked: the points
    the grader missed are taught where a clause clearly says them."""
    missed = sorted(
        set(range(1, len(question.key_points) + 1)) - ticked_points(question, grade(question, None, answer))
    )
    lessons = (
        [item for item in try_lessons(question, answer, missed) if isinstance(item, Lesson)] if missed else []
    )
    return taught_question(question, lessons) if lessons else None


@pytest.mark.parametrize("name, bank, attempts", list(_sets()), ids=lambda v: v if isinstance(v, str) else "")
def test_no_wrong_answer_or_pitfall_grades_better_after_teaching(name, bank, attempts):
    by_question: dict[str, list[dict]] = {}
    for attempt in attempts:
        by_question.setdefault(attempt["question"], []).append(attempt)
    worse, checked = [], 0
    for qid, group in by_question.items():
        question = bank.questions[qid]
        wrong = [a["answer"] for a in group if a["label"] == "fail"] + [p.text for p in question.pitfalls]
        for teacher in (a["answer"] for a in group if a["label"] == "pass"):
            taught = _taught(question, teacher)
            if taught is None:
                continue
            for answer in wrong:
                before, after = grade(question, None, answer), grade(taught, None, answer)
                checked += 1
                pitfall = answer in {p.text for p in question.pitfalls}
                mistaken = pitfall or after.pitfalls or after.swapped or after.contradicted
                if RANK[after.verdict] > RANK[before.verdict] or (mistaken and after.score > before.score):
                    worse.append((qid, before.verdict, after.verdict, before.score, after.score, answer[:60]))
    assert checked, "nothing was taught: the check would prove nothing"
    assert worse == []
