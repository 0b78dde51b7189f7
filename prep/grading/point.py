"""What the grader found of one key point (or reference sentence) in an attempt."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PointResult:
    text: str  # the key point (or reference sentence) as written in the bank
    score: float  # 0-100: how much of it the attempt said
    matched: bool
    phrasing: str | None = None  # the text or alias that matched best
    span: tuple[int, int] | None = None  # character span of the attempt that matched
    excerpt: str | None = None  # the attempt's words at that span
    phrasings: int = 0  # how many ways of saying it the bank writes (1: its text alone; taught not counted)
    number: int = 0  # its number (1-based) among the key points, or the pitfalls for a pitfall
