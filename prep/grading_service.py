"""Grading against a loaded bank: one attempt, or a batch file of attempts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .bank import Bank
from .errors import InvalidInput, NotFound, Problem, UsageError, display_path
from .grading import Grade, grade
from .yamlio import load_file


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
        where = doc.locate((index,) if items is doc.data else ("attempts", index))
        if not isinstance(item, dict) or not isinstance(item.get("question"), str) or not isinstance(
            item.get("answer", ""), str
        ):
            problems.append(Problem(display, where[0], where[1], "expected a mapping with question and answer"))
            continue
        if item["question"] not in bank.questions:
            problems.append(Problem(display, where[0], where[1], f"no question with id {item['question']!r}"))
            continue
        elapsed = item.get("elapsed")
        if elapsed is not None and not isinstance(elapsed, (int, float)):
            problems.append(Problem(display, where[0], where[1], "elapsed must be a number of seconds"))
            continue
        work.append((item["question"], item.get("answer") or "", elapsed))
    if problems:
        raise InvalidInput(problems)
    return [grade_one(bank, qid, text, elapsed) for qid, text, elapsed in work]
