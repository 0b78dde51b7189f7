"""The sums behind `prep stats`, made by SQLite over the review log a bank at a time, against the
same sums made in Python from every row: for any log, teachings and banks; and read from the
indexes made for them, in order, with no sort."""

from __future__ import annotations

import tempfile
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from prep.state import reports
from prep.state.cards import format_time
from prep.state.store import Store

START = datetime(2026, 3, 1, tzinfo=UTC)
SINCE = START + timedelta(hours=30)
BANK = "my-bank"

reviews = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]),  # question
        st.sampled_from([BANK, "", "another-bank"]),
        st.integers(1, 4),  # rating
        st.none() | st.integers(1, 4),  # suggested
        st.none() | st.integers(0, 100),  # score
        st.none() | st.floats(1, 300),  # seconds
        st.none() | st.just("[1]"),  # ticked
        st.integers(0, 72),  # hours after START
    ),
    max_size=40,
)
teachings = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]), st.sampled_from([BANK, "", "another-bank"]), st.integers(0, 72)
    ),
    max_size=4,
)
practice = st.lists(
    st.tuples(st.sampled_from(["a", "b"]), st.sampled_from([BANK, ""]), st.integers(0, 72)), max_size=5
)


def at(hours: int) -> str:
    return format_time(START + timedelta(hours=hours, minutes=hours % 7))


def _write(store: Store, logged, taught, practised) -> None:  # type: ignore[no-untyped-def]
    with store.transaction() as db:
        db.executemany(
            "INSERT INTO reviews (question_id, bank, rating, suggested, score, elapsed_seconds, ticked,"
            " reviewed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(*row[:7], at(row[7])) for row in logged],
        )
        db.executemany(
            "INSERT INTO teachings (question_id, bank, point, phrasing, taught_at, via)"
            " VALUES (?, ?, 1, 'x', ?, 'drill')",
            [(qid, bank, at(hours)) for qid, bank, hours in taught],
        )
        db.executemany(
            "INSERT INTO practice (question_id, bank, practiced_at, mode) VALUES (?, ?, ?, 'cram')",
            [(qid, bank, at(hours)) for qid, bank, hours in practised],
        )


def _expected(logged, taught) -> dict[str, tuple]:  # type: ignore[no-untyped-def]
    """The sums, row by row, over the rows the bank sees (its own and the unassigned ones)."""
    seen = [row for row in logged if row[1] in (BANK, "")]
    first_taught = {}
    for qid, bank, hours in taught:
        if bank in (BANK, ""):
            first_taught[qid] = min(first_taught.get(qid, at(hours)), at(hours))
    found = {}
    for qid in {row[0] for row in seen}:
        rows = sorted((row for row in seen if row[0] == qid), key=lambda row: at(row[7]))
        graded = [row for row in rows if row[3] is not None]
        when = first_taught.get(qid)
        later = [row for row in graded if when is not None and at(row[7]) > when]
        turn = min((at(row[7]) for row in later), default=None)
        after = [row for row in later if not (row[6] is not None and at(row[7]) == turn)]
        before = [row for row in graded if row not in after]
        scores = [row[4] for row in rows if row[4] is not None]
        found[qid] = (
            len(rows),
            sum(row[2] >= 3 for row in rows),
            sum(scores) / len(scores) if scores else None,
            round(sum(row[5] or 0 for row in rows), 6),
            round(sum(row[5] or 0 for row in rows if at(row[7]) >= format_time(SINCE)), 6),
            len(graded),
            sum(row[2] == row[3] for row in graded),
            reports.Overrides(
                len(before),
                sum(row[2] != row[3] for row in before),
                len(after),
                sum(row[2] != row[3] for row in after),
            ),
        )
    return found


@settings(max_examples=60, deadline=None)
@given(reviews, teachings, practice)
def test_the_sums_of_sqlite_are_the_sums_of_every_row(logged, taught, practised):
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "s.sqlite3", bank_key=BANK) as store:
        _write(store, logged, taught, practised)
        totals = reports.review_totals(store, SINCE)
        got = {
            qid: (
                t.reviews, t.passed, t.average_score, round(t.seconds, 6), round(t.seconds_since, 6),
                t.graded, t.agreed, t.overrides,
            )
            for qid, t in totals.items()
        }  # fmt: skip
        expected = _expected(logged, taught)
        assert got.keys() == expected.keys()
        for qid, figures in expected.items():
            assert got[qid][:2] == figures[:2] and got[qid][3:] == figures[3:]
            assert (got[qid][2] is None) == (figures[2] is None)
            assert figures[2] is None or abs(got[qid][2] - figures[2]) < 1e-9
        hours = Counter(at(row[7])[:13] for row in logged if row[1] in (BANK, ""))
        hours.update(at(hours_after)[:13] for _qid, bank, hours_after in practised if bank in (BANK, ""))
        assert dict(reports.activity_by_hour(store)) == dict(hours)


def test_the_sums_read_their_indexes_in_order(tmp_path):
    """A pass over a narrow index for each bank, grouped as it comes: no table scan (the answers
    typed are in the table), no sort."""
    with Store(tmp_path / "s.sqlite3", bank_key=BANK) as store:
        plans = []
        original = store.db.execute

        def explained(sql, *args):  # type: ignore[no-untyped-def]
            if sql.lstrip().upper().startswith("SELECT") and "FROM REVIEWS" in sql.upper():
                plans.append(" | ".join(row[3] for row in original("EXPLAIN QUERY PLAN " + sql, *args)))
            return original(sql, *args)

        store.db.execute = explained  # type: ignore[method-assign]
        reports.review_totals(store, SINCE)
        reports.activity_by_hour(store)
        assert len(plans) == 2, plans
        totals, hours = plans
        assert totals.count("USING COVERING INDEX reviews_figures (bank=?)") == 2, totals
        assert hours.count("USING INDEX reviews_hours (bank=?)") == 2, hours
        assert "TEMP B-TREE" not in totals.split("UNION ALL")[0] and "SCAN reviews" not in totals + hours
