"""`prep judge check [MODEL]`: try the judge model on one fixed example before it grades."""

from typing import Annotated

import typer

from prep.cli.context import AppContext
from prep.cli.options import command_group
from prep.cli.output import echo, emit_json
from prep.errors import EXIT_ERROR, UsageError

judge_app = command_group("Try the judge model that grades what the words alone cannot decide.")


@judge_app.callback()
def judge() -> None:
    """The `prep judge` group (its help is the group's)."""


@judge_app.command("check")
def check(
    ctx: typer.Context,
    model: Annotated[
        str | None,
        typer.Argument(
            metavar="MODEL", help="The llm model id or alias to try (default: [judge] model in the config)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Send one fixed example to the judge model: its verdict, the latency, and whether its reply
    followed the schema.

    The example is a made-up question and answer (nothing of yours is sent); its expected
    verdict is pass. Exits 1 when the model gives no usable reply or another verdict.
    """
    from prep.cli.judging import open_judge
    from prep.review.judge_check import check as run_check

    app: AppContext = ctx.obj
    judge = open_judge(app, model, False, notify=lambda message: None, cache=False)
    if judge is None:
        raise UsageError(
            "no judge model set: name one (`prep judge check MODEL`) or set [judge] model in the config",
            hint="`llm models` lists the models llm has (pip install 'prep[judge]' brings llm)",
        )
    result = run_check(judge)
    if as_json:
        emit_json(result.to_dict())
    else:
        echo(f"model: {result.model}")
        echo(f"verdict: {result.verdict or '—'} (expected {result.expected})")
        echo(f"latency: {result.seconds:.2f} s")
        requested = (
            "requested through llm's schema support"
            if result.schema_requested
            else "asked for in the prompt: the model has no schema support in llm"
        )
        echo(f"schema followed: {result.followed} ({requested})")
        if result.error:
            echo(f"error: {result.error}")
    if not result.ok:
        raise typer.Exit(EXIT_ERROR)
