"""Find, load and validate the YAML bank.

Every problem in every file is collected (not only the first) and located as
``file:line:col``, so a user fixing a bank by hand sees the whole list at once.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from prep.bank.contents import Bank
from prep.bank.crossref import (
    add_answers,
    add_category,
    add_stories,
    check_follow_ups,
    check_former_ids,
    check_invalid_items,
    check_story_references,
)
from prep.bank.messages import validate_file
from prep.bank.schema import Answer, AnswersFile, CategoryFile, Question
from prep.bank.yamlsource import MAX_FILE_BYTES, Document, PathKey, load_file, oversized, parse
from prep.errors import BankInvalid, Problem, display_path
from prep.paths import YAML_SUFFIXES, BankLocation, bank_files


def load_bank(location: BankLocation, *, read_limit: int = MAX_FILE_BYTES) -> Bank:
    """Load and validate the bank; raise BankInvalid listing every problem.

    *read_limit*: the largest file read (a command that rewrites one entry reads larger files,
    so that one grown past the limit can be shrunk; what it writes is held to the limit)."""
    bank, problems = check_bank(location, read_limit=read_limit)
    if problems:
        raise BankInvalid(problems)
    return bank


def check_bank(
    location: BankLocation,
    overrides: dict[Path, str | None] | None = None,
    *,
    read_limit: int = MAX_FILE_BYTES,
) -> tuple[Bank, list[Problem]]:
    """Load what can be loaded and return it with every problem found.

    *overrides* maps file paths to proposed new text (None: the file would be deleted), so an
    edit can be validated against the whole bank before anything is written.
    """
    # Loading allocates millions of small acyclic objects; the cyclic GC would rescan them all
    # again and again (2-3x the parse time on a 10,000-question bank) and find nothing to free.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        result = _check_bank(location, overrides, read_limit)
        gc.freeze()  # the loaded bank lives as long as the command: keep it out of later scans
        return result
    finally:
        if was_enabled:
            gc.enable()


def _check_bank(
    location: BankLocation, overrides: dict[Path, str | None] | None, read_limit: int
) -> tuple[Bank, list[Problem]]:
    overrides = {Path(p).absolute(): t for p, t in (overrides or {}).items()}
    cache = _open_cache(location) if not overrides and read_limit == MAX_FILE_BYTES else None

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
        doc, header, items, raw_ids = _load_valid(path, CategoryFile, overrides, cache, problems, read_limit)
        known_ids.update(raw_ids)
        if doc.data is None:  # a file that does not parse: its ids, read from the text, still exist
            known_ids.update(_ids_in_text(overrides.get(path), path))
        if header is not None:
            add_category(bank, header, items, path, doc, problems)
            question_files.append((doc, items))
        invalid += _invalid_items(doc, {i for i, _ in items})

    answer_files: list[tuple[Document, list[tuple[int, Answer]]]] = []
    known_stories: set[str] = set()  # story ids seen even in invalid files, as for questions
    for path in answer_paths:
        doc, header, items, raw_ids = _load_valid(path, AnswersFile, overrides, cache, problems, read_limit)
        known_stories.update(raw_ids)
        if doc.data is None:
            known_stories.update(_ids_in_text(overrides.get(path), path))
        add_answers(bank, items, path, doc, known_ids, problems)
        add_stories(bank, header["stories"] if header else [], path, doc, problems)
        answer_files.append((doc, items))

    problems += check_story_references(answer_files, known_stories)
    problems += check_follow_ups(question_files, known_ids)
    problems += check_former_ids(question_files, known_ids)
    problems += check_invalid_items(bank, invalid, known_ids)
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
    wanted: list[PathKey] = [("category",), (list_key,), ("stories",)]
    field = "id" if list_key == "questions" else "question"
    for i in range(count):
        wanted += [(list_key, i), (list_key, i, field)]
        for name in ("follow_ups", "formerly", "stories"):
            j = 0
            while (list_key, i, name, j) in doc.positions:
                wanted.append((list_key, i, name, j))
                j += 1
    i = 0
    while ("stories", i) in doc.positions:  # an answers file's stories: where each is defined
        wanted += [("stories", i), ("stories", i, "id")]
        i += 1
    return [[list(k), *doc.positions[k]] for k in wanted if k in doc.positions]


def _load_valid(
    path: Path,
    model: type[BaseModel],
    overrides: dict[Path, str | None],
    cache: Any,
    problems: list[Problem],
    read_limit: int = MAX_FILE_BYTES,
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
        # What would be written must load again: a text over the limit is refused, not parsed.
        too_big = oversized({path: overrides[path]})
        doc = Document(display, problems=too_big) if too_big else parse(overrides[path] or "", display)
    else:
        if cache is not None:
            payload = cache.get(path, read)
            if payload is not None:
                doc = Document(display, positions={tuple(k): (l, c) for k, l, c in payload["positions"]})
                items = [(i, item_model.model_validate(d)) for i, d in payload["items"]]
                return doc, payload["header"], items, _cached_ids(model, items, payload["header"])
            read()
        doc = load_file(path, display, raw, read_limit)
    if doc.empty and model is not CategoryFile:
        # An answers file not yet written in (a comment saying what goes there) has no answers.
        doc.problems, doc.data = [], {"answers": []}
    problems += doc.problems
    before = len(problems)
    header, items = validate_file(doc, model, problems)
    raw_ids = list(_raw_ids(doc.data, "questions" if model is CategoryFile else "stories"))
    if (
        cache is not None
        and raw is not None
        and not doc.problems
        and len(problems) == before
        and header is not None
    ):
        from prep.bank.cache import IndexRow

        list_key = "questions" if model is CategoryFile else "answers"
        raw_items = doc.data.get(list_key) or []
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


def _cached_ids(model: type[BaseModel], items: list[tuple[int, Any]], header: dict[str, Any]) -> list[str]:
    """The ids a cached file defines: its questions', or an answers file's stories'."""
    if model is CategoryFile:
        return [q.id for _, q in items]
    return [story["id"] for _, story in header["stories"]]


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


def _raw_ids(data: Any, list_key: str) -> Iterable[str]:
    """The ids of the questions (or stories) of a file, valid or not."""
    if isinstance(data, dict) and isinstance(data.get(list_key), list):
        for item in data[list_key]:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                yield item["id"]


def _invalid_items(doc: Document, valid: set[int]) -> list[tuple[Document, int, dict[str, Any]]]:
    """The question mappings of a file that did not validate (with their index)."""
    listed = doc.data.get("questions") if isinstance(doc.data, dict) else None
    if not isinstance(listed, list):
        return []
    return [(doc, i, item) for i, item in enumerate(listed) if i not in valid and isinstance(item, dict)]
