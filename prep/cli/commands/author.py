"""Commands that change the bank: init, answer, edit, mv, rm (add has its own module)."""

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from prep.cli import plain
from prep.cli.context import AppContext
from prep.cli.options import question_argument
from prep.cli.plain import counted, emit_json, read_stdin_text, report_change
from prep.errors import EXIT_INVALID_BANK, StateError, UsageError, display_path


def init(
    ctx: typer.Context,
    directory: Annotated[
        Path, typer.Argument(metavar="DIR", help="Where to put questions/ and answers/.")
    ] = Path("."),
    as_json: Annotated[bool, typer.Option("--json", help="Print what was created as JSON.")] = False,
) -> None:
    """Copy the bundled bank into DIR (default: here) as a bank of your own to edit and extend.

    prep then uses it whenever it runs in DIR (or with --bank DIR / PREP_BANK=DIR). The bundled
    bank itself lives inside the installed package and is never changed.
    """
    from prep.bank import authoring
    from prep.paths import BUNDLED_KEY, BankLocation
    from prep.state.store import Store

    app: AppContext = ctx.obj
    created = authoring.copy_bundled_bank(directory)
    carried = 0
    if app.state_path.exists():  # the copy starts with the progress made on the bundled bank
        try:
            with Store(app.state_path, bank=BankLocation(directory, "option").key) as store:
                carried = store.carry_over(BUNDLED_KEY)
        except StateError as error:  # the bank is created; its history can be imported later
            typer.echo(f"prep: the bundled bank's history was not carried over: {error.message}", err=True)
    if as_json:
        emit_json({"created": [display_path(p) for p in created], "reviews_carried_over": carried})
    else:
        history = f"; your {counted(carried, 'review')} of the bundled bank carried over" if carried else ""
        typer.echo(
            f"created {', '.join(display_path(p) for p in created)}: run prep in {display_path(directory)} "
            f"to use it{history}"
        )


def answer(
    ctx: typer.Context,
    question_id: Annotated[str, question_argument("The question to answer.")],
    text: Annotated[
        str | None,
        typer.Option(
            "--text",
            metavar="TEXT",
            help="The answer (else $EDITOR opens; '-' reads stdin).",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was written as JSON.")] = False,
) -> None:
    """Write or replace your own prepared answer to a question."""
    from prep.bank import authoring
    from prep.cli.editor import open_editor

    app: AppContext = ctx.obj
    location, bank, question = app.writable_question(question_id)
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
    replaced = (
        " (it replaces the model answer that was there)"
        if previous is not None and previous.source == "model"
        else ""
    )
    report_change(
        change, as_json, f"saved your answer to {question.id} in {display_path(change.files[0])}{replaced}"
    )


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
        body = written[written.index(ANSWER_BELOW) + 1 :]
    else:  # the marker was deleted: drop the comment lines at the top only
        start = next((i for i, line in enumerate(written) if not line.startswith("#")), len(written))
        body = written[start:]
    return "\n".join(body).strip()


def edit(
    ctx: typer.Context,
    question_id: Annotated[str, question_argument("The question to edit.")],
    edit_answer: Annotated[
        bool, typer.Option("--answer", help="Edit the question's answer instead.")
    ] = False,
) -> None:
    """Open the question (or its answer) in $VISUAL/$EDITOR at its line, then re-validate.

    If the bank has problems after saving you choose: edit again (the default), revert to what
    the file was, or keep it anyway (exit 2). Ctrl-C or end of input there reverts (exit 130).
    """
    from prep.bank.load import check_bank
    from prep.cli.editor import open_editor
    from prep.errors import PrepError

    app: AppContext = ctx.obj
    location = app.writable_bank_location()
    # Not app.bank(): edit is how a bank with problems gets fixed, so it must open one.
    bank, problems = check_bank(location)
    origins = bank.answer_origin if edit_answer else bank.question_origin
    origin = origins.get(question_id) or (
        _find_by_id(location, question_id, edit_answer) if problems else None
    )
    if origin is None:
        if question_id in bank.questions:
            raise UsageError(
                f"{question_id!r} has no answer yet", hint=f"write one with `prep answer {question_id}`"
            )
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
            state = (
                f"the bank still has {counted(len(problems), 'problem')} in other files, as before the edit "
                "(`prep validate` lists them)"
                if problems
                else "the bank is valid"
            )
            typer.echo(f"{'saved' if changed else 'no changes'}; {state} ({edited})")
            return
        for problem in fresh:
            typer.echo(str(problem), err=True)
        if not _edit_again(origin.file, original, edited):
            return


def _edit_again(path: Path, original: bytes, edited: str) -> bool:
    """After an edit that left problems: edit again (True), revert, or keep it (exit 2).

    Ctrl-C or end of input at the question reverts, and exits 130: the edit was abandoned."""
    from prep.errors import EXIT_INTERRUPTED
    from prep.files import atomic_write

    try:
        choice = typer.prompt("[e]dit again, [r]evert, [k]eep anyway", default="e").strip().lower()[:1]
    except typer.Abort:
        atomic_write(path, original.decode("utf-8"))
        typer.echo(f"prep: edit discarded: {edited} reverted to what it was before", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if choice == "r":
        atomic_write(path, original.decode("utf-8"))
        typer.echo("reverted")
        return False
    if choice == "k":
        typer.echo("kept with problems; `prep validate` lists them")
        raise typer.Exit(EXIT_INVALID_BANK)
    return True


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
    old: Annotated[str, question_argument("The current id.", metavar="OLD")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The new id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print what was changed as JSON.")] = False,
) -> None:
    """Rename a question id everywhere: definition, answers, follow-ups and review history."""
    from prep.bank import authoring

    app: AppContext = ctx.obj
    location, bank, _question = app.writable_question(old)
    if new == old:
        raise UsageError(f"{old!r} already has that id; nothing to rename")
    with app.store() as store:
        if store.has_history(new):
            raise UsageError(f"the review history already has entries for {new!r}; choose another id")
        with store.renaming(old, new) as (moved, practiced):  # rolled back if the files cannot be changed
            change = authoring.rename_question(location, bank, old, new)
    change.detail["reviews_moved"] = moved
    change.detail["practice_moved"] = practiced
    history = counted(moved, "review") + (
        f" and {counted(practiced, 'practice answer')}" if practiced else ""
    )
    report_change(
        change, as_json, f"renamed {old} to {new} in {counted(len(change.files), 'file')}; {history} moved"
    )


def rm(
    ctx: typer.Context,
    question_id: Annotated[str, question_argument("The question to remove.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was changed as JSON.")] = False,
) -> None:
    """Remove a question and its answer (its review history stays in the state database)."""
    from prep.bank import authoring

    app: AppContext = ctx.obj
    location, bank, question = app.writable_question(question_id)
    if not yes:
        if not plain.interactive():
            raise UsageError("refusing to remove without confirmation; pass --yes")
        # The question goes to stderr, so that stdout holds only the result (JSON with --json).
        typer.echo(f"{question_id}: {' '.join(question.prompt.split())}", err=True)
        what = f"{question_id} and its answer" if question_id in bank.answers else question_id
        if not typer.confirm(f"Remove {what}?", default=False, err=True):
            if as_json:
                emit_json({"id": question_id, "files": [], "created": [], "removed": False})
            else:
                typer.echo("nothing removed")
            return
    change = authoring.remove_question(location, bank, question_id)
    report_change(change, as_json, f"removed {question_id} ({counted(len(change.files), 'file')} changed)")
