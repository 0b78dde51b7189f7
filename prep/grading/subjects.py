"""The subjects a prompt sets against each other, and the key points about each.

"Strong versus weak scaling", "LayerNorm rather than BatchNorm", "compare BPE, WordPiece and
Unigram": a key point that starts with one of the names (or its initials, a part of it, the
last part of a dotted name) is a claim about that subject, and the matcher then counts only the
words of the attempt said of it (matching.Matcher.set_subjects).
"""

from __future__ import annotations

import re
from functools import lru_cache

from prep.text import NUMBER, phrase_keys, tokenize

_CONTRAST = frozenset({"vs", "versus", "or", "than"})
_NOT_A_SIDE = frozenset({"rather", "instead", "against"})
# Words before a name that make it the foil of a clause, not its subject: "Y, unlike X, ...".
FOILS = frozenset(
    {"unlike", "than", "vs", "versus", "instead", "not", "over", "compared", "opposed", "against", "besides"}
)
_LISTING = re.compile(r"\b(?:compare|comparing|between|difference|differ)\b", re.IGNORECASE)


@lru_cache(maxsize=512)
def subjects(
    prompt: str, points: tuple[str, ...], pitfalls: tuple[str, ...] = ()
) -> tuple[tuple[str | None, ...], dict[str, str]]:
    """The subject of each key point, where the prompt sets subjects against each other, and
    the other names each subject goes by (each mapped to the subject).

    "Strong versus weak scaling", "LayerNorm rather than BatchNorm", "compare BPE, WordPiece and
    Unigram", "how does DataParallel differ from DistributedDataParallel": the words on either
    side of the contrast are the subjects, and a key point that starts with one of them, or
    with its initials ("PTQ" for post-training quantization, "DDP"), a part of it ("IVF" of
    IVF-PQ) or its last dotted part ("DataParallel" of nn.DataParallel), is a claim about that
    one. A claim about weak scaling said of strong scaling is the classic wrong answer with the
    right words."""
    tokens = tokenize(prompt, claim=True)
    listing = bool(_LISTING.search(prompt))  # "compare A, B and C": commas and "and" contrast too
    named: set[str] = set()
    sides_of: list[int] = []  # the prompt words on a side of a contrast
    for i, token in enumerate(tokens):
        word = token.text.casefold()
        between = prompt[tokens[i - 1].end : token.start] if i else ""
        if (
            word in _CONTRAST
            or (listing and word == "and")
            or (word == "from" and i and tokens[i - 1].key == "differ")
        ):
            sides = (range(i - 1, -1, -1), range(i + 1, len(tokens)))
        elif listing and "," in between:
            sides = (range(i - 1, -1, -1), range(i, len(tokens)))
        else:
            continue
        for side in sides:  # up to two words each way: "strong versus weak scaling"
            taken = 0
            for j in side:
                near = tokens[j]
                if near.sentence != token.sentence or taken == 2:
                    break
                if near.text.casefold() in _CONTRAST or near.text.casefold() in _NOT_A_SIDE:
                    continue
                if not near.content:
                    if taken:
                        break
                    continue
                named.add(near.key)
                sides_of.append(j)
                taken += 1
    other_names = _other_names(tokens, sorted(set(sides_of)))
    firsts: list[str | None] = []
    aliases: dict[str, str] = {}
    for text in points:
        keys = phrase_keys(text)[0]
        first = keys[0] if keys else None
        if first in other_names:  # also when the prompt itself names both: "DistributedDataParallel ... DDP"
            # Only names the key points use: stray initials ("me", "st") would be read as
            # subjects wherever an attempt happens to contain them.
            firsts.append(other_names[first])
            aliases[first] = other_names[first]
        else:
            firsts.append(first if first in named else None)
    if len({f for f in firsts if f}) < 2:
        return roles(prompt, points), {}
    return tuple(firsts), aliases


# Words that open a claim without naming a thing it is about: "each GPU ...", "both ...".
_NOT_A_NAME = frozenset(
    "each every all both one two no not only also more less most same other it this".split()
)


def roles(prompt: str, points: tuple[str, ...]) -> tuple[str | None, ...]:
    """The things a question's key points give roles to, when its prompt sets no contrast but
    names them: "distillation from a teacher into a student" with key points "the teacher
    produces soft targets" / "the student matches them"; "prefill and decode on separate GPUs".
    A key point that starts with a name the prompt also says is a claim about that thing; it
    takes two such names for roles."""
    said = set(phrase_keys(prompt)[0]) - _NOT_A_NAME
    firsts = []
    for text in points:
        keys = phrase_keys(text)[0]
        first = keys[0] if keys else None
        firsts.append(first if first in said and not NUMBER.fullmatch(first) else None)
    names = {f for f in firsts if f}
    if len(names) < 2:
        return tuple(None for _ in points)
    # A claim that names two of them ("the student matches the teacher's targets") is about both.
    return tuple(
        f if f and not (names - {f}) & set(phrase_keys(text)[0]) else None for f, text in zip(firsts, points)
    )


def _other_names(tokens: list, sides: list[int]) -> dict[str, str]:  # type: ignore[type-arg]
    """Other names of the words on the sides of a contrast: initials of a run of words that
    starts there ("post-training quantization" -> ptq), the parts of a compound ("IVF-PQ" ->
    ivf, pq) and the last part of a dotted name ("nn.DataParallel" -> dataparallel)."""
    names: dict[str, str] = {}
    for i in sides:
        token = tokens[i]
        if "." in token.text.strip("."):
            names.setdefault(_key(token.text.rsplit(".", 1)[1]), token.key)
        parts = _PARTS.findall(token.text)
        if len(parts) > 1 and "-" in token.text:
            for part in parts:
                if len(part) > 1 and part.casefold() not in ("of", "and"):
                    names.setdefault(_key(part), token.key)
            halves = token.text.split("-")
            if len(halves) == 2 and len(halves[1]) > 3:  # "RNN-Transducer" -> rnnt
                names.setdefault(_key(halves[0] + halves[1][0]), token.key)
        initials = ""
        for j in range(i, min(i + 4, len(tokens))):  # a run of up to four written words
            if j > i and not tokens[j].content:
                break
            initials += "".join(p[0] for p in _PARTS.findall(tokens[j].text.rsplit(".", 1)[-1])).casefold()
            if len(initials) >= 2:
                names.setdefault(initials, token.key)
    return names


def _key(word: str) -> str:
    keys = phrase_keys(word)[0]
    return keys[0] if keys else word.casefold()


# The parts of a written name: "post-training" -> post, training; "DistributedDataParallel" ->
# Distributed, Data, Parallel; "struct-of-arrays" -> struct, of, arrays.
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
