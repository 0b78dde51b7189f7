"""The aggregate queries behind `prep stats`, `prep optimize` and the interview plan, as named
functions of a store.

Each is one SQL statement over the review log (and the practice answers), or one pass over the
log and a look at the few questions taught (``review_totals``); the review layer turns the rows
into figures. *question_ids*: only these questions (a -c selection), or all.
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
class Overrides:
    """Graded reviews of a question, and how many of them the user rated otherwise, before and
    after it was first taught."""

    before: int
    overridden_before: int
    after: int
    overridden_after: int


@dataclass(frozen=True)
class QuestionTotals:
    """A question's reviews over the whole log."""

    reviews: int
    passed: int  # rated Good or Easy
    average_score: float | None
    seconds: float  # answering time
    seconds_since: float  # ... of the reviews since the time asked for
    graded: int  # reviews the grader suggested a rating for
    agreed: int  # ... rated as it suggested
    overrides: Overrides


@dataclass(frozen=True)
class PracticeTime:
    """Practice answers (cram, a mock without --record, typed and not rated) and their time."""

    answers: int
    seconds: float
    seconds_since: float  # ... of those since the time asked for


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


def review_totals(store: Store, since: datetime) -> dict[str, QuestionTotals]:
    """Per question over the whole log (every figure of `prep stats` that sums reviews comes
    from these): reviews, passes, average score, time, time since *since*, the reviews the
    grader suggested a rating for and how many were rated so, and those overridden before and
    after the question was first taught. One pass over the reviews_figures index for each bank
    whose rows this store sees, in question order."""
    sums = (
        "COUNT(*) AS n, TOTAL(rating >= 3) AS passed, TOTAL(score) AS score, COUNT(score) AS scored,"
        " TOTAL(elapsed_seconds) AS seconds, TOTAL(CASE WHEN reviewed_at >= ? THEN elapsed_seconds END)"
        " AS recent, COUNT(suggested) AS graded, TOTAL(rating = suggested) AS agreed"
    )
    parts, args = _per_bank(
        store.bank_key, f"SELECT question_id, {sums} FROM reviews WHERE {{}} GROUP BY question_id"
    )
    rows = store.db.execute(
        "SELECT question_id, SUM(n), SUM(passed), SUM(score), SUM(scored), SUM(seconds), SUM(recent),"
        f" SUM(graded), SUM(agreed) FROM ({parts}) GROUP BY question_id",
        tuple(value for bank in args for value in (format_time(since), *bank)),
    )
    after = _after_teaching(store)
    totals = {}
    for qid, n, passed, score, scored, seconds, recent, graded, agreed in rows:
        graded_after, overridden_after = after.get(qid, (0, 0))
        overridden = graded - int(agreed)
        overrides = Overrides(
            graded - graded_after, overridden - overridden_after, graded_after, overridden_after
        )
        average = score / scored if scored else None
        totals[qid] = QuestionTotals(n, int(passed), average, seconds, recent, graded, int(agreed), overrides)
    return totals


def _per_bank(bank_key: str | None, query: str) -> tuple[str, list[tuple]]:
    """*query* (its WHERE clause a ``{}``) once for each bank whose rows the store sees, joined
    with UNION ALL, and the parameters of each: a bank at a time, an index led by the bank is
    read in order (for the two at once, SQLite sorts). A store of no bank sees every row."""
    if bank_key is None:
        return query.format("1"), [()]
    banks = list(dict.fromkeys((bank_key, "")))  # its own rows, then the unassigned ones
    return " UNION ALL ".join(query.format("bank = ?") for _ in banks), [(bank,) for bank in banks]


def _after_teaching(store: Store) -> dict[str, tuple[int, int]]:
    """Per question taught: its graded reviews after its first teaching, and how many of them
    the user rated otherwise than the grader suggested. The review of the drill turn that
    taught it (the first graded one after the teaching, with the user's ticks) graded the
    answer before it learned: it counts before. Taught questions are few: their reviews are
    found through the index (CROSS JOIN keeps SQLite from scanning the log for them)."""
    where, args = scope(store.bank_key)
    rows = store.db.execute(
        f"""
        WITH taught AS (SELECT question_id, MIN(taught_at) AS at FROM teachings WHERE {where}
                        GROUP BY question_id),
             rv AS (SELECT question_id, reviewed_at, rating != suggested AS overridden, ticked
                    FROM taught CROSS JOIN reviews USING (question_id)
                    WHERE {where} AND suggested IS NOT NULL AND reviewed_at > taught.at),
             turn AS (SELECT question_id, MIN(reviewed_at) AS at FROM rv GROUP BY question_id)
        SELECT question_id, COUNT(*), TOTAL(overridden) FROM rv JOIN turn USING (question_id)
        WHERE NOT (rv.ticked IS NOT NULL AND rv.reviewed_at = turn.at) GROUP BY question_id
        """,
        args * 2,
    )
    return {qid: (n, int(overridden)) for qid, n, overridden in rows}


def activity_by_hour(store: Store, question_ids: Collection[str] | None = None) -> list[tuple[str, int]]:
    """Reviews and practice answers per UTC hour ("YYYY-MM-DDTHH"): grouping fixed-width text
    is cheap, and the caller shifts hours to local days faster than SQLite's 'localtime'. The
    whole log's by the reviews_hours index, a bank at a time; a selection's by the questions."""
    if question_ids is not None:
        where, args = _scope(store.bank_key, question_ids)
        return store.db.execute(
            "SELECT substr(t, 1, 13) AS h, COUNT(*) FROM (SELECT reviewed_at AS t, question_id, bank"
            " FROM reviews UNION ALL SELECT practiced_at, question_id, bank FROM practice)"
            f" WHERE {where} GROUP BY h",
            args,
        ).fetchall()
    reviews, banks = _per_bank(
        store.bank_key,
        "SELECT substr(reviewed_at, 1, 13) AS h, COUNT(*) AS n FROM reviews WHERE {} GROUP BY h",
    )
    where, args = scope(store.bank_key)
    return store.db.execute(
        f"SELECT h, SUM(n) FROM ({reviews} UNION ALL SELECT substr(practiced_at, 1, 13), COUNT(*)"
        f" FROM practice WHERE {where} GROUP BY 1) GROUP BY h",
        (*(value for bank in banks for value in bank), *args),
    ).fetchall()


def practice_time(store: Store, since: datetime, question_ids: Collection[str] | None = None) -> PracticeTime:
    where, args = _scope(store.bank_key, question_ids)
    answers, seconds, recent = store.db.execute(
        "SELECT COUNT(*), TOTAL(elapsed_seconds), TOTAL(CASE WHEN practiced_at >= ? THEN elapsed_seconds END)"
        f" FROM practice WHERE {where}",
        (format_time(since), *args),
    ).fetchone()
    return PracticeTime(int(answers), seconds, recent)


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
