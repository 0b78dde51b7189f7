"""Selecting questions by category, tag and kind: shared by list, drill, stats and export.

Works on a loaded bank or on cached index rows (``select_rows``), so `prep next` needs no pydantic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from prep.bank.naming import KINDS
from prep.errors import CommandLineError, NotFound
from prep.suggest import did_you_mean

if TYPE_CHECKING:  # annotations only: filtering cache rows must not import pydantic
    from prep.bank.contents import Bank
    from prep.bank.schema import Question


def select(
    bank: Bank,
    *,
    categories: Sequence[str] = (),
    tags: Sequence[str] = (),
    kinds: Sequence[str] = (),
) -> list[Question]:
    """Questions matching every given filter (any of several values of one filter), in bank order."""
    for category in categories:
        if category not in bank.categories:
            hint = did_you_mean(category, bank.categories) or f"categories: {', '.join(bank.categories)}"
            raise NotFound(f"no category {category!r}", hint=hint)
    for kind in kinds:
        if kind not in KINDS:
            raise CommandLineError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
    wanted_tags = {t.lower() for t in tags}
    if wanted_tags:
        _check_tags(wanted_tags, {t.lower() for q in bank.questions.values() for t in q.tags})
    return [
        q
        for q in bank.questions.values()
        if (not categories or bank.category_of[q.id] in categories)
        and (not kinds or q.kind in kinds)
        and (not wanted_tags or wanted_tags & {t.lower() for t in q.tags})
    ]


def select_rows(rows, *, categories: Sequence[str] = (), tags: Sequence[str] = (), kinds: Sequence[str] = ()):  # type: ignore[no-untyped-def]
    """The same filters as ``select``, over cache index rows (no bank needed)."""
    known = {r.category for r in rows}
    for category in categories:
        if category not in known:
            raise NotFound(
                f"no category {category!r}",
                hint=did_you_mean(category, known) or f"categories: {', '.join(sorted(known))}",
            )
    for kind in kinds:
        if kind not in KINDS:
            raise CommandLineError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
    wanted_tags = {t.lower() for t in tags}
    if wanted_tags:  # the known tags are only needed to name a typo
        _check_tags(wanted_tags, {t.lower() for r in rows for t in r.tags})
    return [
        r
        for r in rows
        if (not categories or r.category in categories)
        and (not kinds or r.kind in kinds)
        and (not wanted_tags or wanted_tags & {t.lower() for t in r.tags})
    ]


def _check_tags(wanted: set[str], known: set[str]) -> None:
    """A tag no question has is a typo, not an empty selection (as for categories)."""
    for tag in sorted(wanted - known):
        raise NotFound(
            f"no question is tagged {tag!r}", hint=did_you_mean(tag, known) or "see `prep list` for tags"
        )
