"""Commands that change the bank: add, answer, edit, mv, rm."""


import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.errors import EXIT_INVALID_BANK, UsageError, display_path
from prep.bank.names import KINDS
from prep.cli.wording import counted
from prep.cli.commands.bank import emit_json, read_stdin_text

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


def init(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="Where to put questions/ and answers/.")] = Path("."),
    as_json: Annotated[bool, typer.Option("--json", help="Print what was created as JSON.")] = False,
) -> None:
    """Copy the bundled bank into DIR (default: here) as a bank of your own to edit and extend.

    prep then uses it whenever it runs in DIR (or with --bank DIR / PREP_BANK=DIR). The bundled
    bank itself lives inside the installed package and is never changed.
    """
    from prep.bank import authoring

    created = authoring.copy_bundled_bank(directory)
    if as_json:
        emit_json({"created": [display_path(p) for p in created]})
    else:
        typer.echo(f"created {', '.join(display_path(p) for p in created)}: run prep in {display_path(directory)} "
                   "to use it")


def _ask_valid(label: str, default, parse):  # type: ignore[no-untyped-def]
    """Ask until *parse* accepts the answer, so nothing typed so far is lost to a bad value."""
    while True:
        value = parse(_ask(label, str(default)).strip())
        if value is not None:
            return value
        typer.echo(f"  not a valid value for {label.split(' (')[0].lower()}; try again", err=True)


def _int_in(text: str, low: int, high: int) -> int | None:
    return int(text) if text.isdigit() and low <= int(text) <= high else None


def add(
    ctx: typer.Context,
    category: Annotated[str | None, typer.Option("--category", "-c", metavar="CATEGORY", help="Category id; a new one creates "
                                                    "questions/<category>.yaml.", show_default=False)] = None,
    prompt: Annotated[str | None, typer.Option("--prompt", "-p", metavar="TEXT", help="The question as an interviewer asks it.",
                                                  show_default=False)] = None,
    key_point: Annotated[list[str] | None, typer.Option("--key-point", "-k", metavar="TEXT", help="A key point (repeatable). "
                                                           + _CLAIM_HELP, show_default=False)] = None,
    pitfall: Annotated[list[str] | None, typer.Option("--pitfall", metavar="TEXT", help="A known wrong claim (repeatable). "
                                                         + _CLAIM_HELP, show_default=False)] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", "-t", metavar="TAG", help="A tag (repeatable).",
                                                     show_default=False)] = None,
    kind: Annotated[str, typer.Option("--kind", metavar="KIND", help="technical, behavioral, strategy or ask.")] = "technical",
    difficulty: Annotated[int, typer.Option("--difficulty", "-d", metavar="1-3", min=1, max=3, help="1 (warm-up) to 3.")] = 2,
    target_seconds: Annotated[int, typer.Option("--target-seconds", metavar="SECONDS", min=1, help="Target spoken length.")] = 60,
    follow_up: Annotated[list[str] | None, typer.Option("--follow-up", metavar="ID", help="Id of a deeper question "
                                                           "(repeatable).", show_default=False)] = None,
    question_id: Annotated[str | None, typer.Option("--id", metavar="ID", help="Id to use instead of one made from the prompt.",
                                                       show_default=False)] = None,
    title: Annotated[str | None, typer.Option("--title", metavar="TEXT", help="Title of a new category.",
                                                 show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was written as JSON.")] = False,
) -> None:
    """Add a question: asks for each field, or takes them all as options for scripts.

    The question is appended to its category file as a new block; every other byte of the file
    stays as it was, and the whole bank is validated before anything is written.
    """
    from prep.bank import authoring

    app: AppContext = ctx.obj
    location = app.writable_bank_location()  # refused before any question is asked
    bank = app.bank()
    interactive = _interactive() and not as_json
    if category is None:
        if not interactive:
            raise UsageError("--category is required (or run interactively)")
        existing = ", ".join(bank.categories) or "none yet"
        typer.echo(f"Categories: {existing}")
        category = _complete(_ask("Category (existing or new)"), list(bank.categories))
    if prompt is None:
        if not interactive:
            raise UsageError("--prompt is required (or run interactively)")
        prompt = _ask("Prompt")
    if key_point is None and interactive:
        key_point = _ask_list("Key points ('text | alias | alias')")
        pitfall = pitfall or _ask_list("Pitfalls: known wrong claims")
        tag = tag or [t.strip() for t in _ask("Tags (comma-separated)", "").split(",") if t.strip()]
        kind = _ask_valid(f"Kind ({', '.join(KINDS)})", kind, lambda v: v if v in KINDS else None)
        difficulty = _ask_valid("Difficulty 1-3", difficulty, lambda v: _int_in(v, 1, 3))
        target_seconds = _ask_valid("Target seconds", target_seconds, lambda v: _int_in(v, 1, 24 * 3600))
    if category not in bank.categories and title is None and not interactive:
        from prep.suggest import did_you_mean

        hint = did_you_mean(category, bank.categories)
        if hint:  # a typo would quietly start a category of its own
            raise UsageError(f"there is no category {category!r}; {hint}",
                             hint="to start a new category with that name, give it a --title")
    change = authoring.add_question(
        location, bank, category=category, prompt=prompt, key_points=key_point or [], pitfalls=pitfall or [],
        tags=tag or [], kind=kind, difficulty=difficulty, target_seconds=target_seconds,
        follow_ups=follow_up or [], question_id=question_id, title=title, retired=app.retired_ids(),
    )
    _report(change, as_json, f"added {change.question_id} to {display_path(change.files[0])}")
    similar = change.detail.get("similar_to")
    if similar and not as_json:
        typer.echo(f"warning: its prompt is {similar['similarity']}% like that of {similar['id']!r} "
                   f"(`prep show {similar['id']}`)", err=True)


def _complete(text: str, choices: list[str]) -> str:
    """An existing category as typed, or, for a unique prefix of one, that one if the user agrees."""
    text = text.strip()
    matches = [c for c in choices if c.startswith(text)]
    if text in choices or len(matches) != 1:
        return text
    return matches[0] if typer.confirm(f"Did you mean {matches[0]}? (no: a new category {text!r})",
                                       default=True) else text


def answer(
    ctx: typer.Context,
    question_id: Annotated[str, typer.Argument(metavar="ID", help="The question to answer.")],
    text: Annotated[str | None, typer.Option("--text", metavar="TEXT", help="The answer (else $EDITOR opens; '-' reads stdin).",
                                                show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was written as JSON.")] = False,
) -> None:
    """Write or replace your own prepared answer to a question."""
    from prep.bank import authoring
    from prep.cli.editor import open_editor

    app: AppContext = ctx.obj
    location = app.writable_bank_location()
    bank = app.bank()
    question = bank.question(question_id)
    if text == "-":
        text = read_stdin_text()
    if text is None:
        current = bank.answer_text(question.id) or ""
        text = _answer_in_editor(question, current, open_editor)
        if not text or text == current.strip():
            reason = "empty answer" if not text else "answer unchanged"
            if as_json:
                emit_json({"id": question.id, "files": [], "created": [], "changed": False})
            else:
                typer.echo(f"{reason}: nothing was changed")
            return
    previous = bank.answers.get(question.id)
    change = authoring.set_answer(location, bank, question.id, text)
    replaced = " (it replaces the model answer that was there)" \
        if previous is not None and previous.source == "model" else ""
    _report(change, as_json, f"saved your answer to {question.id} in {display_path(change.files[0])}{replaced}")


ANSWER_BELOW = "# ---- Write your answer below this line. Everything above it is ignored. ----"


def _answer_in_editor(question, current: str, open_editor) -> str:  # type: ignore[no-untyped-def]
    """The answer as written in $EDITOR, below a commented header with the prompt and key points.

    Only the header is dropped: lines of the answer that start with "#" (markdown headings) stay."""
    def commented(text: str, first: str, rest: str) -> list[str]:
        lines = text.splitlines() or [""]
        return [first + lines[0]] + [rest + line for line in lines[1:]]

    header = commented(question.prompt, "# ", "# ") + ["# Key points:"]
    for point in question.key_points:
        header += commented(point.text, "#   - ", "#     ")
    header += ["# An empty answer cancels.", ANSWER_BELOW]
    with tempfile.NamedTemporaryFile("w+", suffix=".md", delete=False, encoding="utf-8") as handle:
        handle.write("\n".join(header) + "\n" + current)
        scratch = Path(handle.name)
    try:
        open_editor(scratch, len(header) + 1)
        written = scratch.read_text(encoding="utf-8").splitlines()
    finally:
        scratch.unlink(missing_ok=True)
    if ANSWER_BELOW in written:
        body = written[written.index(ANSWER_BELOW) + 1:]
    else:  # the marker was deleted: drop the comment lines at the top only
        start = next((i for i, line in enumerate(written) if not line.startswith("#")), len(written))
        body = written[start:]
    return "\n".join(body).strip()


def edit(
    ctx: typer.Context,
    question_id: Annotated[str, typer.Argument(metavar="ID", help="The question to edit.")],
    edit_answer: Annotated[bool, typer.Option("--answer", help="Edit the question's answer instead.")] = False,
) -> None:
    """Open the question (or its answer) in $VISUAL/$EDITOR at its line, then re-validate.

    If the bank has problems after saving you choose: edit again (the default), revert to what
    the file was, or keep it anyway.
    """
    from prep.bank.load import check_bank
    from prep.cli.editor import open_editor
    from prep.errors import PrepError
    from prep.files import atomic_write

    app: AppContext = ctx.obj
    location = app.writable_bank_location()
    # Not app.bank(): edit is how a bank with problems gets fixed, so it must open one.
    bank, problems = check_bank(location)
    origins = bank.answer_origin if edit_answer else bank.question_origin
    origin = origins.get(question_id) or (_find_by_id(location, question_id, edit_answer) if problems else None)
    if origin is None:
        if question_id in bank.questions:
            raise UsageError(f"{question_id!r} has no answer yet", hint=f"write one with `prep answer {question_id}`")
        bank.question(question_id)  # raises NotFound with a did-you-mean
    original = origin.file.read_bytes()
    edited = display_path(origin.file)
    # Problems elsewhere that are not this edit's doing, by place: their message may quote a line
    # of the edited file, which the edit can move ("first defined at ...:10").
    already = {(p.file, p.line, p.column, p.path) for p in problems if p.file != edited}
    while True:
        try:
            open_editor(origin.file, origin.line)
        except PrepError:
            if origin.file.read_bytes() == original:
                raise  # the editor failed and the file is as it was
            # The editor failed after the file was saved: check what it left, as after any edit.
        _, problems = check_bank(location)
        fresh = [p for p in problems if (p.file, p.line, p.column, p.path) not in already]
        if not fresh:
            changed = origin.file.read_bytes() != original
            state = (f"the bank still has {counted(len(problems), 'problem')} in other files, as before the edit "
                     "(`prep validate` lists them)" if problems else "the bank is valid")
            typer.echo(f"{'saved' if changed else 'no changes'}; {state} ({edited})")
            return
        for problem in fresh:
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


def _find_by_id(location, question_id: str, in_answers: bool):  # type: ignore[no-untyped-def]
    """Where a question (or its answer) is written, found in the text: for a file that does not
    load, so it has no place in the bank."""
    import re

    from prep.bank.loaded import Origin
    from prep.paths import bank_files

    key = "question" if in_answers else "id"
    pattern = re.compile(rf"^[ \t-]*{key}:[ \t]*[\"']?{re.escape(question_id)}[\"']?[ \t]*(#.*)?$")
    folder = location.answers if in_answers else location.questions
    for path in bank_files(folder) if folder.is_dir() else []:
        try:
            lines = path.read_text(encoding="utf-8-sig", errors="replace").splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, 1):
            if pattern.match(line):
                return Origin(path, number)
    return None


def mv(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(metavar="OLD", help="The current id.")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The new id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print what was changed as JSON.")] = False,
) -> None:
    """Rename a question id everywhere: definition, answers, follow-ups and review history."""
    from prep.bank import authoring
    from prep.state.store import Store

    app: AppContext = ctx.obj
    location = app.writable_bank_location()
    bank = app.bank()
    bank.question(old)
    if new == old:
        raise UsageError(f"{old!r} already has that id; nothing to rename")
    with Store(app.state_path) as store:
        if store.has_history(new):
            raise UsageError(f"the review history already has entries for {new!r}; choose another id")
        with store.renaming(old, new) as (moved, practiced):  # rolled back if the files cannot be changed
            change = authoring.rename_question(location, bank, old, new)
    change.detail["reviews_moved"] = moved
    change.detail["practice_moved"] = practiced
    history = counted(moved, "review") + (f" and {counted(practiced, 'practice answer')}" if practiced else "")
    _report(change, as_json, f"renamed {old} to {new} in {counted(len(change.files), 'file')}; {history} moved")


def rm(
    ctx: typer.Context,
    question_id: Annotated[str, typer.Argument(metavar="ID", help="The question to remove.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was changed as JSON.")] = False,
) -> None:
    """Remove a question and its answer (its review history stays in the state database)."""
    from prep.bank import authoring

    app: AppContext = ctx.obj
    location = app.writable_bank_location()
    bank = app.bank()
    question = bank.question(question_id)
    if not yes:
        if not _interactive():
            raise UsageError("refusing to remove without confirmation; pass --yes")
        # The question goes to stderr, so that stdout holds only the result (JSON with --json).
        if not typer.confirm(f"Remove {question_id}: {question.prompt!r}?", default=False, err=True):
            if as_json:
                emit_json({"id": question_id, "files": [], "created": [], "removed": False})
            else:
                typer.echo("nothing removed")
            return
    change = authoring.remove_question(location, bank, question_id)
    _report(change, as_json, f"removed {question_id} ({counted(len(change.files), 'file')} changed)")


def _report(change, as_json: bool, message: str) -> None:  # type: ignore[no-untyped-def]
    if as_json:
        emit_json(change.to_dict())
    else:
        typer.echo(message)
