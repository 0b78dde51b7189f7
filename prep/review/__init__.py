"""Reviewing: FSRS scheduling, the queue, the drill session and its loop (UI-free, driven through
a protocol), and the figures of stats. Imports bank, grading types and state."""
