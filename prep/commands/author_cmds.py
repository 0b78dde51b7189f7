"""Commands that change the bank: add, answer, edit, mv, rm."""


import sys
import tempfile
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..context import AppContext
from ..errors import EXIT_INVALID_BANK, UsageError, display_path
from .bank_cmds import emit_json

_CLAIM_HELP = "Write 'text | alias | alias' to give aliases."


def _interactive() -> bool:
    return sys.stdin.isatty()


def _ask(label: str, default: str | None = None) -> str:
    return typer.prompt(label, default=default, show_default=default is not None)


def _ask_list(label: str) -> list[str]:
    typer.echo(f"{label} (one per line, empty line to finish):")
    items = []
    while True:
        line = typer.prompt("", default="", show_default=False, prompt_suffix="  > ")
        if not line.strip():
            return items
        items.append(line.strip())


def add(
    ctx: typer.Context,
    category: Annotated[Optional[str], typer.Option("--category", "-c", help="Category id; a new one creates "
                                                    "questions/<category>.yaml.", show_default=False)] = None,
    prompt: Annotated[Optional[str], typer.Option("--prompt", "-p", help="The question as an interviewer asks it.",
                                                  show_default=False)] = None,
    key_point: Annotated[Optional[list[str]], typer.Option("--key-point", "-k", help="A key point (repeatable). "
                                                           + _CLAIM_HELP, show_default=False)] = None,
    pitfall: Annotated[Optional[list[str]], typer.Option("--pitfall", help="A known wrong claim (repeatable). "
                                                         + _CLAIM_HELP, show_default=False)] = None,
    tag: Annotated[Optional[list[str]], typer.Option("--tag", "-t", help="A tag (repeatable).",
                                                     show_default=False)] = None,
    kind: Annotated[str, typer.Option("--kind", help="technical, behavioral, strategy or ask.")] = "technical",
    difficulty: Annotated[int, typer.Option("--difficulty", "-d", min=1, max=3, help="1 (warm-up) to 3.")] = 2,
    target_seconds: Annotated[int, typer.Option("--target-seconds", min=1, help="Target spoken length.")] = 60,
    follow_up: Annotated[Optional[list[str]], typer.Option("--follow-up", help="Id of a deeper question "
                                                           "(repeatable).", show_default=False)] = None,
    question_id: Annotated[Optional[str], typer.Option("--id", help="Id to use instead of one made from the prompt.",
                                                       show_default=False)] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="Title of a new category.",
                                                 show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was written as JSON.")] = False,
) -> None:
    """Add a question: asks for each field, or takes them all as options for scripts.

    The question is appended to its category file as a new block; every other byte of the file
    stays as it was, and the whole bank is validated before anything is written.
    """
    from .. import authoring

    app: AppContext = ctx.obj
    bank = app.bank()
    interactive = _interactive() and not as_json
    if category is None:
        if not interactive:
            raise UsageError("--category is required (or run interactively)")
        existing = ", ".join(bank.categories) or "none yet"
        typer.echo(f"Categories: {existing}")
        category = _ask("Category (existing or new)")
        category = _complete(category, list(bank.categories))
    if prompt is None:
        if not interactive:
            raise UsageError("--prompt is required (or run interactively)")
        prompt = _ask("Prompt")
    if key_point is None and interactive:
        key_point = _ask_list("Key points ('text | alias | alias')")
        pitfall = pitfall or _ask_list("Pitfalls: known wrong claims")
        tag = tag or [t.strip() for t in _ask("Tags (comma-separated)", "").split(",") if t.strip()]
        difficulty = int(_ask("Difficulty 1-3", str(difficulty)))
        target_seconds = int(_ask("Target seconds", str(target_seconds)))
    location = app.bank_location()
    change = authoring.add_question(
        location, bank, category=category, prompt=prompt, key_points=key_point or [], pitfalls=pitfall or [],
        tags=tag or [], kind=kind, difficulty=difficulty, target_seconds=target_seconds,
        follow_ups=follow_up or [], question_id=question_id, title=title,
    )
    _report(change, as_json, f"added {change.question_id} to {display_path(change.files[0])}")


def _complete(text: str, choices: list[str]) -> str:
    """Complete a unique prefix of an existing category."""
    matches = [c for c in choices if c.startswith(text)]
    return matches[0] if len(matches) == 1 else text


def answer(
    ctx: typer.Context,
    question_id: Annotated[str, typer.Argument(metavar="ID", help="The question to answer.")],
    text: Annotated[Optional[str], typer.Option("--text", help="The answer (else $EDITOR opens; '-' reads stdin).",
                                                show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was written as JSON.")] = False,
) -> None:
    """Write or replace your own prepared answer to a question."""
    from .. import authoring
    from ..editing import open_editor

    app: AppContext = ctx.obj
    bank = app.bank()
    question = bank.question(question_id)
    if text == "-":
        text = sys.stdin.read()
    if text is None:
        header = [f"# {question.prompt}", "# Key points:"] + [f"#   - {k.text}" for k in question.key_points]
        header += ["# Write your answer below. Lines starting with # are ignored; an empty answer cancels.", ""]
        current = bank.answer_text(question.id) or ""
        with tempfile.NamedTemporaryFile("w+", suffix=".md", delete=False, encoding="utf-8") as handle:
            handle.write("\n".join(header) + current)
            scratch = Path(handle.name)
        try:
            open_editor(scratch, len(header) + 1)
            written = scratch.read_text(encoding="utf-8")
        finally:
            scratch.unlink(missing_ok=True)
        text = "\n".join(line for line in written.splitlines() if not line.startswith("#")).strip()
        if not text:
            typer.echo("empty answer: nothing was changed")
            return
    change = authoring.set_answer(app.bank_location(), bank, question.id, text)
    _report(change, as_json, f"saved your answer to {question.id} in {display_path(change.files[0])}")


def edit(
    ctx: typer.Context,
    question_id: Annotated[str, typer.Argument(metavar="ID", help="The question to edit.")],
    edit_answer: Annotated[bool, typer.Option("--answer", help="Edit the question's answer instead.")] = False,
) -> None:
    """Open the question (or its answer) in $VISUAL/$EDITOR at its line, then re-validate.

    If the bank has problems after saving you choose: edit again (the default), revert to what
    the file was, or keep it anyway.
    """
    from ..bank import check_bank
    from ..editing import open_editor
    from ..yamledit import atomic_write

    app: AppContext = ctx.obj
    bank = app.bank()
    bank.question(question_id)
    origin = bank.answer_origin.get(question_id) if edit_answer else bank.question_origin[question_id]
    if origin is None:
        raise UsageError(f"{question_id!r} has no answer yet", hint=f"write one with `prep answer {question_id}`")
    original = origin.file.read_bytes()
    location = app.bank_location()
    while True:
        open_editor(origin.file, origin.line)
        _, problems = check_bank(location)
        if not problems:
            typer.echo(f"saved; the bank is valid ({display_path(origin.file)})")
            return
        for problem in problems:
            typer.echo(str(problem), err=True)
        try:
            choice = typer.prompt("[e]dit again, [r]evert, [k]eep anyway", default="e").strip().lower()[:1]
        except typer.Abort:  # no one to answer (end of input): the safe choice
            choice = "r"
        if choice == "r":
            atomic_write(origin.file, original.decode("utf-8"))
            typer.echo("reverted")
            return
        if choice == "k":
            typer.echo("kept with problems; `prep validate` lists them")
            raise typer.Exit(EXIT_INVALID_BANK)


def mv(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(metavar="OLD", help="The current id.")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The new id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print what was changed as JSON.")] = False,
) -> None:
    """Rename a question id everywhere: definition, answers, follow-ups and review history."""
    from .. import authoring
    from ..store import Store

    app: AppContext = ctx.obj
    bank = app.bank()
    bank.question(old)
    with Store(app.state_path) as store:
        if store.has_history(new):
            raise UsageError(f"the review history already has entries for {new!r}; choose another id")
        with store.renaming(old, new) as moved:  # rolled back if the files cannot be changed
            change = authoring.rename_question(app.bank_location(), bank, old, new)
    change.detail["reviews_moved"] = moved
    _report(change, as_json, f"renamed {old} to {new} in {len(change.files)} file(s); {moved} review(s) moved")


def rm(
    ctx: typer.Context,
    question_id: Annotated[str, typer.Argument(metavar="ID", help="The question to remove.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was changed as JSON.")] = False,
) -> None:
    """Remove a question and its answer (its review history stays in the state database)."""
    from .. import authoring

    app: AppContext = ctx.obj
    bank = app.bank()
    question = bank.question(question_id)
    if not yes:
        if not _interactive():
            raise UsageError("refusing to remove without confirmation; pass --yes")
        if not typer.confirm(f"Remove {question_id}: {question.prompt!r}?", default=False):
            typer.echo("nothing removed")
            return
    change = authoring.remove_question(app.bank_location(), bank, question_id)
    _report(change, as_json, f"removed {question_id} ({len(change.files)} file(s) changed)")


def _report(change, as_json: bool, message: str) -> None:  # type: ignore[no-untyped-def]
    if as_json:
        emit_json(change.to_dict())
    else:
        typer.echo(message)
