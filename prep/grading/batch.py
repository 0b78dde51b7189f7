"""Grading against a loaded bank: one attempt, or a batch file of attempts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prep.bank.contents import Bank
from prep.bank.yamlsource import load_file
from prep.errors import InvalidInput, NotFound, UsageError, display_path
from prep.grading.grade import Grade, grade


@dataclass(frozen=True)
class Graded:
    question: str
    answer: str
    grade: Grade

    def to_dict(self) -> dict:
        return {"question": self.question, **self.grade.to_dict()}


def grade_one(bank: Bank, question_id: str, attempt: str, elapsed: float | None = None) -> Graded:
    question = bank.question(question_id)
    return Graded(question.id, attempt, grade(question, bank.answer_text(question.id), attempt, elapsed))


def grade_file(bank: Bank, path: Path) -> list[Graded]:
    """Grade a YAML (or JSON) list of {question, answer[, elapsed]} mappings."""
    return [grade_one(bank, qid, text, elapsed) for qid, text, elapsed in read_attempts(bank, path)]


def read_attempts(bank: Bank, path: Path) -> list[tuple[str, str, float | None]]:
    """The (question id, answer, elapsed) of each attempt of a batch file, every row checked:
    InvalidInput lists every problem, and then none is graded."""
    if not path.exists():
        raise NotFound(f"no such file: {path}")
    display = display_path(path)
    doc = load_file(path, display)
    if doc.problems:
        raise InvalidInput(doc.problems)
    items = doc.data.get("attempts") if isinstance(doc.data, dict) else doc.data
    if not isinstance(items, list):
        raise UsageError(f"{display}: expected a list of {{question, answer}} mappings")
    problems, work = [], []
    for index, item in enumerate(items):
        path = (index,) if items is doc.data else ("attempts", index)
        found = _attempt_problems(item, bank)
        for key, message in found:
            problems.append(doc.problem(path + ((key,) if key else ()), message))
        if not found:
            work.append((item["question"], item["answer"], item.get("elapsed")))
    if problems:
        raise InvalidInput(problems)
    return work


ATTEMPT_FIELDS = ("question", "answer", "elapsed")


def _attempt_problems(item: object, bank: Bank) -> list[tuple[str | None, str]]:
    """What is wrong with one attempt of a batch: (the field it concerns, message)."""
    if not isinstance(item, dict):
        return [(None, "expected a mapping with question and answer")]
    found: list[tuple[str | None, str]] = [
        (str(key), f"unknown field {key!r} (fields: {', '.join(ATTEMPT_FIELDS)})")
        for key in item
        if key not in ATTEMPT_FIELDS
    ]
    for key in ("question", "answer"):
        if key not in item:
            found.append((None, f"missing field {key!r}"))
        elif not isinstance(item[key], str):
            found.append((key, f"{key} must be text"))
    if isinstance(item.get("question"), str) and item["question"] not in bank.questions:
        found.append(("question", f"no question with id {item['question']!r}"))
    elapsed = item.get("elapsed")
    if elapsed is not None and (
        isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or elapsed < 0
    ):
        found.append(("elapsed", "elapsed must be a number of seconds, 0 or more"))
    return found
