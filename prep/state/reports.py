"""The aggregate queries behind `prep stats` and `prep optimize`, as named methods of the store.

Each is one SQL statement over the review log (and the practice answers); the review layer
turns the rows into figures. *scope*: only these question ids (a -c selection), or all.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import datetime

from prep.state.cards import format_time
from prep.state.sqlite import Connection


@dataclass(frozen=True)
class QuestionTotals:
    reviews: int
    passed: int  # rated Good or Easy
    average_score: float | None
    seconds: float


@dataclass(frozen=True)
class TimeSpent:
    seconds: float  # reviews and practice answers
    seconds_since: float  # ... since the time asked for
    reviews: int
    practice: int


def _scope(question_ids: Collection[str] | None) -> tuple[str, tuple]:
    """A WHERE clause for the scope; one JSON parameter, however many questions are selected."""
    if question_ids is None:
        return "1", ()
    return "question_id IN (SELECT value FROM json_each(?))", (json.dumps(sorted(question_ids)),)


class ReportQueries:
    """Mixed into ``Store``; ``db`` is its connection."""

    db: Connection

    def review_totals(self) -> dict[str, QuestionTotals]:
        """Per question over the whole log: reviews, passes, average score, time spent."""
        rows = self.db.execute(
            "SELECT question_id, COUNT(*), SUM(rating >= 3), AVG(score), TOTAL(elapsed_seconds)"
            " FROM reviews NOT INDEXED GROUP BY question_id"  # a table scan beats 100k index lookups
        )
        return {
            qid: QuestionTotals(n, passed or 0, score, seconds) for qid, n, passed, score, seconds in rows
        }

    def activity_by_hour(self, question_ids: Collection[str] | None = None) -> list[tuple[str, int]]:
        """Reviews and practice answers per UTC hour ("YYYY-MM-DDTHH"): grouping fixed-width text
        is cheap, and the caller shifts hours to local days faster than SQLite's 'localtime'."""
        where, args = _scope(question_ids)
        return [
            (hour, n)
            for hour, n in self.db.execute(
                "SELECT substr(t, 1, 13) AS h, COUNT(*) FROM (SELECT reviewed_at AS t, question_id FROM "
                "reviews"
                f" UNION ALL SELECT practiced_at, question_id FROM practice) WHERE {where} GROUP BY h",
                args,
            )
        ]

    def time_spent(self, since: datetime, question_ids: Collection[str] | None = None) -> TimeSpent:
        where, args = _scope(question_ids)
        stamp = format_time(since)
        seconds, recent, reviews = self.db.execute(
            "SELECT TOTAL(elapsed_seconds), TOTAL(CASE WHEN reviewed_at >= ? THEN elapsed_seconds END), "
            "COUNT(*)"
            f" FROM reviews WHERE {where}",
            (stamp, *args),
        ).fetchone()
        practice_seconds, practice_recent, practice = self.db.execute(
            "SELECT TOTAL(elapsed_seconds), TOTAL(CASE WHEN practiced_at >= ? THEN elapsed_seconds END), "
            "COUNT(*)"
            f" FROM practice WHERE {where}",
            (stamp, *args),
        ).fetchone()
        return TimeSpent(seconds + practice_seconds, recent + practice_recent, int(reviews), int(practice))

    def grader_agreement(self, question_ids: Collection[str] | None = None) -> tuple[int, int]:
        """(reviews the grader suggested a rating for, how many of them the user rated as suggested)."""
        where, args = _scope(question_ids)
        suggested, agreed = self.db.execute(
            "SELECT COUNT(*), TOTAL(rating = suggested) FROM reviews WHERE suggested IS NOT NULL AND "
            f"{where}",
            args,
        ).fetchone()
        return int(suggested), int(agreed)

    def rating_sequences(self) -> Iterator[tuple[str, str, int]]:
        """(question id, reviewed_at as stored, rating) of every review, by question then time."""
        yield from self.db.execute(
            "SELECT question_id, reviewed_at, rating FROM reviews ORDER BY question_id, reviewed_at, id"
        )
