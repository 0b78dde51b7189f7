"""Anki's "Notes in Plain Text" export, read the way Anki reads it.

Header lines say how: ``#separator:``, ``#html:true``, ``#tags:`` (added to every note),
``#guid column:``, ``#notetype column:``, ``#deck column:``, ``#tags column:`` (numbered from
1), ``#notetype:`` (the note type of every note) and ``#columns:`` (a label for each column).
A note of prep's own type (named so, labelled so, or, when the file names no note types, one
with prep's five fields ending in an id; without HTML, only one whose Id the bank has) is read
field by field and updates the question its Id names; any other note gives its first field as
the prompt and its second as the answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from prep.errors import Problem, UsageError
from prep.exchange.ankinote import FIELDS, MODEL_NAME, PrepNote, looks_like_prep_note, text_of
from prep.exchange.rows import ImportRow, checked_row

META_COLUMNS = ("guid", "notetype", "deck", "tags")


@dataclass(frozen=True)
class _Layout:
    html: bool
    meta: dict[str, int]  # metadata columns, from 0
    labels: dict[str, int]  # prep's fields by the "#columns:" labels, from 0
    notetype: str | None  # "#notetype:", the note type of every note
    tags: list[str]  # "#tags:", added to every note

    def is_prep(self, cells: list[str], fields: list[str]) -> bool:
        if self.labels:
            return True
        column = self.meta.get("notetype")
        named = cells[column].strip() if column is not None and column < len(cells) else self.notetype
        if named is not None:
            return named.startswith(MODEL_NAME)  # Anki adds a suffix to a note type it had to copy
        return looks_like_prep_note(fields, self.html)

    def note(self, cells: list[str], fields: list[str]) -> PrepNote:
        if self.labels:
            by_name = {name: cells[i] if i < len(cells) else "" for name, i in self.labels.items()}
        else:
            by_name = dict(zip(FIELDS, fields, strict=False))
        tags = tuple(self.tags_of(cells)) if "tags" in self.meta else None
        named = self.labels or "notetype" in self.meta or self.notetype is not None
        return PrepNote(by_name.get("Id", "").strip(), by_name, self.html, tags, not (named or self.html))

    def tags_of(self, cells: list[str]) -> list[str]:
        column = self.meta.get("tags")
        own = cells[column].split() if column is not None and column < len(cells) else []
        return list(dict.fromkeys(self.tags + own))


def _layout(display: str, headers: dict[str, str], delimiter: str) -> _Layout:
    meta: dict[str, int] = {}
    for name in META_COLUMNS:
        value = headers.get(f"{name} column")
        if value is None:
            continue
        if not value.isdigit() or int(value) < 1:
            raise UsageError(f"{display}: '#{name} column:{value}' must name a column by its number, from 1")
        meta[name] = int(value) - 1
    labels = [label.strip().casefold() for label in headers.get("columns", "").split(delimiter)]
    by_label = {name: labels.index(name.casefold()) for name in FIELDS if name.casefold() in labels}
    return _Layout(
        headers.get("html", "false").lower() == "true",
        meta,
        by_label if {"Id", "Prompt"} <= set(by_label) else {},
        headers.get("notetype"),
        headers.get("tags", "").split(),
    )


def anki_rows(
    display: str,
    records: Iterator[tuple[int, list[str]]],
    headers: dict[str, str],
    delimiter: str,
    problems: list[Problem],
) -> Iterator[ImportRow]:
    """The notes of the file as rows; a note of prep's type carries itself (``ImportRow.note``),
    to be read against the bank by the import."""
    layout = _layout(display, headers, delimiter)
    for line, cells in records:
        fields = [cell for i, cell in enumerate(cells) if i not in layout.meta.values()]
        if layout.is_prep(cells, fields):
            note = layout.note(cells, fields)
            prompt, answer = (
                text_of(note.fields.get(name, ""), layout.html) for name in ("Prompt", "Answer")
            )
            values = {"prompt": prompt, "tags": list(note.tags or ())}
            row = checked_row(display, line, values, answer, "own", note.id or None, problems)
            if row is not None:
                yield replace(row, note=note)
            continue
        if len(fields) < 2:
            problems.append(Problem(display, line, 0, "expected at least a front and a back field"))
            continue
        front, back = (text_of(f, layout.html) for f in fields[:2])
        values = {"prompt": front, "tags": layout.tags_of(cells)}
        row = checked_row(display, line, values, back, "own", None, problems)
        if row is not None:
            yield row
