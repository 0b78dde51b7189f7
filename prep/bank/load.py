"""Find, load and validate the YAML bank.

Every problem in every file is collected (not only the first) and located as
``file:line:col``, so a user fixing a bank by hand sees the whole list at once.
"""

from __future__ import annotations

import gc
import re
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from prep.errors import BankInvalid, NotFound, Problem, display_path
from prep.bank.schema import Answer, AnswersFile, CategoryFile, Question
from prep.paths import YAML_SUFFIXES, BankLocation, bank_files
from prep.suggest import did_you_mean
from prep.bank.yamlsource import MAX_FILE_BYTES, Document, PathKey, load_file, parse


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

    def category(self, question_id: str) -> Category:
        return self.categories[self.category_of[question_id]]


def load_bank(location: BankLocation) -> Bank:
    """Load and validate the bank; raise BankInvalid listing every problem."""
    bank, problems = check_bank(location)
    if problems:
        raise BankInvalid(problems)
    return bank


def check_bank(location: BankLocation, overrides: dict[Path, str | None] | None = None) -> tuple[Bank, list[Problem]]:
    """Load what can be loaded and return it with every problem found.

    *overrides* maps file paths to proposed new text (None: the file would be deleted), so an
    edit can be validated against the whole bank before anything is written.
    """
    # Loading allocates millions of small acyclic objects; the cyclic GC would rescan them all
    # again and again (2-3x the parse time on a 10,000-question bank) and find nothing to free.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        result = _check_bank(location, overrides)
        gc.freeze()  # the loaded bank lives as long as the command: keep it out of later scans
        return result
    finally:
        if was_enabled:
            gc.enable()


def _check_bank(location: BankLocation, overrides: dict[Path, str | None] | None) -> tuple[Bank, list[Problem]]:
    overrides = {Path(p).absolute(): t for p, t in (overrides or {}).items()}
    cache = _open_cache(location) if not overrides else None

    def files(directory: Path) -> list[Path]:
        paths = {p.absolute() for p in bank_files(directory)}
        paths |= {p for p in overrides if p.parent == directory.absolute() and p.suffix in YAML_SUFFIXES}
        return sorted(p for p in paths if overrides.get(p, "") is not None)

    bank = Bank(location)
    problems: list[Problem] = []
    known_ids: set[str] = set()  # ids seen even in invalid files, to avoid cascades of errors
    question_files: list[tuple[Document, list[tuple[int, Question]]]] = []
    question_paths, answer_paths = files(location.questions), files(location.answers)

    invalid: list[tuple[Document, int, dict[str, Any]]] = []  # questions that failed validation
    for path in question_paths:
        doc, header, items, raw_ids = _load_valid(path, CategoryFile, overrides, cache, problems)
        known_ids.update(raw_ids)
        if doc.data is None:  # a file that does not parse: its ids, read from the text, still exist
            known_ids.update(_ids_in_text(overrides.get(path), path))
        if header is not None:
            _add_category(bank, header, items, path, doc, problems)
            question_files.append((doc, items))
        invalid += _invalid_items(doc, {i for i, _ in items})

    for path in answer_paths:
        doc, header, items, _ = _load_valid(path, AnswersFile, overrides, cache, problems)
        _add_answers(bank, items, path, doc, known_ids, problems)

    problems += _check_follow_ups(question_files, known_ids)
    problems += _check_invalid_items(bank, invalid, known_ids)
    if cache is not None:
        cache.forget_others(question_paths + answer_paths)
        cache.mark_valid(question_paths + answer_paths, not problems)
        cache.close()
    return bank, problems


def _open_cache(location: BankLocation):  # type: ignore[no-untyped-def]
    from prep.bank.cache import BankCache, cache_enabled

    return BankCache(location) if cache_enabled() else None


def _kept_positions(doc: Document, list_key: str, count: int) -> list[list[Any]]:
    """The positions a cached file must keep: for cross-file errors and editor lines."""
    wanted: list[PathKey] = [("category",), (list_key,)]
    field = "id" if list_key == "questions" else "question"
    for i in range(count):
        wanted += [(list_key, i), (list_key, i, field)]
        j = 0
        while (list_key, i, "follow_ups", j) in doc.positions:
            wanted.append((list_key, i, "follow_ups", j))
            j += 1
    return [[list(k), *doc.positions[k]] for k in wanted if k in doc.positions]


def _load_valid(
    path: Path,
    model: type[BaseModel],
    overrides: dict[Path, str | None],
    cache: Any,
    problems: list[Problem],
) -> tuple[Document, dict[str, Any] | None, list[tuple[int, Any]], list[str]]:
    """One file: from the cache when unchanged, else parsed and validated (and then cached)."""
    display = display_path(path)
    item_model = Question if model is CategoryFile else Answer
    raw: bytes | None = None

    def read() -> bytes | None:  # at most once per file, shared by the cache check and the parse
        nonlocal raw
        if raw is None:
            try:  # oversized files are left for load_file to refuse without reading them
                if path.is_file() and path.stat().st_size <= MAX_FILE_BYTES:
                    raw = path.read_bytes()
            except OSError:
                raw = None
        return raw

    if path in overrides:
        doc = parse(overrides[path] or "", display)
    else:
        if cache is not None:
            payload = cache.get(path, read)
            if payload is not None:
                doc = Document(display, positions={tuple(k): (l, c) for k, l, c in payload["positions"]})
                items = [(i, item_model.model_validate(d)) for i, d in payload["items"]]
                ids = [q.id for _, q in items] if model is CategoryFile else []
                return doc, payload["header"], items, ids
            read()
        doc = load_file(path, display, raw)
    if doc.empty and model is not CategoryFile:
        # An answers file not yet written in (a comment saying what goes there) has no answers.
        doc.problems, doc.data = [], {"answers": []}
    problems += doc.problems
    before = len(problems)
    header, items = _validate(doc, model, problems)
    raw_ids = list(_raw_ids(doc.data))
    if cache is not None and raw is not None and not doc.problems and len(problems) == before and header is not None:
        from prep.bank.cache import IndexRow

        list_key = "questions" if model is CategoryFile else "answers"
        raw_items = doc.data[list_key] or []
        payload = {  # the file's own (valid) values: re-validated on load, so never trusted blindly
            "header": header,
            "items": [(i, raw_items[i]) for i, _ in items],
            "positions": _kept_positions(doc, list_key, len(raw_items)),
        }
        index = (
            [IndexRow.of(q, header["category"], header["title"]) for _, q in items]
            if model is CategoryFile
            else []
        )
        cache.put(path, raw, payload, index)
    return doc, header, items, raw_ids


_ID_LINE = re.compile(r"^[ \t-]*id:[ \t]*[\"']?([a-z0-9]+(?:-[a-z0-9]+)*)[\"']?[ \t]*(?:#.*)?$", re.MULTILINE)


def _ids_in_text(text: str | None, path: Path) -> set[str]:
    """The question ids written in a file YAML cannot parse, so that one syntax error does not
    also make every answer and follow-up naming its questions an error."""
    if text is None:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return set()
    return set(_ID_LINE.findall(text))


def _raw_ids(data: Any) -> Iterable[str]:
    if isinstance(data, dict) and isinstance(data.get("questions"), list):
        for item in data["questions"]:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                yield item["id"]


def _invalid_items(doc: Document, valid: set[int]) -> list[tuple[Document, int, dict[str, Any]]]:
    """The question mappings of a file that did not validate (with their index)."""
    listed = doc.data.get("questions") if isinstance(doc.data, dict) else None
    if not isinstance(listed, list):
        return []
    return [(doc, i, item) for i, item in enumerate(listed) if i not in valid and isinstance(item, dict)]


def _check_invalid_items(
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
                problems.append(Problem(doc.file, origin.line, 0, f"duplicate question id {qid!r} (first defined at "
                                        f"{doc.file}:{line})"))
                continue
            first = f"{display_path(origin.file)}:{origin.line}" if origin else seen.get(qid)
            if first:
                problems.append(doc.problem(where, f"duplicate question id {qid!r} (first defined at {first})",
                                            f"questions[{index}].id"))
            else:
                seen[qid] = f"{doc.file}:{doc.locate(where)[0]}"
        follow_ups = item.get("follow_ups")
        for fi, target in enumerate(follow_ups if isinstance(follow_ups, list) else []):
            if isinstance(target, str) and target not in known_ids:
                hint = did_you_mean(target, known_ids)
                problems.append(doc.problem(("questions", index, "follow_ups", fi),
                                            f"follow-up {target!r} is not a question id{_sep(hint)}",
                                            f"questions[{index}].follow_ups[{fi}]"))
    return problems


def _add_category(
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


def _check_follow_ups(
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
                        doc.problem(where, f"follow-up {target!r} is not a question id{_sep(hint)}", dotted)
                    )
    return problems


def _add_answers(
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
            problems.append(doc.problem(where, f"no question with id {answer.question!r}{_sep(hint)}", dotted))
            continue
        if answer.question in bank.answers:
            first = bank.answer_origin[answer.question]
            problems.append(
                doc.problem(
                    where,
                    f"a second answer for {answer.question!r} (first at {display_path(first.file)}:{first.line})",
                    dotted,
                )
            )
            continue
        bank.answers[answer.question] = answer
        bank.answer_origin[answer.question] = Origin(path, doc.locate(("answers", index))[0])


def _sep(hint: str | None) -> str:
    return f"; {hint}" if hint else ""


# --- turning pydantic errors into located problems -------------------------------------------

_EXPECTED_TOP = {
    CategoryFile: "a mapping with category, title and questions",
    AnswersFile: "a mapping with an answers list",
}


def _validate(
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
    category = doc.data.get("category")
    header = {"category": category, "title": doc.data.get("title")} if isinstance(category, str) else None
    if model is CategoryFile and header is None:
        return None, []
    return header, items


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
        return f"unknown field {name!r}{_sep(hint)}{allowed}"
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
