"""Speed and memory of whole `prep` processes on generated 1,000- and 10,000-question banks.

    python bench/speed.py [--sizes 1000 10000] [--runs 5]

Every figure is the median of N runs after a warm-up, printed next to a floor measured in the
same run on the same machine, and as a ratio to it (machines differ; ratios travel). `prep plan`
(an interview 30 days ahead, 45 minutes a day) is measured against warm `prep next`. Peak RSS
comes from wait4(). Banks: 4 key points and a 100-word answer per question, 100 questions per
file; review history: 100,000 reviews. Generated data is reproducible (fixed seed) and lives in
bench/out/.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
PYTHON = sys.executable
PREP = [PYTHON, "-m", "prep"]

WORDS = (
    "gradient tensor pipeline shard replica kernel memory bandwidth latency throughput batch optimizer "
    "attention token layer norm precision scaling checkpoint cluster node network collective reduce "
    "gather scatter buffer stream graph compile fusion cache warp block thread register occupancy "
    "roofline compute bound model parameter activation sequence context expert router loss reward "
    "policy preference dataset sample filter dedup quality metric benchmark regression eval"
).split()


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def make_bank(root: Path, size: int, seed: int = 7) -> Path:
    """A bank of *size* questions: 100 per file, 4 key points and a 100-word answer each."""
    if (root / "questions").is_dir() and len(list((root / "questions").glob("*.yaml"))) == size // 100:
        return root
    shutil.rmtree(root, ignore_errors=True)
    (root / "questions").mkdir(parents=True)
    (root / "answers").mkdir()
    rng = random.Random(seed)
    for f in range(size // 100):
        q_lines = [f"category: cat-{f:03d}", f"title: Category {f}", "questions:"]
        a_lines = ["answers:"]
        for i in range(100):
            qid = f"q-{f:03d}-{i:03d}"
            q_lines += [
                f"  - id: {qid}",
                f"    prompt: How does {sentence(rng, 9)} work in practice number {f * 100 + i}?",
                "    kind: technical",
                f"    difficulty: {rng.randint(1, 3)}",
                f"    tags: [{rng.choice(WORDS)}, {rng.choice(WORDS)}]",
                "    target_seconds: 60",
                "    key_points:",
            ]
            for _ in range(4):
                q_lines += [
                    f"      - text: {sentence(rng, 7)}",
                    f"        aliases: [{sentence(rng, 4)}, {sentence(rng, 5)}]",
                ]
            q_lines.append(f"    pitfalls: [{sentence(rng, 6)}]")
            a_lines += [f"  - question: {qid}", "    source: model", "    answer: >"]
            a_lines += [f"      {sentence(rng, 10)}" for _ in range(10)]
        (root / "questions" / f"cat-{f:03d}.yaml").write_text("\n".join(q_lines) + "\n")
        (root / "answers" / f"cat-{f:03d}.yaml").write_text("\n".join(a_lines) + "\n")
    return root


def make_history(path: Path, bank_size: int, reviews: int = 100_000, seed: int = 11) -> Path:
    """A state database with *reviews* reviews over 90 days, written through prep's own store."""
    if path.exists():
        with sqlite3.connect(path) as db:
            if db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0] == reviews:
                return path
        path.unlink()
    sys.path.insert(0, str(ROOT))
    from prep.config import SchedulerConfig
    from prep.rating import Rating
    from prep.review.scheduler import Scheduler
    from prep.state.cards import format_time, new_card
    from prep.state.store import Store

    rng = random.Random(seed)
    scheduler = Scheduler(SchedulerConfig(fuzz=False))
    start = datetime(2026, 1, 1, tzinfo=UTC)
    ids = [f"q-{i // 100:03d}-{i % 100:03d}" for i in range(bank_size)]
    cards = {}
    rows = []
    for n in range(reviews):
        qid = ids[rng.randrange(min(len(ids), 4000))]  # a realistic working set
        when = start + timedelta(minutes=n * 90 * 24 * 60 / reviews)
        before = cards.get(qid)
        rating = rng.choices(tuple(Rating), weights=[1, 2, 6, 2])[0]
        after = scheduler.review(before or new_card(qid, when), rating, when)
        cards[qid] = after
        rows.append(
            (
                qid,
                format_time(when),
                int(rating),
                3,
                rng.randint(0, 100),
                40.0,
                sentence(rng, 30),
                "type",
                "hash",
            )
        )
    with Store(path) as store:
        with store.transaction() as db:
            db.executemany(
                "INSERT INTO reviews (question_id, reviewed_at, rating, suggested, score, elapsed_seconds,"
                " answer, mode, content_hash) VALUES (?,?,?,?,?,?,?,?,?)",
                rows,
            )
        for card in cards.values():
            store.save_card(card, "hash")
    return path


def plan_config(folder: Path) -> Path:
    """A config with an interview 30 days after the pinned clock, at 45 minutes a day."""
    path = folder / "plan.toml"
    path.write_text("[interview]\ndate = 2026-05-01\nminutes_per_day = 45\n")
    return path


def measure_plan(table: Table, base: list[str], env: dict[str, str], runs: int, size: int) -> None:
    """`prep plan --json` against warm `prep next --json` (both answered before typer loads)."""
    plan = base + ["--config", str(plan_config(OUT)), "plan", "--json"]
    value, floor, _, _ = paired(plan, [base + ["next", "--json"]], env, runs)
    table.add(f"prep plan --json, {size} q, 100k reviews", value, "prep next --json, warm", floor, "<= 1.5")


def measure_stats(
    table: Table, base: list[str], env: dict[str, str], runs: int, size: int, deps_floor: list[str]
) -> None:
    value, floor, _, _ = paired(base + ["stats", "--json"], [deps_floor], env, runs)
    table.add(f"prep stats --json, {size} q, 100k reviews", value, "import all deps", floor, "<= 0.3 s")


def measure_tab(table: Table, bank: Path, home: Path, env: dict[str, str], runs: int, size: int) -> None:
    """Tab after `prep show q-012-` in bash (100 ids) against reading the ids and prompts of the
    cached question index in a bare `python -c`: the least any answer from the cache costs."""
    sys.path.insert(0, str(ROOT))
    from prep.bank.cache import BankCache
    from prep.paths import BankLocation

    cache = BankCache(BankLocation(bank, "option"), directory=home / "cache")
    cache.close()
    words = f"prep --bank {bank} show q-012-"
    tab = {**env, "_PREP_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": "4"}
    read = (
        "import sqlite3, sys\n"
        "sqlite3.connect(sys.argv[1]).execute('SELECT id, prompt FROM qindex').fetchall()"
    )
    value, floor, _, _ = paired(PREP, [[PYTHON, "-c", read, str(cache.path)]], tab, runs)
    table.add(
        f"Tab: ids after `prep show q-012-`, {size} q", value, "read the cached index", floor, "<= 0.15 s"
    )


def run(argv: list[str], env: dict[str, str]) -> tuple[float, int, int]:
    """Wall seconds, peak RSS in MB and exit status of one whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode not in (0,):
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {stderr[-500:]}")
    return elapsed, usage.ru_maxrss // 1024, proc.returncode


def measure(argv: list[str], env: dict[str, str], runs: int, before=None) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    if before:
        before()
    run(argv, env)  # warm-up
    times, peaks = [], []
    for _ in range(runs):
        if before:
            before()
        t, peak, _ = run(argv, env)
        times.append(t)
        peaks.append(peak)
    return statistics.median(times), max(peaks)


def paired(argv: list[str], floor: list[list[str]], env: dict[str, str], runs: int, before=None):  # type: ignore[no-untyped-def]
    """Median of a command and of its floor, run alternately so machine drift hits both alike.

    *floor* is a list of commands whose times add up to the floor (e.g. parse + imports).
    Returns (command seconds, floor seconds, command peak MB, floor peak MB).
    """
    run(argv, env)
    for f in floor:
        run(f, env)
    times, floors, peaks, floor_peaks = [], [], [], []
    for _ in range(runs):
        if before:
            before()
        t, peak, _ = run(argv, env)
        parts = [run(f, env) for f in floor]
        times.append(t)
        peaks.append(peak)
        floors.append(sum(p[0] for p in parts))
        floor_peaks.append(max(p[1] for p in parts))
    return statistics.median(times), statistics.median(floors), max(peaks), max(floor_peaks)


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, float, str, float, str, str]] = []

    def add(
        self, name: str, value: float, floor_name: str, floor: float, target: str, unit: str = "s"
    ) -> None:
        self.rows.append((name, value, floor_name, floor, target, unit))
        ratio = value / floor if floor else float("nan")
        print(
            f"{name:48s} {value:8.3f}{unit:2s} floor {floor:7.3f}{unit:2s} ({floor_name}) "
            f"ratio {ratio:5.2f}  target {target}",
            flush=True,
        )

    def markdown(self) -> str:
        lines = ["| measure | value | floor | floor is | ratio | target |", "|---|---|---|---|---|---|"]
        for name, value, floor_name, floor, target, unit in self.rows:
            ratio = f"{value / floor:.2f}" if floor else "—"
            lines.append(
                f"| {name} | {value:.3f} {unit} | {floor:.3f} {unit} | {floor_name} | {ratio} | {target} |"
            )
        return "\n".join(lines)


def measure_only(
    only: str, table: Table, size: int, env: dict[str, str], runs: int, home: Path, deps_floor: list[str]
) -> None:
    """One measure of one bank size (--only): the plan, Tab or stats."""
    bank = make_bank(OUT / f"bank-{size}", size)
    base = PREP + ["--bank", str(bank), "--state", str(make_history(OUT / f"state-{size}.sqlite3", size))]
    run(base + ["next"], env)  # fills the parsed-bank cache
    if only == "plan":
        measure_plan(table, base, env, runs, size)
    elif only == "tab":
        measure_tab(table, bank, home, env, runs, size)
    else:
        measure_stats(table, base, env, runs, size, deps_floor)


def measure_size(
    table: Table, size: int, env: dict[str, str], runs: int, home: Path, deps_floor: list[str]
) -> None:
    """Every measure of one bank size."""
    bank = make_bank(OUT / f"bank-{size}", size)
    state = make_history(OUT / f"state-{size}.sqlite3", size)
    files = sorted((bank / "questions").glob("*.yaml")) + sorted((bank / "answers").glob("*.yaml"))
    parse = "import yaml,sys\nfor f in sys.argv[1:]:\n    yaml.load(open(f), Loader=yaml.CSafeLoader)"
    parse_floor = [[PYTHON, "-c", parse, *map(str, files)], deps_floor]
    base = PREP + ["--bank", str(bank), "--state", str(state)]
    cache_dir = home / "cache"

    def clear_cache(cache_dir: Path = cache_dir) -> None:
        shutil.rmtree(cache_dir, ignore_errors=True)

    value, floor, _, _ = paired(base + ["next", "--json"], parse_floor, env, runs, before=clear_cache)
    table.add(f"prep next, cold, {size} questions", value, "libyaml parse + imports", floor, "<= 1.3")
    run(base + ["next"], env)
    value, floor, peak, floor_peak = paired(base + ["next", "--json"], [deps_floor], env, runs)
    table.add(f"prep next, warm, {size} q, 100k reviews", value, "import all deps", floor, "<= 1.3")
    table.add(f"peak memory, warm next, {size} q", peak, "import all deps", floor_peak, "<= 150 MB", "MB")
    measure_plan(table, base, env, runs, size)
    touched = files[0]

    def touch(touched: Path = touched) -> None:  # an edit of one file: only it is re-parsed
        touched.write_text(touched.read_text())

    value, floor, _, _ = paired(base + ["next", "--json"], [deps_floor], env, runs, before=touch)
    table.add(f"prep next after editing 1 of {len(files)} files", value, "import all deps", floor, "(info)")
    value, floor, _, _ = paired(base + ["validate", "--json"], parse_floor, env, max(1, runs // 2))
    table.add(
        f"prep validate (with near-duplicates), {size} q",
        value,
        "libyaml parse + imports",
        floor,
        "<= 10 s",
    )
    measure_tab(table, bank, home, env, runs, size)
    measure_stats(table, base, env, runs, size, deps_floor)
    value, floor, _, _ = paired(base + ["export", "cram"], [deps_floor], env, max(1, runs // 2))
    table.add(f"prep export cram, {size} q", value, "import all deps", floor, "<= 2 s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--markdown", type=Path, help="also write the table as markdown to this file")
    parser.add_argument(
        "--only-plan", action="store_true", help="measure only `prep plan` against `prep next`"
    )
    parser.add_argument(
        "--only",
        choices=["plan", "tab", "stats"],
        help="measure only `prep plan` (as --only-plan), Tab completion of ids, or `prep stats --json`",
    )
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    home = OUT / "home"
    env = {
        **os.environ,
        "PREP_HOME": str(home),
        "PYTHONPATH": str(ROOT),
        "NO_COLOR": "1",
        "PREP_NOW": "2026-04-01T09:00:00+00:00",
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([PYTHON, "-m", "compileall", "-q", str(ROOT / "prep")], check=True)
    table = Table()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.platform()}"
    )

    deps = "import typer, yaml, rich, rich.console, pydantic, rapidfuzz, fsrs, platformdirs, numpy, sqlite3"
    typer_floor = [PYTHON, "-c", "import typer"]
    deps_floor = [PYTHON, "-c", deps]
    value, floor, _, _ = paired(PREP + ["--help"], [typer_floor], env, args.runs)
    table.add("prep --help", value, "import typer", floor, "<= 1.3")

    only = "plan" if args.only_plan else args.only
    for size in args.sizes:
        if only:
            measure_only(only, table, size, env, args.runs, home, deps_floor)
        else:
            measure_size(table, size, env, args.runs, home, deps_floor)
    if only:
        return

    grading = subprocess.run(
        [PYTHON, str(ROOT / "bench" / "grading.py"), "--timing-only"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    print(grading.stdout.strip())
    if args.markdown:
        args.markdown.write_text(table.markdown() + "\n")


if __name__ == "__main__":
    main()
