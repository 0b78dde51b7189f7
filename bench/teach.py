"""Teaching benchmark: how much teaching the grader from one correct answer helps it grade the
other answers to the same question, and whether it lets more wrong answers through.

    python bench/teach.py            # the words stored (bench/teach_clauses.py), then every
                                     # labelled set, key points cut to their text
    python bench/teach.py --every    # also: the mean over every choice of the correct answer taught

First, which words teaching stores for each key point, against hand labels (see
bench/teach_clauses.py). Then, for each question of a set, as a user who wrote it would have it
(each key point its text alone; the authored set is written that way), the first attempt
labelled pass is taught: each key point the grader did not find in it is taught from it, as `t`
in a drill does where a clause clearly says it (a point no clause clearly says, which the drill
would ask the user to show, or whose words are refused, is counted as refused and skipped).
Then the question's other attempts are graded before and after. Printed per set: how often the
taught attempt itself passes afterwards when every point it missed was taught (target 100%),
correct answers missed (labelled pass, not graded pass) and false passes (labelled fail, graded
pass) before and after; the target is that false passes rise by at most one attempt on every set.

Every set was written by people who never saw the grader. The rules of teaching were chosen
on the teaching tuning set (half of the questions of the held-out set, with two more correct
answers and one more wrong one each) and on the grading tuning set; the held-out set (the other
half, likewise), the authored and the robot-learning sets were only measured.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from grading import cut_phrasings, load_attempts  # noqa: E402

from prep.bank.contents import Bank  # noqa: E402
from prep.bank.load import load_bank  # noqa: E402
from prep.grading.grade import grade, ticked_points  # noqa: E402
from prep.grading.teach import Lesson, taught_question, try_lessons  # noqa: E402
from prep.paths import BankLocation  # noqa: E402


@dataclass
class Tally:
    questions: int = 0
    points_taught: int = 0
    refused: int = 0
    taught_attempts: int = 0
    taught_attempts_pass: int = 0
    # Why a taught answer still does not pass: rules teaching leaves alone on purpose.
    still_failing: Counter = field(default_factory=Counter)
    correct: int = 0  # other attempts labelled pass
    wrong: int = 0  # other attempts labelled fail
    missed: list[int] = field(default_factory=lambda: [0, 0])  # before, after
    false_passes: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, Counter):
                setattr(self, name, mine + value)
            elif isinstance(value, list):
                setattr(self, name, [a + b for a, b in zip(mine, value)])
            else:
                setattr(self, name, mine + value)


def teach_from(bank: Bank, qid: str, answer: str) -> tuple[Bank, int, int]:
    """The bank with *answer* taught to each key point the grader missed in it, as `t` in a drill
    teaches them; and how many points were taught and refused."""
    question = bank.questions[qid]
    graded = grade(question, bank.answer_text(qid), answer)
    missed = sorted(set(range(1, len(question.key_points) + 1)) - ticked_points(question, graded))
    tried = try_lessons(question, answer, missed) if missed else []
    found = [item for item in tried if isinstance(item, Lesson)]
    taught = taught_question(question, found)
    return _with_question(bank, taught), len(found), len(tried) - len(found)


def _with_question(bank: Bank, question) -> Bank:  # type: ignore[no-untyped-def]
    import dataclasses

    return dataclasses.replace(bank, questions={**bank.questions, question.id: question})


def replay(bank: Bank, attempts: list[dict], teacher_index: int = 0) -> Tally:
    """Teach each question from its *teacher_index*-th correct attempt; grade the others."""
    tally = Tally()
    by_question: dict[str, list[dict]] = defaultdict(list)
    for attempt in attempts:
        by_question[attempt["question"]].append(attempt)
    for qid, group in by_question.items():
        correct = [a for a in group if a["label"] == "pass"]
        if len(correct) <= teacher_index or not bank.questions[qid].key_points:
            continue
        teacher = correct[teacher_index]
        taught, points, refused = teach_from(bank, qid, teacher["answer"])
        tally.questions += 1
        tally.points_taught += points
        tally.refused += refused
        if not refused:  # every point it missed was taught: it should now pass
            tally.taught_attempts += 1
            after = grade(taught.questions[qid], taught.answer_text(qid), teacher["answer"])
            tally.taught_attempts_pass += after.verdict == "pass"
            if after.verdict != "pass":
                tally.still_failing[_reason(after)] += 1
        for attempt in group:
            if attempt is teacher or attempt["label"] == "partial":
                continue
            before, after = _verdict(bank, qid, attempt["answer"]), _verdict(taught, qid, attempt["answer"])
            if attempt["label"] == "pass":
                tally.correct += 1
                tally.missed[0] += before != "pass"
                tally.missed[1] += after != "pass"
            else:
                tally.wrong += 1
                tally.false_passes[0] += before == "pass"
                tally.false_passes[1] += after == "pass"
    return tally


def _reason(graded) -> str:  # type: ignore[no-untyped-def]
    if graded.pitfalls:
        return "says a known wrong claim"
    if graded.swapped:
        return "says of one thing what holds for another"
    if any("keywords" in note for note in graded.notes):
        return "reads as a keyword list"
    return "scores too low"


def _verdict(bank: Bank, qid: str, answer: str) -> str:
    return grade(bank.questions[qid], bank.answer_text(qid), answer).verdict


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "—"


def report(name: str, tally: Tally) -> bool:
    rise = tally.false_passes[1] - tally.false_passes[0]
    ok = rise <= 1 and tally.taught_attempts_pass == tally.taught_attempts
    print(f"{name}")
    print(
        f"  questions taught {tally.questions}: key points taught {tally.points_taught}, "
        f"refused {tally.refused}"
    )
    passed = _share(tally.taught_attempts_pass, tally.taught_attempts)
    mark = "✓" if tally.taught_attempts_pass == tally.taught_attempts else "✗"
    print(f"  the taught answer passes after teaching (all its points taught): {passed} {mark} (target 100%)")
    for reason, count in sorted(tally.still_failing.items()):
        print(f"    still failing: {count} {reason} (a rule teaching does not touch)")
    print(
        f"  other correct answers missed: {_share(tally.missed[0], tally.correct)} before -> "
        f"{_share(tally.missed[1], tally.correct)} after"
    )
    print(
        f"  false passes on wrong answers: {_share(tally.false_passes[0], tally.wrong)} before -> "
        f"{_share(tally.false_passes[1], tally.wrong)} after "
        f"{'✓' if rise <= 1 else '✗'} (target: at most one more)"
    )
    return ok


def sets(data: Path) -> list[tuple[str, Bank, list[dict]]]:
    bundled = load_bank(BankLocation(ROOT, "bench"))
    text_only = cut_phrasings(bundled, 0)
    heldout = load_attempts(data / "heldout")
    found = [
        ("Held-out set, key points cut to their text", text_only,
         _with_more(heldout, load_attempts(data / "heldout-teach"))),
        ("Robot-learning set, key points cut to their text", text_only,
         load_attempts(data / "robot-learning")),
        ("Teaching tuning set, key points cut to their text", text_only,
         _with_more(heldout, load_attempts(data / "teach-tuning"))),
        ("Grading tuning set, key points cut to their text", text_only, load_attempts(data)),
    ]  # fmt: skip
    authored = data / "authored"
    if (authored / "questions").is_dir():
        found.insert(
            1,
            (
                "Authored set (its own questions, one phrasing per key point)",
                load_bank(BankLocation(authored, "bench")),
                load_attempts(authored),
            ),
        )
    return [(name, bank, attempts) for name, bank, attempts in found if attempts]


def _with_more(base: list[dict], more: list[dict]) -> list[dict]:
    """*more* (further correct and wrong answers to some questions), with the attempts of *base*
    at those same questions."""
    questions = {a["question"] for a in more}
    return [a for a in base if a["question"] in questions] + more


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--every", action="store_true", help="also: every correct attempt of a question taught in turn"
    )
    parser.add_argument(
        "--data", type=Path, default=ROOT / "bench" / "data", help="folder of the labelled sets (bench/data)"
    )
    args = parser.parse_args()
    from teach_clauses import report as report_clauses

    report_clauses(args.data)
    all_ok = True
    for name, bank, attempts in sets(args.data):
        all_ok &= report(name, replay(bank, attempts))
        if args.every:
            total, index = Tally(), 0
            while (one := replay(bank, attempts, index)).questions:
                total.add(one)
                index += 1
            report(f"  ... every correct answer taught in turn ({index} rounds)", total)
        print()
    print("all targets met" if all_ok else "a target was missed")


if __name__ == "__main__":
    main()
