"""The question index: id, category, kind, tags and prompt of every question, in bank order.

What `prep next` and `prep stats` need, served from the parsed-bank cache without touching YAML
or pydantic when the bank has not changed since it last validated.
"""

from __future__ import annotations

from pathlib import Path

from prep.bank.cache import BankCache, IndexRow, cache_enabled
from prep.paths import BankLocation, bank_files


def question_index(location: BankLocation) -> list[IndexRow]:
    """(id, category, kind, tags, prompt) of every question, in bank order.

    Served from the cache without touching YAML or pydantic when nothing changed; otherwise
    the bank is loaded (and validated, raising BankInvalid) and the cache refreshed.
    """
    if cache_enabled():
        cache = BankCache(location)
        try:
            index = cache.fresh_index(_files(location))
        finally:
            cache.close()
        if index is not None:
            return index
    from prep.bank.load import load_bank  # pydantic and YAML: only when the cache cannot answer

    return index_of(load_bank(location))


def completions(location: BankLocation, column: str, prefix: str) -> list[tuple[str, str]]:
    """What Tab completes: (id, prompt) of the questions whose id starts with *prefix* (*column*
    "id"), or (category, title) of the categories that do ("category"), in bank order. From
    the cache alone when the bank is unchanged; else from the index (loading the bank)."""
    if cache_enabled():
        cache = BankCache(location)
        try:
            found = cache.fresh_matches(_files(location), column, prefix)
        finally:
            cache.close()
        if found is not None:
            return found
    rows = question_index(location)
    if column == "id":
        return [(row.id, row.prompt) for row in rows if row.id.startswith(prefix)]
    titles: dict[str, str] = {}
    for row in rows:
        if row.category.startswith(prefix):
            titles.setdefault(row.category, row.category_title)
    return list(titles.items())


def _files(location: BankLocation) -> list[Path]:
    return [p.absolute() for p in bank_files(location.questions) + bank_files(location.answers)]


def index_of(bank) -> list[IndexRow]:  # type: ignore[no-untyped-def]
    return [
        IndexRow.of(q, bank.category_of[q.id], bank.categories[bank.category_of[q.id]].title)
        for q in bank.questions.values()
    ]
