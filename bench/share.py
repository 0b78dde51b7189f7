"""Speed of a review history shared through the bank's folder (`prep state share`).

    python bench/share.py [--events 10000] [--runs 5]

Two measures, each a median of N runs after a warm-up, next to a floor measured in the same run
and alternated with it (machines differ; ratios travel):

- another device's 10,000 new events, taken in by `prep next` on an empty state, against
  `prep state import` of the same file into an empty state (the same merge and replay: the
  target is 1.5x); and the take-in's own time: that run less the same command with the bank's
  history/ folder moved away (nothing to take in), on an empty state too;
- warm `prep next` in a shared bank whose files did not change, against the same command with
  the bank's history/ folder moved away (nothing to look at): sharing must cost nothing
  measurable when nothing changed. A few milliseconds drown in a shared machine's wall time,
  so this one is also measured in CPU seconds, over four times as many runs.

The 1,000-question bank of bench/speed.py is used; the events (about ten reviews per question
over 90 days, as one device file) are generated with a fixed seed into bench/out/.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import speed  # noqa: E402  (bench/speed.py: the bank, the process runner and the table)

OUT = speed.OUT


def make_device_file(path: Path, events: int, questions: int, seed: int = 13) -> Path:
    """*events* reviews of *questions* questions over 90 days, as one device's file."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    lines = [json.dumps({"type": "prep-state", "version": 5, "device": "bench"}, sort_keys=True)]
    for n in range(events):
        when = start + timedelta(minutes=n * 90 * 24 * 60 / events)
        record = {
            "type": "review",
            "event": f"bench-{n:06d}",
            "question_id": f"q-{(n * 7919) % questions // 100:03d}-{(n * 7919) % questions % 100:03d}",
            "reviewed_at": when.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "rating": rng.choices((1, 2, 3, 4), weights=(1, 2, 6, 2))[0],
            "suggested": 3,
            "score": rng.randint(0, 100),
            "elapsed_seconds": 40.0,
            "answer": speed.sentence(rng, 30),
            "mode": "type",
            "content_hash": "hash",
            "verdict": "pass",
            "ticked": None,
        }
        lines.append(json.dumps(record, sort_keys=True))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def fresh(state: Path, template: Path) -> None:
    """*state* as a state file just made: migrated, empty (a copy of *template*)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{state}{suffix}").unlink(missing_ok=True)
    shutil.copy(template, state)


def make_template(path: Path, env: dict[str, str]) -> Path:
    """An empty state file at the current schema, made by prep's own store."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    code = f"from prep.state.store import Store; Store({str(path)!r}).close()"
    subprocess.run([speed.PYTHON, "-c", code], env=env, check=True)
    return path


def cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    """User and system CPU seconds of one whole process (what a loaded machine stretches least)."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed")
    return usage.ru_utime + usage.ru_stime


def alternate(
    measured: tuple[list[str], Callable[[], None]],
    floor: tuple[list[str], Callable[[], None]],
    env: dict[str, str],
    runs: int,
    *,
    cpu: bool = False,
) -> tuple[float, float]:
    """Medians of two commands run alternately, each after its own preparation: wall seconds,
    or with *cpu* CPU seconds."""
    times: dict[int, list[float]] = {0: [], 1: []}
    for turn in range(runs + 1):  # the first round warms up
        for index, (argv, prepare) in enumerate((measured, floor)):
            prepare()
            seconds = cpu_seconds(argv, env) if cpu else speed.run(argv, env)[0]
            if turn:
                times[index].append(seconds)
    return statistics.median(times[0]), statistics.median(times[1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    home = OUT / "home"
    env = {**os.environ, "PREP_HOME": str(home), "PYTHONPATH": str(speed.ROOT), "NO_COLOR": "1"}
    env["PREP_NOW"] = "2026-04-01T09:00:00+00:00"
    env.pop("PREP_DEVICE", None)
    subprocess.run([speed.PYTHON, "-m", "compileall", "-q", str(speed.ROOT / "prep")], check=True)
    plain = speed.make_bank(OUT / f"bank-{args.questions}", args.questions)
    shared = OUT / f"bank-{args.questions}-shared"
    if not shared.is_dir():
        shutil.copytree(plain, shared)
    shutil.rmtree(shared / "history", ignore_errors=True)
    events = make_device_file(OUT / f"device-{args.events}.jsonl", args.events, args.questions)
    (shared / "history").mkdir()
    shutil.copy(events, shared / "history" / "bench.jsonl")
    taking, importing = OUT / "share-take-in.sqlite3", OUT / "share-import.sqlite3"
    template = make_template(OUT / "share-empty.sqlite3", env)
    table = speed.Table()

    take_in = speed.PREP + ["--bank", str(shared), "--state", str(taking), "next", "--json"]
    import_ = speed.PREP + ["--bank", str(plain), "--state", str(importing), "state", "import", str(events)]
    value, floor = alternate(
        (take_in, lambda: fresh(taking, template)),
        (import_, lambda: fresh(importing, template)),
        env,
        args.runs,
    )
    table.add(
        f"{args.events} new events taken in by prep next", value, "prep state import, same", floor, "<= 1.5"
    )
    # The same command with nothing to take in (the history folder moved away): what is left is
    # the take-in, with the loading of the checks it needs (pydantic).
    parked = shared.with_name(shared.name + "-history")

    def history_back() -> None:
        if parked.exists():
            parked.rename(shared / "history")

    def history_away() -> None:
        if (shared / "history").exists():
            (shared / "history").rename(parked)

    def unshared() -> None:
        history_away()
        fresh(taking, template)

    def shared_again() -> None:
        history_back()
        fresh(taking, template)

    value, floor = alternate((take_in, shared_again), (take_in, unshared), env, args.runs)
    history_back()
    table.add(f"  the take-in alone ({args.events} events)", value - floor, "one second", 1.0, "<= 1.0")
    speed.run(take_in, env)  # taken in: from now on nothing is new
    value, floor = alternate((take_in, history_back), (take_in, history_away), env, args.runs)
    table.add("prep next --json, shared, nothing new", value, "same bank, not shared", floor, "(info)")
    value, floor = alternate((take_in, history_back), (take_in, history_away), env, 4 * args.runs, cpu=True)
    history_back()
    table.add("  the same, CPU seconds", value, "same bank, not shared", floor, "<= 1.05", "s cpu")


if __name__ == "__main__":
    main()
