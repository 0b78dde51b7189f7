"""CSV out; CSV, TSV and Anki's "Notes in Plain Text" in. One row per question, lossless.

Text cells hold the text as it is. List cells (key_points, pitfalls, tags, follow_ups) hold a
JSON list, so that no character inside a key point, alias or tag needs escaping; a key point
or pitfall is a string or ``{"text": ..., "aliases": [...]}``. A hand-written list cell that
does not start with "[" is read the simple way: items separated by ";;", a key point's aliases
after "|", tags and follow-ups separated by spaces.

Every row is checked against the bank's schema here, and every problem is reported at the
line of the file where its record starts. Nothing here prints or writes.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from prep.bank.loaded import Bank
from prep.bank.messages import dotted_path, validation_message
from prep.bank.schema import Claim, Question
from prep.bank.yamlsource import decode_utf8
from prep.errors import ImportInvalid, InvalidInput, Problem, UsageError, display_path
from prep.suggest import did_you_mean

CSV_COLUMNS = (
    "id",
    "category",
    "prompt",
    "key_points",
    "pitfalls",
    "answer",
    "tags",
    "kind",
    "difficulty",
    "target_seconds",
    "answer_source",
    "follow_ups",
    "notes",
    "formerly",
    "category_title",
)
ANSWER_SOURCES = ("own", "model")


# --- out -----------------------------------------------------------------------------------


def to_csv(bank: Bank, questions: Sequence[Question], delimiter: str = ",") -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for q in questions:
        answer = bank.answers.get(q.id)
        category = bank.category(q.id)
        writer.writerow(
            [
                q.id,
                category.id,
                q.prompt,
                _json_cell([claim_value(k) for k in q.key_points]),
                _json_cell([claim_value(p) for p in q.pitfalls]),
                answer.answer if answer else "",
                _json_cell(list(q.tags)),
                q.kind,
                q.difficulty,
                q.target_seconds,
                answer.source if answer else "",
                _json_cell(list(q.follow_ups)),
                q.notes or "",
                _json_cell(list(q.formerly)),
                category.title,
            ]
        )
    return buffer.getvalue()


def claim_value(claim: Claim) -> str | dict[str, Any]:
    """A key point or pitfall as the bank writes it: plain text unless it has aliases."""
    return {"text": claim.text, "aliases": list(claim.aliases)} if claim.aliases else claim.text


def _json_cell(items: list[Any]) -> str:
    return json.dumps(items, ensure_ascii=False) if items else ""


# --- in ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportRow:
    """One record of an import file, checked against the schema (an empty prompt is not checked:
    such rows are skipped)."""

    line: int  # physical line of the file where the record starts
    prompt: str
    answer: str = ""
    answer_source: str = "own"
    key_points: tuple[str | dict[str, Any], ...] = ()
    pitfalls: tuple[str | dict[str, Any], ...] = ()
    tags: tuple[str, ...] = ()
    kind: str = "technical"
    difficulty: int = 2
    target_seconds: int = 60
    follow_ups: tuple[str, ...] = ()
    notes: str | None = None
    formerly: tuple[str, ...] = ()
    id: str | None = None
    category: str | None = None
    category_title: str | None = None


@dataclass(frozen=True)
class ImportFile:
    file: str  # as shown in messages
    rows: list[ImportRow]  # the valid ones
    problems: list[Problem]  # of the others, each at its line: the import is refused when there are any
    invalid_ids: frozenset[str] = frozenset()  # ids of the rows with problems


def parse_import(path: Path) -> ImportFile:
    """The rows of a CSV/TSV file with a header row, or of Anki's "Notes in Plain Text" export,
    with the problems of the rows that are not valid (``import_rows`` reports them together with
    what it finds against the bank).

    Raises UsageError when the file as a whole is not something prep can import (unreadable,
    no header). A header with unknown or missing columns is an InvalidInput at its line.
    """
    display = display_path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{display}: cannot read: {exc.strerror or exc}") from None
    raw, problems = decode_utf8(data, display)
    if raw is None:  # a problem of the input, at its line, like a bank file's
        raise ImportInvalid(display, problems)
    stream = io.StringIO(raw, newline="")  # newline="": line ends inside quoted cells stay as written
    headers, header_lines = _anki_headers(stream)
    body = stream.read()
    problems: list[Problem] = []
    records = _records(
        display, body, _delimiter(headers.get("separator"), body, path), header_lines + 1, problems
    )
    invalid_ids: set[str] = set()
    if headers:
        rows = list(_anki_rows(display, records, headers, problems))
    else:
        rows = list(_csv_rows(display, records, problems, invalid_ids))
    return ImportFile(display, rows, problems, frozenset(invalid_ids))


def _anki_headers(stream: io.StringIO) -> tuple[dict[str, str], int]:
    """Anki's file headers (``#separator:tab``, ``#guid column:1`` ...) and how many lines they take."""
    headers: dict[str, str] = {}
    count = 0
    while True:
        position = stream.tell()
        line = stream.readline()
        if not (line.startswith("#") and ":" in line):
            stream.seek(position)
            return headers, count
        key, _, value = line[1:].partition(":")
        headers[key.strip().lower()] = value.strip()
        count += 1


def _records(
    display: str, body: str, delimiter: str, first_line: int, problems: list[Problem]
) -> Iterator[tuple[int, list[str]]]:
    """Non-blank records with the physical line where each starts (cells may span lines); a
    record that is not valid CSV is a problem, and ends the file."""
    # strict: a quote opened and never closed is an error, not a cell that swallows the rest.
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter, strict=True)
    consumed = 0
    while True:
        start = first_line + consumed
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            reason = (
                "a quoted cell starts here and is never closed"
                if "end of data" in str(exc)
                else f"not valid CSV: {exc}"
            )
            problems.append(Problem(display, start, 0, reason))
            return
        consumed = reader.line_num
        if any(cell.strip() for cell in cells):
            yield start, cells


def _delimiter(declared: str | None, body: str, path: Path) -> str:
    names = {"tab": "\t", "comma": ",", "semicolon": ";", "pipe": "|", "space": " ", "colon": ":"}
    if declared:
        return names.get(declared.lower(), declared[:1])
    if path.suffix.lower() in (".tsv", ".tab"):
        return "\t"
    first = body.split("\n", 1)[0]
    return "\t" if first.count("\t") > first.count(",") else ","


def _csv_rows(
    display: str, records: Iterator[tuple[int, list[str]]], problems: list[Problem], invalid_ids: set[str]
) -> Iterator[ImportRow]:
    names = _csv_header(display, records)
    for line, cells in records:
        values = {name: cells[i].strip() if i < len(cells) else "" for i, name in enumerate(names)}
        if any(cell.strip() for cell in cells[len(names) :]):
            problems.append(
                Problem(display, line, 0, f"{len(cells)} cells, but the header has {len(names)} columns")
            )
            row = None
        else:
            row = _csv_row(display, line, values, problems)
        if row is not None:
            yield row
        elif values.get("id"):
            invalid_ids.add(values["id"])


def _csv_header(display: str, records: Iterator[tuple[int, list[str]]]) -> list[str]:
    """The column names of the header row: 'prompt' and any of CSV_COLUMNS, in any order."""
    header_line, header = next(records, (1, None))
    if header is None:
        raise ImportInvalid(
            display,
            [
                Problem(
                    display,
                    1,
                    0,
                    "the file is empty: expected a header row naming the columns (at least 'prompt')",
                )
            ],
        )
    names = [h.strip().lower() for h in header]
    # A header the import cannot use is a problem of the input file (exit code 2), at its line.
    problems = []
    if "prompt" not in names:
        problems.append(
            Problem(
                display,
                header_line,
                0,
                f"a header row with a 'prompt' column is required (columns: {', '.join(CSV_COLUMNS)})",
            )
        )
    for name in dict.fromkeys(names):
        if name not in CSV_COLUMNS:
            hint = did_you_mean(name, CSV_COLUMNS) or f"columns: {', '.join(CSV_COLUMNS)}"
            problems.append(Problem(display, header_line, 0, f"unknown column {name!r}; {hint}"))
        elif names.count(name) > 1:
            problems.append(Problem(display, header_line, 0, f"column {name!r} appears twice"))
    if problems:
        raise InvalidInput(problems)
    return names


def _csv_row(display: str, line: int, values: dict[str, str], problems: list[Problem]) -> ImportRow | None:
    """One record, or None when it has problems (added to *problems*)."""
    if not values["prompt"]:
        return ImportRow(line, "")  # skipped, and reported as such
    fields: dict[str, Any] = {"prompt": values["prompt"]}
    row_problems: list[Problem] = []
    for name in ("key_points", "pitfalls"):
        fields[name] = _list_cell(display, line, name, values.get(name, ""), _claims_cell, row_problems)
    fields["tags"] = _list_cell(display, line, "tags", values.get("tags", ""), str.split, row_problems)
    for name in ("follow_ups", "formerly"):
        fields[name] = _list_cell(
            display, line, name, values.get(name, ""), lambda s: re.split(r"[\s,]+", s.strip()), row_problems
        )
    for name, default in (("kind", "technical"), ("difficulty", 2), ("target_seconds", 60)):
        fields[name] = values.get(name) or default
    fields["notes"] = values.get("notes") or None
    source = values.get("answer_source") or "own"
    if source not in ANSWER_SOURCES:
        row_problems.append(Problem(display, line, 0, f"{source!r} is not 'own' or 'model'", "answer_source"))
    if row_problems:
        problems += row_problems
        return None
    row = _checked(
        display, line, fields, values.get("answer", ""), source, values.get("id") or None, problems
    )
    if row is None:
        return None
    return replace(
        row, category=values.get("category") or None, category_title=values.get("category_title") or None
    )


def _list_cell(
    display: str, line: int, column: str, cell: str, simple: Any, problems: list[Problem]
) -> list[Any]:
    """A JSON list when the cell starts with "[", else the simple hand-written form."""
    if not cell.startswith("["):
        return [item for item in simple(cell) if item != ""] if cell else []
    try:
        value = json.loads(cell)
    except json.JSONDecodeError as exc:
        problems.append(
            Problem(display, line, 0, f"a cell starting with '[' must be a JSON list: {exc}", column)
        )
        return []
    if not isinstance(value, list):
        problems.append(Problem(display, line, 0, "a cell starting with '[' must be a JSON list", column))
        return []
    return value


def _claims_cell(cell: str) -> list[Any]:
    """'text | alias ;; text' (the hand-written form) -> key points or pitfalls."""
    result: list[Any] = []
    for item in cell.split(";;"):
        if item.strip():
            text, *aliases = (part.strip() for part in item.split("|"))
            aliases = [a for a in aliases if a]
            result.append({"text": text, "aliases": aliases} if aliases else text)
    return result


def _checked(
    display: str,
    line: int,
    fields: dict[str, Any],
    answer: str,
    source: str,
    qid: str | None,
    problems: list[Problem],
) -> ImportRow | None:
    """The row checked against the bank's schema: each problem as FILE:LINE: column: message."""
    if not fields["prompt"].strip():
        return ImportRow(line, "")  # skipped later, and reported as such
    try:
        q = Question.model_validate({**fields, "id": qid or "placeholder"})
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            problems.append(
                Problem(display, line, 0, validation_message(error, Question), dotted_path(error["loc"]))
            )
        return None
    return ImportRow(
        line,
        q.prompt,
        answer.strip(),
        source,
        tuple(claim_value(k) for k in q.key_points),
        tuple(claim_value(p) for p in q.pitfalls),
        q.tags,
        q.kind,
        q.difficulty,
        q.target_seconds,
        q.follow_ups,
        q.notes,
        q.formerly,
        qid,
    )


# --- Anki ----------------------------------------------------------------------------------

ANKI_META_COLUMNS = ("guid", "notetype", "deck", "tags")


def _anki_rows(
    display: str, records: Iterator[tuple[int, list[str]]], headers: dict[str, str], problems: list[Problem]
) -> Iterator[ImportRow]:
    """Notes: the first field is the prompt, the second the answer. Columns named by the headers
    (``#guid column:1``, ``#notetype column:2``, ``#deck column:3``, ``#tags column:6``, counted
    from 1) are not fields; ``#tags:`` adds tags to every note."""
    is_html = headers.get("html", "false").lower() == "true"
    meta: dict[str, int] = {}
    for name in ANKI_META_COLUMNS:
        value = headers.get(f"{name} column")
        if value is None:
            continue
        if not value.isdigit() or int(value) < 1:
            raise UsageError(f"{display}: '#{name} column:{value}' must name a column by its number, from 1")
        meta[name] = int(value) - 1
    common_tags = headers.get("tags", "").split()
    for line, cells in records:
        note_fields = [cell for i, cell in enumerate(cells) if i not in meta.values()]
        if len(note_fields) < 2:
            problems.append(Problem(display, line, 0, "expected at least a front and a back field"))
            continue
        front, back = (_strip_html(f) if is_html else f.strip() for f in note_fields[:2])
        tags = cells[meta["tags"]].split() if "tags" in meta and meta["tags"] < len(cells) else []
        fields = {"prompt": front, "tags": list(dict.fromkeys(common_tags + tags))}
        row = _checked(display, line, fields, back, "own", None, problems)
        if row is not None:
            yield row


def _strip_html(text: str) -> str:
    # Anki writes lines as "keys<div>per layer</div>": a block's start or end is a line break,
    # and one block ending where the next starts is one break, not two.
    text = re.sub(r"(?i)</(p|div|li)>\s*<(p|div|li)(\s[^>]*)?>", "\n", text)
    text = re.sub(r"(?i)<br\s*/?>|</?(p|div|li)(\s[^>]*)?>", "\n", text)
    return html.unescape(re.sub(r"<[^>]+>", "", text)).replace("\xa0", " ").strip()
