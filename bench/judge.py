"""Judge benchmark: a judge model on every labelled set, alone and in the cascade prep runs.

    python bench/judge.py --model MODEL            # an llm model id or alias (pip install 'prep[judge]')
    python bench/judge.py --model MODEL --cache F  # keep replies in a state file: a rerun asks nothing
    python bench/judge.py --model MODEL --limit 5  # the first 5 attempts of each set (a quick look)

For each set of labelled attempts under bench/data (every attempts*.yaml whose items carry a
label; a folder with questions/ is its own bank, the others are the bundled bank's), three
graders: the words alone (prep's word-level grade), the judge alone (every answer judged,
`when = "always"`), and the cascade (words first, the judge for the answers they call unsure,
the default `when = "unsure"`). The figures are those of bench/grading.py: binary pass accuracy,
false passes on fail-labelled, missed passes on pass-labelled; and confident errors (wrong
answers passed plus correct answers failed), the share left unsure, how often the judge failed
(error, malformed reply, timeout: the words' grade stands), and seconds per answer.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prep.bank.contents import Bank
from prep.bank.load import load_bank
from prep.clock import now
from prep.config import JudgeConfig
from prep.errors import PrepError
from prep.grading.grade import grade
from prep.paths import BankLocation
from prep.review.judge import Judge

LABELS = ("fail", "partial", "pass")


@dataclass
class Tally:
    """One grader's verdicts on one set, against the labels."""

    pairs: list[tuple[str, str]] = field(default_factory=list)  # (label, verdict)
    seconds: float = 0.0
    failures: int = 0

    def figures(self) -> dict[str, float]:
        n = max(1, len(self.pairs))
        fails = max(1, sum(lab == "fail" for lab, _ in self.pairs))
        passes = max(1, sum(lab == "pass" for lab, _ in self.pairs))
        return {
            "binary pass accuracy": sum((lab == "pass") == (v == "pass") for lab, v in self.pairs) / n,
            "false passes on fail-labelled": sum(lab == "fail" and v == "pass" for lab, v in self.pairs)
            / fails,
            "missed passes on pass-labelled": sum(lab == "pass" and v != "pass" for lab, v in self.pairs)
            / passes,
            "confident errors": float(
                sum((lab, v) in (("fail", "pass"), ("pass", "fail")) for lab, v in self.pairs)
            ),
            "share unsure": sum(v == "unsure" for _, v in self.pairs) / n,
            "judge failures": float(self.failures),
            "seconds per answer": self.seconds / n,
        }


def labelled_sets(data: Path) -> list[tuple[str, Path, list[dict]]]:
    """(name, bank root, attempts) of every folder of labelled attempts under *data*."""
    found = []
    for folder in [data, *sorted(p for p in data.iterdir() if p.is_dir())]:
        attempts = []
        for path in sorted(folder.glob("attempts*.yaml")):
            items = yaml.safe_load(path.read_text(encoding="utf-8")) or []
            attempts += [a for a in items if isinstance(a, dict) and a.get("label") in LABELS]
        if attempts:
            bank_root = folder if (folder / "questions").is_dir() else ROOT
            found.append(
                (folder.name if folder != data else "bundled bank (bench/data)", bank_root, attempts)
            )
    return found


def run_set(bank: Bank, attempts: list[dict], judge: Judge) -> dict[str, Tally]:
    words, alone, cascade = Tally(), Tally(), Tally()
    for attempt in attempts:
        question, label = bank.question(attempt["question"]), attempt["label"]
        prepared = bank.answer_text(question.id)
        started = time.perf_counter()
        graded = grade(question, prepared, attempt["answer"])
        words.seconds += time.perf_counter() - started
        started = time.perf_counter()
        judged = judge.review(question, prepared, attempt["answer"], graded)
        took = time.perf_counter() - started
        outcome = judged.judge
        failed = outcome is None or not outcome.used
        words.pairs.append((label, graded.verdict))
        alone.pairs.append((label, "error" if failed else judged.grade.verdict))
        alone.seconds += took
        alone.failures += failed
        if graded.verdict == "unsure":  # the cascade asks the judge only here
            cascade.pairs.append((label, graded.verdict if failed else judged.grade.verdict))
            cascade.seconds += took
            cascade.failures += failed
        else:
            cascade.pairs.append((label, graded.verdict))
    cascade.seconds += words.seconds
    return {"words alone": words, "judge alone": alone, "cascade": cascade}


def report(name: str, n: int, tallies: dict[str, Tally]) -> None:
    print(f"{name}: {n} attempts")
    columns = list(tallies)
    print(f"  {'figure':32s}" + "".join(f"{c:>14s}" for c in columns))
    rows = {c: t.figures() for c, t in tallies.items()}
    for figure in rows[columns[0]]:
        cells = []
        for c in columns:
            value = rows[c][figure]
            whole = figure in ("confident errors", "judge failures")
            cells.append(f"{value:14.0f}" if whole else f"{value:14.3f}")
        print(f"  {figure:32s}" + "".join(cells))
    print()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", required=True, help="the llm model id or alias to judge with")
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data", help="folder of labelled sets")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for each reply")
    parser.add_argument("--limit", type=int, help="only the first N attempts of each set")
    parser.add_argument("--cache", type=Path, help="a state file that keeps replies between runs")
    args = parser.parse_args()
    store = None
    if args.cache:
        from prep.state.store import Store

        store = Store(args.cache)
    judge = Judge(JudgeConfig(args.model, "always", args.timeout, (args.model,)), cache=store, clock=now)
    try:
        judge.model()  # an unknown model or a missing llm stops here, with prep's message
    except PrepError as error:
        sys.exit(f"bench/judge.py: {error.message}")
    print(f"Judge: {args.model} (timeout {args.timeout:g} s{', replies cached' if store else ''})\n")
    total: dict[str, Tally] = {"words alone": Tally(), "judge alone": Tally(), "cascade": Tally()}
    for name, bank_root, attempts in labelled_sets(args.data):
        attempts = attempts[: args.limit] if args.limit else attempts
        bank = load_bank(BankLocation(bank_root, "bench"))
        tallies = run_set(bank, attempts, judge)
        report(name, len(attempts), tallies)
        for column, tally in tallies.items():
            total[column].pairs += tally.pairs
            total[column].seconds += tally.seconds
            total[column].failures += tally.failures
    report("All sets", len(total["words alone"].pairs), total)


if __name__ == "__main__":
    main()
