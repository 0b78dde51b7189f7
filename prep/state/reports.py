"""The aggregate queries behind `prep stats`, `prep optimize` and the interview plan, as named
functions of a store.

Each is one SQL statement over the review log (and the practice answers); the review layer
turns the rows into figures. *question_ids*: only these questions (a -c selection), or all.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from prep.state.cards import format_time
from prep.state.rows import scope

if TYPE_CHECKING:
    from prep.state.store import Store


@dataclass(frozen=True)
class QuestionTotals:
    reviews: int
    passed: int  # rated Good or Easy
    average_score: float | None
    seconds: float


@dataclass(frozen=True)
class RecentAnswer:
    """One recent review, as the interview plan reads it: how long it took and whether it was
    a new card's first answer."""

    question_id: str
    reviewed_at: str  # as stored: UTC, fixed width, so it compares as text
    rating: int
    seconds: float | None  # answering time, when it was timed at a terminal
    first: bool


@dataclass(frozen=True)
class DayAnswer:
    """A review made since the start of a day, as the interview plan reads it: the card as it
    was before it (JSON, as the review log keeps it; None before a new card's first answer) and
    how long the answer took."""

    question_id: str
    card_before: str | None
    seconds: float | None


@dataclass(frozen=True)
class TimeSpent:
    seconds: float  # reviews and practice answers
    seconds_since: float  # ... since the time asked for
    reviews: int
    practice: int


@dataclass(frozen=True)
class Overrides:
    """Graded reviews of a question, and how many of them the user rated otherwise, before and
    after it was first taught."""

    before: int
    overridden_before: int
    after: int
    overridden_after: int


def _scope(bank_key: str | None, question_ids: Collection[str] | None) -> tuple[str, tuple]:
    """A WHERE clause for the bank's rows (see history.scope) and the selected questions; one
    JSON parameter, however many questions are selected."""
    where, args = scope(bank_key)
    if question_ids is None:
        return where, args
    return f"{where} AND question_id IN (SELECT value FROM json_each(?))", (
        *args,
        json.dumps(sorted(question_ids)),
    )


def review_totals(store: Store) -> dict[str, QuestionTotals]:
    """Per question over the whole log: reviews, passes, average score, time spent."""
    where, args = scope(store.bank_key)
    rows = store.db.execute(  # a table scan beats 100k index lookups
        "SELECT question_id, COUNT(*), SUM(rating >= 3), AVG(score), TOTAL(elapsed_seconds)"
        f" FROM reviews NOT INDEXED WHERE {where} GROUP BY question_id",
        args,
    )
    return {qid: QuestionTotals(n, passed or 0, score, seconds) for qid, n, passed, score, seconds in rows}


def activity_by_hour(store: Store, question_ids: Collection[str] | None = None) -> list[tuple[str, int]]:
    """Reviews and practice answers per UTC hour ("YYYY-MM-DDTHH"): grouping fixed-width text
    is cheap, and the caller shifts hours to local days faster than SQLite's 'localtime'."""
    where, args = _scope(store.bank_key, question_ids)
    return [
        (hour, n)
        for hour, n in store.db.execute(
            "SELECT substr(t, 1, 13) AS h, COUNT(*) FROM (SELECT reviewed_at AS t, question_id, bank"
            " FROM reviews UNION ALL SELECT practiced_at, question_id, bank FROM practice)"
            f" WHERE {where} GROUP BY h",
            args,
        )
    ]


def time_spent(store: Store, since: datetime, question_ids: Collection[str] | None = None) -> TimeSpent:
    where, args = _scope(store.bank_key, question_ids)
    stamp = format_time(since)
    seconds, recent, reviews = store.db.execute(
        "SELECT TOTAL(elapsed_seconds), TOTAL(CASE WHEN reviewed_at >= ? THEN elapsed_seconds END), "
        "COUNT(*)"
        f" FROM reviews WHERE {where}",
        (stamp, *args),
    ).fetchone()
    practice_seconds, practice_recent, practice = store.db.execute(
        "SELECT TOTAL(elapsed_seconds), TOTAL(CASE WHEN practiced_at >= ? THEN elapsed_seconds END), "
        "COUNT(*)"
        f" FROM practice WHERE {where}",
        (stamp, *args),
    ).fetchone()
    return TimeSpent(seconds + practice_seconds, recent + practice_recent, int(reviews), int(practice))


def grader_agreement(store: Store, question_ids: Collection[str] | None = None) -> tuple[int, int]:
    """(reviews the grader suggested a rating for, how many of them the user rated as suggested)."""
    where, args = _scope(store.bank_key, question_ids)
    suggested, agreed = store.db.execute(
        f"SELECT COUNT(*), TOTAL(rating = suggested) FROM reviews WHERE suggested IS NOT NULL AND {where}",
        args,
    ).fetchone()
    return int(suggested), int(agreed)


def overrides(store: Store) -> dict[str, Overrides]:
    """Per question: how often the user rated other than the grader suggested, before its
    first teaching and after. The review of the drill turn that taught it (the first one
    after the teaching, with the user's ticks) graded the answer before it learned: before."""
    where, args = scope(store.bank_key)
    rows = store.db.execute(
        f"""
        WITH rv AS (SELECT question_id, reviewed_at, rating != suggested AS overridden, ticked
                    FROM reviews WHERE {where} AND suggested IS NOT NULL),
             taught AS (SELECT question_id, MIN(taught_at) AS at FROM teachings WHERE {where}
                        GROUP BY question_id),
             turn AS (SELECT rv.question_id, MIN(rv.reviewed_at) AS at FROM rv JOIN taught
                      USING (question_id) WHERE rv.reviewed_at > taught.at GROUP BY rv.question_id),
             marked AS (SELECT rv.question_id, rv.overridden,
                               taught.at IS NOT NULL AND rv.reviewed_at > taught.at
                               AND NOT (rv.ticked IS NOT NULL AND rv.reviewed_at = turn.at) AS after
                        FROM rv LEFT JOIN taught USING (question_id) LEFT JOIN turn USING (question_id))
        SELECT question_id, TOTAL(NOT after), TOTAL(overridden AND NOT after), TOTAL(after),
               TOTAL(overridden AND after)
        FROM marked GROUP BY question_id
        """,
        args * 2,
    )
    return {qid: Overrides(int(a), int(b), int(c), int(d)) for qid, a, b, c, d in rows}


def taught_questions(store: Store) -> set[str]:
    where, args = scope(store.bank_key)
    return {r[0] for r in store.db.execute(f"SELECT DISTINCT question_id FROM teachings WHERE {where}", args)}


def recent_answers(store: Store, limit: int, before: datetime | None = None) -> list[RecentAnswer]:
    """The last *limit* reviews (made before *before*, when given), newest first (by the time
    index: the log may be long)."""
    where, args = scope(store.bank_key)
    until = "reviewed_at < ? AND " if before is not None else ""
    rows = store.db.execute(
        "SELECT question_id, reviewed_at, rating, elapsed_seconds, card_before IS NULL"
        f" FROM reviews INDEXED BY reviews_time WHERE {until}{where} ORDER BY reviewed_at DESC LIMIT ?",
        (*((format_time(before),) if before is not None else ()), *args, limit),
    )
    return [RecentAnswer(qid, at, rating, took, bool(first)) for qid, at, rating, took, first in rows]


def answers_since(store: Store, since: datetime) -> list[DayAnswer]:
    """The reviews made since *since*, oldest first (by the time index: a day's are few)."""
    where, args = scope(store.bank_key)
    rows = store.db.execute(
        "SELECT question_id, card_before, elapsed_seconds FROM reviews INDEXED BY reviews_time"
        f" WHERE reviewed_at >= ? AND {where} ORDER BY reviewed_at, id",
        (format_time(since), *args),
    )
    return [DayAnswer(qid, before, took) for qid, before, took in rows]


def rating_sequences(store: Store) -> Iterator[tuple[str, str, int]]:
    """(question id, reviewed_at as stored, rating) of every review, by question then time."""
    where, args = scope(store.bank_key)
    yield from store.db.execute(
        f"SELECT question_id, reviewed_at, rating FROM reviews WHERE {where}"
        " ORDER BY question_id, reviewed_at, id",
        args,
    )
