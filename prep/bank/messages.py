"""Pydantic's validation errors, located in the YAML and said in prep's words."""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from prep.bank.schema import Answer, AnswersFile, CategoryFile, Question
from prep.bank.yamlsource import Document, PathKey
from prep.errors import Problem
from prep.suggest import did_you_mean, hint_suffix

_EXPECTED_TOP = {
    CategoryFile: "a mapping with category, title and questions",
    AnswersFile: "a mapping with an answers list",
}


def validate_file(
    doc: Document, model: type[BaseModel], problems: list[Problem]
) -> tuple[dict[str, Any] | None, list[tuple[int, Any]]]:
    """Validate a file; return its header fields and its valid entries with their indexes.

    On errors, every error is reported and the valid entries are still returned, so that
    cross-file checks run on them instead of cascading into "unknown id" errors.
    """
    if doc.data is None:
        return None, []
    if not isinstance(doc.data, dict):
        found = type(doc.data).__name__.replace("NoneType", "nothing")
        problems.append(doc.problem((), f"expected {_EXPECTED_TOP[model]}; found a {found}"))
        return None, []
    list_key = "questions" if model is CategoryFile else "answers"
    try:
        parsed = model.model_validate(doc.data)
        if model is AnswersFile:  # the stories of the file, with their index (see _valid_stories)
            stories = [[i, s.model_dump(exclude_defaults=True)] for i, s in enumerate(parsed.stories)]
            return {"stories": stories}, list(enumerate(parsed.answers))
        header = parsed.model_dump(exclude={list_key})
        return header, list(enumerate(getattr(parsed, list_key)))
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            loc = tuple(error["loc"])
            problems.append(doc.problem(loc, validation_message(error, model), dotted_path(loc)))
    item_model = Question if model is CategoryFile else Answer
    raw_items = doc.data.get(list_key)
    items = []
    for index, item in enumerate(raw_items if isinstance(raw_items, list) else []):
        try:
            items.append((index, item_model.model_validate(item)))
        except ValidationError:
            pass  # already reported above
    if model is AnswersFile:
        return {"stories": _valid_stories(doc.data.get("stories"))}, items
    category = doc.data.get("category")
    header = {"category": category, "title": doc.data.get("title")} if isinstance(category, str) else None
    if header is None:
        return None, []
    return header, items


def _valid_stories(raw: Any) -> list[list[Any]]:
    """The stories of an answers file that validate, as [index, fields]: an answers file with a
    problem elsewhere still has them, so that answers naming them are not errors too."""
    from prep.bank.schema import Story

    found = []
    for index, item in enumerate(raw if isinstance(raw, list) else []):
        try:
            found.append([index, Story.model_validate(item).model_dump(exclude_defaults=True)])
        except ValidationError:
            pass  # already reported
    return found


def dotted_path(loc: PathKey) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def validation_message(error: dict, root: type[BaseModel]) -> str:
    """A pydantic error as a short message in prep's words."""
    loc = tuple(error["loc"])
    kind = error["type"]
    if kind == "extra_forbidden":
        name = str(loc[-1])
        fields = _fields_at(root, loc[:-1])
        hint = did_you_mean(name, fields) if fields else None
        allowed = f" (allowed: {', '.join(fields)})" if fields and not hint else ""
        return f"unknown field {name!r}{hint_suffix(hint)}{allowed}"
    if kind == "missing":
        return f"missing required field {loc[-1]!r}"
    if kind == "model_type":
        return "expected a mapping (or, for key points and pitfalls, a plain text)"
    if kind == "string_pattern_mismatch":
        return f"{error['input']!r} is not a kebab-case id (lowercase letters, digits and single hyphens)"
    if kind in ("tuple_type", "list_type"):
        return f"expected a list, found {type(error['input']).__name__.replace('NoneType', 'nothing')}"
    if kind == "string_type":
        return f"expected text, found {type(error['input']).__name__.replace('NoneType', 'nothing')}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "value_error" and "error" in error.get("ctx", {}):
        return str(error["ctx"]["error"])  # our own validator's words, without pydantic's "Value error, "
    message = error["msg"]
    return message[0].lower() + message[1:]


def _fields_at(model: type[BaseModel], loc: PathKey) -> list[str]:
    """The field names of the model found at *loc* inside *model*, for 'did you mean'."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        info = current.model_fields.get(part)
        if info is None:
            return []
        current = _inner_model(info.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (tuple, list, typing.Union, types.UnionType) or origin is not None:
        for arg in typing.get_args(annotation):
            found = _inner_model(arg)
            if found is not None:
                return found
    return None
