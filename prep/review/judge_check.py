"""`prep judge check`: one fixed example sent to a judge model, to see that it works before it
grades anything: its verdict against the one expected, how long it took, and whether its reply
followed the schema. The cache is not used: the point is to ask the model."""

from __future__ import annotations

import time
from dataclasses import dataclass

from prep.bank.schema import Question
from prep.grading.grade import grade
from prep.grading.judge_exchange import MalformedReply, judge_request, parse_reply
from prep.grading.judge_verdict import judged_grade
from prep.review.judge import Judge, JudgeFailed

EXAMPLE = Question.model_validate(
    {
        "id": "judge-check",
        "prompt": "What does a KV cache store during autoregressive decoding, and what does it cost?",
        "key_points": [
            "it stores the keys and values computed for earlier tokens",
            "so each new token does not recompute attention over the whole prefix",
            "its memory grows with the context length and the batch size",
        ],
        "pitfalls": ["the KV cache stores the attention weights of earlier tokens"],
    }
)
EXAMPLE_ANSWER = (
    "While decoding we keep the key and value vectors already computed for the earlier tokens, so "
    "each new token only computes its own query against them instead of reprocessing the prefix. "
    "The price is memory, which grows with the context length and with the batch size."
)
EXPECTED = "pass"


@dataclass(frozen=True)
class CheckResult:
    model: str
    verdict: str | None  # None: no usable reply
    expected: str
    seconds: float
    schema_requested: bool  # sent through llm's schema support (the model has it)
    followed: str  # "yes", "after lenient parsing" (JSON inside other text), or "no"
    error: str | None = None
    reply: str = ""

    @property
    def ok(self) -> bool:
        return self.verdict == self.expected

    def to_dict(self) -> dict:
        return {
            "model": self.model,
            "verdict": self.verdict,
            "expected": self.expected,
            "seconds": round(self.seconds, 3),
            "schema_requested": self.schema_requested,
            "schema_followed": self.followed,
            "error": self.error,
        }


def check(judge: Judge) -> CheckResult:
    """Send the fixed example to the judge's model (JudgeUnavailable if it cannot be used)."""
    request = judge_request(EXAMPLE, None, EXAMPLE_ANSWER)
    assert request is not None
    requested = bool(getattr(judge.model(), "supports_schema", False))
    started = time.perf_counter()
    try:
        text = judge.ask(request)
    except JudgeFailed as failure:
        elapsed = time.perf_counter() - started
        return CheckResult(judge.name, None, EXPECTED, elapsed, requested, "no", str(failure))
    elapsed = time.perf_counter() - started
    try:
        reply = parse_reply(text)
    except MalformedReply as wrong:
        return CheckResult(judge.name, None, EXPECTED, elapsed, requested, "no", str(wrong), text)
    words = grade(EXAMPLE, None, EXAMPLE_ANSWER)
    verdict = judged_grade(request, reply, words, fast=False).verdict
    followed = "yes" if reply.strict else "after lenient parsing"
    return CheckResult(judge.name, verdict, EXPECTED, elapsed, requested, followed, reply=text)
