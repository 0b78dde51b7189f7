"""The judge model a command runs with: the [judge] settings as --judge and --no-judge leave
them, its replies cached in the state database, its privacy notice said through the command's
own output (prep.review.judge does the asking)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from prep.errors import CommandLineError, PrepError

if TYPE_CHECKING:
    from prep.cli.context import AppContext
    from prep.review.judge import Judge
    from prep.state.store import Store


def open_judge(
    app: AppContext,
    model: str | None,
    off: bool,
    *,
    notify: Callable[[str], None],
    store: Store | None = None,
    cache: bool = True,
) -> Judge | None:
    """The judge for this run, or None when none is set (or --no-judge). Raises JudgeUnavailable
    (exit 2) when one is set but the llm library is missing. *store*: where replies are cached
    (by default this bank's state, opened here; none when it cannot be written: a reply not
    kept costs a call next time, nothing more); *cache* false: none."""
    from prep import clock, config
    from prep.review.judge import Judge, require_llm, resolve_model

    if model is not None and off:
        raise CommandLineError("--judge and --no-judge exclude each other")
    settings = config.with_judge(config.load(app.config_path, explicit=app.config_named).judge, model, off)
    if settings.model is None:
        return None
    require_llm(settings)
    if model is not None:  # named on the command line: a mistyped one is said now, used or not
        resolve_model(settings)
    if store is None and cache:
        try:
            store = app.store(write=True)
        except PrepError:
            pass
    path = app.config_path
    return Judge(
        settings,
        cache=store,
        clock=clock.now,
        on_notice=notify,
        remember=lambda told: config.remember(path, "notified", told, section="judge"),
    )


def judge_failures(graded) -> list[str]:  # type: ignore[no-untyped-def]
    """One line for each different way the judge failed on *graded* (Judged answers)."""
    lines: dict[str, None] = {}
    for item in graded:
        outcome = item.judge
        if outcome is not None and outcome.error:
            lines[f"judge {outcome.model}: {outcome.error}; the word-level grade stands"] = None
    return list(lines)
