"""Text normalisation and word-level fuzzy matching used by the grader and search.

Words are compared after casefolding, accent stripping, hyphen joining and stemming, with
rapidfuzz tolerating typos. Everything here is pure and cached by input string.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

from prep.vocabulary import (
    ABBREVIATIONS,
    ANTONYM_PAIRS,
    AUXILIARIES,
    DENIED_VERBS,
    DENYING_PAIRS,
    NEARLY,
    NEGATION_SCOPE,
    NEGATIONS,
    NOUN_NEGATIONS,
    NUMBER_WORDS,
    SCOPE_ENDS,
    STOPWORDS,
    SYNONYM_GROUPS,
)

CLAUSE_BREAK = re.compile(r"[,:;()\[\]]|\b(?:but|while|whereas|although)\b")
# A word: letters and digits joined by apostrophes, hyphens or dots; "C++" keeps its pluses but
# "name+args" is two words. A percent sign is a word of its own.
_WORD = re.compile(r"[^\W_](?:[\w'’\-.]*[^\W_])?(?:\+\+?(?!\w))?|%", re.UNICODE)
_SENTENCE_END = re.compile(r"""(?<=[.!?])["'”’)\]]*\s+|[;\n\r•]+|\s[-–—]\s""")
_QUANTITY = re.compile(r"(\d+)([a-z]+)")
NUMBER = re.compile(r"\d+")
_stemmer = snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """Casefold, strip accents, drop apostrophes and hyphens: "All-Reduce" -> "allreduce"."""
    decomposed = unicodedata.normalize("NFKD", word)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return plain.replace("'", "").replace("’", "").replace("-", "").replace(".", "")


def _raw_stem(folded: str) -> str:
    if len(folded) <= 3 or not folded.isalpha():
        return folded
    return _stemmer.stemWord(folded)


_CANONICAL: dict[str, str] = {}
for _group in SYNONYM_GROUPS:
    _words = _group.split()
    for _word in _words:
        _CANONICAL[_raw_stem(fold(_word))] = _raw_stem(fold(_words[0]))


@lru_cache(maxsize=65536)
def name_key(word: str) -> str:
    """A word's stem without its synonym group: as names, "producer" and "creator" differ."""
    return _raw_stem(fold(word))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The comparison key of a word: folded, stemmed, and mapped to its synonym group."""
    key = _raw_stem(fold(word))
    return _CANONICAL.get(key, key)


@dataclass(slots=True)
class Token:
    text: str  # as written
    key: str  # stemmed comparison key
    start: int  # character offsets in the source text
    end: int
    sentence: int
    content: bool  # not a stopword
    negation: bool  # the word is a negator ("not", "never", "without", "doesn't" ...)
    negated: bool = False  # a content word inside a negator's scope ("not [reduce memory]")
    # The word a negator denies first, what the denial is about: "need" in "does not need a
    # reward model" and in "needs no reward model", "share" in "don't share a cache line".
    head: bool = False
    hedged: bool = False  # a negator comes earlier in its clause: it may reach this far


class _Negation:
    """Which words a text's negators reach, read word by word (see tokenize)."""

    def __init__(self) -> None:
        self.scope = 0  # content words still inside the last negator's scope
        self.denies_thing = False  # that negator was "no", "without" or "instead of": it denies a thing
        self.head_pending = False  # the next content word is the one denied first
        self.in_clause = False  # a negator was seen in this clause

    def end(self) -> None:
        self.scope, self.head_pending, self.in_clause = 0, False, False  # a clause ends its reach

    def reach(self, word: str) -> tuple[bool, bool]:
        """Whether the word (not a negator) is inside a negation's scope, and whether it heads it."""
        if self.scope and self.scope < NEGATION_SCOPE and self.denies_thing and fold(word) in SCOPE_ENDS:
            self.end()  # "no lock is needed between the threads": the lock is denied, not the threads
        return self.scope > 0, self.head_pending

    def counted(self, content: bool) -> None:
        if content and self.scope:
            self.scope -= 1  # the scope counts words as written, however many keys they expand to
            self.head_pending = False

    def start(self, word: str, previous: str, denies_pair: bool) -> None:
        self.scope, self.head_pending, self.in_clause = NEGATION_SCOPE, True, True
        self.denies_thing = fold(word) in NOUN_NEGATIONS or denies_pair

    def past_need(self, word: str, previous: str) -> None:
        if self.scope and self.denies_thing and stem(word) == "need" and fold(previous) == "no":
            self.denies_thing = False  # "no need for a KL penalty" denies the penalty too


def tokenize(text: str, claim: bool = False) -> list[Token]:
    """Words of *text* with their stems, offsets and (dense, 0-based) sentence numbers.

    An attempt (the default) offers every reading of a written word; a *claim* keeps one key per
    word, so that "all-reduce" in a key point asks for one word, not three."""
    tokens: list[Token] = []
    boundaries = [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text) + 1]  # sentinels
    breaks = [m.start() for m in CLAUSE_BREAK.finditer(text)] + [len(text) + 1]
    segment, b, c, sentence, last_segment = 0, 0, 0, -1, -1
    negation_state, previous, two_back = _Negation(), "", ""  # the words written before this one
    matches = list(_WORD.finditer(text))
    for i, match in enumerate(matches):
        start = match.start()
        while boundaries[b] <= start:
            segment, b = segment + 1, b + 1
        if breaks[c] < start:
            negation_state.end()  # a comma, colon or "but" ends a negation's reach
            while breaks[c] < start:
                c += 1
        word = match.group().rstrip(".")
        negation, parts = _analyse(word, claim)
        if not parts:
            continue
        if fold(word) == "few" and fold(previous) == "a" and not claim:
            # "a few" is both "few" ("only a few are active") and "several" ("a few annotators")
            parts = parts + _analyse("several", claim)[1]
        following = matches[i + 1] if i + 1 < len(matches) else None
        denies_pair = (
            following is not None
            and word.casefold() in DENYING_PAIRS
            and _denying_pair(word, following, text[match.end() : following.start()])
        )
        if denies_pair:
            negation, parts = True, tuple((key, False) for key, _ in parts)
        elif fold(word) == "to" and fold(two_back) == "too":
            negation = True  # "too short to hide" does not hide
        elif negation and _both_ways(previous, text, start, tokens):
            negation, parts = False, tuple((key, False) for key, _ in parts)  # "with and without X"
        if segment != last_segment:  # number only segments that hold words
            sentence, last_segment = sentence + 1, segment
            negation_state.end()
        negated, head = (False, False) if negation else negation_state.reach(word)
        before, hedged = len(tokens), negation_state.in_clause
        for key, content in parts:
            tokens.append(
                Token(
                    word,
                    key,
                    start,
                    start + len(word),
                    sentence,
                    content,
                    negation,
                    content and negated,
                    content and negated and head,
                    content and hedged,
                )
            )
        negation_state.counted(any(content for _, content in parts))
        if negation and fold(previous) not in NEARLY:
            negation_state.start(word, previous, denies_pair)
            if fold(word) == "no" and before and _denied_verb(tokens[before - 1], start, text):
                _deny_word(tokens, before)
                negation_state.head_pending = False  # the verb is what "needs no" denies first
        else:
            negation_state.past_need(word, previous)
        two_back, previous = previous, word
    return tokens


def _deny_word(tokens: list[Token], before: int) -> None:
    """Mark the written word ending at tokens[before - 1] as negated, and the negation's head:
    "needs no X" denies the need."""
    last = tokens[before - 1].start
    for token in reversed(tokens[:before]):
        if token.start != last:
            break
        token.negated = token.head = token.content


def _both_ways(previous: str, text: str, start: int, tokens: list[Token]) -> bool:
    """Whether a negator is the second half of "with and without" / "with or without"."""
    return fold(previous) in ("and", "or") and bool(
        re.search(r"\bwith\s+(?:and|or)\s+$", text[max(0, start - 12) : start], re.IGNORECASE)
    )


def _denying_pair(word: str, following: re.Match, between: str) -> bool:
    """Whether *word* and the word that follows it make a denying pair ("instead of")."""
    return DENYING_PAIRS.get(fold(word)) == following.group().casefold() and not between.strip()


def _denied_verb(last: Token, start: int, text: str) -> bool:
    """Whether *last*, the word before a "no" at *start*, is one of DENIED_VERBS in its clause."""
    return last.content and last.key in _DENIED_KEYS and not CLAUSE_BREAK.search(text, last.end, start)


@lru_cache(maxsize=65536)
def _analyse(word: str, claim: bool) -> tuple[bool, tuple[tuple[str, bool], ...]]:
    """Whether a written word is a negator, and the (key, is content) pairs it stands for."""
    folded = fold(word) if word else ""
    if not folded:
        return False, ()
    negation = folded in NEGATIONS or folded.endswith("nt") and folded[:-2] in AUXILIARIES
    negation = negation or (len(folded) >= 6 and any(_one_slip(folded, n) for n in _LONG_NEGATIONS))
    return negation, tuple(
        (stem(part), part not in STOPWORDS and not negation) for part in _expansions(word, folded, claim)
    )


@lru_cache(maxsize=65536)
def _expansions(word: str, folded: str, claim: bool) -> tuple[str, ...]:
    """The folded words one written word stands for: an abbreviation's words or a number word's
    digits; in an attempt, a hyphenated compound also as its parts ("fake-quant" meets "fake
    quantization") and a quantity also as its number and unit ("20x"); in a claim, a quantity
    asks only for its number."""
    replaced = ABBREVIATIONS.get(folded) or NUMBER_WORDS.get(folded)
    if replaced:
        return tuple(replaced.split())
    quantity = _QUANTITY.fullmatch(folded)
    if quantity:
        return (quantity.group(1),) if claim else (folded, *quantity.groups())
    parts = [NUMBER_WORDS.get(p, p) for p in (fold(p) for p in word.split("-")) if p]
    if claim or len(parts) < 2:
        return (folded,)
    return (folded, *dict.fromkeys(p for p in parts if p != folded))


def is_abbreviation(word: str) -> bool:
    """Whether a written word is one the grader reads as the words it stands for ("LLM")."""
    return fold(word) in ABBREVIATIONS


@lru_cache(maxsize=4096)
def key_set(text: str) -> frozenset[str]:
    """All word keys of a text (e.g. a prompt), cached."""
    return frozenset(t.key for t in tokenize(text))


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


@lru_cache(maxsize=16384)
def phrase_keys(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The content-word stems of a short claim, and those of them it negates."""
    tokens = tokenize(text, claim=True)
    keys = tuple(dict.fromkeys(t.key for t in tokens if t.content))
    if not keys:  # a claim made only of small words: compare all of them
        keys = tuple(dict.fromkeys(t.key for t in tokens if not t.negation))
    # Keys said only under a negation; a key said both ways ("across GPUs ... not one GPU")
    # carries no polarity of its own.
    plain = {t.key for t in tokens if t.content and not t.negated}
    negated = frozenset(t.key for t in tokens if t.negated and t.key not in plain)
    return keys, negated


@lru_cache(maxsize=16384)
def negation_heads(text: str) -> frozenset[str]:
    """The keys of a claim that its negators deny first ("need" of "needs no reward model")."""
    return frozenset(t.key for t in tokenize(text, claim=True) if t.head)


@lru_cache(maxsize=16384)
def phrase_length(text: str) -> int:
    """How many word keys a claim has, small words included (it sizes the window to look in)."""
    return len(tokenize(text, claim=True))


@lru_cache(maxsize=16384)
def ordered_keys(text: str) -> str:
    """The content-word stems of a claim in the order written, repeats kept (for order checks)."""
    return " ".join(t.key for t in tokenize(text, claim=True) if t.content)


def sentence_start(text: str, char: int) -> int:
    """Where the sentence holding the character at *char* starts."""
    return max((m.end() for m in _SENTENCE_END.finditer(text, 0, char)), default=0)


def sentences(text: str) -> list[str]:
    parts = [p.strip() for p in _SENTENCE_END.split(text)]
    return [p for p in parts if p and _WORD.search(p)]


_DENIED_KEYS = frozenset(stem(v) for v in DENIED_VERBS)


def _opposites() -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    found: dict[str, set[str]] = {}
    written: dict[str, str] = {}
    for left, right in ANTONYM_PAIRS:
        one, other = {stem(w) for w in left.split()}, {stem(w) for w in right.split()}
        for side, keys, words, own in ((one, other, right, left), (other, one, left, right)):
            for key in side:
                found.setdefault(key, set()).update(keys - side)
            # The opposite written in the same form where the lists align: "oldest" -> "newest".
            for n, word in enumerate(own.split()):
                written.setdefault(stem(word), words.split()[min(n, len(words.split()) - 1)])
    return {key: frozenset(keys) for key, keys in found.items()}, written


# Each word key's opposites, as keys ("increas" <-> "reduc", "befor" <-> "after"), and a word
# that writes one of them ("increas" -> "reduce").
OPPOSITES, OPPOSITE_WORD = _opposites()


_LONG_NEGATIONS = tuple(n for n in NEGATIONS if len(n) >= 6)


def _one_slip(word: str, target: str) -> bool:
    """Whether *word* is *target* with one typing slip: two neighbouring letters swapped, or one
    letter wrong, missing or extra ("wihtout", "withut")."""
    if word == target or abs(len(word) - len(target)) > 1 or word[0] != target[0]:
        return False
    if len(word) == len(target):
        diff = [i for i, (x, y) in enumerate(zip(word, target)) if x != y]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and word[diff[0]] == target[diff[1]]
            and word[diff[1]] == target[diff[0]]
        )
    short, long = sorted((word, target), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
