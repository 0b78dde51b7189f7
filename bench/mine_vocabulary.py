"""Candidate synonyms of the field, mined from the bundled bank's own phrasings.

    python bench/mine_vocabulary.py [--min 2] [--top 150]

Two phrasings of one key point say the same claim. Where they differ by one word each ("cuts
memory" / "reduces memory"), or one word against a short phrase ("is the bottleneck" / "is
limited by"), those are candidate synonyms. Counted over the whole bank, the pairs that recur
are the vocabulary interviewers and candidates swap freely. This prints candidates only: each
group in prep/vocabulary.py's SYNONYM_GROUPS was chosen from them by hand, and is general vocabulary,
never a word of one question.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prep.bank.load import load_bank
from prep.paths import BankLocation
from prep.text import phrase_keys, tokenize


def surface(phrasing: str) -> dict[str, str]:
    """Each content key of a phrasing, and the word it was written as."""
    return {t.key: t.text.casefold() for t in tokenize(phrasing, claim=True) if t.content}


def candidate_pairs(phrasings: tuple[str, ...]) -> dict[tuple[str, str], float]:
    """Word pairs (one from each of two phrasings) where the two phrasings share at least two
    words and differ by at most three each: the shared words pin down what the others mean.
    Each pair is weighted by how many pairs its two phrasings gave (one swap: weight 1)."""
    found: dict[tuple[str, str], float] = defaultdict(float)
    for a, b in combinations(phrasings, 2):
        ka, kb = set(phrase_keys(a)[0]), set(phrase_keys(b)[0])
        only_a, only_b = ka - kb, kb - ka
        if len(ka & kb) >= 2 and 1 <= len(only_a) <= 3 and 1 <= len(only_b) <= 3:
            wa, wb = surface(a), surface(b)
            for x in only_a:
                for y in only_b:
                    pair = tuple(sorted((wa[x], wb[y])))
                    found[pair] = max(found[pair], 1.0 / (len(only_a) * len(only_b)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--min", type=int, default=2, help="only pairs seen in at least this many key points")
    parser.add_argument("--top", type=int, default=150, help="how many pairs to print")
    args = parser.parse_args()
    bank = load_bank(BankLocation(ROOT, "bench"))
    weight: Counter[tuple[str, str]] = Counter()
    where: dict[tuple[str, str], set[str]] = defaultdict(set)
    for question in bank.questions.values():
        for point in question.key_points:
            for pair, w in candidate_pairs(point.phrasings).items():
                weight[pair] += w
                where[pair].add(question.id)
    shown = [(pair, w) for pair, w in weight.most_common() if len(where[pair]) >= args.min][: args.top]
    for (left, right), w in shown:
        print(f"{w:5.1f}  {left:20s} ~ {right:20s} ({len(where[(left, right)])} questions)")


if __name__ == "__main__":
    main()
