"""The words the grader knows: small words, the field's synonyms and abbreviations, number
words, negators and opposites. General vocabulary of ML-systems talk, never tuned per question
(docs/grading.md lists the policy); prep.text turns text into tokens with them.
"""

from __future__ import annotations

# Words that carry no claim of their own. Kept short on purpose: negations, quantifiers
# ("every", "all", "each") and comparatives stay content, because they change what is claimed.
STOPWORDS = frozenset(
    """
    a an the and or but if then so as of to in on at by for from with into onto over under
    is are was were be been being am do does did doing have has had having it its this that
    these those there here which who whom whose what when where why how i me my we our us you
    your he she they them their his her itself themselves just also very really quite
    can could would should will shall may might must about like such than too along
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
# "No" right after one of these verbs denies the verb with its object: "needs no reward model" is
# "does not need a reward model". And "no need for X" denies X, past the preposition.
DENIED_VERBS = frozenset("need use add involve introduce require take incur keep store".split())
# Two-word foils that deny what follows them, as "without" does: "X rather than Y" says Y is not
# the case, so "Y rather than X" reverses the claim.
DENYING_PAIRS = {"instead": "of", "rather": "than", "opposed": "to"}

# Auxiliaries whose contracted negation ("doesn't", "won't") is a negator.
AUXILIARIES = frozenset(
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


# Opposites: a claim word met only by its opposite is a claim turned around ("a lower temperature
# sharpens" said as "raising the temperature sharpens"), as a negated one is. Each side lists
# words of one meaning; the synonym groups extend them ("more" is an increase, "fewer" a
# reduction). Pairs whose words are also everyday nouns of the field are left out ("cost").
ANTONYM_PAIRS = (
    ("increase", "reduce"),
    ("large largest", "small smallest"),
    ("fast fastest", "slow slowest"),
    ("before", "after"),
    ("early earlier earliest", "late later latest"),
    ("first", "last"),
    ("long longer longest", "short shorter shortest"),
    ("high highest", "low lowest"),
    ("maximum maximize maximizes maximise maximises", "minimum minimize minimizes minimise minimises"),
    ("improve", "worse"),
    ("add adds added", "remove"),
    ("enable enables enabled", "disable disables disabled"),
    ("include includes included inclusive", "exclude excludes excluded exclusive"),
    ("accept accepts accepted chosen", "rejected reject rejects"),
    ("same", "different differ differs"),
    ("static statically", "dynamic dynamically"),
    ("synchronous synchronously", "asynchronous asynchronously async"),
    ("sparse sparsity", "dense"),
    ("stable", "unstable instability"),
    ("online", "offline"),
    ("explicit explicitly", "implicit implicitly"),
    ("separate", "joint jointly together tied coupled dependent depend depends share"),
    ("lossless", "lossy"),
    ("exact exactly", "approximate approximately approximation"),
    ("frozen freeze freezes", "update updates updated"),
    ("sharp sharper sharpen sharpens", "flat flatter flatten flattens soft softer soften softens"),
    ("positive positives", "negative negatives"),
    ("true", "false"),
    ("accurate", "inaccurate incorrect wrong"),
    ("local locally", "global globally"),
    ("up", "down"),
    ("ascend ascends ascending climb climbs climbing", "descend descends descending"),
    ("simple simpler simplest", "complex complicated"),
    ("deterministic deterministically", "stochastic stochastically random randomly"),
    ("shallow shallower", "deep deeper deepest"),
    ("narrow narrower", "wide wider widest broad broader"),
    ("symmetric symmetrical", "asymmetric asymmetrical"),
    ("required mandatory", "optional"),
    ("overestimate overestimates", "underestimate underestimates"),
    ("grow grows growing", "shrink shrinks shrinking"),
    ("top upper", "bottom"),
    ("near nearer nearest close closer", "far farther further"),
    ("old older oldest", "new newer newest recent"),
    ("above exceed exceeds", "below"),
    ("above exceed exceeds", "reduce"),
    ("below", "increase"),
    ("underfit underfits underfitting", "overfit overfits overfitting"),
    ("inside", "outside"),
    ("many", "few"),
    ("hard harder hardest", "easy easier easiest"),
    ("hard", "soft softer"),
    ("strong stronger strongest", "weak weaker weakest"),
    ("fine finer", "coarse coarser"),
    ("parallel", "sequential sequentially serial serially autoregressive autoregressively"),
    ("bonus bonuses", "penalty penalties penalize penalizes penalise penalises"),
    ("ignore ignores ignored", "depend depends dependent"),
    ("constant", "linear quadratic"),
    ("linear linearly", "quadratic quadratically"),
)
