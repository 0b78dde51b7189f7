"""CSV out; CSV, TSV and Anki's "Notes in Plain Text" in. One row per question, lossless.

Text cells hold the text as it is. List cells (key_points, pitfalls, tags, follow_ups) hold a
JSON list, so that no character inside a key point, alias or tag needs escaping; a key point
or pitfall is a string or ``{"text": ..., "aliases": [...], "taught": [...]}`` (the bank's
entry: each list only when it has items). A hand-written list cell that does not start with
"[" is read the simple way: items separated by ";;", a key point's aliases after "|", tags and
follow-ups separated by spaces.

Every row is checked against the bank's schema here, and every problem is reported at the
line of the file where its record starts. Nothing here prints or writes.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from prep.bank.contents import Bank
from prep.bank.schema import Question
from prep.bank.yamlsource import decode_utf8
from prep.errors import ImportInvalid, InvalidInput, Problem, UsageError, display_path
from prep.exchange.ankitext import anki_rows
from prep.exchange.rows import ImportFile, ImportRow, checked_row
from prep.suggest import did_you_mean

__all__ = ["CSV_COLUMNS", "ImportFile", "ImportRow", "parse_import", "to_csv"]

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
                _json_cell([k.entry for k in q.key_points]),
                _json_cell([p.entry for p in q.pitfalls]),
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


def _json_cell(items: list[Any]) -> str:
    return json.dumps(items, ensure_ascii=False) if items else ""


# --- in ------------------------------------------------------------------------------------


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
    delimiter = _delimiter(headers.get("separator"), body, path)
    records = _records(display, body, delimiter, header_lines + 1, problems)
    invalid_ids: set[str] = set()
    if headers:
        rows = list(anki_rows(display, records, headers, delimiter, problems))
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
    row = checked_row(
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
