"""What tests share besides fixtures (those are in conftest.py): the test bank's files and the
writer of a bank, the installed `prep` in a pipe or a terminal, a good answer and a fixed time,
the review rows and old databases tests inspect or start from, a question built inline, the
scripted fake UI that drives a drill without a terminal, a real Anki collection, and a device
sharing a bank's history. Test modules import these from here, never from one another."""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import subprocess
import textwrap
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from prep.bank.schema import Question
from prep.cli.app import app
from prep.review.ui import Choice
from prep.state.migrations import MIGRATIONS

# A good answer to dp-vs-mp, and the moment tests run at (as PREP_NOW, and as a datetime).
GOOD = (
    "In data parallelism each GPU holds a full copy of the model and processes a different part of "
    "the batch; gradients are all-reduced. Model parallelism splits the model across GPUs when it "
    "does not fit on one GPU."
)
NOW = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
MOMENT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

# --- the test bank ---------------------------------------------------------------------------

PARALLELISM_YAML = """\
# A small bank used across tests.
category: parallelism
title: Parallelism
questions:
  - id: dp-vs-mp
    prompt: What is the difference between data parallelism and model parallelism?
    kind: technical
    difficulty: 2
    tags: [distributed, ddp]
    target_seconds: 60
    key_points:
      - text: in data parallelism every GPU holds a full replica of the model
        aliases: [each device keeps a complete copy of the weights, DP replicates the model on every GPU]
      - text: each GPU processes a different slice of the batch
        aliases: [the batch is split across GPUs, each replica sees different data]
      - text: gradients are averaged across GPUs with all-reduce
        aliases: [all-reduce the gradients, gradients are synchronized after backward]
      - text: model parallelism splits the model itself across GPUs
        aliases: [the weights are partitioned across GPUs, layers are placed on different devices]
      - text: model parallelism is needed when the model does not fit on one GPU
        aliases: [used when the model is too big for one device's memory]
    pitfalls:
      - data parallelism reduces per-GPU parameter memory
      - data parallelism splits the model across GPUs
    follow_ups: [dp-batch-size]
  - id: dp-batch-size
    prompt: What global batch size did you actually use, and where was the communication bottleneck?
    kind: technical
    difficulty: 3
    tags: [distributed]
    target_seconds: 90
    key_points:
      - text: global batch equals micro-batch times data-parallel size times accumulation steps
        aliases: [global batch is micro batch times DP size times gradient accumulation]
      - text: the all-reduce of gradients was the bottleneck between nodes
        aliases: [inter-node gradient all-reduce limited throughput]
  - id: zero-stages
    prompt: What do the three ZeRO stages shard?
    tags: [zero, memory]
    target_seconds: 45
    key_points:
      - text: stage 1 shards the optimizer states
      - text: stage 2 also shards the gradients
      - text: stage 3 also shards the parameters
"""

BEHAVIORAL_YAML = """\
category: behavioral
title: Behavioral
questions:
  - id: biggest-failure
    prompt: Tell me about your most significant failure in a training project.
    kind: behavioral
    difficulty: 2
    target_seconds: 120
"""

ANSWERS_YAML = """\
answers:
  - question: dp-vs-mp
    source: model
    answer: >
      In data parallelism every GPU keeps a full copy of the model and works on its own slice
      of the batch; after the backward pass the gradients are averaged with an all-reduce.
      Model parallelism instead splits the model across GPUs, which is what you need once the
      model no longer fits in one GPU's memory.
  - question: biggest-failure
    answer: >
      An upstream detection model changed its label definitions without warning. Our pipeline
      kept running and fed the model mismatched data. We lost two weeks chasing a regression.
      I added a version check of every data artifact before each training run.
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def write_bank(root: Path) -> Path:
    """The test bank at *root*: two categories and an answers file."""
    write(root / "questions" / "parallelism.yaml", PARALLELISM_YAML)
    write(root / "questions" / "behavioral.yaml", BEHAVIORAL_YAML)
    write(root / "answers" / "answers.yaml", ANSWERS_YAML)
    return root


def question(prompt: str, key_points: list, pitfalls: list | None = None) -> Question:
    return Question.model_validate(
        {"id": "q", "prompt": prompt, "key_points": key_points, "pitfalls": pitfalls or []}
    )


# --- the installed command -------------------------------------------------------------------


def quick_path(argv: list[str], env: dict[str, str] | None = None) -> tuple[int | None, bool, str]:
    """Run the console script's quick path (`prep next`, `plan`, `stats` answered before typer)
    on *argv* in a fresh interpreter: its exit code, whether typer or pydantic got imported,
    and what it printed."""
    import json
    import subprocess
    import sys

    code = (
        f"import sys, json; from prep.cli.main import quick_next; code = quick_next({argv!r}); "
        "print(json.dumps([code, 'typer' in sys.modules or 'pydantic' in sys.modules]), file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, env=env
    )
    exit_code, loaded = json.loads(result.stderr.strip().splitlines()[-1])
    return exit_code, loaded, result.stdout


def installed_prep() -> str:
    """Path of the installed `prep` console script next to this interpreter."""
    import shutil
    import sys

    candidate = Path(sys.executable).with_name("prep")
    if candidate.exists():
        return str(candidate)
    found = shutil.which("prep")
    if not found:
        pytest.fail("the prep console script is not installed: run the README's install command")
    return found


def run_installed(cwd: Path, *args: str, input: str = "", env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """The installed `prep` run in *cwd* as a user's shell runs it, at NOW; stdout and stderr apart."""
    return subprocess.run(
        [installed_prep(), *args],
        cwd=cwd,
        input=input,
        capture_output=True,
        text=True,
        env={**os.environ, **NOW, **(env or {})},
        timeout=60,
        check=False,
    )


@functools.cache  # one interpreter started per test session, not per call
def installed_bundled_root() -> Path:
    """The bundled bank of the installed `prep` (the one `installed_prep()` runs): under a
    non-editable install it is the wheel's copy, not this checkout's questions/."""
    import sys
    import tempfile

    code = "from prep.paths import bundled_bank_root; print(bundled_bank_root())"
    # run outside the checkout, so the interpreter imports the installed package
    found = subprocess.run(
        [sys.executable, "-c", code], cwd=tempfile.gettempdir(), capture_output=True, text=True, check=True
    )
    return Path(found.stdout.strip())


def no_state_yet(state: Path) -> str:
    """What a command that shows the review history says of a state file named but not there."""
    return (
        f"prep: no state database at {state}: nothing is recorded there yet (check --state or $PREP_STATE)\n"
    )


def pause_after_a_key() -> None:
    """The moment a user takes to read the next prompt: an Enter on the heels of the last input (a
    one-key choice, or the Enter that ended a line) is taken for a habit or a double press, not
    for an answer to the next prompt."""
    import time

    from prep.cli.drill_ui import STRAY_ENTER_SECONDS

    time.sleep(STRAY_ENTER_SECONDS + 0.2)


def reveal(child) -> None:  # type: ignore[no-untyped-def]
    """An empty answer, to reveal the card, typed as a user would, after reading the question."""
    pause_after_a_key()
    child.sendline("")


def terminal_env(home: Path) -> dict[str, str]:
    """The environment of `prep` in a real terminal: the test's own home, NOW, no colour."""
    return {
        **os.environ,
        "PREP_HOME": str(home),
        "PREP_NOW": NOW["PREP_NOW"],
        "NO_COLOR": "1",
        "TERM": "xterm",
    }


def spawn_prep(bank_dir: Path, state_file: Path, *args: str, env: dict, **options):  # type: ignore[no-untyped-def]
    """The installed `prep` in a real pseudo-terminal, as a user starts it, on the test bank."""
    import pexpect

    return pexpect.spawn(
        installed_prep(),
        ["--bank", str(bank_dir), "--state", str(state_file), *args],
        env=env,
        encoding="utf-8",
        timeout=20,
        **{"dimensions": (50, 110), **options},
    )


# --- the state database ----------------------------------------------------------------------


def reviews(state_file):
    if not state_file.exists():
        return []  # nothing was ever recorded: sessions that only read create no file
    db = sqlite3.connect(state_file)
    return db.execute(
        "SELECT question_id, rating, suggested, score, answer, mode FROM reviews ORDER BY id"
    ).fetchall()


def old_database(path):
    """A database as the first release wrote it: only migration 1 applied, one review."""
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT "
        "NOT NULL)"
    )
    MIGRATIONS[0](db)
    db.execute("INSERT INTO schema_migrations VALUES (1, 'm001_initial', '2026-01-01T00:00:00Z')")
    db.execute(
        "INSERT INTO reviews (question_id, reviewed_at, rating) VALUES ('dp-vs-mp', "
        "'2026-01-02T00:00:00.000000Z', 3)"
    )
    db.execute(
        "INSERT INTO cards (question_id, due, state) VALUES ('dp-vs-mp', '2026-01-03T00:00:00.000000Z', 2)"
    )
    db.commit()
    db.close()


# --- a drill without a terminal --------------------------------------------------------------


class ScriptedUI:
    """Answers from a script; records what the loop showed. Each script entry is consumed by the
    call it is meant for, so a loop that asks something unexpected fails loudly."""

    def __init__(
        self,
        answers,
        choices,
        follow_ups=(),
        interrupt_at_choice: int | None = None,
        ticks=(),
        confirms=(),
        picks=(),
    ):
        self.answers = list(answers)
        self.picks = list(picks)  # what `pick_clause` answers: a clause number, words, or None
        self.clauses_shown: list[tuple[int, tuple[str, ...]]] = []
        self.ticks = list(ticks)  # the sets of key points `t` ends with (None: cancelled)
        self.confirms = list(confirms)
        self.ticks_shown: list[set[int]] = []  # the grader's ticks (or the user's, a second time)
        self.choices = list(choices)
        self.follow_ups = list(follow_ups)
        self.interrupt_at_choice = interrupt_at_choice
        self.shown: list[tuple[str, str, int, int]] = []  # (question, reason, position, total)
        self.grades: list[tuple[str, str | None]] = []  # (question, verdict)
        self.judged_by: list[str | None] = []  # the judge model of each grade shown (None: the words)
        self.notes: list[str] = []
        self.offered: list[str] = []
        self.suggested: list[str | None] = []

    def show_card(self, question, item, position, total):
        self.shown.append((question.id, item.reason, position, total))

    def read_answer(self, question):
        if not self.answers:
            return None
        return self.answers.pop(0), 20.0

    def show_grade(self, question, graded, answer, elapsed, judged_by=None):
        self.grades.append((question.id, graded.verdict if graded else None))
        self.judged_by.append(judged_by)

    def choose(self, suggested, can_tick=True):
        self.suggested.append(suggested)
        if self.interrupt_at_choice is not None and len(self.suggested) == self.interrupt_at_choice:
            raise KeyboardInterrupt
        return self.choices.pop(0)

    def offer_follow_up(self, question):
        self.offered.append(question.id)
        return self.follow_ups.pop(0) if self.follow_ups else False

    def notify(self, message):
        self.notes.append(message)

    def edit(self, question):
        self.notes.append(f"edit {question.id}")

    def tick(self, question, ticked):
        self.ticks_shown.append(set(ticked))
        return self.ticks.pop(0)

    def confirm(self, question):
        self.notes.append(f"asked: {question}")
        return self.confirms.pop(0)

    def pick_clause(self, question, point, clauses):
        self.clauses_shown.append((point, clauses))
        return self.picks.pop(0) if self.picks else None


def rate(name):
    return Choice("rate", name)


# --- a real Anki collection ------------------------------------------------------------------

# The ways Anki's "Notes in Plain Text" export can be made: with or without HTML, with or
# without the columns naming each note's type, deck and GUID, and with a "#columns:" line
# naming the fields (which Anki reads, and a user or another tool may add).
ANKI_EXPORTS = {
    "html-all-columns": dict(
        with_html=True, with_tags=True, with_deck=True, with_notetype=True, with_guid=True
    ),
    "html-tags-only": dict(
        with_html=True, with_tags=True, with_deck=False, with_notetype=False, with_guid=False
    ),
    "html-no-tags": dict(
        with_html=True, with_tags=False, with_deck=False, with_notetype=False, with_guid=False
    ),
    "plain-all-columns": dict(
        with_html=False, with_tags=True, with_deck=True, with_notetype=True, with_guid=True
    ),
    "plain-tags-only": dict(
        with_html=False, with_tags=True, with_deck=False, with_notetype=False, with_guid=False
    ),
}


def snapshot(root: Path) -> dict[str, bytes]:
    """Every YAML file of the bank at *root*, byte for byte."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.yaml"))}


class Anki:
    """A real Anki collection holding prep's deck."""

    def __init__(self, tmp_path: Path) -> None:
        from anki.collection import Collection

        self.tmp_path = tmp_path
        self.col = Collection(str(tmp_path / "collection.anki2"))

    def import_deck(self, run, bank: Path | None = None) -> None:  # type: ignore[no-untyped-def]
        """`prep export anki` of the bank (the test bank unless *bank*), imported into Anki."""
        from anki.collection import ImportAnkiPackageRequest

        apkg = self.tmp_path / "deck.apkg"
        assert run("export", "anki", "-o", str(apkg), bank=bank).exit_code == 0
        self.col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg)))

    def note(self, qid: str):  # type: ignore[no-untyped-def]
        [nid] = self.col.find_notes(f"Id:{qid}")
        return self.col.get_note(nid)

    def edit(self, qid: str, **fields: str) -> None:
        note = self.note(qid)
        for name, value in fields.items():
            if name == "tags":
                note.tags = value.split()
            else:
                note[name] = value
        self.col.update_note(note)

    def export_text(self, name: str, columns_line: bool = False) -> Path:
        from anki.collection import DeckIdLimit

        path = self.tmp_path / f"{name}.txt"
        self.col.export_note_csv(
            out_path=str(path), limit=DeckIdLimit(self.col.decks.id("prep")), **ANKI_EXPORTS[name]
        )
        if columns_line:  # "#columns:" names every column, the metadata ones included
            text = path.read_text(encoding="utf-8")
            headers = [line for line in text.splitlines() if line.startswith("#")]
            body = text[sum(len(h) + 1 for h in headers) :]
            labels = {"guid": "GUID", "notetype": "Notetype", "deck": "Deck", "tags": "Tags"}
            count = len(body.split("\n", 1)[0].split("\t"))
            names = iter(["Prompt", "KeyPoints", "Answer", "Pitfalls", "Id"])
            meta = {int(h.split(":")[1]) - 1: labels[h[1:].split(" ")[0]] for h in headers if " column:" in h}
            row = [meta[i] if i in meta else next(names) for i in range(count)]
            path.write_text(
                "\n".join([*headers, "#columns:" + "\t".join(row)]) + "\n" + body, encoding="utf-8"
            )
        return path

    def close(self) -> None:
        self.col.close()


# --- judge models ----------------------------------------------------------------------------


class JudgeDoubles:
    """The test judges' table (answer text -> reply) and what they were sent (tests/judge_models.py)."""

    def __init__(self, table: Path, log: Path) -> None:
        self.table, self.log = table, log
        self.replies: dict[str, object] = {}

    def reply(self, answer: str, reply: object) -> None:
        """Make the table judges give *reply* (an object, or raw text) for *answer*."""
        import json

        self.replies[answer] = reply
        self.table.write_text(json.dumps(self.replies), encoding="utf-8")

    def calls(self) -> list[dict]:
        import json

        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]


def judge_config(path: Path, model: str, **settings: object) -> Path:
    """A config file whose [judge] names *model* (and *settings*), FSRS fuzzing off."""
    lines = ["[drill]", "fuzz = false", "", "[judge]", f'model = "{model}"']
    lines += [f"{key} = {value!r}".replace("'", '"') for key, value in settings.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def said(*points: tuple[int, str, str], pitfalls: tuple[tuple[int, str], ...] = ()) -> dict:
    """A judge's reply in the schema: (point, status, quote) for each point, (pitfall, quote) for
    each pitfall said."""
    return {
        "points": [{"point": n, "status": status, "quote": quote} for n, status, quote in points],
        "pitfalls": [{"pitfall": n, "said": True, "quote": quote} for n, quote in pitfalls],
    }


# --- a review history shared between two devices --------------------------------------------

TOPICS_YAML = """\
category: topics
title: Topics
questions:
  - id: q1
    prompt: First question?
    tags: [a]
    key_points: [the first point]
  - id: q2
    prompt: Second question?
    tags: [a, b]
    key_points: [the second point]
  - id: q3
    prompt: Third question?
    tags: [a]
    key_points: [the third point]
  - id: q4
    prompt: Fourth question?
    tags: [b]
    key_points: [the fourth point]
  - id: q5
    prompt: Fifth question?
    tags: [b]
    key_points: [the fifth point]
"""
T0 = "2026-03-02T09:00:00+00:00"
LATER = "2026-03-02T11:00:00+00:00"
NEXT_DAY = "2026-03-03T09:00:00+00:00"
FUZZ_ON = "[drill]\nfuzz = true\n"  # due dates spread as users have them: replayed the same


def git(where: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=prep", "-c", "user.email=prep@example.com", *args],
        cwd=where,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "CONFLICT" not in done.stdout + done.stderr
    return done.stdout + done.stderr


@dataclass
class Device:
    """One machine: its clone of the bank's repository and its own state file."""

    name: str
    clone: Path
    state: Path
    config: Path

    def run(self, *args: str, now: str = T0, input: str | None = None):  # type: ignore[no-untyped-def]
        argv = ["--bank", str(self.clone), "--state", str(self.state), "--config", str(self.config), *args]
        env = {"PREP_DEVICE": self.name, "PREP_NOW": now}
        result = CliRunner().invoke(app, argv, input=input, env=env, catch_exceptions=False)
        return result

    def drill(self, tag: str, ratings: str, now: str = T0) -> None:
        """Drill the cards of *tag*, answering each blank and rating it as *ratings* says, then
        quit (an answer of just q)."""
        script = "".join(f"\n{rating}\n" for rating in ratings) + "q\n"
        result = self.run("drill", "--tag", tag, input=script, now=now)
        assert result.exit_code == 0, result.output

    def export(self, now: str = NEXT_DAY) -> str:
        result = self.run("state", "export", now=now)
        assert result.exit_code == 0, result.output
        return result.stdout  # the export itself; what it says of the state file is on stderr

    def upcoming(self, now: str = NEXT_DAY) -> dict:
        result = self.run("next", "--json", now=now)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    def publish(self, message: str) -> None:
        git(self.clone, "add", "-A")
        git(self.clone, "commit", "-q", "-m", message)
        git(self.clone, "pull", "-q", "--no-rebase", "--no-edit")
        git(self.clone, "push", "-q")

    def pull(self) -> None:
        git(self.clone, "pull", "-q", "--no-rebase", "--no-edit")
