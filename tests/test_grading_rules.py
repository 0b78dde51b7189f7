"""The general rules that let the grader hold on questions a user writes with one phrasing per key
point: each with attempts it must credit and attempts it must not."""

from __future__ import annotations

import pytest

from prep.grading.grade import grade
from prep.grading.mistakes import pitfall_core
from prep.grading.settings import DEFAULT_SETTINGS
from prep.grading.verdict import phrasing_scale, recognised
from prep.rating import Rating

from .support import question

DISTILLATION = question(
    "How does knowledge distillation from a large teacher model into a small student model work?",
    [
        "the teacher model produces soft probability distributions over the classes",
        "the student model is trained to match those soft targets",
        "a temperature above one flattens the distributions",
    ],
)


# --- verdicts calibrated to the phrasings a key point has -----------------------------------


def test_a_question_with_the_bundled_banks_phrasings_keeps_the_usual_thresholds():
    eight = {
        "text": "gradients are averaged with all-reduce",
        "aliases": [f"alias number {i}" for i in range(7)],
    }
    q = question("What does DDP do?", [eight, eight | {"text": "each GPU holds a replica of the model"}])
    assert phrasing_scale(list(q.key_points), DEFAULT_SETTINGS) == 1.0
    g = grade(q, None, "Each GPU holds a replica of the model.")
    assert (g.pass_at, g.partial_at) == (70, 35)


def test_fewer_phrasings_ask_less_of_a_correct_answer():
    assert recognised(1, DEFAULT_SETTINGS) < recognised(3, DEFAULT_SETTINGS) < recognised(8, DEFAULT_SETTINGS)
    assert recognised(20, DEFAULT_SETTINGS) == recognised(8, DEFAULT_SETTINGS)
    g = grade(DISTILLATION, None, "x")
    # ... but a pass still needs most of the question covered: never one key point of four.
    assert g.pass_at == 60 and g.partial_at < 35


def test_a_correct_answer_in_its_own_words_passes_a_one_phrasing_question():
    attempt = (
        "The big teacher gives soft probability distributions over the classes instead of hard labels, and "
        "the small student is trained to match those soft targets. Raising the temperature above one "
        "flattens the distributions so the small probabilities carry information."
    )
    assert grade(DISTILLATION, None, attempt).verdict == "pass"


def test_an_answer_that_says_little_of_a_one_phrasing_question_is_unsure_not_failed():
    # Its key points have one phrasing each: not finding them proves little, so the words do not
    # decide, and no rating is suggested (the user ticks what they covered, or rates).
    g = grade(DISTILLATION, None, "Distillation makes a smaller model that is cheaper to serve.")
    assert g.verdict == "unsure" and g.rating is None and g.unknown == (1, 2, 3)


def test_an_answer_that_misses_most_well_phrased_key_points_still_fails():
    phrased = DISTILLATION.model_copy(
        update={
            "key_points": tuple(
                k.model_copy(update={"aliases": tuple(f"{k.text}, in wording {n}" for n in "abc")})
                for k in DISTILLATION.key_points
            )
        }
    )
    g = grade(phrased, None, "Distillation makes a smaller model that is cheaper to serve.")
    assert g.verdict == "fail" and g.rating == Rating.AGAIN and g.unknown == ()


# --- roles bound to the things the key points name -------------------------------------------


def test_a_claim_said_of_the_wrong_one_earns_nothing_and_counts_as_wrong():
    right = (
        "The teacher model produces soft probability distributions over the classes, the student model is "
        "trained to match those soft targets, and a temperature above one flattens the distributions."
    )
    swapped = right.replace("teacher", "\0").replace("student", "teacher").replace("\0", "student")
    assert grade(DISTILLATION, None, right).verdict == "pass"
    g = grade(DISTILLATION, None, swapped)
    assert g.verdict == "fail"
    assert g.swapped and "says of one thing what holds for another" in g.notes


def test_a_key_point_naming_both_things_is_not_tied_to_either():
    q = question(
        "In distillation, what do the teacher and the student do?",
        ["the teacher produces soft targets", "the student matches the teacher's soft targets"],
    )
    g = grade(
        q, None, "The teacher produces soft targets. The teacher's soft targets are what the student matches."
    )
    assert g.verdict == "pass" and not g.swapped


def test_words_that_say_a_point_credited_to_one_thing_are_not_a_swap_of_the_other():
    from pathlib import Path

    from prep.bank.load import load_bank
    from prep.paths import BankLocation

    bank = load_bank(BankLocation(Path(__file__).resolve().parent.parent, "bundled"))
    q = bank.questions["dp-vs-mp"]
    # "copies the model to every GPU and splits the batch" says the replica and the batch of data
    # parallelism, not "model parallelism splits the model" said of data parallelism.
    terse = (
        "Data parallel copies the model to every GPU and splits the batch; model parallel splits the model."
    )
    g = grade(q, None, terse)
    assert not g.swapped and g.verdict != "fail"
    swapped = (
        "Model parallel copies the model to every GPU and splits the batch; data parallel splits the model."
    )
    assert grade(q, None, swapped).verdict == "fail"


def test_names_the_prompt_does_not_say_bind_no_roles():
    q = question(
        "How do you read a profile?",
        ["kernels show up in the timeline", "gaps show idle time on the GPU"],
    )
    g = grade(q, None, "Gaps in the timeline show the GPU sitting idle, and each kernel shows up in it.")
    assert g.verdict == "pass" and not g.swapped


QUEUE = question(
    "Around a bounded queue, what does the producer do, what does the consumer do, and what happens "
    "when the queue is full or empty?",
    [
        "the producer creates items and puts them into the queue",
        "the producer blocks when the queue is full",
        "the consumer takes items out of the queue and processes them",
        "the consumer blocks when the queue is empty",
    ],
)
QUEUE_RIGHT = (
    "The producer builds each item and puts it into the queue, and it blocks while the queue is full. "
    "The consumer takes items out of the queue and processes them; it blocks while the queue is empty."
)


def test_the_things_a_question_gives_roles_to_are_the_names_its_key_points_open_with():
    from prep.grading.swaps import things

    named = things(QUEUE.prompt, tuple(c.text for c in QUEUE.key_points))
    assert [t.written for t in named] == ["producer", "consumer"]
    # "in the ..." opens no name, and a name inside a longer one is not a thing of its own.
    named = things(
        "In asynchronous checkpointing, what do the training loop and the checkpoint writer do?",
        (
            "the training loop snapshots the state",
            "the checkpoint writer, a background thread, writes it",
            "the writer renames the file when done",
            "in the asynchronous version nothing waits",
        ),
    )
    assert [t.written for t in named] == ["training loop", "checkpoint writer"]


def test_an_answer_with_the_roles_exchanged_fails_even_where_the_vocabulary_earns_credit():
    assert grade(QUEUE, None, QUEUE_RIGHT).verdict == "pass"
    # Said of the consumer, through "it": the producer's blocking and the consumer's work.
    swapped = (
        "The consumer is the side that makes the work: it builds each item and puts it into the queue, "
        "blocking whenever the queue is full. The producer is the side that takes items off the queue and "
        "processes them, and it blocks whenever the queue is empty."
    )
    g = grade(QUEUE, None, swapped)
    assert g.verdict == "fail" and g.swapped, g
    assert {s.text for s in g.swapped} <= {c.text for c in QUEUE.key_points}
    assert not {s.text for s in g.swapped} & {m.text for m in g.matched}


def test_a_thing_named_after_a_foil_is_not_what_the_clause_is_said_of():
    attempt = (
        QUEUE_RIGHT
        + " A bounded queue stops a producer that is faster than the consumer, and it puts a cap on memory."
    )
    g = grade(QUEUE, None, attempt)
    assert g.verdict == "pass" and not g.swapped, g


def test_an_exchange_of_two_names_inside_a_claim_needs_both_named_where_it_is_said():
    q = question(
        "In self-attention, what are the roles of the query, the key and the value?",
        [
            "each token's query is compared with every token's key to give scores",
            "the values are summed, weighted by the softmaxed scores",
            "the key decides how much a token is attended to",
        ],
    )
    right = (
        "Each token's query is compared with every token's key to give scores; the values are then summed, "
        "weighted by the softmaxed scores, and the key decides how much a token is attended to."
    )
    assert grade(q, None, right).verdict == "pass"
    wrong = right.replace("every token's key", "every token's value")
    assert grade(q, None, wrong).swapped
    # Names said only once, in their own places, are not an exchange.
    terse = (
        "Query compared with keys -> scores; values summed, weighted by softmaxed scores; key = attention."
    )
    assert not grade(q, None, terse).swapped


def test_a_claim_met_only_by_the_words_the_prompt_says_earns_nothing():
    point = "the producer blocks when the queue is full"
    # "producer", "queue" and "full" are the prompt's words; "blocks" is the claim's own.
    wrong = grade(QUEUE, None, "When the queue is full, the producer simply overwrites the oldest item.")
    assert point not in {m.text for m in wrong.matched}
    assert next(r.score for r in wrong.missed if r.text == point) == 0
    right = grade(QUEUE, None, "When the queue is full, the producer blocks until there is room.")
    assert point in {m.text for m in right.matched}


# --- negation and small words ----------------------------------------------------------------

RING = question(
    "Why does a single-producer single-consumer ring buffer work without locks?",
    [
        "no lock is needed between the producer and the consumer",
        "the producer only writes the head index",
        "the consumer only writes the tail index",
    ],
)


def test_there_is_no_x_between_a_and_b_meets_no_x_is_needed_between_a_and_b():
    g = grade(RING, None, "There is no lock between the producer and the consumer.")
    assert [m.text for m in g.matched] == ["no lock is needed between the producer and the consumer"]


def test_denying_the_claim_still_refutes_it():
    g = grade(RING, None, "You need a lock between the producer and the consumer.")
    assert "no lock is needed between the producer and the consumer" not in [m.text for m in g.matched]


def test_a_negated_verb_keeps_its_whole_phrase_denied():
    q = question("Do small ablations transfer?", ["small ablations transfer to the full model"])
    g = grade(q, None, "Small ablations don't transfer to the full model.")
    assert g.verdict != "pass"


def test_a_count_of_things_the_prompt_names_is_not_a_required_figure():
    q = question(
        "Why do LLM servers treat the prefill and decode phases differently?",
        ["the two phases have different bottlenecks", "prefill is compute-bound", "decode is memory-bound"],
    )
    g = grade(
        q, None, "They have different bottlenecks: prefill is compute-bound while decode is memory-bound."
    )
    assert g.verdict == "pass"


def test_a_figure_the_answer_gives_is_still_required():
    q = question("How fast does FlashAttention make it?", ["attention runs about 3 times faster"])
    assert grade(q, None, "Attention runs about 7 times faster.").verdict != "pass"


def test_a_hyphenated_key_point_word_is_met_by_its_parts():
    q = question("What limits decode?", ["decode is memory-bandwidth-bound"])
    [point] = grade(q, None, "Decode is memory bandwidth bound.").matched
    assert point.score == 100.0


# --- pitfalls said in other words ------------------------------------------------------------

CPT = question(
    "How do you choose the data mixture for continued pre-training?",
    [
        "replay some general data alongside the domain data",
        "ablate mixture ratios on a smaller model",
        "monitor general benchmarks during training",
    ],
    ["training only on domain data works best, because general data (web text) dilutes the domain signal"],
)


def test_the_core_of_a_wrong_claim_is_a_phrasing_of_it():
    assert pitfall_core(CPT.pitfalls[0].text) == "training only on domain data works best"
    assert pitfall_core("a warp reduction needs __syncthreads between every shuffle step") is None
    assert pitfall_core("decode is compute-bound: it does a lot of math") is None  # too short a core


def test_a_pitfall_fires_on_its_core_claim_alone():
    g = grade(CPT, None, "Honestly, training only on domain data works best for continued pre-training.")
    assert g.pitfalls and g.verdict == "fail"


def test_a_pitfall_core_does_not_fire_on_a_correct_answer():
    g = grade(
        CPT,
        None,
        "Replay some general data alongside the domain data, ablate the mixture ratios on a smaller model "
        "first, and monitor general benchmarks during training.",
    )
    assert not g.pitfalls and g.verdict == "pass"


# --- vocabulary of the field ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key_point", "attempt"),
    [
        ("the cache stores the keys and values", "The cache keeps the keys and values."),
        ("the queue is the bottleneck of the pipeline", "The pipeline is limited by the queue."),
        ("GPUs wait idle for the slowest worker", "The GPUs sit waiting for the slowest worker."),
        ("memory grows with sequence length", "Memory increases with the length of the sequence."),
        ("remove duplicated documents before training", "Drop duplicated documents before training."),
        ("cosine decay ends at the minimum learning rate", "Cosine decay ends at the min LR."),
    ],
)
def test_words_of_the_field_said_another_way_are_the_same_claim(key_point, attempt):
    q = question("Explain it.", [key_point])
    [point] = grade(q, None, attempt).matched
    assert point.score == 100.0


# --- the fallback, graded against a prepared answer ---------------------------------------


def test_the_fallback_verdict_is_calibrated_like_a_one_phrasing_key_point():
    q = question("What is the role of a prototype program?", [])
    reference = "A prototype simulates the behaviour of portions of the desired software product."
    g = grade(q, reference, "It simulates parts of the final product quickly, to see how it could work.")
    assert g.mode == "answer" and g.pass_at < 50
    assert g.verdict == ("pass" if g.score >= g.pass_at else "partial" if g.score >= g.partial_at else "fail")
