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

# Words that carry no claim of their own. Kept short on purpose: negations, quantifiers
# ("every", "all", "each") and comparatives stay content, because they change what is claimed.
STOPWORDS = frozenset(
    """
    a an the and or but if then so as of to in on at by for from with into onto over under
    is are was were be been being am do does did doing have has had having it its this that
    these those there here which who whom whose what when where why how i me my we our us you
    your he she they them their his her itself themselves just also very really quite
    can could would should will shall may might must about like such than too
    basically actually essentially generally usually simply kind sort thing things way itself
    """.split()
)

# Words a candidate uses interchangeably in ML-systems talk, folded to one comparison key.
# General vocabulary of the field, not per-question tuning; docs/grading.md lists the policy.
SYNONYM_GROUPS = (
    "gpu gpus card cards device devices accelerator accelerators",
    "model models network networks net nets",
    "weight weights parameter parameters param params",
    "replica replicas replicate replicated replicates copy copies clone clones cloned duplicate duplicated",
    (
        "split splits splitting shard shards sharded sharding partition partitions partitioned divide "
        "divides "
        "divided slice slices sliced chunk chunks"
    ),
    "gradient gradients grad grads",
    "batch batches minibatch minibatches",
    "average averaged averages averaging mean",
    "sync synced synchronize synchronizes synchronized synchronise synchronised synchronization",
    "memory mem vram",
    "communication communicate communicates comm comms",
    "reduce reduces reduced lower lowers lowered decrease decreases decreased cut cuts shrink shrinks less "
    "fewer",
    "increase increases increased raise raises boost boosts grow grows growing grew grown rise rises rising "
    "expand expands expanded more higher",
    "large larger big bigger huge",
    "small smaller tiny",
    "need needs needed require requires required necessary",
    "use uses used using utilize utilizes leverage leverages employ employs",
    "each every per all",
    "many multiple several",
    "avoid avoids avoided prevent prevents prevented",
    "fast faster quick quicker",
    "slow slower",
    "overlap overlaps overlapped overlapping hide hides hidden",
    "error errors mistake mistakes",
    "fail fails failed failure failures crash crashes crashed",
    "restart restarts restarted resume resumes resumed",
    "checkpoint checkpoints checkpointing ckpt",
    "step steps iteration iterations",
    "sample samples example examples",
    "score scores rating ratings",
    "train trains trained training",
    "stable stability stabilize stabilizes steady",
    "accurate accuracy correct correctness",
    "percent percentage pct",
    # Equivalents an engineer uses without noticing: the same claim in other words.
    "derivative derivatives",
    "dot inner",
    "hbm dram gddr",
    "smem sram scratchpad",
    "node nodes machine machines host hosts server servers",
    "output outputs generation generations response responses completion completions answer answers",
    "human humans people person annotator annotators rater raters labeler labelers",
    "probability probabilities prob probs likelihood likelihoods",
    "start starts started begin begins beginning initial initially init initialization",
    "limit limits limited cap caps capped bound bounds bounded ceiling ceilings bottleneck bottlenecks "
    "bottlenecked",
    "combine combines combined merge merges merged fuse fuses fused fusion mix mixes mixed mixing",
    "separate separately decouple decoupled decoupling independent independently",
    "read reads reading load loads loading fetch fetches fetched",
    "write writes writing written",
    "send sends sent transfer transfers transferred transmit transmits",
    "idle stall stalls stalled starve starves starved wait waits waiting waited",
    "skip skips skipped omit omits omitted",
    "improve improves improved improvement better",
    "worse worsen worsens degrade degrades degraded hurt hurts harm harms",
    "choose chooses chose choice pick picks picked select selects selected selection",
    "check checks checked verify verifies verified validate validates validated",
    "show shows showed shown reveal reveals revealed display displays",
    "find finds found detect detects detected identify identifies identified catch catches caught",
    "change changes changed modify modifies modified alter alters altered",
    "method methods approach approaches technique techniques",
    "cost costs costly expensive expense overhead overheads price",
    "cheap cheaper inexpensive",
    "data dataset datasets corpus corpora",
    "team teams group groups",
    "company companies firm firms organization organizations org",
    "entire whole full",
    "run runs running ran execute executes executed execution",
    "monitor monitors monitoring track tracks tracking watch watches watching",
    (
        "store stores stored save saves saved persist persists keep keeps kept retain retains retained "
        "hold holds preserve preserves preserved"
    ),
    # Mined from the bank's own phrasings (bench/mine_vocabulary.py) and curated by hand: words
    # two phrasings of one key point swap, recurring across questions of different topics.
    "sequence sequences series",
    "same identical equal equals",
    "inside within",
    "across between among",
    "count counts number numbers",
    "compare compares compared comparing comparison",
    "remove removes removed drop drops dropped discard discards discarded delete deletes deleted eliminate "
    "eliminates eliminated strip strips stripped",
    "inspect inspects inspected examine examines examined",
    "often frequent frequently",
    "produce produces produced create creates created emit emits emitted",
    "latency latencies delay delays lag lags",
    "propose proposes proposed suggest suggests suggested",
    "compute computes computed calculate calculates calculated",
    "share shares shared common",
    "new fresh",
    "confirm confirms confirmed",
    "backward backprop backpropagation",
    "reason reasons reasoning think thinks thinking",
    "chosen preferred winning",
    "rejected dispreferred losing",
)

# Abbreviations expanded to their words, so "DP" covers "data parallelism" and back.
ABBREVIATIONS = {
    "dp": "data parallel",
    "tp": "tensor parallel",
    "pp": "pipeline parallel",
    "ep": "expert parallel",
    "cp": "context parallel",
    "sp": "sequence parallel",
    "lr": "learning rate",
    "bs": "batch size",
    "kv": "key value",
    "moe": "mixture of experts",
    "rl": "reinforcement learning",
    "sft": "supervised fine tuning",
    "cot": "chain of thought",
    "oom": "out of memory",
    "mfu": "model flops utilization",
    "llm": "large language model",
    "vlm": "vision language model",
    "e2e": "end to end",
    "smem": "shared memory",
    "attn": "attention",
    "seq": "sequence",
    "ctx": "context",
    "nn": "neural network",
    "kd": "knowledge distillation",
    "sim": "simulation",
    "k8s": "kubernetes",
    "sqrt": "square root",
    "min": "minimum",
    "max": "maximum",
    "ms": "milliseconds",
    "eval": "evaluation",
    "evals": "evaluations",
}

# Numbers are compared as digits, so "eight rotations" is "8 rotations" and "%" is "percent".
NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "single": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "sixteen": "16",
    "twenty": "20",
    "hundred": "100",
    "thousand": "1000",
    "%": "percent",
}

# A change of polarity between a key point and the sentence it matched flips the claim.
NEGATIONS = frozenset(
    {
        "not",
        "no",
        "never",
        "cannot",
        "nor",
        "neither",
        "none",
        "nothing",
        "without",
        "isnt",
        "arent",
        "doesnt",
        "dont",
        "didnt",
        "wont",
        "cant",
        "shouldnt",
        "wasnt",
        "werent",
        "hasnt",
        "havent",
    }
)

# "Almost no fragmentation" is a claim about fragmentation (very little), not its negation.
NEARLY = frozenset({"almost", "nearly", "virtually", "practically"})
NEGATION_SCOPE = 3  # a negator reaches this many content words ahead, within its clause
# ... and "no" or "without" (which deny a thing, not an action) stop at a preposition after the
# first of them: in "no lock is needed between the threads" what is denied is the lock, not the
# threads, while in "does not transfer to the full model" the whole phrase is denied.
NOUN_NEGATIONS = frozenset({"no", "without"})
SCOPE_ENDS = frozenset(
    "between from to into onto in on at by for with across among through within via per of over under".split()
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


def tokenize(text: str, claim: bool = False) -> list[Token]:
    """Words of *text* with their stems, offsets and (dense, 0-based) sentence numbers.

    An attempt (the default) offers every reading of a written word; a *claim* keeps one key per
    word, so that "all-reduce" in a key point asks for one word, not three."""
    tokens: list[Token] = []
    boundaries = [m.end() for m in _SENTENCE_END.finditer(text)]
    segment, b, sentence, last_segment = 0, 0, -1, -1
    scope = 0  # content words still inside the last negator's scope
    denies_thing = False  # that negator was "no" or "without"
    previous = ""  # the word written before this one
    breaks = [m.start() for m in CLAUSE_BREAK.finditer(text)]
    c = 0
    boundaries.append(len(text) + 1)  # sentinels: no bounds checks in the loop
    breaks.append(len(text) + 1)
    for match in _WORD.finditer(text):
        start = match.start()
        while boundaries[b] <= start:
            segment += 1
            b += 1
        if breaks[c] < start:
            scope = 0  # a comma, colon or "but" ends a negation's reach
            while breaks[c] < start:
                c += 1
        word = match.group().rstrip(".")
        negation, parts = _analyse(word, claim)
        if not parts:
            continue
        if segment != last_segment:  # number only segments that hold words
            sentence, last_segment = sentence + 1, segment
            scope = 0
        end = start + len(word)
        if scope and scope < NEGATION_SCOPE and denies_thing and fold(word) in SCOPE_ENDS:
            scope = 0
        negated, any_content = scope > 0, False
        for key, content in parts:
            any_content |= content
            tokens.append(Token(word, key, start, end, sentence, content, negation, content and negated))
        if any_content and scope:
            scope -= 1  # the scope counts words as written, however many keys they expand to
        if negation and fold(previous) not in NEARLY:
            scope, denies_thing = NEGATION_SCOPE, fold(word) in NOUN_NEGATIONS
        previous = word
    return tokens


@lru_cache(maxsize=65536)
def _analyse(word: str, claim: bool) -> tuple[bool, tuple[tuple[str, bool], ...]]:
    """Whether a written word is a negator, and the (key, is content) pairs it stands for."""
    folded = fold(word) if word else ""
    if not folded:
        return False, ()
    negation = folded in NEGATIONS or folded.endswith("nt") and folded[:-2] in _AUX
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


@lru_cache(maxsize=4096)
def key_set(text: str) -> frozenset[str]:
    """All word keys of a text (e.g. a prompt), cached."""
    return frozenset(t.key for t in tokenize(text))


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


_AUX = frozenset(
    {
        "is",
        "are",
        "was",
        "were",
        "does",
        "do",
        "did",
        "has",
        "have",
        "had",
        "could",
        "would",
        "should",
        "must",
        "need",
        "ca",
        "wo",
    }
)


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
