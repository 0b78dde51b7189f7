"""`prep edit`: a question (or its answer) in your editor, validated again afterwards."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import question_argument
from prep.cli.output import echo
from prep.cli.plain import counted
from prep.errors import EXIT_INTERRUPTED, EXIT_INVALID_BANK, UsageError, display_path


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

    If the bank has problems after saving you choose with one key: e edits again (also Enter), r
    reverts to what the file was, k keeps it anyway (exit 2). Ctrl-C or end of input there
    reverts (exit 130).
    """
    from prep.bank.load import check_bank
    from prep.cli.checked_edit import edit_checked

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
    try:
        checked = edit_checked(location, origin, before=problems)
    except KeyboardInterrupt:  # at the choice after problems: reverted, and said so
        raise typer.Exit(EXIT_INTERRUPTED) from None
    edited = display_path(origin.file)
    if checked.outcome == "reverted":
        echo("reverted")
    elif checked.outcome == "kept":
        echo("kept with problems; `prep validate` lists them")
        raise typer.Exit(EXIT_INVALID_BANK)
    else:
        others = checked.problems
        state = (
            f"the bank still has {counted(len(others), 'problem')} in other files, as before the edit "
            "(`prep validate` lists them)"
            if others
            else "the bank is valid"
        )
        echo(f"{'saved' if checked.changed else 'no changes'}; {state} ({edited})")


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
