"""The STAR structure of a behavioral answer: situation, task, action, result, as an interviewer
listens for it, from general cues of English (starcues.py), offline and pure.

    analyse(answer, prompt) -> Structure: each sentence labelled with its part, which parts are
    present, the flags (no-result, no-action, result-not-quantified, we-not-i, hypothetical,
    long-setup), whether the answer is a plan that the question asked for ("how would you...") and
    a verdict (strong, adequate, weak). bench/star.py measures it against labelled answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from prep.grading.starcues import Cues, asks_for_plan, quantified, read_cues
from prep.rating import Rating

Part = Literal["situation", "task", "action", "result", "other"]
Verdict = Literal["strong", "adequate", "weak"]
PARTS: tuple[Part, ...] = ("situation", "task", "action", "result")
FLAGS = ("no-result", "no-action", "result-not-quantified", "we-not-i", "hypothetical", "long-setup")

# A sentence ends at . ! or ? before a space, or at a line break or a bullet; not after a title
# ("Dr. Lee") nor after an abbreviation that the next word goes on from ("e.g. a cache").
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+|\s*[\r\n]+\s*|\s*•\s*")
# A title before a name ("Dr. Chen"), not a unit after a number ("100 ms.").
_TITLE = re.compile(r"(?<!\d\s)\b(?:mr|mrs|ms|dr|prof|st)\.$", re.I)
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|fig|cf)|\b[A-Z])\.$", re.I)
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


@dataclass(frozen=True)
class Sentence:
    text: str
    part: Part
    start: int  # character offsets in the answer
    end: int


@dataclass(frozen=True)
class Structure:
    sentences: tuple[Sentence, ...]
    parts: dict[str, bool]
    flags: tuple[str, ...]
    verdict: Verdict
    # What the speaker would do, as the question asked ("how would you..."): a plan, whose
    # situation and task the question sets.
    plan: bool = False

    @property
    def own_story(self) -> bool:
        """A story of what the speaker did, told well or not: the bank's key points tell someone
        else's, so one not found there proves nothing (how it is told is the STAR line's to
        judge). Not a plan asked for ("how would you..."), an answer of what one would do, or one
        with no deed of the speaker's in it: those are graded on their points like any answer."""
        return not self.plan and "hypothetical" not in self.flags and self.parts["action"]

    def to_dict(self) -> dict:
        return {
            "parts": dict(self.parts),
            "sentences": [{"text": s.text, "part": s.part} for s in self.sentences],
            "flags": list(self.flags),
            "verdict": self.verdict,
            "plan": self.plan,
        }


def split_sentences(answer: str) -> list[tuple[int, int]]:
    """Character spans of the answer's sentences, each holding at least one word."""
    spans, start = [], 0
    for match in _SENTENCE_END.finditer(answer):
        before, after = answer[start : match.start()], answer[match.end() : match.end() + 1]
        if (
            match.group().isspace()
            and "\n" not in match.group()
            and (_TITLE.search(before) or (_ABBREVIATION.search(before) and not after.isupper()))
        ):
            continue  # the sentence goes on
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(answer)))
    stripped = []
    for a, b in spans:
        text = answer[a:b]
        if _WORD.search(text):
            lead = len(text) - len(text.lstrip())
            stripped.append((a + lead, a + len(text.rstrip())))
    return stripped


def part_scores(cues: Cues, position: float) -> dict[Part, float]:
    """How much each part is suggested by a sentence's cues and by where it stands (0: first,
    1: last), since a story is told in order: setting first, outcome last. The weights were set by
    hand on the tuning set: a cue that names its part outright ("I learned", "my job was", "I haven't
    been on call") outweighs a deed's tense, and tense outweighs position."""
    acts = cues.speaker_acts or cues.group_acts or cues.passive_acts or cues.would_do
    score: dict[Part, float] = {"situation": 0.0, "task": 0.0, "action": 0.0, "result": 0.0, "other": 0.0}
    score["other"] += 3.5 * cues.filler + 4 * cues.no_experience
    if cues.opinion and not cues.past and not acts and not cues.projected:
        score["other"] += 3
    score["task"] += 3.5 if cues.task or cues.task_request else 0
    score["situation"] += 2 * cues.setting + (0.75 if acts else 1.5) * cues.state
    if cues.speaker and cues.habitual and not cues.past and not acts:
        score["other"] += 2.5  # the speaker's habits, not a story: "usually I just try to..."
    elif cues.habitual and not (cues.speaker_acts or cues.would_do or cues.opinion):
        score["situation"] += 1.5
    if cues.speaker_acts:
        score["action"] += 3
    elif cues.group_acts:
        score["action"] += 1.5 if cues.habitual else 2.5
    elif (cues.present_acts and not cues.past) or cues.passive_acts:
        score["action"] += 1.5
    score["action"] += 2.5 * cues.would_do + 1.5 * cues.discovery
    score["result"] += 4 * cues.learned + 2 * cues.result_phrase + cues.later
    score["result"] += 1.5 * cues.leads_with_outcome + 1.5 * cues.projected
    if not cues.deeds_lead:  # what the speaker's deeds measure or agree on the way is no result
        score["result"] += 2 * cues.later_outcome
        if cues.change:
            score["result"] += 0.5 if cues.speaker_acts else (1.5 + cues.measure)
        score["result"] += (0.5 if cues.speaker_acts else 1.5) * cues.outcome
    score["situation"] += 1 - position
    score["result"] += position
    return score


def label(texts: list[str]) -> list[Part]:
    n = len(texts)
    cues = [read_cues(t) for t in texts]
    parts: list[Part] = []
    for i, c in enumerate(cues):
        score = part_scores(c, i / (n - 1) if n > 1 else 0.5)
        parts.append(max(score, key=score.__getitem__))
    # An outcome told before anything was done is the problem, not the result ("once it went
    # live, orders went down"), unless it is announced as one.
    first_action = next((i for i, p in enumerate(parts) if p == "action"), n)
    for i in range(first_action if first_action < n else 0):
        if parts[i] == "result" and not (cues[i].learned or cues[i].result_phrase):
            parts[i] = "situation"
    # Nothing of the setup comes after the last deed: what follows it is what came of it.
    last_action = max((i for i, p in enumerate(parts) if p == "action"), default=n)
    for i in range(last_action + 1, n):
        if parts[i] in ("situation", "task"):
            parts[i] = "result"
    # One task per story: a request told before the task said plainly ("my manager asked me to
    # switch vendors" ... "as the owner of search quality, I...") is part of the situation.
    plain_task = next((i for i, p in enumerate(parts) if p == "task" and cues[i].task), n)
    for i in range(plain_task if plain_task < n else 0):
        if parts[i] == "task":
            parts[i] = "situation"
    return parts


def hypothetical(cues: list[Cues]) -> bool:
    """More sentences of what the speaker would do than of things that happened."""
    would = sum(c.would_do or c.no_experience for c in cues)
    happened = sum((c.speaker_acts or c.group_acts) and not c.would_do for c in cues)
    return would > 0 and would >= happened


def find_flags(sentences: list[Sentence], cues: list[Cues], plan: bool) -> tuple[str, ...]:
    """The flags, in the order of FLAGS; a plan the question asked for is not hypothetical."""
    flags = []
    results = [s for s in sentences if s.part == "result"]
    acting = [c for s, c in zip(sentences, cues) if s.part == "action"]
    if not results:
        flags.append("no-result")
    if not acting:
        flags.append("no-action")
    if results and not any(quantified(s.text) for s in results):
        flags.append("result-not-quantified")
    if acting and 2 * sum(c.speaker for c in acting) < len(acting):
        flags.append("we-not-i")
    if not plan and hypothetical(cues):
        flags.append("hypothetical")
    words = [len(_WORD.findall(s.text)) for s in sentences]
    setup = sum(w for w, s in zip(words, sentences) if s.part in ("situation", "task"))
    if 2 * setup > sum(words):
        flags.append("long-setup")
    return tuple(flags)


def verdict_of(parts: dict[str, bool], flags: tuple[str, ...], plan: bool = False) -> Verdict:
    """Weak without an action or a result, or told in the conditional when a past event was
    asked (each has its flag); strong with every part, your own actions and a number in the result.
    A plan needs no situation or task of its own to be strong: the question sets them."""
    if "hypothetical" in flags or not parts["result"] or not parts["action"]:
        return "weak"
    needed = ("action", "result") if plan else PARTS
    if all(parts[p] for p in needed) and not {"we-not-i", "result-not-quantified"} & set(flags):
        return "strong"
    return "adequate"


def analyse(answer: str, prompt: str = "") -> Structure:
    """The STAR structure of *answer* to the question *prompt*: its sentences with their parts,
    flags and verdict. An answer in the conditional to a question that asks what the speaker
    would do is a plan, as asked, not a hypothetical."""
    spans = split_sentences(answer)
    texts = [answer[a:b] for a, b in spans]
    sentences = [
        Sentence(text, part, a, b) for text, part, (a, b) in zip(texts, label(texts), spans, strict=True)
    ]
    cues = [read_cues(t) for t in texts]
    plan = hypothetical(cues) and asks_for_plan(prompt)
    if plan:  # the question sets the scene: a step the speaker would take is the plan's action
        sentences = [
            replace(s, part="action") if c.would_do and s.part in ("situation", "task") else s
            for s, c in zip(sentences, cues, strict=True)
        ]
    present = {part: any(s.part == part for s in sentences) for part in PARTS}
    flags = find_flags(sentences, cues, plan)
    return Structure(tuple(sentences), present, flags, verdict_of(present, flags, plan), plan)


def capped(rating: Rating | None, structure: Structure) -> Rating | None:
    """The rating to suggest for an answer of this structure: a weak story (hypothetical, no
    result or no action) is Hard at best, however many key points it names. No suggestion
    stays none."""
    if rating is None or structure.verdict != "weak":
        return rating
    return min(rating, Rating.HARD)
