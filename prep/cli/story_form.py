"""`prep add --story`: a story for the story bank, from options (for scripts) or asked part by part
on a terminal, then written by ``bank.story_authoring``."""

from __future__ import annotations

import typer

from prep.cli import plain
from prep.cli.context import AppContext
from prep.cli.output import echo
from prep.cli.plain import report_change, wrapped_list
from prep.errors import UsageError, display_path

_ASKED = {
    "situation": "Situation: where and when, what was at stake",
    "task": "Task: what was yours to do",
    "action": "Action: what you did yourself",
    "result": "Result: what came of it, with a number",
}
_OPTION_OF = {"id": "--id", "title": "--title", "metrics": "--metric"} | {p: f"--{p}" for p in _ASKED}


def add_story(
    app: AppContext,
    story_id: str | None,
    title: str | None,
    parts: dict[str, str | None],
    metrics: list[str],
    covers: list[str],
    *,
    as_json: bool,
) -> None:
    from prep.bank import authoring, story_authoring

    location = app.writable_bank_location()
    bank = app.bank()
    for question_id in covers:  # before anything is asked
        story_authoring.check_cover(bank, question_id)
    interactive = plain.interactive() and not as_json
    missing = [name for name, value in (("title", title), *parts.items()) if value is None]
    if missing and not interactive:
        raise UsageError(f"--{missing[0]} is required with --story (or run interactively)")
    if title is None:
        title = _ask_filled("Title: a few words you will recognise it by")
    filled = {name: _ask_filled(_ASKED[name]) if value is None else value for name, value in parts.items()}
    if interactive and not metrics:
        metrics = plain.ask_list("Numbers it can quote (e.g. 40% cheaper)")
    if interactive and not covers:
        covers = _ask_covers(bank)
    try:
        change = story_authoring.add_story(
            location, bank, title=title, parts=filled, metrics=metrics, story_id=story_id, covers=covers
        )
    except authoring.FieldRejected as rejected:
        option = _OPTION_OF.get(rejected.field, rejected.field)
        raise UsageError(f"{option}: {rejected.reason}; nothing was written") from None
    covered = change.detail["covers"]
    named = f"; named in the answers to {', '.join(covered)}" if covered else ""
    where = display_path(change.files[0])
    report_change(change, as_json, f"added story {change.question_id} to {where}{named}")


def _ask_filled(label: str) -> str:
    while True:
        text = typer.prompt(label, default="", show_default=False)
        if text.strip():
            return text.strip()
        echo("  it cannot be empty; try again", err=True)


def _ask_covers(bank) -> list[str]:  # type: ignore[no-untyped-def]
    """The questions the story fits, by id: behavioral ones with a prepared answer are listed."""
    from prep.bank.story_authoring import check_cover
    from prep.cli.usage import did_you_mean

    fitting = [q.id for q in bank.questions.values() if q.kind == "behavioral" and q.id in bank.answers]
    if fitting:
        echo(wrapped_list("Behavioral questions with a prepared answer", fitting))
    echo("Questions this story fits, one id per line (empty line to finish):")
    chosen: list[str] = []
    while True:
        line = typer.prompt("", default="", show_default=False, prompt_suffix="  > ").strip()
        if not line:
            return chosen
        if line not in bank.questions:
            echo(f"  no question {line!r}{did_you_mean(line, list(bank.questions))}; try again", err=True)
            continue
        try:
            check_cover(bank, line)
        except UsageError as refused:
            echo(f"  {refused.message}; try another", err=True)
            continue
        chosen.append(line)
