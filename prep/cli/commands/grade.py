"""`prep grade`: score an answer from the command line or a batch file."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import JudgeModel, NoJudge, option
from prep.cli.output import echo, emit_json
from prep.cli.plain import read_stdin_text
from prep.cli.quick.completion import question_ids
from prep.errors import UsageError

QuestionToGrade = Annotated[
    str | None,
    typer.Argument(
        metavar="ID",
        help="The question to grade against (not with --file).",
        show_default=False,
        autocompletion=question_ids,
    ),
]
AttemptText = Annotated[
    str | None,
    option(
        "--answer", "-a", metavar="TEXT", help="The attempt to grade. Without it, read from standard input."
    ),
]
Elapsed = Annotated[
    float | None,
    option("--elapsed", metavar="SECONDS", min=0, help="Seconds the answer took; enables the 'easy' rating."),
]
BatchFile = Annotated[
    Path | None,
    option(
        "--file",
        "-f",
        metavar="FILE",
        help="Grade a YAML list of {question, answer[, elapsed]} attempts; if "
        "any row is invalid, every problem is listed and nothing is graded.",
    ),
]
GradeJson = Annotated[bool, typer.Option("--json", help="Print JSON (one object; a list with --file).")]


def grade(
    ctx: typer.Context,
    question_id: QuestionToGrade = None,
    answer: AttemptText = None,
    elapsed: Elapsed = None,
    file: BatchFile = None,
    as_json: GradeJson = False,
    judge: JudgeModel = None,
    no_judge: NoJudge = False,
) -> None:
    """Score an answer against a question's key points, pitfalls and prepared answer.

    A judge model (--judge, or [judge] in the config) decides what the words cannot (docs/judge.md).
    """
    from prep.grading import batch

    app: AppContext = ctx.obj
    bank = app.bank()
    if file is not None:
        if question_id or answer is not None:
            raise UsageError("--file grades a batch; do not also give an ID or --answer")
        results = _graded(app, batch.read_attempts(bank, file), judge, no_judge)
        if as_json:
            emit_json([r.to_dict() for r in results])
        else:
            _print_batch(results)
        return
    if not question_id:
        raise UsageError("give a question ID (see `prep list`), or --file for a batch")
    question = bank.question(question_id)
    if answer is None:
        if sys.stdin.isatty():
            echo(f"{question.prompt}\n(type your answer; end with Ctrl-D)", err=True)
        answer = read_stdin_text()
    if not answer.strip():
        raise UsageError(
            "the answer is empty: nothing to grade", hint="give it with --answer, or on standard input"
        )
    (result,) = _graded(app, [(question.id, answer, elapsed)], judge, no_judge)
    if result.grade.mode == "none":
        raise UsageError(
            f"{question.id} has no key points and no prepared answer: nothing to grade against",
            hint="add key points with `prep edit`, or an answer with `prep answer`",
        )
    if as_json:
        emit_json(result.to_dict())
        return
    _print_one(question, result, answer)


def _print_one(question, result, answer: str) -> None:  # type: ignore[no-untyped-def]
    """One grade as the drill shows it, then its suggested rating (or why there is none)."""
    from prep.cli.output import console
    from prep.cli.render import grade_report

    console().print(
        grade_report(
            result.grade,
            teach_hint=f"`prep teach {question.id} --point {{n}}` teaches it",
            numbers={point.text: n for n, point in enumerate(question.key_points, 1)},
            judged_by=result.judge.model if result.judge and result.judge.used else None,
            unsure_hint="",  # the line below says what to do
        )
    )
    if result.grade.structure is not None:
        from prep.cli.render_star import star_strip
        from prep.review.session import spoken_seconds

        console().print(star_strip(result.grade.structure, question.target_seconds, spoken_seconds(answer)))
    if result.grade.rating is None:
        echo("no suggested rating: the words cannot tell (tick the points you covered in a drill, or rate)")
    else:
        echo(f"suggested rating: {result.grade.rating}")


def _graded(app: AppContext, attempts, model: str | None, off: bool):  # type: ignore[no-untyped-def]
    """Each attempt graded, by the judge too where it is set and wanted; a judge that failed
    says so in one line (each different failure once) on standard error."""
    from prep.cli.judging import judge_failures, open_judge
    from prep.review.judge import grade_answers

    judge = open_judge(app, model, off, notify=lambda message: echo(f"prep: {message}", err=True))
    try:
        results = grade_answers(app.bank(), attempts, judge)
    finally:
        if judge is not None and judge.cache is not None:
            judge.cache.close()
    for line in judge_failures(results):
        echo(f"prep: {line}", err=True)
    return results


def _print_batch(results) -> None:  # type: ignore[no-untyped-def]
    from rich.table import Table
    from rich.text import Text

    from prep.cli.output import console
    from prep.cli.render import VERDICT_STYLE

    judged = any(r.judge is not None for r in results)  # a judge was set: say who decided
    table = Table(show_edge=False)
    for column in ("question", "score", "verdict", "rating", "missed", *(("by",) if judged else ())):
        table.add_column(column)
    for r in results:
        g = r.grade
        table.add_row(
            r.question,
            str(g.score),
            Text(g.verdict, style=VERDICT_STYLE.get(g.verdict, "")),
            str(g.rating) if g.rating else "—",
            str(len(g.missed)),
            *(("judge" if r.judge and r.judge.used else "words",) if judged else ()),
        )
    console().print(table)
