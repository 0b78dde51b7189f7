"""Key points with the roles of the things they name exchanged: the wrong answer with the right words.

"The producer blocks when the queue is full", "the draft model proposes tokens", "L1 gives
sparsity": a question that asks what each of two or more things does has key points that open
with one of them. An answer that says every such claim of the other thing uses exactly the right
vocabulary, so word overlap alone credits it. Each key point said with the names exchanged ("the
consumer blocks when the queue is full") is a wrong claim the grader looks for like a pitfall:
said almost in full, and more closely in word order than any key point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from prep.grading.subjects import FOILS
from prep.text import name_key, phrase_keys
from prep.vocabulary import STOPWORDS

# Words that open a claim before the name of what it is about: "the worker", "each worker".
_OPENERS = frozenset("the a an each every both all its their this these that those one only".split())
_LONGEST_NAME = 3  # written words
_MOST_THINGS = 4  # more names than this is a list of topics, not things with roles
_WORD = re.compile(r"[^\W_](?:[\w'’\-./]*[^\W_])?")
_PARTS = re.compile(r"[-/]")

Name = tuple[str, ...]  # the stems of a name's written words: ("checkpoint", "writer")


@dataclass(frozen=True)
class Thing:
    name: Name
    written: str  # as the key points write it


@lru_cache(maxsize=1024)
def things(prompt: str, points: tuple[str, ...]) -> tuple[Thing, ...]:
    """The things the key points give roles to: names the prompt writes that open key points
    ("the actor ...", "the critic ..."); empty when there are fewer than two. A name inside a
    longer one ("writer" of "checkpoint writer") is not a thing of its own."""
    said = [_readings(w.group()) for w in _WORD.finditer(prompt)]
    written: dict[Name, str] = {}
    for text in points:
        name, surface = _lead(text, said)
        if name:
            written.setdefault(name, surface)
    if written:  # "the roles of the teacher and the student": "student" opens no key point
        for name, surface in _coordinated(prompt, points):
            written.setdefault(name, surface)
    # "expert" is inside "MoE" too, once the initials are read as "mixture of experts".
    keys = {n: set(phrase_keys(written[n])[0]) for n in written}
    names = [n for n in written if not any(_inside(n, o) or keys[n] < keys[o] for o in written if o != n)]
    if not 2 <= len(names) <= _MOST_THINGS or any(_kin(n, o) for n in names for o in names if n != o):
        return ()
    return tuple(Thing(n, written[n]) for n in names)


_COORDINATORS = frozenset({"and", "or", "vs", "versus"})


def _coordinated(prompt: str, points: tuple[str, ...]) -> list[tuple[Name, str]]:
    """Names the prompt joins with "and", "or" or "vs" that key points write: "the teacher and the
    student", "the online and target networks" (online, target), "the query encoder and the key
    encoder". A name of two words sharing its last word with the other keeps both."""
    words = list(_WORD.finditer(prompt))
    written = [[name_key(w.group()) for w in _WORD.finditer(p)] for p in points]
    found: list[tuple[Name, str]] = []
    for i, word in enumerate(words):
        if word.group().casefold() not in _COORDINATORS or not 0 < i < len(words) - 1:
            continue
        left = _content_run(words[max(0, i - 2) : i][::-1])[::-1]
        right = _content_run([w for w in words[i + 1 : i + 5] if w.group().casefold() not in _OPENERS])
        if not left or not right:
            continue
        before = words[i - len(left) - 1].group().casefold() if i - len(left) >= 1 else ""
        shared_head = len(right) == 2 and len(left) == 1
        if before not in _OPENERS and not shared_head:
            continue  # things are named as things ("the teacher and the student"), not "full or empty"
        if shared_head:
            right = right[:1]  # "online and target networks": the head names neither
        pair = [
            (tuple(name_key(w.group()) for w in run), " ".join(w.group() for w in run))
            for run in (left, right)
        ]
        if all(any(_says(keys, name) for keys in written) for name, _ in pair):
            found += pair  # both sides are things the key points speak of
    return found


def _content_run(words: list[re.Match]) -> list[re.Match]:
    """The leading run (up to two) of words that are not small words."""
    run = []
    for word in words[:2]:
        if word.group().casefold() in STOPWORDS or word.group().casefold() in _OPENERS:
            break
        run.append(word)
    return run


def _says(keys: list[str], name: Name) -> bool:
    return any(tuple(keys[i : i + len(name)]) == name for i in range(len(keys) - len(name) + 1))


def exchanged(phrasing: str, named: tuple[Thing, ...]) -> tuple[tuple[str, int, int], ...]:
    """The phrasing with one thing's name written where another's is: each wrong claim the
    exchange makes, with the thing it is now said of if the claim opens with the name (else -1:
    "the query is compared with the value"), and the thing newly named in it.

    Only a name the phrasing does not already say is written in: with both names in one claim
    ("batching raises throughput but increases latency"), their exchange is often as true as the
    claim, and only word order could tell them apart."""
    spans = names_in(phrasing, named)
    present = {k for _, _, k in spans}
    variants: dict[str, tuple[int, int]] = {}
    for a, b in permutations(range(len(named)), 2):
        if a not in present or b in present:
            continue
        out, last = [], 0
        for start, end, k in spans:
            if k == a:
                out += [phrasing[last:start], named[b].written]
                last = end
        variant = "".join([*out, phrasing[last:]])
        opener = spans[0][2] if opens(phrasing, spans[0][0]) else -1
        variants[variant] = (b if opener == a else -1, b)
    return tuple((v, subject, incoming) for v, (subject, incoming) in variants.items())


def opens(phrasing: str, start: int) -> bool:
    """Whether a name written at *start* opens the claim (after "the", "each" ...)."""
    return all(w.casefold() in _OPENERS for w in _WORD.findall(phrasing[:start]))


def acts(text: str, start: int) -> bool:
    """Whether a name written at text[start:end] is what a claim or clause says acts: it opens it
    (after "the", "and", "while" ...), or is the agent or instrument of its verb ("re-rank them
    with the cross-encoder", "produced by the critic"); not its object ("older GPUs lack BF16",
    "divide by sqrt(d)")."""
    before = [w.casefold() for w in _WORD.findall(text[:start])]
    while before and (before[-1] in _OPENERS or (before[-1] in _JOINS and len(before) == 1)):
        before.pop()
    if not before:
        return True
    if before[-1] == "by":  # the agent of a passive verb, not a divisor or a means
        return len(before) > 1 and before[-2].endswith(("ed", "en"))
    return before[-1] in _AGENTS


def governed(text: str, start: int) -> bool:
    """Whether a name written at *start* is the object of a preposition other than an agent's
    ("from the weights", "into the target"): a thing the clause is not about."""
    before = [w.casefold() for w in _WORD.findall(text[:start])]
    while before and before[-1] in _OPENERS:
        before.pop()
    return bool(before) and before[-1] in _PREPOSITIONS and not acts(text, start)


_PREPOSITIONS = frozenset("from to into onto of on in at for over under through across between".split())
_AGENTS = frozenset({"with", "using", "via"})
_JOINS = frozenset({"and", "while", "whereas", "but", "so", "then", "because", "since", "when"})


@lru_cache(maxsize=4096)
def names(text: str, named: tuple[Thing, ...]) -> frozenset[int]:
    """The things a text names."""
    return frozenset(k for _, _, k in names_in(text, named))


def named_last(text: str, start: int, end: int, named: tuple[Thing, ...]) -> int | None:
    """The thing named last in text[start:end] (a sentence up to a claim's words), if any: what
    a clause that follows is said of ("the consumer ... : it blocks when the queue is full")."""
    part = text[start:end]
    # A name after a foil is not what the clause is about: "faster than the consumer, it ...".
    spans = [(a, b, k) for a, b, k in names_in(part, named) if not _FOIL.search(part[:a])]
    return spans[-1][2] if spans else None


def _readings(word: str) -> frozenset[str]:
    """The stems a written word can stand for as a name: itself, and its parts ("encoder" and
    "decoder" of "encoder-decoder", "bf16" of "bf16/fp16")."""
    parts = [p for p in _PARTS.split(word) if p]
    short = []
    if len(parts) > 2:
        short.append("".join(p[0] for p in parts))  # "array-of-structs": AoS
    elif len(parts) == 2 and len(parts[1]) > 3:
        short.append(parts[0] + parts[1][0])  # "RNN-Transducer": RNN-T
    return frozenset(name_key(p) for p in (word, *parts, *short))


def _lead(text: str, prompt: list[frozenset[str]]) -> tuple[Name, str]:
    """The name a claim opens with, as the prompt writes it: after an article or "each", the
    longest run of up to three words that the prompt also writes in a row; and how the claim
    writes it."""
    words = list(_WORD.finditer(text))
    start = 0
    while start < len(words) and words[start].group().casefold() in _OPENERS:
        start += 1
    lead = words[start : start + _LONGEST_NAME]
    for size in range(len(lead), 0, -1):
        if any(w.group().casefold() in STOPWORDS for w in lead[:size]):
            continue  # "in the ...", "it ...", "copy of": not a name
        end = lead[size - 1].end()
        after = words[start + size] if start + size < len(words) else None
        if after and not text[end : after.start()].strip() and after.group().casefold() in _OPENERS:
            continue  # "Kubernetes needs a ...": the name ended a word earlier
        run = [name_key(w.group()) for w in lead[:size]]
        said = any(all(run[j] in prompt[i + j] for j in range(size)) for i in range(len(prompt) - size + 1))
        joined = not any(text[lead[j].end() : lead[j + 1].start()].strip() for j in range(size - 1))
        if said and joined:  # a comma or a bracket ends a name
            return tuple(run), _POSSESSIVE.sub("", text[lead[0].start() : lead[size - 1].end()])
    return (), ""


def _kin(one: Name, other: Name) -> bool:
    """Whether one name is a kind of the other ("AdamW" of "Adam", "HG-DAgger" of "DAgger"):
    what holds for one mostly holds for the other, so their roles are not apart."""
    return "".join(one) != "".join(other) and "".join(one) in "".join(other)


def _inside(short: Name, long: Name) -> bool:
    return len(short) < len(long) and all(k in long for k in short)


def names_in(phrasing: str, named: tuple[Thing, ...]) -> list[tuple[int, int, int]]:
    """(start, end, thing) of each name written in a claim."""
    words = list(_WORD.finditer(phrasing))
    keys = [name_key(w.group()) for w in words]
    spans: list[tuple[int, int, int]] = []
    i = 0
    while i < len(words):
        hit = next((k for k, t in enumerate(named) if tuple(keys[i : i + len(t.name)]) == t.name), None)
        if hit is None:
            i += 1
            continue
        size = len(named[hit].name)
        spans.append((words[i].start(), words[i + size - 1].end(), hit))
        i += size
    return spans


_POSSESSIVE = re.compile(r"['’]s?$")
_FOIL = re.compile(rf"\b(?:{'|'.join(sorted(FOILS))})\s+(?:\w+\s+)?$", re.IGNORECASE)


def after_foil(text: str, start: int) -> bool:
    """Whether a name written at *start* of *text* follows a foil ("unlike the consumer")."""
    return bool(_FOIL.search(text[:start]))
