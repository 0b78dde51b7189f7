"""An answer cut into clauses: the stretches that can each say one key point.

Sentences are cut at ";", ":" and a dash, and at the words that join two statements: "so",
"but", "while", "whereas", "because", "which", "where"; and at a comma, "and" or "then" when both
sides say something of their own ("LoRA leaves W untouched and learns delta W as B times A"; not
"the key and value vectors"). A clause keeps its place in the answer, so that a user can be
shown them numbered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from prep.text import phrase_keys, sentences, word_count

# Joints that always start a new statement ("..., so each step ...", "... because ...").
_JOINT = re.compile(
    r"\s*[;:]\s+|\s+[-–—]\s+|,?\s+\b(?:so|but|while|whereas|because|which|where|since)\b\s+(?!that\b|of\b)",
    re.IGNORECASE,
)
_AND = re.compile(r"(,)\s+(?:(?:and|or|then)\s+)?|\s+\b(?:and|then)\b\s+", re.IGNORECASE)
# Words that start a statement after a bare "and": a subject ("and it ...", "and the cache ...").
_STARTERS = frozenset(
    "it they we you i he she this that these those there the a an each every its their our your".split()
)
# Words that join a clause to the one before, dropped from its front ("because of" is a
# preposition, not a joint, and stays).
_LEADING = re.compile(
    r"^(?:and|so|then|also|but|which|this|because|since|or|while|where)\b(?!\s+of\b)[\s,]*", re.IGNORECASE
)
_OWN_WORDS = 3  # each side of an "and" says something of its own with this many content words


@dataclass(frozen=True)
class Clause:
    text: str  # as written, without the joint word that opens it
    start: int  # character offsets in the answer
    end: int


@lru_cache(maxsize=512)
def clauses(answer: str) -> tuple[Clause, ...]:
    """The answer's clauses in order, each with two content words at least."""
    found: list[Clause] = []
    offset = 0
    for sentence in sentences(answer):
        at = answer.find(sentence, offset)
        at = at if at >= 0 else offset
        offset = at + len(sentence)
        for start, end in _pieces(sentence):
            text = sentence[start:end].strip().rstrip(".!?,;:").strip()
            lead = _LEADING.match(text)
            cut = lead.end() if lead else 0
            text = text[cut:].strip()
            if len(phrase_keys(text)[0]) >= 2:
                first = sentence.find(text, start)
                found.append(Clause(text, at + first, at + first + len(text)))
    return tuple(found)


def _pieces(sentence: str) -> list[tuple[int, int]]:
    """Where the sentence's clauses lie (start, end), cut at joints and at statement "and"s."""
    cuts = [0]
    for joint in _JOINT.finditer(sentence):
        cuts += [joint.start(), joint.end()]
    cuts.append(len(sentence))
    spans = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2)]
    pieces: list[tuple[int, int]] = []
    for start, end in spans:
        pieces += _and_pieces(sentence, start, end)
    return pieces


def _and_pieces(sentence: str, start: int, end: int) -> list[tuple[int, int]]:
    """A piece cut at each comma or "and" both sides of which say something of their own."""
    pieces, last = [], start
    for joint in _AND.finditer(sentence, start, end):
        left, right = sentence[last : joint.start()], sentence[joint.end() : end]
        if not joint.group(1) and not _starts_statement(right):
            continue  # "K and V for every position", "how long ... and how many ...": one statement
        if _says_something(left) and _says_something(right):
            pieces.append((last, joint.start()))
            last = joint.end()
    pieces.append((last, end))
    return pieces


def _starts_statement(text: str) -> bool:
    """Whether text after a bare "and" starts a statement: a subject, or a verb ("... and learns
    delta W as B times A")."""
    first = text.split(maxsplit=1)[0].casefold() if text.strip() else ""
    return first in _STARTERS or (
        first.isalpha() and first.endswith(("s", "ed")) and not first.endswith("ss")
    )


def _says_something(text: str) -> bool:
    return len(phrase_keys(text)[0]) >= _OWN_WORDS and word_count(text) >= _OWN_WORDS + 1
