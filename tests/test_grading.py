"""The grader, one test per kind of attempt, plus its properties."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prep.bank.load import load_bank
from prep.bank.schema import Question
from prep.grading.grade import grade
from prep.grading.settings import Settings
from prep.paths import BankLocation
from prep.rating import Rating

from .support import question


@pytest.fixture
def bank(bank_dir):
    return load_bank(BankLocation(bank_dir, "option"))


@pytest.fixture
def dp(bank):
    return bank.questions["dp-vs-mp"]


def _grade(question, text, elapsed=None, answer=None):
    return grade(question, answer, text, elapsed)


def test_concise_correct_passes(dp):
    g = _grade(
        dp,
        "In data parallelism each GPU holds a full copy of the model and processes a different "
        "part of the batch; gradients are all-reduced. Model parallelism splits the model "
        "across GPUs, which you need when it does not fit on one GPU.",
    )
    assert g.verdict == "pass" and g.rating == Rating.GOOD
    assert not g.missed and not g.pitfalls


def test_paraphrase_with_little_overlap_passes(dp):
    g = _grade(
        dp,
        "With DP you clone the network onto every card, feed each card its own shard of the "
        "minibatch, then average grads via allreduce. With MP the layers themselves are "
        "partitioned over devices because the net is too big for a single device's memory.",
    )
    assert g.verdict == "pass"


def test_typos_are_tolerated(dp):
    g = _grade(
        dp,
        "In data paralelism every gpu holds a ful replica of the modle, each gpu processes a "
        "diferent slice of the batch and gradiants are averaged with all-reduce. Model "
        "paralelism splits the model across gpus when it doesnt fit on one gpu.",
    )
    assert g.verdict == "pass"


def test_terse_telegraphic_answer_passes(dp):
    g = _grade(
        dp,
        "DP: full model replica per GPU, different batch slices, grads all-reduced. "
        "MP: model split across GPUs when too big for one.",
    )
    assert g.verdict == "pass"


def test_half_the_points_is_partial(dp):
    g = _grade(
        dp,
        "In data parallelism every GPU has a full replica of the model and works on its own "
        "part of the batch.",
    )
    assert g.verdict == "partial" and g.rating == Rating.HARD
    assert len(g.matched) == 2


def test_long_padded_partial_does_not_pass(dp):
    padding = (
        "Distributed training is a really important topic and there are many frameworks for it, "
        "and engineers spend a lot of time thinking about clusters, networking, schedulers and "
        "the overall efficiency of their jobs in production environments. "
    )
    g = _grade(dp, padding + "In data parallelism every GPU has a full replica of the model. " + padding)
    assert g.verdict != "pass"


def test_confidently_wrong_hits_the_pitfall(dp):
    g = _grade(
        dp,
        "Data parallelism splits the model across GPUs so each GPU holds a part, while model "
        "parallelism replicates the whole model on every GPU and averages gradients.",
    )
    assert g.verdict == "fail" and g.rating == Rating.AGAIN
    assert [p.text for p in g.pitfalls] == ["data parallelism splits the model across GPUs"]
    assert "states a known wrong claim" in g.notes


def test_correct_statement_near_a_pitfall_is_not_a_hit(dp):
    g = _grade(
        dp,
        "Model parallelism splits the model across GPUs; data parallelism does not reduce "
        "per-GPU parameter memory because every GPU holds a full replica.",
    )
    assert not g.pitfalls


def test_bare_keyword_list_does_not_pass(dp):
    g = _grade(dp, "DP, replicas, all-reduce, gradients, model split, GPUs, batch")
    assert g.verdict == "fail"
    assert any("keywords" in n for n in g.notes)


def test_off_topic_fails(dp):
    g = _grade(dp, "I would use a learning rate warmup and cosine decay with AdamW and weight decay 0.1.")
    assert g.verdict == "fail" and g.score < 20


def test_i_dont_know_fails(dp):
    g = _grade(dp, "I don't know.")
    assert g.verdict == "fail" and g.score == 0


def test_negated_claim_does_not_match(dp):
    g = _grade(dp, "In data parallelism GPUs do not hold a full replica of the model.")
    assert "in data parallelism every GPU holds a full replica of the model" not in [
        m.text for m in g.matched
    ]


def test_matched_points_carry_the_span_of_the_attempt(dp):
    text = "Gradients are averaged across GPUs with all-reduce."
    g = _grade(dp, text)
    [point] = [m for m in g.matched if "all-reduce" in m.text]
    start, end = point.span
    assert text[start:end] == point.excerpt
    assert "all-reduce" in point.excerpt


def test_easy_only_for_a_fast_pass(dp):
    text = (
        "In data parallelism each GPU holds a full copy of the model and processes a different part "
        "of the batch; gradients are all-reduced. Model parallelism splits the model across GPUs, "
        "which you need when it does not fit on one GPU."
    )
    assert _grade(dp, text).rating == Rating.GOOD  # no time given
    assert _grade(dp, text, elapsed=30).rating == Rating.EASY
    assert _grade(dp, text, elapsed=200).rating == Rating.GOOD


def test_fallback_to_the_prepared_answer(bank):
    failure = bank.questions["biggest-failure"]
    answer = bank.answer_text("biggest-failure")
    good = grade(
        failure,
        answer,
        "An upstream detection model silently changed its label definitions, so "
        "the pipeline fed mismatched data. We lost two weeks chasing the regression. "
        "I added a version check of all data artifacts before every training run.",
    )
    bad = grade(failure, answer, "I once forgot to commit my code before a demo.")
    assert good.mode == "answer" and good.verdict == "pass"
    assert bad.verdict == "fail"


def test_no_reference_at_all():
    question = Question(id="q", prompt="Anything?")
    g = grade(question, None, "some answer")
    assert g.mode == "none" and g.verdict == "fail"


def test_thresholds_are_settings(dp):
    text = (
        "In data parallelism every GPU has a full replica of the model and works on its own part "
        "of the batch."
    )
    lenient = grade(dp, None, text, settings=Settings(pass_score=30, pass_cover=0.2))
    assert lenient.verdict == "pass"


def test_grade_serialises_to_json(dp):
    data = json.loads(json.dumps(_grade(dp, "gradients are all-reduced").to_dict()))
    assert set(data) >= {"score", "verdict", "rating", "matched", "missed", "pitfalls"}


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_any_text_grades_without_error(text):
    question = Question.model_validate(
        {
            "id": "q",
            "prompt": "What is ZeRO?",
            "key_points": ["ZeRO shards optimizer states", "stage 3 shards parameters"],
            "pitfalls": ["ZeRO replicates optimizer states"],
        }
    )
    g = grade(question, "ZeRO removes redundancy.", text, 10.0)
    assert 0 <= g.score <= 100
    assert g.verdict in ("pass", "partial", "fail", "unsure")
    assert (g.rating is None) == (g.verdict == "unsure")
    assert set(g.unknown) <= {1, 2} and (g.verdict == "unsure") == bool(g.unknown)
    assert len(g.matched) + len(g.missed) == 2


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_score_never_decreases_when_the_correct_answer_is_appended(noise):
    question = Question.model_validate(
        {"id": "q", "prompt": "What is ZeRO?", "key_points": ["ZeRO shards optimizer states across GPUs"]}
    )
    correct = "ZeRO shards the optimizer states across GPUs."
    assert grade(question, None, noise + "\n" + correct).score >= grade(question, None, noise).score


def test_terse_notes_with_relations_are_not_a_keyword_list(dp):
    notes = (
        "DP: replica per GPU -> grads all-reduced, batch split. MP: layers sharded across GPUs, "
        "needed when too big."
    )
    g = _grade(dp, notes)
    assert not any("keywords" in n for n in g.notes)
    assert g.verdict == "pass"


def test_written_forms_of_one_word_compare_equal():
    from prep.text import key_set, sentences

    assert {"fake", "quant"} <= key_set("fake-quant")  # a compound meets its parts ...
    assert key_set("all-reduce") & key_set("allreduce")  # ... and its joined spelling
    assert key_set("eight rotations") == key_set("8 rotations")
    assert key_set("a single node") & key_set("one node") == key_set("one node")  # "single" is a count
    assert "percent" in key_set("about 5%")
    assert key_set("name+args") == key_set("name args")  # a plus inside a word joins two words
    assert key_set("C++") == {"c++"}  # but a trailing one is part of the name
    assert len(sentences('I would ask: "How is it measured?" It shows I care.')) == 2


def _question(*points: str, pitfalls: tuple[str, ...] = ()) -> Question:
    return question("Explain quantization-aware training.", [{"text": p} for p in points], list(pitfalls))


def test_hyphenated_shorthand_meets_the_spelled_out_claim():
    question = _question("QAT inserts fake quantization during training")
    g = grade(question, None, "QAT: fake-quant ops inserted in training.")
    assert g.verdict == "pass", g


def test_claim_words_strewn_along_a_long_sentence_are_not_the_claim():
    question = _question("the straight-through estimator passes gradients through rounding")
    close = "A straight-through estimator passes the gradients through the rounding step unchanged."
    strewn = (
        "The straight-through part of the pipeline, the one that moves records from the ingestion "
        "service into the nightly jobs without a review, is what I would estimate the cost of first, "
        "because the team that owns the cluster usually passes every new checkpoint to the evaluation "
        "group before anyone looks at the logs of the gradients, while the data loader meanwhile keeps "
        "rounding all of its timestamps down to the nearest second."
    )
    assert grade(question, None, close).verdict == "pass"
    spread = grade(question, None, strewn)
    assert spread.verdict != "pass" and not spread.matched, spread


def test_field_synonyms_carry_a_paraphrase():
    question = _question("fusion cuts HBM traffic")
    g = grade(question, None, "Merging the kernels reduces DRAM traffic.")
    assert g.verdict == "pass", g


def test_a_claim_with_a_number_needs_that_number():
    question = Question(
        id="q",
        prompt="What MFU did the run reach?",
        key_points=[
            {"text": "MFU comes out at about 40 percent"},
            {"text": "a 5 percent serial fraction caps speedup at 20x"},
        ],
    )
    right = grade(
        question, None, "MFU is about 40%. With 5% serial work the speedup tops out at twenty times."
    )
    wrong = grade(
        question, None, "MFU is about 13%. With 5% serial work the speedup tops out at fifty times."
    )
    assert right.verdict == "pass" and not right.missed, right
    # The figures are wrong, so nothing is credited; their key points are written one way each,
    # so the words alone cannot call the answer wrong either.
    assert wrong.verdict in ("fail", "unsure") and wrong.verdict != "pass" and not wrong.matched, wrong


def test_one_and_single_are_the_same_count():
    question = _question(
        "ZeRO-3 gathers each layer's weights just before one layer runs",
        "the launcher starts one process per GPU",
    )
    g = grade(
        question,
        None,
        "ZeRO-3 gathers a layer's weights right before that single layer runs, "
        "and the launcher starts a single process for every GPU.",
    )
    assert g.verdict == "pass" and not g.missed, g


def test_an_enumeration_inside_claims_is_not_a_keyword_list():
    question = _question(
        "the manifest records every dependency version",
        "the manifest records the driver and CUDA versions",
        "requirements.txt covers only Python packages",
    )
    listed = (
        "Record hashed lockfile of every transitive dependency version, image digest, driver/CUDA/NCCL, "
        "GPU model/count, commit, config, seeds. requirements.txt covers only the Python packages."
    )
    bare = "lockfile, image digest, driver, CUDA, NCCL, GPU model, commit, config, seeds, requirements.txt"
    g = grade(question, None, listed)
    assert not any("keywords" in n for n in g.notes) and g.verdict == "pass", g
    b = grade(question, None, bare)
    assert any("keywords" in n for n in b.notes) and b.verdict == "fail", b


def test_a_wrong_claim_said_with_an_aside_in_it_is_still_hit():
    question = Question(
        id="q",
        prompt="How do pipeline schedules compare?",
        key_points=[{"text": "1F1B keeps at most one micro-batch of activations per stage"}],
        pitfalls=[{"text": "1F1B has a smaller bubble than GPipe with the same micro-batches"}],
    )
    aside = (
        "1F1B, which alternates one forward with one backward step on every stage so that the activations "
        "are freed early and the memory stays flat from start to end, has a smaller bubble than GPipe "
        "would have with those micro-batches."
    )
    g = grade(question, None, aside)
    assert g.pitfalls and g.verdict == "fail", g
    right = grade(
        question,
        None,
        "1F1B keeps at most one micro-batch of activations alive per stage, "
        "so its bubble is the same as GPipe with the same micro-batches.",
    )
    assert not right.pitfalls and right.verdict == "pass", right


def test_a_claim_about_one_contrasted_subject_said_of_the_other_does_not_count():
    question = Question(
        id="q",
        prompt="Why do Transformers use LayerNorm rather than BatchNorm?",
        key_points=[
            {"text": "LayerNorm normalizes each token over its own features"},
            {"text": "BatchNorm statistics depend on the other samples in the batch"},
        ],
    )
    right = grade(
        question,
        None,
        "LayerNorm normalizes each token over its own features, while BatchNorm "
        "statistics depend on the other samples in the batch.",
    )
    assert right.verdict == "pass" and not right.missed, right
    aside = grade(
        question,
        None,
        "Unlike BatchNorm, LayerNorm normalizes each token over its own features. "
        "BatchNorm, unlike LayerNorm, has statistics that depend on the other samples "
        "in the batch.",
    )
    assert aside.verdict == "pass" and not aside.missed, aside
    swapped = grade(
        question,
        None,
        "BatchNorm normalizes each token over its own features, while LayerNorm "
        "statistics depend on the other samples in the batch.",
    )
    assert swapped.verdict == "fail" and not swapped.matched, swapped


def test_the_subjects_a_prompt_contrasts():
    from prep.grading.subjects import subjects

    def _subjects(prompt, points):  # type: ignore[no-untyped-def]
        return subjects(prompt, points)[0]

    assert _subjects(
        "Explain strong versus weak scaling.",
        ("strong scaling fixes the problem", "weak scaling grows it", "efficiency is speedup over N"),
    ) == ("strong", "weak", None)
    assert _subjects(
        "Compare BPE, WordPiece and Unigram.",
        ("BPE merges pairs", "WordPiece merges by likelihood", "Unigram prunes"),
    ) == ("bpe", "wordpiec", "unigram")
    # No contrast in the prompt, or only one subject among the key points: nothing to tell apart.
    assert _subjects("How does pipeline parallelism work?", ("pipeline stages idle", "bubbles shrink")) == (
        None,
        None,
    )
    assert _subjects("Is LayerNorm better than BatchNorm?", ("LayerNorm is per token", "padding hurts")) == (
        None,
        None,
    )


def test_subjects_go_by_their_initials_parts_and_dotted_names():
    from prep.grading.subjects import subjects

    firsts, names = subjects(
        "What is the difference between post-training quantization and quantization-aware training?",
        ("PTQ needs no retraining", "QAT inserts fake quantization", "STE passes"),
    )
    assert firsts == ("posttrain", "quantizationawar", None)
    assert names["ptq"] == "posttrain" and names["qat"] == "quantizationawar"
    firsts, _ = subjects(
        "Compare an array-of-structs and a struct-of-arrays layout.",
        ("AoS stores fields together", "SoA stores one array per field", "cache lines"),
    )
    assert firsts == ("arrayofstruct", "structofarray", None)
    firsts, names = subjects(
        "Explain how HNSW and IVF-PQ indexes work, and the trade-offs between them.",
        ("HNSW searches a graph", "IVF clusters vectors", "PQ splits vectors"),
    )
    assert firsts == ("hnsw", "ivfpq", "ivfpq") and names == {"ivf": "ivfpq", "pq": "ivfpq"}
    firsts, names = subjects(
        "How does nn.DataParallel differ from DistributedDataParallel?",
        ("DataParallel runs one process", "DDP runs a process per GPU"),
    )
    assert (
        firsts == ("nndataparallel", "distributeddataparallel") and names["ddp"] == "distributeddataparallel"
    )
    # Initials of words that are not a side of a contrast name nothing.
    assert subjects("Why use mixed precision for large models?", ("MP saves memory", "LM heads"))[0] == (
        None,
        None,
    )


def test_a_hyphenated_name_goes_by_its_first_part_and_the_initial_of_its_second():
    # "RNN-T" for RNN-Transducer, as people write it: the swapped claims are said of the other thing.
    question = Question(
        id="q",
        prompt="Compare CTC and RNN-Transducer decoders.",
        key_points=[
            {"text": "CTC predicts each frame independently of earlier outputs"},
            {"text": "RNN-T feeds previous labels into a prediction network"},
        ],
    )
    right = grade(
        question,
        None,
        "CTC predicts every frame independently of the earlier outputs. "
        "RNN-T feeds the previous labels into a prediction network.",
    )
    swapped = grade(
        question,
        None,
        "RNN-T predicts every frame independently of the earlier outputs. "
        "CTC feeds the previous labels into a prediction network.",
    )
    assert right.verdict == "pass"
    assert swapped.verdict == "fail" and len(swapped.swapped) == 2


def test_a_claim_about_one_subject_said_of_its_rival_by_initials_earns_nothing():
    question = Question(
        id="q",
        prompt="What is the difference between post-training quantization and quantization-aware training?",
        key_points=[
            {"text": "PTQ quantizes a trained model without retraining"},
            {"text": "QAT simulates quantization during training"},
        ],
    )
    right = grade(
        question,
        None,
        "PTQ quantizes a trained model without any retraining. QAT simulates quantization during training.",
    )
    swapped = grade(
        question,
        None,
        "QAT quantizes a trained model without any retraining. PTQ simulates quantization during training.",
    )
    assert right.verdict == "pass" and swapped.verdict != "pass", (right, swapped)


def test_subjects_named_together_or_as_an_object_keep_the_clause_theirs():
    question = Question(
        id="q",
        prompt="What is the difference between sequence parallelism and context parallelism?",
        key_points=[
            {"text": "sequence parallelism shards norm and dropout activations by token"},
            {"text": "context parallelism splits the sequence across GPUs in every layer"},
            {"text": "sequence and context parallelism both cut activation memory"},
        ],
    )
    g = grade(
        question,
        None,
        "Sequence parallelism shards the norm and dropout activations by token. Context "
        "parallelism splits the whole sequence across its GPUs in every layer. Sequence and "
        "context parallelism both cut activation memory.",
    )
    assert g.verdict == "pass" and not g.missed, g
    swapped = grade(
        question,
        None,
        "Context parallelism shards the norm and dropout activations by token. "
        "Sequence parallelism splits the whole sequence across its GPUs in every layer.",
    )
    assert not swapped.matched, swapped


def test_almost_no_is_very_little_not_a_negation():
    question = Question(
        id="q",
        prompt="Why does paged attention help serving throughput?",
        key_points=[{"text": "near-zero fragmentation lets more sequences fit in a batch"}],
    )
    assert grade(question, None, "almost no fragmentation, so more requests fit in the batch").score > 60
    assert (
        grade(question, None, "it does not reduce fragmentation, so no more requests fit in the batch").score
        < 35
    )


def test_a_few_is_neither_few_nor_several_said_the_other_way_round():
    # "a few" is some: it meets "several" and "few" alike, and turns neither.
    question = Question(
        id="q",
        prompt="How do you run a human evaluation of model outputs?",
        key_points=[
            {"text": "several annotators label each item"},
            {"text": "active parameters per token are few"},
            {"text": "gold items monitor annotator quality"},
        ],
    )
    graded = grade(
        question,
        None,
        "A few annotators label each item. Only a few parameters are active per token. "
        "Gold items monitor annotator quality.",
    )
    assert graded.contradicted == () and graded.verdict == "pass"
    turned = grade(question, None, "Many parameters are active per token.")
    assert [c.text for c in turned.contradicted] == ["active parameters per token are few"]


def test_a_claim_turned_by_its_direction_or_by_what_it_requires_is_contradicted():
    # "climbs up" is the other way from "descends"; "requires transcripts" turns "needs no transcripts".
    question = Question(
        id="q",
        prompt="How does search in an HNSW index proceed, and what does pretraining need?",
        key_points=[
            {"text": "the search greedily moves toward the query, then descends a layer"},
            {"text": "pretraining needs no transcripts"},
        ],
    )
    right = grade(
        question,
        None,
        "The search greedily moves toward the query, then descends a layer. "
        "Pretraining needs no transcripts.",
    )
    assert right.contradicted == () and right.verdict == "pass"
    climbs = grade(question, None, "The search greedily moves toward the query, then climbs up a layer.")
    assert [c.text for c in climbs.contradicted] == [question.key_points[0].text]
    required = grade(question, None, "Pretraining requires transcripts of the audio.")
    assert [c.text for c in required.contradicted] == ["pretraining needs no transcripts"]
    assert "fail" == climbs.verdict == required.verdict


def test_parallel_is_the_other_way_from_autoregressive():
    question = Question(
        id="q",
        prompt="How does a decoder-only transformer train and generate?",
        key_points=[
            {"text": "training processes all positions in parallel with teacher forcing"},
            {"text": "the decoder generates tokens autoregressively, one at a time"},
        ],
    )
    both = (
        "Training is parallel across positions with teacher forcing, "
        "but the decoder generates tokens autoregressively, one at a time."
    )
    assert grade(question, None, both).verdict == "pass"  # each said of its own stage
    turned = grade(question, None, "The decoder generates all the tokens in parallel in a single pass.")
    assert [c.text for c in turned.contradicted] == [question.key_points[1].text]


def test_a_pitfall_about_the_questions_subject_is_caught_when_the_answer_says_it():
    question = Question(
        id="q",
        prompt="After SFT, why did you choose DPO rather than PPO for alignment?",
        key_points=[
            {"text": "DPO needs no separately trained reward model"},
            {"text": "DPO learns offline from fixed preference pairs without rollouts"},
        ],
        pitfalls=[{"text": "DPO does not need a reference model"}],
    )
    answer = (
        "DPO has no separately trained reward model at all, it learns offline from fixed preference "
        "pairs without rollouts, and it does not need a reference model either, just the policy."
    )
    graded = grade(question, None, answer)
    assert [p.text for p in graded.pitfalls] == ["DPO does not need a reference model"]
    assert graded.verdict == "fail"
    right = "DPO needs no separately trained reward model and learns offline from fixed preference pairs."
    assert grade(question, None, right + " It still needs a frozen reference model.").pitfalls == ()


def test_ignores_and_depends_on_and_constant_and_linear_are_opposites():
    metric = Question(
        id="q",
        prompt="How do you choose between cosine similarity and dot product for embeddings?",
        key_points=[
            {"text": "cosine ignores vector length"},
            {"text": "on normalized vectors cosine and dot product give the same ranking"},
        ],
    )
    same = "On normalized vectors cosine and dot product give the same ranking."
    assert grade(metric, None, "Cosine ignores vector length. " + same).verdict == "pass"
    turned = grade(metric, None, "Cosine similarity depends on vector length. " + same)
    assert [c.text for c in turned.contradicted] == ["cosine ignores vector length"]
    scan = Question(
        id="s",
        prompt="Why do vector databases use approximate search?",
        key_points=[{"text": "exact search is linear in the number of vectors"}],
    )
    constant = grade(scan, None, "Exact search is constant in the number of vectors.")
    assert [c.text for c in constant.contradicted] == ["exact search is linear in the number of vectors"]
