"""`prep edit`: a question (or its answer) in your editor, validated again afterwards."""

from pathlib import Path
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import question_argument
from prep.cli.output import echo
from prep.cli.plain import counted
from prep.errors import EXIT_INVALID_BANK, UsageError, display_path


def edit(
    ctx: typer.Context,
    question_id: Annotated[str, question_argument("The question (or, with --story, the story) to edit.")],
    edit_answer: Annotated[
        bool, typer.Option("--answer", help="Edit the question's answer instead.")
    ] = False,
    edit_story: Annotated[
        bool, typer.Option("--story", help="ID is a story of your story bank (see `prep stories`).")
    ] = False,
) -> None:
    """Open the question (or its answer) in $VISUAL/$EDITOR at its line, then re-validate.

    With --story, the same for a story of your story bank.

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
    if edit_answer and edit_story:
        raise UsageError("--answer edits a question's answer, --story a story: give one of them")
    origins = bank.story_origin if edit_story else bank.answer_origin if edit_answer else bank.question_origin
    origin = origins.get(question_id) or (
        _find_by_id(location, question_id, "story" if edit_story else "answer" if edit_answer else "question")
        if problems
        else None
    )
    if origin is None:
        if edit_story:
            bank.story(question_id)  # raises NotFound with a did-you-mean
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
            echo(f"{'saved' if changed else 'no changes'}; {state} ({edited})")
            return
        for problem in fresh:
            echo(str(problem), err=True)
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
        echo(f"prep: edit discarded: {edited} reverted to what it was before", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if choice == "r":
        atomic_write(path, original.decode("utf-8"))
        echo("reverted")
        return False
    if choice == "k":
        echo("kept with problems; `prep validate` lists them")
        raise typer.Exit(EXIT_INVALID_BANK)
    return True


def _find_by_id(location, question_id: str, what: str):  # type: ignore[no-untyped-def]
    """Where a question, an answer or a story (*what*) is written, found in the text: for a file
    that does not load, so it has no place in the bank."""
    import re

    from prep.bank.contents import Origin
    from prep.paths import bank_files

    key = "question" if what == "answer" else "id"
    pattern = re.compile(rf"^[ \t-]*{key}:[ \t]*[\"']?{re.escape(question_id)}[\"']?[ \t]*(#.*)?$")
    folder = location.questions if what == "question" else location.answers
    for path in bank_files(folder) if folder.is_dir() else []:
        try:
            lines = path.read_text(encoding="utf-8-sig", errors="replace").splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, 1):
            if pattern.match(line):
                return Origin(path, number)
    return None
