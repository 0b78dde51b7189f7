"""`prep answer`: write or replace your prepared answer to a question."""

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import question_argument
from prep.cli.output import echo, emit_json
from prep.cli.plain import read_stdin_text, report_change
from prep.errors import display_path


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
                echo(f"{reason}: nothing was changed")
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
