"""Taking items from several groups in turn, the group furthest behind first: how new questions
are mixed across categories, by the interview plan (weakest category on the day first) and by
plain FSRS (the category with the smallest share of its questions seen first).

Pure and light (no fsrs, no pydantic): `prep next` orders its new cards with it.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

Group = TypeVar("Group", bound=Hashable)
Item = TypeVar("Item")


def interleave(
    groups: Mapping[Group, Iterable[Item]], level: Mapping[Group, float], step: Mapping[Group, float]
) -> list[Item]:
    """Every item of *groups*, one at a time, always from the group whose level is lowest so
    far: a group starts at ``level[group]`` and rises by ``step[group]`` with each item taken
    from it. Groups at the same level take turns in the order *groups* gives them; a group's
    own items come in their own order. A group a few items ahead waits only until the others
    have caught up with it, and a list cut short leaves out the last items of every group alike."""
    waiting = {group: deque(items) for group, items in groups.items()}
    heap = [(level[group], rank, group) for rank, group in enumerate(waiting) if waiting[group]]
    heapq.heapify(heap)
    order: list[Item] = []
    while heap:
        at, rank, group = heap[0]
        left = waiting[group]
        order.append(left.popleft())
        if left:
            heapq.heapreplace(heap, (at + step[group], rank, group))
        else:
            heapq.heappop(heap)
    return order
