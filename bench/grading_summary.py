"""Every labelled set in one table, tuning and held-out apart: the figures a user feels.

    python bench/grading_summary.py      # or through bench/grading.py (printed first)

Per set: binary pass accuracy, false passes (wrong answers that pass: the worst error), missed
passes, confident errors (wrong answers passed + correct answers failed), and the share of
`unsure` verdicts (the words could not decide; the user ticks or rates). Bundled questions are
graded as written and cut to their text (as a user writes a key point). Then the two targeted
figures: swapped and reversed claims on bundled questions beside their correct counterparts, and
the user-written questions.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from grading import cut_phrasings, load_attempts  # noqa: E402

from prep.bank.contents import Bank  # noqa: E402
from prep.bank.load import load_bank  # noqa: E402
from prep.grading.grade import grade  # noqa: E402
from prep.paths import BankLocation  # noqa: E402

# (folder, role, whose questions): "bundled" sets answer the bank's own questions.
SETS = (
    (".", "tuning", "bundled"),
    ("teach-tuning", "tuning", "bundled"),
    ("swaps-tuning", "tuning", "bundled"),
    ("swap-tuning", "tuning", "own"),
    ("user-tuning", "tuning", "own"),
    ("user-tuning-speech", "tuning", "own"),
    ("reversal-tuning", "tuning", "own"),
    ("heldout", "held-out", "bundled"),
    ("heldout-teach", "held-out", "bundled"),
    ("robot-learning", "held-out", "bundled"),
    ("swaps-heldout", "held-out", "bundled"),
    ("authored", "held-out", "own"),
    ("user-heldout", "held-out", "own"),
)


def verdicts(bank: Bank, attempts: list[dict], prepared: bool) -> list[tuple[dict, str]]:
    return [
        (
            a,
            grade(
                bank.questions[a["question"]],
                bank.answer_text(a["question"]) if prepared else None,
                a["answer"],
            ).verdict,
        )
        for a in attempts
    ]


def row(graded: list[tuple[dict, str]]) -> dict[str, float | int]:
    wrong = [v for a, v in graded if a["label"] == "fail"]
    right = [v for a, v in graded if a["label"] == "pass"]
    n = len(graded)
    return {
        "n": n,
        "binary": sum((a["label"] == "pass") == (v == "pass") for a, v in graded) / n,
        "false passes": f"{wrong.count('pass')}/{len(wrong)}",
        "missed passes": f"{sum(v != 'pass' for v in right)}/{len(right)}",
        "confident errors": f"{wrong.count('pass') + right.count('fail')}/{n}",
        "unsure": sum(v == "unsure" for _, v in graded) / n,
    }


def report(data: Path) -> None:
    bundled = load_bank(BankLocation(ROOT, "bench"))
    text_only = cut_phrasings(bundled, 0)
    print("Every labelled set (tuning: rules were chosen on it; held-out: only measured)")
    print(f"  {'set':36s} {'role':9s} {'n':>4s} {'binary':>7s} {'false pass':>11s} {'missed pass':>12s} "
          f"{'conf. errors':>13s} {'unsure':>7s}")  # fmt: skip
    for folder, role, whose in SETS:
        attempts = load_attempts(data / folder)
        if not attempts:
            continue
        name = "bundled tuning" if folder == "." else folder
        if whose == "own":
            if not (data / folder / "questions").is_dir():
                continue
            banks = [("own questions", load_bank(BankLocation(data / folder, "bench")), False)]
        else:
            banks = [("as written", bundled, True), ("text only", text_only, True)]
        for label, bank, prepared in banks:
            r = row(verdicts(bank, attempts, prepared))
            cells = f"{r['n']:4d} {r['binary']:7.3f} {r['false passes']:>11s} {r['missed passes']:>12s}"
            errors, unsure = r["confident errors"], r["unsure"]
            print(f"  {name + ', ' + label:36s} {role:9s} {cells} {errors:>13s} {unsure:7.2f}")
    print()
    _report_swaps(data, bundled)
    _report_user(data)


def _report_swaps(data: Path, bundled: Bank) -> None:
    print("Swapped and reversed claims on bundled questions (target: at most 3 of 24 pass, while at")
    print("least 20 of their 24 correct counterparts pass)")
    for folder in ("swaps-tuning", "swaps-heldout"):
        attempts = load_attempts(data / folder)
        if not attempts:
            continue
        graded = verdicts(bundled, attempts, True)
        bad = [v for a, v in graded if a["label"] == "fail"]
        good = [v for a, v in graded if a["label"] == "pass"]
        by_kind = {k: [v for a, v in graded if a["kind"] == k] for k in ("swapped", "reversed")}
        kinds = ", ".join(f"{k} {vs.count('pass')}/{len(vs)}" for k, vs in by_kind.items())
        print(f"  {folder:14s} wrong that pass {bad.count('pass')}/{len(bad)} ({kinds}); "
              f"correct that pass {good.count('pass')}/{len(good)}")  # fmt: skip
    print()


def _report_user(data: Path) -> None:
    print("User-written questions (one phrasing per key point; targets on 30 answers: at most 1 of 12")
    print("wrong answers pass, at most 2 confident errors, at least 40% of verdicts confident, at")
    print("least 5 of 18 correct answers pass)")
    for folder in (
        "user-tuning",
        "user-tuning-speech",
        "reversal-tuning",
        "swap-tuning",
        "user-heldout",
        "authored",
    ):
        attempts = load_attempts(data / folder)
        if not attempts or not (data / folder / "questions").is_dir():
            continue
        graded = verdicts(load_bank(BankLocation(data / folder, "bench")), attempts, False)
        wrong = [v for a, v in graded if a["label"] == "fail"]
        right = [v for a, v in graded if a["label"] == "pass"]
        confident = sum(v != "unsure" for _, v in graded) / len(graded)
        errors = wrong.count("pass") + right.count("fail")
        kinds = sorted({a["kind"] for a, _ in graded if a["label"] == "fail"})
        of_kind = {k: [v for a, v in graded if a["kind"] == k] for k in kinds}
        by_kind = ", ".join(f"{k} {vs.count('pass')}/{len(vs)}" for k, vs in of_kind.items())
        print(
            f"  {folder:18s} wrong pass {wrong.count('pass')}/{len(wrong)}, "
            f"confident errors {errors}/{len(graded)}, confident {confident:.0%}, "
            f"correct pass {right.count('pass')}/{len(right)}\n  {'':18s} wrong that pass by kind: {by_kind}"
        )
    print()


if __name__ == "__main__":
    report(ROOT / "bench" / "data")
