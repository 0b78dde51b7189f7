"""What an attempt says wrong: known wrong claims (pitfalls), key points said of the wrong thing
(swapped), and key points said the other way round (contradicted). Each of them fails an answer
however much else it says right: an interviewer who hears one stops counting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from prep.bank.schema import Claim, Question
from prep.grading.binding import bound_elsewhere, claim_parts
from prep.grading.point import PointResult
from prep.grading.refuting import RefutingMatcher
from prep.grading.settings import Settings
from prep.grading.swaps import exchanged, named_last, names, things
from prep.grading.turned import turned
from prep.text import key_set, ordered_keys, phrase_keys, sentence_start


@dataclass(frozen=True)
class Mistakes:
    pitfalls: tuple[PointResult, ...] = ()  # known wrong claims said
    swapped: tuple[PointResult, ...] = ()  # key points said of the wrong one of the things they name
    contradicted: tuple[PointResult, ...] = ()  # key points said the other way round

    def said_wrong(self) -> set[str]:
        """The key points (by text) the attempt says wrongly: not credit, whatever words match."""
        return {r.text for r in (*self.swapped, *self.contradicted)}

    def numbered(self, question: Question) -> Mistakes:
        """These mistakes with the numbers of the key points and pitfalls they are about, and the
        key points' ways of being written, as `prep show` and the tick list number them."""
        points = {c.text: (n, len(c.written)) for n, c in enumerate(question.key_points, 1)}
        pitfalls = {c.text: n for n, c in enumerate(question.pitfalls, 1)}

        def point(r: PointResult) -> PointResult:
            number, ways = points.get(r.text, (0, r.phrasings))
            return replace(r, number=number, phrasings=ways)

        return Mistakes(
            tuple(replace(r, number=pitfalls.get(r.text, 0)) for r in self.pitfalls),
            tuple(point(r) for r in self.swapped),
            tuple(point(r) for r in self.contradicted),
        )


@dataclass(frozen=True)
class WrongClaims:
    """The wrong claims a question's attempts are searched for, laid out with its key points."""

    pitfalls: tuple[Claim, ...]
    exchanges: tuple[tuple[str, str, int, int], ...]  # (key point, exchanged, subject, incoming)
    turns: tuple[tuple[str, str, str], ...]  # (key point, turned, the opposite written in)
    parts: dict[str, tuple[str, ...]]  # key point -> the parts of its phrasings, each said alone

    def phrasings(self) -> list[str]:
        return (
            [p for c in self.pitfalls for p in c.phrasings]
            + [e[1] for e in self.exchanges]
            + [t[1] for t in self.turns]
        )

    def part_phrasings(self) -> list[str]:
        return [p for parts in self.parts.values() for p in parts]


def wrong_claims(question: Question, with_points: bool) -> WrongClaims:
    """The pitfalls (with their cores), and with key points the key points exchanged and turned."""
    pitfalls = tuple(with_core(c, question.prompt) for c in question.pitfalls)
    if not with_points:
        return WrongClaims(pitfalls, (), (), {})
    parts = {
        c.text: tuple(dict.fromkeys(part for p in (c.text, *c.aliases) for part in claim_parts(p)))
        for c in question.key_points
    }
    return WrongClaims(pitfalls, role_exchanges(question), turned_points(question), parts)


def find_mistakes(
    matcher: RefutingMatcher,
    question: Question,
    claims: list[Claim],
    results: list[PointResult],
    wrong: WrongClaims,
    settings: Settings,
) -> Mistakes:
    """Every mistake the attempt makes (swaps and contradictions only where there are key points)."""
    # Teaching never weakens the guard: only the phrasings written in the bank can outdo a pitfall.
    rivals = [p for c in question.key_points for p in (c.text, *c.aliases)]
    hits = tuple(h for h in (matcher.pitfall(p, rivals) for p in wrong.pitfalls) if h is not None)
    if not question.key_points or not claims or claims[0] is not question.key_points[0]:
        return Mistakes(pitfalls=hits)
    return Mistakes(
        pitfalls=hits,
        swapped=_swaps(matcher, question, claims, results, wrong.exchanges, rivals),
        contradicted=_contradictions(matcher, question, claims, results, wrong, rivals, settings),
    )


def _swaps(
    matcher: RefutingMatcher,
    question: Question,
    claims: list[Claim],
    results: list[PointResult],
    exchanges: tuple[tuple[str, str, int, int], ...],
    rivals: list[str],
) -> tuple[PointResult, ...]:
    """Key points said of the wrong one of the things the key points name: a key point not met
    said in full of another subject, one credited from a clause about another thing
    (binding.py), or any key point said with another thing's name in place of its own
    (swaps.py), more closely than any other key point is said there."""
    unmet = [c for c, r in zip(claims, results) if not r.matched]
    credited = [p for c, r in zip(claims, results) if r.matched for p in (c.text, *c.aliases)]
    found = {h.text: h for h in (matcher.swapped(c, credited) for c in unmet) if h is not None}
    named = things(question.prompt, tuple(c.text for c in claims))
    taught = {p: c.text for c in claims for p in c.taught}  # the user's words: about their point's thing
    for result in results:
        if result.matched and result.text not in found and result.span and result.phrasing:
            owner = taught.get(result.phrasing)
            clause = bound_elsewhere(
                matcher.attempt, matcher.tokens, result.span, result.phrasing, named, owner
            )
            if clause is not None:
                found[result.text] = replace(result, excerpt=clause)
    own = {c.text: {c.text, *c.aliases} for c in claims}
    for point, variant, subject, incoming in exchanges:
        # A claim now said of another thing differs from its key point only by that name, so
        # the name decides, not word order: it must be what the attempt says it of, the thing
        # named last before the middle of the claim's words ("... is produced by the
        # discriminator" is not judged). A name changed further into the claim is judged by word
        # order, and must be said there.
        others = [r for r in rivals if r not in own[point]] if subject >= 0 else rivals
        if point in found or (hit := matcher.pitfall(Claim(text=variant), others)) is None:
            continue
        if subject >= 0:
            middle = matcher.middle(variant, hit.span)  # type: ignore[arg-type]
            if named_last(matcher.attempt, sentence_start(matcher.attempt, middle), middle, named) != subject:
                continue
        elif incoming not in names(hit.excerpt or "", named):
            continue  # the thing in the wrong place must be named where the claim is said
        found[point] = replace(hit, text=point)
    return tuple(found.values())


def _contradictions(
    matcher: RefutingMatcher,
    question: Question,
    claims: list[Claim],
    results: list[PointResult],
    wrong: WrongClaims,
    rivals: list[str],
    settings: Settings,
) -> tuple[PointResult, ...]:
    """Key points said the other way round: negated, or with a word turned into its opposite
    (matcher.contradicted), in full or in one of their parts ("the teacher is frozen" of "the
    teacher is frozen; only the student is updated"), said of the thing the part is about; or
    said in the words of the claim turned (turned.py)."""
    named = things(question.prompt, tuple(c.text for c in claims))
    found: dict[str, PointResult] = {}
    for claim, result in zip(claims, results):
        others = [p for c in claims if c is not claim for p in c.phrasings if p not in c.taught]
        credited = result.span if result.matched else None
        parts = wrong.parts.get(claim.text, ())
        hit = matcher.contradicted(claim, others, settings.contradiction_hit, credited, parts)
        said_elsewhere = (
            hit is not None
            and hit.span
            and hit.phrasing
            and bound_elsewhere(matcher.attempt, matcher.tokens, hit.span, hit.phrasing, named)
        )
        if hit is not None and not said_elsewhere:  # said of another thing: not a denial of this one
            found[claim.text] = replace(hit, text=claim.text)
    for point, variant, opposite in wrong.turns:
        if point in found or (hit := matcher.pitfall(Claim(text=variant), rivals)) is None:
            continue
        if matcher.says_one_way(hit.span, opposite):  # type: ignore[arg-type]
            found[point] = replace(hit, text=point)  # the turned word itself is said there
    return tuple(found.values())


def turned_points(question: Question) -> tuple[tuple[str, str, str], ...]:
    """(key point, its text with a word turned into its opposite, that opposite's key). Its text
    only: its aliases, each turned again, find more of what a correct answer says in passing."""
    return tuple(
        (claim.text, variant, key) for claim in question.key_points for variant, key in turned(claim.text)
    )


def role_exchanges(question: Question) -> tuple[tuple[str, str, int, int], ...]:
    """(key point, the key point with the names of two things it gives roles to exchanged)."""
    return _exchanges(question.prompt, tuple((c.text, *c.aliases) for c in question.key_points))


@lru_cache(maxsize=1024)
def _exchanges(prompt: str, points: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str, int, int], ...]:
    named = things(prompt, tuple(p[0] for p in points))
    if not named:
        return ()
    said = {ordered_keys(p) for phrasings in points for p in phrasings}
    # An exchange inside a claim is looked for in its text only: its aliases, each looked for
    # again, cost time and find little more.
    return tuple(
        (phrasings[0], variant, subject, incoming)
        for phrasings in points
        for n, phrasing in enumerate(phrasings)
        for variant, subject, incoming in exchanged(phrasing, named)
        if (subject >= 0 or n == 0) and ordered_keys(variant) not in said  # saying another point is no swap
    )


# Where a wrong claim's qualifiers start: what follows explains or hedges it, and an attempt that
# states the claim without them still states it.
_QUALIFIER = re.compile(
    r",|;|:|\s[-–—]\s|\b(?:because|since|so that|which|unless|as long as|even if|although|while)\b"
)


@lru_cache(maxsize=4096)
def pitfall_core(text: str) -> str | None:
    """The core of a wrong claim written as a full sentence: without its parentheticals and the
    clause that explains or qualifies it ("training only on domain data works best, because
    general data dilutes it" -> "training only on domain data works best"). None when the
    claim is already its own core, or the core would be too short to be a claim."""
    plain = re.sub(r"\s*\([^)]*\)", "", text).strip()
    core = _QUALIFIER.split(plain, maxsplit=1)[0].strip()
    if core == text.strip() or len(phrase_keys(core)[0]) < 3:
        return None
    return core


@lru_cache(maxsize=4096)
def without_subject(text: str, prompt: str) -> str | None:
    """A wrong claim about the question's own subject, without it ("DPO does not need a reference
    model" -> "does not need a reference model"): an answer about DPO says it as "it does not
    need...", and a long sentence can put the name too far back. None when the claim does not
    open with a word of the prompt, or too little would be left to be a claim."""
    first, _, rest = text.strip().partition(" ")
    if not rest or not key_set(first) or not key_set(first) <= key_set(prompt):
        return None
    return rest if len(phrase_keys(rest)[0]) >= 3 else None


def with_core(pitfall: Claim, prompt: str = "") -> Claim:
    """The pitfall, with the core of each of its phrasings, and each without the question's
    subject it opens with, as more phrasings."""
    found = [c for p in pitfall.phrasings for c in (pitfall_core(p), without_subject(p, prompt)) if c]
    cores = [core for core in found if core not in pitfall.phrasings]
    if not cores:
        return pitfall
    return pitfall.model_copy(update={"aliases": (*pitfall.aliases, *dict.fromkeys(cores))})
