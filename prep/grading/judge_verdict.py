"""From a judge model's report to a Grade, by prep's rules (docs/judge.md):

  * evidence first: a key point said or contradicted, or a pitfall said, counts only when its
    quote occurs in the answer (spaces and case aside); otherwise the point counts as not said
    and the pitfall as not said;
  * a contradicted key point or a said pitfall fails the answer;
  * otherwise at least 75% of the key points said passes, fewer than 25% fails, anything else
    is partial; the score is the share of key points said.

Pure, like ``grade``: the word-level grade comes in for what the judge does not report (how
many words, the time), and the judged Grade goes out in the same shape.
"""

from __future__ import annotations

import math
from dataclasses import replace

from prep.grading.grade import Grade, PointResult
from prep.grading.judge_exchange import JudgeReply, JudgeRequest
from prep.grading.settings import DEFAULT_SETTINGS, Settings
from prep.grading.star import capped
from prep.grading.verdict import Verdict
from prep.rating import Rating

PASS_SHARE = 0.75
FAIL_BELOW = 0.25
QUOTE_MARKS = "\"'“”‘’`«»"
TRIMMED = QUOTE_MARKS + ".…,;: \t\n"


def find_quote(quote: str, answer: str) -> tuple[int, int] | None:
    """Where *quote* occurs in *answer* (a character span of the answer), comparing with runs of
    spaces as one space and case ignored; quote marks and an ellipsis around it do not count.
    None when it does not occur, or says nothing (empty, punctuation only)."""
    wanted = _normalised(quote.strip(TRIMMED))[0]
    if not wanted:
        return None
    text, positions = _normalised(answer)
    start = text.find(wanted)
    while start >= 0:
        end = start + len(wanted)
        # whole characters of the answer only: not from the middle of one that folds to two ("ß")
        if (start == 0 or positions[start - 1] != positions[start]) and (
            end == len(text) or positions[end] != positions[end - 1]
        ):
            return positions[start], positions[end - 1] + 1
        start = text.find(wanted, start + 1)
    return None


def _normalised(text: str) -> tuple[str, list[int]]:
    """*text* casefolded with each run of whitespace as one space, and for each character of it
    the index of the character of *text* it came from."""
    out: list[str] = []
    positions: list[int] = []
    for index, char in enumerate(text):
        if char.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                positions.append(index)
            continue
        for folded in char.casefold():  # "ß" folds to two characters, both from this one
            out.append(folded)
            positions.append(index)
    while out and out[-1] == " ":
        out.pop()
        positions.pop()
    return "".join(out), positions


def judged_grade(
    request: JudgeRequest,
    reply: JudgeReply,
    words: Grade,
    fast: bool,
    settings: Settings = DEFAULT_SETTINGS,
) -> Grade:
    """The Grade the judge's report gives *request*'s answer, its quotes checked against it.
    *words*: the word-level grade (its mode, word count and time are kept); *fast*: answered
    within the question's target time (Easy needs it, as for the words)."""
    answer = request.answer
    status = {p.point: p for p in reversed(reply.points)}  # the first report of a point wins
    said: list[PointResult] = []
    missed: list[PointResult] = []
    contradicted: list[PointResult] = []
    for number, text in enumerate(request.points, 1):
        report = status.get(number)
        span = find_quote(report.quote, answer) if report and report.status != "not_said" else None
        if span is None:
            missed.append(PointResult(text, 0.0, False, number=number))
            continue
        found = PointResult(
            text, 100.0, report.status == "said", span=span, excerpt=answer[span[0] : span[1]], number=number
        )
        (said if report.status == "said" else contradicted).append(found)
        if report.status == "contradicted":
            missed.append(found)  # shown once, as said the other way round
    pitfalls = []
    reported = {p.pitfall: p for p in reversed(reply.pitfalls)}
    for number, text in enumerate(request.pitfalls, 1):
        report = reported.get(number)
        span = find_quote(report.quote, answer) if report and report.said else None
        if span is not None:
            excerpt = answer[span[0] : span[1]]
            pitfalls.append(PointResult(text, 100.0, True, span=span, excerpt=excerpt, number=number))
    share = len(said) / len(request.points)
    verdict, rating = _verdict(share, bool(contradicted or pitfalls), fast, settings)
    if words.structure is not None:  # a behavioral answer's weak story suggests Hard at best
        rating = capped(rating, words.structure)
    notes = [
        note
        for flaw, note in (
            (pitfalls, "states a known wrong claim"),
            (contradicted, "says the opposite of a key point"),
        )
        if flaw
    ]
    return replace(
        words,
        score=round(100 * share),
        verdict=verdict,
        rating=rating,
        matched=tuple(said),
        missed=tuple(missed),
        pitfalls=tuple(pitfalls),
        swapped=(),
        contradicted=tuple(contradicted),
        unknown=(),
        notes=tuple(notes),
        pass_at=math.ceil(100 * PASS_SHARE),
        partial_at=math.ceil(100 * FAIL_BELOW),
    )


def _verdict(share: float, flawed: bool, fast: bool, settings: Settings) -> tuple[Verdict, Rating]:
    if flawed or share < FAIL_BELOW:
        return "fail", Rating.AGAIN
    if share >= PASS_SHARE:
        easy = fast and 100 * share >= settings.easy_score  # never Easy from speed alone
        return "pass", Rating.EASY if easy else Rating.GOOD
    return "partial", Rating.HARD
