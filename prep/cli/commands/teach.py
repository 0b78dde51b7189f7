"""`prep teach`: add the words of an answer to the key points the grader did not find in it."""

import sys
from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import QuestionArgument, option
from prep.cli.output import echo, emit_json
from prep.cli.plain import read_stdin_text
from prep.errors import StateError

Points = Annotated[
    list[int] | None,
    option(
        "--point",
        metavar="N",
        min=1,
        help="A key point the answer says, numbered as `prep show` prints them (repeat for several).",
    ),
]
Forget = Annotated[
    list[int] | None,
    option(
        "--forget",
        metavar="N",
        min=1,
        help="Remove every phrasing taught to key point N instead (repeat for several).",
    ),
]
AnswerText = Annotated[
    str | None,
    option(
        "--answer",
        "-a",
        metavar="TEXT",
        help="The answer to teach from. Without it, read from standard input.",
    ),
]
ClauseNumber = Annotated[
    list[int] | None,
    option(
        "--clause",
        metavar="N",
        min=1,
        help="Teach clause N of the answer (as a refusal lists them) to the one --point; repeat it for "
        "clauses that say the point together.",
    ),
]
Words = Annotated[
    str | None,
    option("--words", metavar="TEXT", help="Teach these words to the one --point, instead of finding them."),
]
Force = Annotated[
    bool,
    typer.Option(
        "--force", help="Teach words that share no word with the key point, its phrasings or the question."
    ),
]
TeachJson = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print {question, taught, score_before, score_after} as JSON (--forget: {question, forgotten}).",
    ),
]


def teach(
    ctx: typer.Context,
    question_id: QuestionArgument,
    points: Points = None,
    answer: AnswerText = None,
    forget: Forget = None,
    clause: ClauseNumber = None,
    words: Words = None,
    force: Force = False,
    as_json: TeachJson = False,
) -> None:
    """Teach the grader your words: add the part of an answer that says each key point as a phrasing.

    For each --point, the clause of the answer that clearly says it is added under that key
    point's `taught:` list in the bank's YAML; nothing else in the file changes. Where no clause
    clearly says it, nothing is written and the answer's clauses are listed: give one with
    --clause N, or the words with --words (then no answer is needed). Words that also say one of
    the question's pitfalls, have fewer than three content words, or share no word with the point
    or the question (unless --force) are refused. `t` in a drill does the same from the answer
    just typed. `prep show` marks the key points taught; --forget N takes back what key point N
    was taught.
    """
    from prep import clock
    from prep.errors import CommandLineError
    from prep.review.teaching import Chosen
    from prep.review.teaching import teach as teach_answer

    app: AppContext = ctx.obj
    if bool(points) == bool(forget):
        raise CommandLineError("give --point N (to teach from an answer) or --forget N, not both or neither")
    _check_choice(points, clause, words)
    location, bank, question = app.writable_question(question_id)
    for option_name, numbers in (("--point", points), ("--forget", forget)):
        for n in numbers or ():  # out of range, as any option value: a command-line error (exit 2)
            if question.key_points and n > len(question.key_points):
                raise CommandLineError(f"{option_name} {n}: {question.id} has {_numbered(question)}")
    if forget:
        _forget(location, bank, question.id, forget, as_json)
        return
    assert points is not None
    if answer is None and words is None:
        if sys.stdin.isatty():
            echo(f"{question.prompt}\n(type the answer to teach from; end with Ctrl-D)", err=True)
        answer = read_stdin_text()
    picked = (clause[0] if len(clause) == 1 else tuple(clause)) if clause else None
    chosen = [Chosen(points[0], clause=picked, words=words, force=force)] if clause or words else []
    try:
        store = app.store()
    except StateError as error:  # the lesson goes to the bank all the same; stats will not count it
        echo(f"prep: note: {error.message}: this teaching is not logged for `prep stats`", err=True)
        store = None
    try:
        taught = teach_answer(
            location, bank, question.id, answer or words or "", [] if chosen else points,
            store=store, now=clock.now(), via="command", chosen=chosen,
        )  # fmt: skip
    finally:
        if store is not None:
            store.close()
    if as_json:
        emit_json(taught.to_dict())
        return
    for lesson in taught.lessons:
        known = " (it already knew it)" if lesson.known else ""
        echo(f"taught key point {lesson.point}: “{lesson.phrasing}”{known}")
    echo(
        f"{question.id}: this answer scores {taught.score_before} before, {taught.score_after} after "
        f"({taught.verdict_after})"
    )


def _numbered(question) -> str:  # type: ignore[no-untyped-def]
    count = len(question.key_points)
    return f"key points 1 to {count}" if count > 1 else "key point 1"


def _forget(location, bank, question_id: str, points: list[int], as_json: bool) -> None:  # type: ignore[no-untyped-def]
    from prep.bank.teaching import forget_taught

    change, _ = forget_taught(location, bank, question_id, points)
    forgotten = change.detail["forgotten"]
    if as_json:
        emit_json({"question": question_id, "forgotten": forgotten})
        return
    for point, phrasings in forgotten.items():
        if not phrasings:
            echo(f"key point {point} had nothing taught")
        for phrasing in phrasings:
            echo(f"forgot for key point {point}: “{phrasing}”")


def _check_choice(points: list[int] | None, clause: list[int] | None, words: str | None) -> None:
    """--clause and --words say which words teach one point: one --point, and one of the two."""
    from prep.errors import CommandLineError

    if (clause or words is not None) and len(points or ()) != 1:
        raise CommandLineError("--clause N and --words TEXT teach one --point: give exactly one --point")
    if clause and words is not None:
        raise CommandLineError("give --clause N or --words TEXT, not both")
