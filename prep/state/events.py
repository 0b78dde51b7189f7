"""Event ids: what makes a review, a practice answer, a teaching or an undo the same event
wherever it travels (an export, a device file of a shared history), so that it counts once.

A new event gets a random id. A row from before events had ids (and a record of an export from
then) gets one made from what it holds, so that two states holding the same old export agree
on it; this is what migration 7 applied, so it never changes.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence

# The first line of an export and of a device file (``records`` reads the rest).
FORMAT = "prep-state"
# 2: each record names its bank (a record without one is unassigned); 3: "teaching" records
# and a review's ticked key points; 4: who decided the verdict of a review or practice answer;
# 5: events have ids ("event"), "undo" records, and a record of the file's own bank names none
# (a path differs from one device to the next).
FORMAT_VERSION = 5


def new_event_id() -> str:
    return os.urandom(8).hex()  # not the secrets module: the quick paths import this


def legacy_event_ids(kind: str, rows: Iterable[Sequence[object]]) -> list[str]:
    """Ids for *rows* of one kind ("review", "practice", "teaching") as (bank, question id,
    time, extra fields ...), in the order they were stored: a digest of the kind and all but the
    bank, and, for a row repeating an earlier one of the same bank, how many came before it."""
    seen: dict[tuple, int] = {}
    ids = []
    for row in rows:
        bank, content = row[0], tuple(row[1:])
        count = seen.get((bank, content), 0)
        seen[(bank, content)] = count + 1
        text = "\x1f".join(str(value) for value in (kind, *content, count))
        ids.append("old-" + hashlib.sha256(text.encode()).hexdigest()[:16])
    return ids
