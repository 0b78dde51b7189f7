"""The bundled bank holds itself to the bar a candidate would expect of it."""

from __future__ import annotations

from collections import Counter

import pytest
from rapidfuzz import fuzz, process, utils

from prep.bank.load import check_bank
from prep.paths import BankLocation, bundled_bank_root

REQUIRED_CATEGORIES = {
    "intro",
    "parallelism",
    "alignment",
    "structured-output",
    "data-quality",
    "transformers",
    "gpu-performance",
    "system-design",
    "mlops",
    "evaluation",
    "behavioral",
    "strategy",
    "ask",
}
WORDS_PER_MINUTE = 150


@pytest.fixture(scope="module")
def bank():
    loaded, problems = check_bank(BankLocation(bundled_bank_root(), "bundled"))
    assert problems == [], "\n".join(map(str, problems))
    return loaded


def test_size_and_categories(bank):
    assert len(bank.questions) >= 120
    assert len(bank.categories) >= 12
    assert set(bank.categories) >= REQUIRED_CATEGORIES
    counts = Counter(bank.category_of.values())
    small = {c: n for c, n in counts.items() if n < 8}
    assert not small, f"categories with fewer than 8 questions: {small}"


def test_every_question_can_be_graded(bank):
    bare = [q.id for q in bank.questions.values() if not q.key_points and q.id not in bank.answers]
    assert bare == []


def test_key_points_are_checkable_claims(bank):
    for q in bank.questions.values():
        if q.kind in ("technical", "strategy"):
            assert 3 <= len(q.key_points) <= 6, q.id
        for point in q.key_points:
            assert len(point.text.split()) >= 3, (q.id, point.text)


def test_questions_to_ask_exist(bank):
    assert sum(q.kind == "ask" for q in bank.questions.values()) >= 8


def test_follow_ups_resolve_and_chains_exist(bank):
    chained = [q for q in bank.questions.values() if q.follow_ups]
    assert len(chained) >= 15
    for q in chained:
        for target in q.follow_ups:
            assert target in bank.questions, (q.id, target)


def test_no_near_duplicate_prompts(bank):
    ids = list(bank.questions)
    prompts = [bank.questions[i].prompt for i in ids]
    scores = process.cdist(prompts, prompts, scorer=fuzz.token_sort_ratio, processor=utils.default_process)
    pairs = [
        (ids[a], ids[b], scores[a][b])
        for a in range(len(ids))
        for b in range(a + 1, len(ids))
        if scores[a][b] >= 85
    ]
    assert pairs == []


def test_answers_fit_their_target_time(bank):
    misfits = []
    for qid, answer in bank.answers.items():
        target = bank.questions[qid].target_seconds
        spoken = len(answer.answer.split()) * 60 / WORDS_PER_MINUTE
        if not 0.7 * target <= spoken <= 1.3 * target:
            misfits.append((qid, target, round(spoken)))
    assert misfits == []


def test_candidate_stories_are_first_person(bank):
    own = [a for a in bank.answers.values() if a.source == "own"]
    assert len(own) >= 15
    for answer in own:
        if bank.questions[answer.question].kind == "ask":
            continue  # the question the candidate will ask, in their words: "What is your ..."
        words = set(answer.answer.lower().replace(",", " ").replace(".", " ").split())
        assert words & {"i", "i'm", "i've", "my", "we", "our"}, answer.question


def test_every_technical_question_has_an_answer(bank):
    missing = [q.id for q in bank.questions.values() if q.kind != "ask" and q.id not in bank.answers]
    assert missing == []


def test_model_answers_pass_their_own_grader(bank):
    """A reference answer that fails its own key points means the key points or aliases are off."""
    from prep.grading.grade import grade

    failing = []
    for qid, answer in bank.answers.items():
        q = bank.questions[qid]
        if q.key_points and grade(q, answer.answer, answer.answer).verdict != "pass":
            failing.append(qid)
    assert len(failing) <= len(bank.answers) // 20, failing


# Each answer states every key point of a question that contrasts two subjects; the swapped
# version exchanges the two names and nothing else, so its vocabulary is the same.
CONTRASTS = {
    "layernorm-vs-batchnorm": (
        ("LayerNorm", "BatchNorm"),
        (
            "LayerNorm normalizes each token over its own features, so it does not depend on the other "
            "samples "
            "in the batch and behaves identically in training and inference. BatchNorm statistics depend on "
            "the "
            "other samples in the batch, and padding and variable sequence lengths distort those batch "
            "statistics, while small batches make the estimates noisy."
        ),
    ),
    "pre-norm-vs-post-norm": (
        ("Post-norm", "Pre-norm"),
        (
            "Post-norm applies LayerNorm after the residual addition and needs careful warmup or it "
            "diverges. "
            "Pre-norm normalizes the sublayer input and leaves the residual path untouched, which gives a "
            "clean "
            "identity path for gradients; it needs a final norm before the output head, and its residual "
            "stream "
            "grows in magnitude with depth."
        ),
    ),
    "slurm-vs-kubernetes-training": (
        ("Slurm", "Kubernetes"),
        (
            "Slurm gang-schedules all the nodes of a job natively and is topology-aware and simple for HPC "
            "batch "
            "jobs. Kubernetes needs add-ons like Volcano or Kueue for gang scheduling and queues, but suits "
            "elastic jobs, services and multi-tenant clusters."
        ),
    ),
    # The key points name these subjects by initials or by a part of the prompt's name for them.
    "aos-vs-soa-layout": (
        ("AoS", "SoA"),
        (
            "AoS stores each record's fields next to each other. SoA stores each field in its own contiguous "
            "array. Memory moves in whole 64-byte cache lines, so SoA avoids loading unused fields when a "
            "loop "
            "touches one field, and SoA gives coalesced GPU loads and easy SIMD. AoS wins when code uses all "
            "fields of one record."
        ),
    ),
    "dataparallel-vs-ddp": (
        ("DataParallel", "DDP"),
        (
            "DataParallel runs one process with a thread per GPU, so the Python threads contend for the GIL, "
            "and DataParallel re-replicates the model and gathers outputs on GPU 0. DDP runs one process per "
            "GPU and all-reduces gradient buckets overlapped with backward. DataParallel cannot span "
            "multiple "
            "machines."
        ),
    ),
}


@pytest.mark.parametrize("qid", sorted(CONTRASTS))
def test_an_answer_with_its_contrasted_subjects_swapped_does_not_pass(bank, qid):
    from prep.grading.grade import grade

    (first, second), right = CONTRASTS[qid]
    swapped = right.replace(first, "\0").replace(second, first).replace("\0", second)
    question = bank.questions[qid]
    assert grade(question, None, right).verdict == "pass"
    assert grade(question, None, swapped).verdict != "pass"


def test_the_bank_covers_the_role_in_depth(bank):
    counts = Counter(bank.category_of.values())
    assert len(bank.questions) >= 280
    assert counts["robot-learning"] >= 25
    assert min(counts.values()) >= 15, counts


def test_readme_lists_every_category_with_its_size(bank):
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    counts = Counter(bank.category_of.values())
    for category_id, category in bank.categories.items():
        assert f"| `{category_id}` | {category.title} | {counts[category_id]} |" in readme, category_id
    assert f"{len(bank.questions)} questions in {len(bank.categories)} categories" in readme


def test_behavioral_stories_are_strong(bank):
    """Every prepared behavioral answer tells a story the way an interviewer wants it: situation,
    task, the candidate's own actions and a result with a number."""
    from prep.grading.star import analyse

    behavioral = [q for q in bank.questions.values() if q.kind == "behavioral"]
    assert len(behavioral) >= 25
    verdicts = {q.id: analyse(bank.answers[q.id].answer, q.prompt) for q in behavioral}
    assert {qid: s.flags for qid, s in verdicts.items() if s.verdict != "strong"} == {}


def test_stories_cover_every_behavioral_question(bank):
    from prep.bank.stories import story_coverage

    coverage = story_coverage(bank)
    assert len(coverage.stories) >= 6
    assert [q.id for q in coverage.uncovered] == []
    assert [use.story.id for use in coverage.stories if not use.questions] == []
