"""Which clause of an answer says which key point: for all the points being taught at once.

Each candidate (a clause, or two neighbouring clauses of one sentence) is scored against every key
point by the grader's own matching. The points to teach take the candidates that say them best,
each its own (one clause is not taught to two points unless it says both), and a point is given
a clause only when the choice is clear: the clause says it well and clearly better than any other,
or it is the one clause left between the clauses of the points before and after it (answers tend
to follow the order of the key points). Otherwise the point is left to the user to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prep.bank.schema import Question
from prep.grading.clauses import Clause, clauses
from prep.grading.matcher import Matcher
from prep.grading.settings import Settings

CLEAR = 0.45  # a clause says a point clearly from this coverage of its words ...
MARGIN = 0.15  # ... and this much more than the next clause that could say it
BOTH = 0.65  # one clause is taught to two points only when it says each this fully
PAIR_GAIN = 9.0  # two clauses together, only when they say the point this much more than one


@dataclass(frozen=True)
class Candidate:
    text: str
    start: int
    end: int
    first: int  # the index of its first and last clause
    last: int

    def overlaps(self, other: Candidate) -> bool:
        return self.first <= other.last and other.first <= self.last


def candidates(answer: str) -> list[Candidate]:
    """Each clause, and each two neighbouring clauses of one sentence."""
    found = [Candidate(c.text, c.start, c.end, i, i) for i, c in enumerate(clauses(answer))]
    singles = list(found)
    for one, two in zip(singles, singles[1:]):
        if _same_sentence(answer, one, two):
            found.append(Candidate(answer[one.start : two.end], one.start, two.end, one.first, two.last))
    return found


def _same_sentence(answer: str, one: Candidate, two: Candidate) -> bool:
    between = answer[one.end : two.start]
    return not any(mark in between for mark in ".!?\n")


def coverage(question: Question, found: Sequence[Candidate], settings: Settings) -> list[list[float]]:
    """How much of each key point (0-1) each candidate says, by the grader's matcher."""
    phrasings = [p for claim in question.key_points for p in claim.phrasings]
    rows = []
    for candidate in found:
        matcher = Matcher(candidate.text, question.prompt, settings)
        matcher.prepare(phrasings)
        rows.append([matcher.match(claim).score / 100 for claim in question.key_points])
    return rows


def assign(
    points: Sequence[int],
    found: Sequence[Candidate],
    cover: Sequence[Sequence[float]],
    taken: dict[int, int] | None = None,
) -> dict[int, Candidate | None]:
    """The candidate that clearly says each point (0-based), or None where none does. *taken*:
    candidates (by index) the grader credits to other key points (by index), which are theirs.
    Every key point takes part, taught or not: a clause that clearly says another one is not
    this one's."""
    taken = taken or {}
    free = [i for i in range(len(found)) if i not in taken]
    chosen: dict[int, int] = {}
    everyone = range(len(cover[0])) if cover else range(0)
    pairs = sorted(
        ((cover[i][p], p, i) for p in everyone for i in free if cover[i][p] >= CLEAR), key=lambda t: -t[0]
    )
    for score, p, i in pairs:
        if p in chosen or p in taken.values() or not _worth(found, cover, i, p):
            continue
        shared = [q for q, j in chosen.items() if found[j].overlaps(found[i])]
        if all(cover[i][q] >= BOTH and score >= BOTH for q in shared):
            chosen[p] = i
    clear = {p: i for p, i in chosen.items() if _clearly(found, cover, free, p, i)}
    result: dict[int, Candidate | None] = {p: found[i] for p, i in clear.items() if p in points}
    clear.update({p: i for i, p in taken.items() if p not in clear})  # where the grader found them
    result.update(_in_order(found, free, clear, [p for p in points if p not in result]))
    return result


def _worth(found: Sequence[Candidate], cover: Sequence[Sequence[float]], i: int, p: int) -> bool:
    """A two-clause candidate is worth it only when it says the point clearly more than either."""
    one = found[i]
    if one.first == one.last:
        return True
    parts = [j for j, c in enumerate(found) if c.first == c.last and one.first <= c.first <= one.last]
    return cover[i][p] >= max(cover[j][p] for j in parts) + PAIR_GAIN


def _clearly(
    found: Sequence[Candidate], cover: Sequence[Sequence[float]], free: Sequence[int], p: int, i: int
) -> bool:
    """Whether the chosen candidate says the point clearly better than any other apart from it."""
    rivals = [cover[j][p] for j in free if not found[j].overlaps(found[i])]
    return cover[i][p] - max(rivals, default=0.0) >= MARGIN


def _in_order(
    found: Sequence[Candidate], free: Sequence[int], clear: dict[int, int], unplaced: Sequence[int]
) -> dict[int, Candidate | None]:
    """The points not clearly placed, given the clauses left between the clauses of the points
    placed before and after them, in order, where there are exactly as many of those clauses as
    of those points (answers follow the order of their key points); else None."""
    result: dict[int, Candidate | None] = dict.fromkeys(unplaced)
    used = [found[i] for i in clear.values()]
    singles = [
        i for i in free if found[i].first == found[i].last and not any(found[i].overlaps(u) for u in used)
    ]
    placed = sorted(clear, key=lambda q: found[clear[q]].first)
    bounds = [(-1, -1)] + [(q, found[clear[q]].first) for q in placed] + [(len(found) + 1, len(found) + 1)]
    for (low_point, low), (high_point, high) in zip(bounds, bounds[1:]):
        points = sorted(p for p in unplaced if low_point < p < high_point)
        gap = sorted((i for i in singles if low < found[i].first < high), key=lambda i: found[i].first)
        if points and len(points) == len(gap):
            result.update({p: found[i] for p, i in zip(points, gap)})
    return result


def numbered(answer: str) -> list[Clause]:
    """The answer's clauses as a user picks from them (`--clause N`, 1-based)."""
    return list(clauses(answer))
