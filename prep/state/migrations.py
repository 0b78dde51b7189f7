"""The state database's schema as ordered migrations, recorded in ``schema_migrations``.

Append new migrations; never edit or reorder applied ones. Before an older database is
migrated, the store writes a consistent copy of it next to it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable


def _script(db: sqlite3.Connection, sql: str) -> None:
    """Run several statements inside the current transaction (executescript would commit)."""
    statement = ""
    for line in sql.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""


def _m001_initial(db: sqlite3.Connection) -> None:
    _script(
        db,
        """
        CREATE TABLE cards (
            question_id TEXT PRIMARY KEY,
            due TEXT NOT NULL,              -- UTC, fixed-width text: sorts as time
            state INTEGER NOT NULL,         -- fsrs.State: 1 learning, 2 review, 3 relearning
            step INTEGER,
            stability REAL,
            difficulty REAL,
            last_review TEXT,
            reps INTEGER NOT NULL DEFAULT 0,
            lapses INTEGER NOT NULL DEFAULT 0,
            content_hash TEXT               -- prompt + key points when last reviewed
        );
        CREATE INDEX cards_due ON cards(due);
        CREATE TABLE reviews (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            question_id TEXT NOT NULL,
            reviewed_at TEXT NOT NULL,
            rating INTEGER NOT NULL,        -- chosen: 1 again, 2 hard, 3 good, 4 easy
            suggested INTEGER,              -- what the grader suggested (NULL: self-graded)
            score INTEGER,
            elapsed_seconds REAL,
            answer TEXT,
            mode TEXT,
            content_hash TEXT,
            card_before TEXT                -- JSON card state before this review; NULL if new
        );
        CREATE INDEX reviews_question ON reviews(question_id, reviewed_at);
        CREATE INDEX reviews_time ON reviews(reviewed_at);
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
    )


def _m002_review_verdict(db: sqlite3.Connection) -> None:
    # The grader's verdict (pass/partial/fail) next to the chosen rating: pass rates in stats
    # should mean "the answer passed", not "the user pressed Good".
    db.execute("ALTER TABLE reviews ADD COLUMN verdict TEXT")


def _m003_practice(db: sqlite3.Connection) -> None:
    # What a cram session or an unrecorded mock interview saw typed and rated: kept for history
    # and activity, never read by the scheduler.
    _script(
        db,
        """
        CREATE TABLE practice (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            question_id TEXT NOT NULL,
            practiced_at TEXT NOT NULL,     -- UTC, fixed-width text: sorts as time
            mode TEXT NOT NULL,             -- cram, mock, or drill (typed, then not rated)
            rating INTEGER,                 -- the rating chosen in a cram; NULL in a mock
            score INTEGER,
            verdict TEXT,
            elapsed_seconds REAL,
            answer TEXT
        );
        CREATE INDEX practice_question ON practice(question_id, practiced_at);
        CREATE INDEX practice_time ON practice(practiced_at);
        """,
    )


def _m004_bank(db: sqlite3.Connection) -> None:
    # Which bank a row was made in: the bundled bank ("bundled") or the folder of a bank of one's
    # own. Rows from before are '' (unassigned): every bank sees them for the ids it has.
    _script(
        db,
        """
        ALTER TABLE reviews ADD COLUMN bank TEXT NOT NULL DEFAULT '';
        ALTER TABLE practice ADD COLUMN bank TEXT NOT NULL DEFAULT '';
        CREATE TABLE cards_by_bank (
            bank TEXT NOT NULL DEFAULT '',
            question_id TEXT NOT NULL,
            due TEXT NOT NULL,
            state INTEGER NOT NULL,
            step INTEGER,
            stability REAL,
            difficulty REAL,
            last_review TEXT,
            reps INTEGER NOT NULL DEFAULT 0,
            lapses INTEGER NOT NULL DEFAULT 0,
            content_hash TEXT,
            PRIMARY KEY (bank, question_id)
        );
        INSERT INTO cards_by_bank (bank, question_id, due, state, step, stability, difficulty, last_review,
                                   reps, lapses, content_hash)
            SELECT '', question_id, due, state, step, stability, difficulty, last_review, reps, lapses,
                   content_hash FROM cards;
        DROP TABLE cards;
        ALTER TABLE cards_by_bank RENAME TO cards;
        CREATE INDEX cards_due ON cards(due);
        CREATE INDEX reviews_bank ON reviews(bank, question_id, reviewed_at);
        CREATE INDEX practice_bank ON practice(bank, question_id, practiced_at);
        """,
    )


def _m005_teaching(db: sqlite3.Connection) -> None:
    # The key points the user ticked when overruling the grader in a drill (JSON list, 1-based;
    # the grader's own verdict and suggestion stay in their columns), and every phrasing taught,
    # so that stats can show how often the user overrode the grader before and after teaching.
    _script(
        db,
        """
        ALTER TABLE reviews ADD COLUMN ticked TEXT;
        CREATE TABLE teachings (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            bank TEXT NOT NULL DEFAULT '',
            question_id TEXT NOT NULL,
            point INTEGER NOT NULL,
            phrasing TEXT NOT NULL,
            taught_at TEXT NOT NULL,
            via TEXT NOT NULL               -- drill or command
        );
        CREATE INDEX teachings_bank ON teachings(bank, question_id, taught_at);
        """,
    )


def _m006_judge(db: sqlite3.Connection) -> None:
    # Who decided each verdict: "words" (the word-level grader), "judge:<model id>" (a judge
    # model), or "ticks" (the key points the user ticked); NULL where nothing graded the answer.
    # And the judge's replies, kept so that grading the same answer again asks nothing: keyed by
    # the model as configured, the question as sent (judge_exchange.JudgeRequest.question_hash)
    # and the answer's text. A cache: not history, so neither exported nor pruned.
    _script(
        db,
        """
        ALTER TABLE reviews ADD COLUMN decided_by TEXT;
        ALTER TABLE practice ADD COLUMN decided_by TEXT;
        CREATE TABLE judge_replies (
            model TEXT NOT NULL,
            question_hash TEXT NOT NULL,
            answer TEXT NOT NULL,
            reply TEXT NOT NULL,            -- the model's text, as it came
            replied_at TEXT NOT NULL,
            PRIMARY KEY (model, question_hash, answer)
        );
        """,
    )


def _m007_events(db: sqlite3.Connection) -> None:
    # Every review, practice answer and teaching is an event with an id that travels with it
    # (export, a shared history/ folder), so that the same event seen twice counts once and an
    # undo names what it undoes. Rows from before get ids made from what they hold, so that two
    # states that imported the same export give its rows the same ids. An undo is kept as an
    # event too (undos), and how far each device file of a shared history was read (shared_files).
    from prep.state.events import legacy_event_ids

    _script(
        db,
        """
        ALTER TABLE reviews ADD COLUMN event TEXT;
        ALTER TABLE practice ADD COLUMN event TEXT;
        ALTER TABLE teachings ADD COLUMN event TEXT;
        CREATE TABLE undos (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            event TEXT NOT NULL,
            bank TEXT NOT NULL DEFAULT '',
            undoes TEXT NOT NULL,           -- the event taken back (a review or a practice answer)
            question_id TEXT NOT NULL,
            undone_at TEXT NOT NULL
        );
        CREATE TABLE shared_files (
            bank TEXT NOT NULL,
            name TEXT NOT NULL,             -- a device file in the bank's history/ folder
            offset INTEGER NOT NULL,        -- bytes taken in: up to the end of its last whole line
            lines INTEGER NOT NULL,         -- lines taken in, so that a problem names its line
            PRIMARY KEY (bank, name)
        );
        """,
    )
    for table, kind, key in (
        ("reviews", "review", "reviewed_at"),
        ("practice", "practice", "practiced_at"),
        ("teachings", "teaching", "taught_at"),
    ):
        extra = ", point, phrasing" if table == "teachings" else ""
        rows = db.execute(f"SELECT id, bank, question_id, {key}{extra} FROM {table} ORDER BY id").fetchall()
        ids = legacy_event_ids(kind, [tuple(row[1:]) for row in rows])
        db.executemany(f"UPDATE {table} SET event = ? WHERE id = ?", [(e, r[0]) for e, r in zip(ids, rows)])
    _script(
        db,
        """
        CREATE INDEX reviews_event ON reviews(event);
        CREATE INDEX practice_event ON practice(event);
        CREATE INDEX teachings_event ON teachings(event);
        CREATE INDEX undos_event ON undos(undoes);
        """,
    )


def _m008_figures_indexes(db: sqlite3.Connection) -> None:
    # `prep stats` sums the whole review log per question and counts it per hour. These indexes
    # hold what it reads, in the order it groups it: each sum is one pass over a narrow index
    # (the answers typed stay in the table) with no sort. reviews_figures starts with the
    # columns of reviews_bank, which it replaces.
    _script(
        db,
        """
        CREATE INDEX reviews_figures
            ON reviews(bank, question_id, reviewed_at, rating, suggested, score, elapsed_seconds);
        DROP INDEX reviews_bank;
        CREATE INDEX reviews_hours ON reviews(bank, substr(reviewed_at, 1, 13));
        """,
    )


def _m009_shared_file_tails(db: sqlite3.Connection) -> None:
    # A device file of a shared history can be rewritten under the mark of what was read of it
    # (a git merge of two machines writing as one device, a checkout): a fingerprint of the last
    # line taken in tells, so that such a file is read again from its start (what was taken in
    # counts once) rather than from the middle of a line, with every line numbered as it is.
    _script(db, "ALTER TABLE shared_files ADD COLUMN tail TEXT;  -- the last line taken in: its fingerprint")


# Ordered: append new migrations, never edit or reorder applied ones.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _m001_initial,
    _m002_review_verdict,
    _m003_practice,
    _m004_bank,
    _m005_teaching,
    _m006_judge,
    _m007_events,
    _m008_figures_indexes,
    _m009_shared_file_tails,
)
SCHEMA_VERSION = len(MIGRATIONS)
