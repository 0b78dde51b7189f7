"""prep's Anki note: its fields as `prep export anki` writes them, and as they come back from
Anki's "Notes in Plain Text" export.

A note has the fields Prompt, KeyPoints, Answer, Pitfalls and Id. Text is HTML-escaped with line
breaks as ``<br>``; key points and pitfalls are a ``<ul>`` list, each item followed by its
aliases in a nested ``<ul class=aliases>`` and its taught phrasings (the user's own words, not
the bank's) in a nested ``<ul class=taught>``, both hidden on the card. Anki exports a field as
that HTML, or, without HTML, as one line of text: tags removed, line breaks and list items run
together. A field that comes back as prep wrote it, or as prep wrote it before notes carried
taught phrasings, keeps the bank's value exactly.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from prep.bank.naming import ID_PATTERN
from prep.bank.schema import Claim, Question, claim_entry

MODEL_NAME = "prep question"
FIELDS = ("Prompt", "KeyPoints", "Answer", "Pitfalls", "Id")
CSS = (
    ".card{font-family:sans-serif;font-size:18px;text-align:left}.pitfalls{color:#a33}"
    ".aliases{display:none}.taught{display:none}"
)
NESTED = ("aliases", "taught")  # the lists under a key point or pitfall, by their class
# The nested lists of notes as prep writes them, and as it wrote them before they carried taught
# phrasings: a field as either comes back unchanged.
WRITTEN = (NESTED, ("aliases",))


# --- out -----------------------------------------------------------------------------------


def html_text(text: str) -> str:
    return html.escape(text).replace("\n", "<br>")  # a line break in the bank is one on the card


def html_claims(claims: Sequence[Claim], nested: Sequence[str] = NESTED) -> str:
    """A ``<ul>`` of the claims, each with its *nested* lists that have items."""
    items = []
    for claim in claims:
        lists = "".join(
            f"<ul class={kind}>{''.join(f'<li>{html_text(p)}</li>' for p in phrasings)}</ul>"
            for kind in nested
            if (phrasings := getattr(claim, kind))
        )
        items.append(f"<li>{html_text(claim.text)}{lists}</li>")
    return f"<ul>{''.join(items)}</ul>" if items else ""


def note_fields(question: Question, answer: str | None) -> list[str]:
    """The note's fields, in the order of FIELDS."""
    return [
        html_text(question.prompt),
        html_claims(question.key_points),
        html_text(answer or ""),
        html_claims(question.pitfalls),
        question.id,
    ]


def anki_tag(tag: str) -> str:
    return re.sub(r"\s+", "_", tag.strip())  # an Anki tag has no spaces


# --- in ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrepNote:
    """One of prep's notes read from Anki's text export."""

    id: str
    fields: dict[str, str]  # by name, as exported: HTML, or Anki's one line of text
    html: bool
    tags: tuple[str, ...] | None = None  # None: the file has no tags column
    # Taken for prep's by its shape alone, in a file without HTML: when its Id names no question,
    # it may as well be another note type's, and is read as a front and a back.
    guessed: bool = False


class NoteError(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def looks_like_prep_note(note_fields: Sequence[str], is_html: bool) -> bool:
    """Five fields, the last an id and, in HTML, the lists empty or lists: prep's note type when
    the file does not name note types."""
    if len(note_fields) != len(FIELDS) or not re.fullmatch(ID_PATTERN, note_fields[4].strip()):
        return False
    return not is_html or all(not f.strip() or f.lstrip().startswith("<ul") for f in note_fields[1:4:2])


def text_of(field: str, is_html: bool) -> str:
    return strip_html(field) if is_html else field.strip()


def strip_html(text: str) -> str:
    # Anki writes lines as "keys<div>per layer</div>": a block's start or end is a line break,
    # and one block ending where the next starts is one break, not two.
    text = re.sub(r"(?i)</(p|div|li)>\s*<(p|div|li)(\s[^>]*)?>", "\n", text)
    text = re.sub(r"(?i)<br\s*/?>|</?(p|div|li)(\s[^>]*)?>", "\n", text)
    return html.unescape(re.sub(r"<[^>]+>", "", text)).replace("\xa0", " ").strip()


def note_values(
    note: PrepNote, question: Question | None, answer: str | None, category: str
) -> dict[str, Any]:
    """What the note says of its question, as bank values: prompt, key_points, pitfalls, tags
    and answer (None: the note's is empty, the bank's stays). *question* is the bank's (None
    for a new one), *category* the one it is in or goes to. Raises NoteError for a list edited
    in an export without HTML, whose items cannot be told apart."""
    values: dict[str, Any] = {}
    for key, name, current in (
        ("prompt", "Prompt", question and question.prompt),
        ("answer", "Answer", answer),
    ):
        raw = note.fields.get(name, "")
        values[key] = (
            current if current is not None and _unchanged(raw, html_text(current), note.html) else None
        )
        if values[key] is None:
            values[key] = text_of(raw, note.html) or None
    for key, name in (("key_points", "KeyPoints"), ("pitfalls", "Pitfalls")):
        values[key] = _claims(note, name, getattr(question, key) if question else ())
    values["tags"] = _tags(note.tags, question, category)
    return values


def _unchanged(raw: str, rendering: str, is_html: bool) -> bool:
    if is_html:
        return raw == rendering
    squash = re.compile(r"\s+")
    return squash.sub("", raw) == squash.sub("", plain_line(rendering))


def plain_line(field: str) -> str:
    """What Anki's export without HTML makes of a field: line breaks and blocks become spaces,
    tags go, entities are decoded."""
    text = re.sub(r"(?i)<br\s*/?>|<div>|\n", " ", field)
    return html.unescape(re.sub(r"<[^>]*>", "", text)).strip()


def _claims(note: PrepNote, name: str, current: Sequence[Claim]) -> tuple[Any, ...]:
    raw = note.fields.get(name, "")
    if current and any(_unchanged(raw, html_claims(current, nested), note.html) for nested in WRITTEN):
        return tuple(c.entry for c in current)
    if not note.html:
        if raw.strip():
            raise NoteError(
                name,
                "Anki wrote the notes without HTML, which runs a list's items together, and this list "
                "was changed: export with HTML ('Include HTML and media references') to bring it back",
            )
        return ()
    # An item without an aliases or taught list (an older export, or a list deleted in Anki's
    # editor) keeps what the bank has for its text: what the user taught is not lost that way.
    known = {c.text: c for c in current}
    entries = []
    for text, lists in _items(raw):
        aliases, taught = (lists.get(kind, getattr(known.get(text), kind, ())) for kind in NESTED)
        entries.append(claim_entry(text, aliases, taught))
    return tuple(entries)


def _tags(tags: tuple[str, ...] | None, question: Question | None, category: str) -> tuple[str, ...]:
    """The note's tags as the bank's: a tag prep wrote with underscores for spaces is the bank's
    tag again, the bank's order is kept, and the tag naming the category (which prep adds to
    every note) is left out."""
    own = question.tags if question else ()
    if tags is None:
        return own
    by_anki = {anki_tag(t): t for t in own}
    kept = [t for t in own if anki_tag(t) in tags]
    return tuple(kept + [t for t in dict.fromkeys(tags) if t not in by_anki and t != category])


def _items(field: str) -> list[tuple[str, dict[str, tuple[str, ...]]]]:
    """The items of a list field, each with the nested lists it has (its aliases, its taught
    phrasings) by class; a field that is not a list has an item per line."""
    parser = _ListParser()
    parser.feed(field)
    parser.close()
    if not parser.items:
        return [(line.strip(), {}) for line in strip_html(field).splitlines() if line.strip()]
    return [(text, lists) for text, lists in parser.result() if text]


class _ListParser(HTMLParser):
    """Top-level <li> items of a field, and the items of the lists of NESTED (by their class)
    inside each."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[list[str], dict[str, list[str]]]] = []  # text, nested lists by class
        self.depth = 0  # of open lists
        self.nested: str | None = None  # the class of the nested list being read
        self.nested_depth = 0  # its depth, 0 when outside one

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("ul", "ol"):
            self.depth += 1
            kind = next((c for c in (dict(attrs).get("class") or "").split() if c in NESTED), None)
            if self.depth == 2 and self.items and kind and self.nested is None:
                self.nested, self.nested_depth = kind, self.depth
                self.items[-1][1].setdefault(kind, [])
        elif tag == "li" and self.depth == 1:
            self.items.append(([], {}))
        elif tag == "li" and self.nested and self.depth == self.nested_depth:
            self.items[-1][1][self.nested].append("")
        elif tag in ("br", "div", "p", "li") and self.items:
            self._text("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("ul", "ol"):
            if self.depth == self.nested_depth:
                self.nested, self.nested_depth = None, 0
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        self._text(data)

    def _text(self, data: str) -> None:
        if not self.items or self.depth == 0:
            return
        text, nested = self.items[-1]
        if self.nested is None:
            text.append(data)
        elif nested[self.nested]:
            nested[self.nested][-1] += data

    def result(self) -> list[tuple[str, dict[str, tuple[str, ...]]]]:
        def clean(text: str) -> str:
            lines = (" ".join(line.replace("\xa0", " ").split()) for line in text.split("\n"))
            return "\n".join(line for line in lines if line)

        return [
            (
                clean("".join(text)),
                {kind: tuple(e for e in map(clean, entries) if e) for kind, entries in nested.items()},
            )
            for text, nested in self.items
        ]
