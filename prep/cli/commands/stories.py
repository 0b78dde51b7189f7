"""`prep stories`: the story bank, the questions each story covers, and the gaps."""

import typer

from prep.cli.context import AppContext
from prep.cli.options import CategoryOption, JsonOption, TagOption, filters
from prep.cli.output import emit_json


def stories(
    ctx: typer.Context,
    category: CategoryOption = None,
    tag: TagOption = None,
    as_json: JsonOption = False,
) -> None:
    """List your stories with the questions each covers, and the behavioral questions none covers yet.

    A story is written once under `stories:` in an answers file (id, title, situation, task,
    action, result, metrics) and named by the prepared answers it fits (`stories: [ID, ...]`
    in the answer). With -c or --tag, only those questions are counted.
    """
    from prep.bank.stories import story_coverage
    from prep.cli.output import console
    from prep.cli.render_stories import coverage_report

    app: AppContext = ctx.obj
    bank = app.bank()
    chosen = filters(category, tag, None)
    coverage = story_coverage(bank, categories=chosen["categories"], tags=chosen["tags"])
    if as_json:
        emit_json(coverage.to_dict())
        return
    out = console()
    out.print(coverage_report(coverage, width=out.width))
