"""Checks across files and entries: duplicate ids and categories, follow-ups and answers that
name no question. Each problem is located in the file where it was written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prep.bank.contents import Bank, Category, Origin
from prep.bank.schema import Answer, Question, Story
from prep.bank.yamlsource import Document
from prep.errors import Problem, display_path
from prep.suggest import did_you_mean, hint_suffix


def check_invalid_items(
    bank: Bank, invalid: list[tuple[Document, int, dict[str, Any]]], known_ids: set[str]
) -> list[Problem]:
    """A question with a problem of its own can have others too: a duplicate id or a follow-up
    to nowhere is reported now, not only once the first problem is fixed."""
    problems: list[Problem] = []
    seen: dict[str, str] = {}  # ids of invalid questions already met
    for doc, index, item in invalid:
        qid = item.get("id")
        if isinstance(qid, str):
            where = ("questions", index, "id")
            origin = bank.question_origin.get(qid)
            line = doc.locate(where)[0]
            if origin is not None and display_path(origin.file) == doc.file and line < origin.line:
                # This invalid copy comes first in the file: the later, valid one is the duplicate.
                problems.append(
                    Problem(
                        doc.file,
                        origin.line,
                        0,
                        f"duplicate question id {qid!r} (first defined at {doc.file}:{line})",
                    )
                )
                continue
            first = f"{display_path(origin.file)}:{origin.line}" if origin else seen.get(qid)
            if first:
                problems.append(
                    doc.problem(
                        where,
                        f"duplicate question id {qid!r} (first defined at {first})",
                        f"questions[{index}].id",
                    )
                )
            else:
                seen[qid] = f"{doc.file}:{doc.locate(where)[0]}"
        follow_ups = item.get("follow_ups")
        for fi, target in enumerate(follow_ups if isinstance(follow_ups, list) else []):
            if isinstance(target, str) and target not in known_ids:
                hint = did_you_mean(target, known_ids)
                problems.append(
                    doc.problem(
                        ("questions", index, "follow_ups", fi),
                        f"follow-up {target!r} is not a question id{hint_suffix(hint)}",
                        f"questions[{index}].follow_ups[{fi}]",
                    )
                )
    return problems


def add_category(
    bank: Bank,
    header: dict[str, Any],
    items: list[tuple[int, Question]],
    path: Path,
    doc: Document,
    problems: list[Problem],
) -> None:
    category_id = header["category"]
    if category_id in bank.categories:
        other = display_path(bank.categories[category_id].file)
        problems.append(
            doc.problem(("category",), f"category {category_id!r} is already defined in {other}", "category")
        )
        return
    ids = []
    for index, question in items:
        if question.id in bank.questions:
            first = bank.question_origin[question.id]
            problems.append(
                doc.problem(
                    ("questions", index, "id"),
                    f"duplicate question id {question.id!r} "
                    f"(first defined at {display_path(first.file)}:{first.line})",
                    f"questions[{index}].id",
                )
            )
            continue
        bank.questions[question.id] = question
        bank.category_of[question.id] = category_id
        bank.question_origin[question.id] = Origin(path, doc.locate(("questions", index))[0])
        ids.append(question.id)
    bank.categories[category_id] = Category(
        category_id, header.get("title") or category_id, header.get("description"), path, tuple(ids)
    )


def check_follow_ups(
    question_files: list[tuple[Document, list[tuple[int, Question]]]], known_ids: set[str]
) -> list[Problem]:
    problems = []
    for doc, items in question_files:
        for qi, question in items:
            for fi, target in enumerate(question.follow_ups):
                where = ("questions", qi, "follow_ups", fi)
                dotted = f"questions[{qi}].follow_ups[{fi}]"
                if target == question.id:
                    problems.append(doc.problem(where, "a question cannot follow up on itself", dotted))
                elif target not in known_ids:
                    hint = did_you_mean(target, known_ids)
                    problems.append(
                        doc.problem(
                            where, f"follow-up {target!r} is not a question id{hint_suffix(hint)}", dotted
                        )
                    )
    return problems


def add_answers(
    bank: Bank,
    items: list[tuple[int, Answer]],
    path: Path,
    doc: Document,
    known_ids: set[str],
    problems: list[Problem],
) -> None:
    for index, answer in items:
        where = ("answers", index, "question")
        dotted = f"answers[{index}].question"
        if answer.question not in known_ids:
            hint = did_you_mean(answer.question, known_ids)
            problems.append(
                doc.problem(where, f"no question with id {answer.question!r}{hint_suffix(hint)}", dotted)
            )
            continue
        if answer.question in bank.answers:
            first = bank.answer_origin[answer.question]
            problems.append(
                doc.problem(
                    where,
                    f"a second answer for {answer.question!r} (first at "
                    f"{display_path(first.file)}:{first.line})",
                    dotted,
                )
            )
            continue
        bank.answers[answer.question] = answer
        bank.answer_origin[answer.question] = Origin(path, doc.locate(("answers", index))[0])


def check_former_ids(
    question_files: list[tuple[Document, list[tuple[int, Question]]]], known_ids: set[str]
) -> list[Problem]:
    """A former id (``formerly``) names the question it was renamed from: it is not the id of
    another question, and no two questions claim it (each would update the other's Anki note)."""
    problems = []
    claimed: dict[str, tuple[str, str]] = {}  # former id -> (question, where)
    for doc, items in question_files:
        for qi, question in items:
            for fi, old in enumerate(question.formerly):
                where = ("questions", qi, "formerly", fi)
                dotted = f"questions[{qi}].formerly[{fi}]"
                first = claimed.get(old)
                if old != question.id and old in known_ids:
                    message = f"{old!r} is the id of another question; a former id must be free"
                elif first is not None and first[0] != question.id:
                    message = f"{old!r} is already a former id of {first[0]!r} ({first[1]})"
                else:
                    claimed.setdefault(old, (question.id, f"{doc.file}:{doc.locate(where)[0]}"))
                    continue
                problems.append(doc.problem(where, message, dotted))
    return problems


def add_stories(
    bank: Bank, stories: list[list[Any]], path: Path, doc: Document, problems: list[Problem]
) -> None:
    """The valid stories of an answers file (as [index, fields]); an id already taken is an error."""
    for index, fields in stories:
        story = Story.model_validate(fields)
        if story.id in bank.stories:
            first = bank.story_origin[story.id]
            where = f"{display_path(first.file)}:{first.line}"
            problems.append(
                doc.problem(
                    ("stories", index, "id"),
                    f"duplicate story id {story.id!r} (first defined at {where})",
                    f"stories[{index}].id",
                )
            )
            continue
        bank.stories[story.id] = story
        bank.story_origin[story.id] = Origin(path, doc.locate(("stories", index))[0])


def check_story_references(
    answer_files: list[tuple[Document, list[tuple[int, Answer]]]], known_stories: set[str]
) -> list[Problem]:
    """Each story an answer names is defined in one of the answers files, and named once."""
    problems = []
    for doc, items in answer_files:
        for index, answer in items:
            for si, story_id in enumerate(answer.stories):
                where = ("answers", index, "stories", si)
                dotted = f"answers[{index}].stories[{si}]"
                if story_id not in known_stories:
                    hint = did_you_mean(story_id, known_stories)
                    message = f"no story with id {story_id!r}{hint_suffix(hint)}"
                    problems.append(doc.problem(where, message, dotted))
                elif story_id in answer.stories[:si]:
                    problems.append(doc.problem(where, f"story {story_id!r} is named twice", dotted))
    return problems
