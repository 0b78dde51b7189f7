"""STAR structure benchmark: the analyser of behavioral answers (prep/grading/star.py) against
answers labelled sentence by sentence, next to a trivial baseline.

    python bench/star.py                  # the tuning set (bench/data/star-tuning/, the cues were
                                          # chosen on it) and the held-out set (star-heldout/,
                                          # written blind to the analyser, never used to choose one)
    python bench/star.py PATH.yaml ...    # other labelled sets

A set is YAML: `questions: [{id, prompt}]` and `answers: [{question, voice, sentences: [{text, part}],
flags, verdict}]`; an answer's text is its sentences joined by single spaces, analysed as an answer
to its question's prompt (a prompt that asks "how would you..." takes a plan). Measured per set:
  * presence accuracy per part: the analyser says a part is present exactly where the labels have
    at least one sentence of it;
  * precision, recall and F1 per flag (no-result, no-action, result-not-quantified, we-not-i,
    hypothetical, long-setup), over answers;
  * sentence part accuracy: each labelled sentence is found in the text, and counts as right when
    the analyser's sentence holding most of it got the same part (so a different split costs only
    where it changes a label);
  * verdict accuracy (strong, adequate, weak);
  * time per answer, median and 90th percentile (each answer analysed 5 times, its fastest kept).
The baseline labels every sentence `action`, raises no flag and says `adequate` for every answer.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prep.grading.star import FLAGS, PARTS, Structure, analyse

ALL_PARTS = (*PARTS, "other")
DEFAULT_SETS = (
    ("Tuning set (the cues were chosen on it)", ROOT / "bench/data/star-tuning/star-tuning.yaml"),
    (
        "Held-out set (written blind to the analyser; never used to choose a cue)",
        ROOT / "bench/data/star-heldout/star-heldout.yaml",
    ),
)


def load_answers(path: Path) -> list[dict]:
    """The set's answers, each with its question's prompt under "prompt"."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    prompts = {q["id"]: q.get("prompt", "") for q in data.get("questions") or []}
    answers = data.get("answers") or []
    unknown = sorted({a["question"] for a in answers} - set(prompts))
    if unknown:
        sys.exit(f"{path}: answers name unknown questions: {unknown}")
    return [{**a, "prompt": prompts[a["question"]]} for a in answers]


def answer_text(answer: dict) -> str:
    return " ".join(s["text"] for s in answer["sentences"])


def baseline(text: str) -> dict:
    """Every sentence an action, no flag, every answer adequate (spans as the labels split them)."""
    return {"parts": {p: p == "action" for p in PARTS}, "flags": [], "verdict": "adequate"}


def labelled_spans(answer: dict) -> list[tuple[int, int, str]]:
    spans, start = [], 0
    for s in answer["sentences"]:
        spans.append((start, start + len(s["text"]), s["part"]))
        start += len(s["text"]) + 1
    return spans


def holder(structure: Structure, start: int, end: int) -> str:
    """The part of the analyser's sentence that overlaps [start, end) the most."""
    best, part = 0, "none"
    for s in structure.sentences:
        overlap = min(end, s.end) - max(start, s.start)
        if overlap > best:
            best, part = overlap, s.part
    return part


def prf(pairs: list[tuple[bool, bool]]) -> tuple[float, float, float]:
    tp = sum(g and p for g, p in pairs)
    predicted, actual = sum(p for _, p in pairs), sum(g for g, _ in pairs)
    precision = tp / predicted if predicted else 0.0
    recall = tp / actual if actual else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def figures(answers: list[dict], predictions: list[dict], sentence_parts: list[list[str]]) -> dict:
    """Every figure of one set; *sentence_parts* is the predicted part of each labelled sentence."""
    gold_parts = [{p: any(s["part"] == p for s in a["sentences"]) for p in PARTS} for a in answers]
    out: dict = {"n": len(answers)}
    for part in PARTS:
        hits = sum(g[part] == p["parts"][part] for g, p in zip(gold_parts, predictions))
        out[f"presence {part}"] = hits / len(answers)
    for flag in FLAGS:
        out[f"flag {flag}"] = prf(
            [(flag in a["flags"], flag in p["flags"]) for a, p in zip(answers, predictions)]
        )
    pairs = [
        (s["part"], got) for a, parts in zip(answers, sentence_parts) for s, got in zip(a["sentences"], parts)
    ]
    out["sentence accuracy"] = sum(g == p for g, p in pairs) / len(pairs)
    out["sentence confusion"] = Counter(pairs)
    out["verdict accuracy"] = sum(a["verdict"] == p["verdict"] for a, p in zip(answers, predictions)) / len(
        answers
    )
    out["verdict confusion"] = Counter((a["verdict"], p["verdict"]) for a, p in zip(answers, predictions))
    return out


def timings(texts: list[tuple[str, str]]) -> tuple[float, float]:
    """Median and 90th percentile of the time per answer (and its prompt), in milliseconds."""
    for text, prompt in texts:
        analyse(text, prompt)  # compiled patterns warm, as in a running drill
    times = []
    for text, prompt in texts:
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            analyse(text, prompt)
            best = min(best, time.perf_counter() - t0)
        times.append(best * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(0.9 * len(times)))]


def evaluate(answers: list[dict]) -> tuple[dict, dict]:
    texts = [answer_text(a) for a in answers]
    structures = [analyse(t, a["prompt"]) for t, a in zip(texts, answers)]
    ours = figures(
        answers,
        [s.to_dict() for s in structures],
        [[holder(s, a, b) for a, b, _ in labelled_spans(ans)] for s, ans in zip(structures, answers)],
    )
    ours["time"] = timings([(t, a["prompt"]) for t, a in zip(texts, answers)])
    base = figures(answers, [baseline(t) for t in texts], [["action"] * len(a["sentences"]) for a in answers])
    return ours, base


def report(title: str, answers: list[dict]) -> None:
    if not answers:
        print(f"{title}: no labelled answers\n")
        return
    ours, base = evaluate(answers)
    gold = Counter(s["part"] for a in answers for s in a["sentences"])
    print(f"{title}: {ours['n']} answers, {sum(gold.values())} sentences")
    print(f"  {'figure':36s} {'analyser':>10s} {'baseline':>10s}   target")
    for part in PARTS:
        key = f"presence {part}"
        print(f"  {key:36s} {ours[key]:10.3f} {base[key]:10.3f}   >= 0.90")
    for flag in FLAGS:
        p, r, f = ours[f"flag {flag}"]
        bf = base[f"flag {flag}"][2]
        support = sum(flag in a["flags"] for a in answers)
        print(f"  {'F1 ' + flag:36s} {f:10.3f} {bf:10.3f}   >= 0.80   (P {p:.3f}, R {r:.3f}, n={support})")
    for key, target in (("sentence accuracy", "0.75"), ("verdict accuracy", "0.75")):
        print(f"  {key:36s} {ours[key]:10.3f} {base[key]:10.3f}   >= {target}")
    median, p90 = ours["time"]
    print(f"  {'time per answer, median / p90 (ms)':36s} {median:6.3f} / {p90:.3f}   < 5")
    print("  sentence parts, labelled (rows) x analysed (columns):")
    print("    " + " " * 10 + "".join(f"{p:>10s}" for p in ALL_PARTS))
    for g in ALL_PARTS:
        row = "".join(f"{ours['sentence confusion'][(g, p)]:10d}" for p in ALL_PARTS)
        print(f"    {g:10s}{row}   ({gold[g]})")
    print("  verdicts, labelled (rows) x analysed (columns):")
    verdicts = ("strong", "adequate", "weak")
    print("    " + " " * 10 + "".join(f"{v:>10s}" for v in verdicts))
    for g in verdicts:
        print(f"    {g:10s}" + "".join(f"{ours['verdict confusion'][(g, v)]:10d}" for v in verdicts))
    print()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "sets", nargs="*", type=Path, help="labelled YAML sets (default: tuning and held-out)"
    )
    args = parser.parse_args()
    sets = [(path.name, path) for path in args.sets] or [(t, p) for t, p in DEFAULT_SETS if p.exists()]
    if not sets:
        sys.exit("no labelled set found")
    for title, path in sets:
        report(title, load_answers(path))


if __name__ == "__main__":
    main()
