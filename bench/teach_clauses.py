"""Which words teaching stores for each key point, against hand labels.

    python bench/teach_clauses.py            # the tuning and held-out clause sets

The sets (bench/data/clauses-*) are correct multi-sentence answers to questions written with one
phrasing per key point, each key point labelled with the shortest stretch of the answer that says
it; written by people who never saw the grader. Every labelled key point is taught from its
answer twice: alone (`--point N`), and with all the answer's labelled points at once (`t` with
every point ticked). Each outcome is one of:

  own words    the stored words hold (60% or more of) the point's labelled stretch, and no other
               point's stretch
  another's    the stored words hold (half or more of) another point's stretch: the error that
               makes a wrong answer gain credit; target at most 2 in 96
  fragment     neither (a piece of the point, or words that say no point)
  refused      nothing stored: no clause clearly says the point, so the drill lists the clauses
               and asks which one does (`prep teach` refuses, naming them)

The rules of teaching were chosen on clauses-tuning; clauses-heldout was only measured.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prep.bank.load import load_bank  # noqa: E402
from prep.grading.teach import Lesson, try_lessons  # noqa: E402
from prep.paths import BankLocation  # noqa: E402

OUTCOMES = ("own words", "another's", "fragment", "refused")


def _interval(answer: str, text: str) -> tuple[int, int] | None:
    at = answer.find(text)
    if at < 0:
        at = answer.casefold().find(text.casefold())
    return (at, at + len(text)) if at >= 0 else None


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def outcome(answer: str, labels: dict[int, str | None], point: int, item: object) -> str:
    """What teaching stored for *point*, judged against the labelled stretches."""
    if not isinstance(item, Lesson):
        return "refused"
    stored, own = _interval(answer, item.phrasing), _interval(answer, labels[point] or "")
    if stored is None or own is None:
        return "fragment"
    holds_own = _overlap(stored, own) >= 0.6 * (own[1] - own[0])
    for other, text in labels.items():
        span = _interval(answer, text) if other != point and text else None
        if span and not _overlap(span, own) and _overlap(stored, span) >= 0.5 * (span[1] - span[0]):
            return "another's"
    return "own words" if holds_own else "fragment"


def measure(folder: Path) -> dict[str, Counter]:
    bank = load_bank(BankLocation(folder, "bench"))
    tallies = {"alone": Counter(), "all at once": Counter()}
    for path in sorted(folder.glob("attempts*.yaml")):
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")):
            question, answer = bank.questions[entry["question"]], entry["answer"].strip()
            labels = {int(k): v for k, v in entry["points"].items()}
            said = [p for p, text in labels.items() if text]
            for point in said:
                tallies["alone"][
                    outcome(answer, labels, point, try_lessons(question, answer, [point])[0])
                ] += 1
            for point, item in zip(said, try_lessons(question, answer, said)):
                tallies["all at once"][outcome(answer, labels, point, item)] += 1
    return tallies


def report(data: Path) -> None:
    print("Teaching: the words stored for each key point, against hand labels")
    print(f"  {'set':16s} {'taught':12s} {'n':>4s} " + " ".join(f"{o:>11s}" for o in OUTCOMES))
    for name in ("clauses-tuning", "clauses-heldout"):
        folder = data / name
        if not (folder / "questions").is_dir():
            continue
        for mode, tally in measure(folder).items():
            n = sum(tally.values())
            print(f"  {name:16s} {mode:12s} {n:4d} " + " ".join(f"{tally[o]:11d}" for o in OUTCOMES))
    print()


if __name__ == "__main__":
    report(ROOT / "bench" / "data")
