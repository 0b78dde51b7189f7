"""Anki packages (.apkg): a deck per category under 'prep', stable ids so re-imports update."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from prep.bank.contents import Bank
from prep.bank.schema import Question
from prep.exchange.ankinote import CSS, FIELDS, MODEL_NAME, anki_tag, note_fields

ANKI_ROOT_DECK = "prep"


def _stable_id(name: str) -> int:
    """Anki ids must be stable across exports so re-imports update instead of duplicating."""
    return int(hashlib.sha256(name.encode()).hexdigest()[:12], 16) % (1 << 31) + (1 << 30)


def note_guid(question: Question) -> str:
    """The Anki note's GUID: from the id the question was created with, so that a question
    renamed with `prep mv` (which keeps its old ids in ``formerly``) updates the same note."""
    import genanki

    return genanki.guid_for("prep", question.first_id)


def anki_package(bank: Bank, questions: Sequence[Question], path: Path) -> int:
    """Write an .apkg: one subdeck per category under 'prep', GUIDs from question ids (the first
    one a question had), the Id field showing the current one."""
    import genanki

    model = genanki.Model(
        _stable_id("prep-question-model-v1"),
        MODEL_NAME,
        fields=[{"name": name} for name in FIELDS],
        templates=[
            {
                "name": "Recall",
                "qfmt": "<div class=prompt>{{Prompt}}</div>",
                "afmt": "{{FrontSide}}<hr id=answer>{{KeyPoints}}"
                "{{#Answer}}<div class=answer>{{Answer}}</div>{{/Answer}}"
                "{{#Pitfalls}}<div class=pitfalls><b>Don't say:</b>{{Pitfalls}}</div>{{/Pitfalls}}",
            }
        ],
        css=CSS,
    )
    decks: dict[str, genanki.Deck] = {}
    for q in questions:
        category = bank.category(q.id)
        name = f"{ANKI_ROOT_DECK}::{category.title}"
        deck = decks.get(name)
        if deck is None:
            deck = decks[name] = genanki.Deck(_stable_id(f"deck:{category.id}"), name)
        deck.add_note(
            genanki.Note(
                model=model,
                fields=note_fields(q, bank.answer_text(q.id)),
                tags=list(dict.fromkeys(anki_tag(t) for t in (category.id, *q.tags))),
                guid=note_guid(q),
            )
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")  # never leave a half-written package
    try:
        _write_package(genanki.Package(list(decks.values())), partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return len(questions)


def _write_package(package, path: Path) -> None:  # type: ignore[no-untyped-def]
    """genanki's write_to_file, with its scratch collection in a directory that is removed
    afterwards (write_to_file leaves one the size of the deck in $TMPDIR on every export)."""
    import itertools
    import json
    import sqlite3
    import tempfile
    import time
    import zipfile

    with tempfile.TemporaryDirectory(prefix="prep-anki-") as scratch:
        collection = Path(scratch) / "collection.anki2"
        db = sqlite3.connect(collection)
        try:
            now = time.time()
            package.write_to_db(db.cursor(), now, itertools.count(int(now * 1000)))
            db.commit()
        finally:
            db.close()
        with zipfile.ZipFile(path, "w") as archive:
            archive.write(collection, "collection.anki2")
            archive.writestr("media", json.dumps({}))
