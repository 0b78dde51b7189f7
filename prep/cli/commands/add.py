"""`prep add`: a new question, from options (for scripts) or asked field by field on a terminal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

import typer

from prep.bank.naming import KINDS, check_category_name
from prep.cli import plain
from prep.cli.context import AppContext
from prep.cli.options import option
from prep.cli.output import echo
from prep.cli.plain import report_change, wrapped_list
from prep.cli.quick.completion import categories, question_ids
from prep.errors import UsageError, display_path

_CLAIM_HELP = "Write 'text | alias | alias' to give aliases."


CategoryName = Annotated[
    str | None,
    option(
        "--category",
        "-c",
        metavar="CATEGORY",
        help="Category id; a new one creates questions/<category>.yaml.",
        autocompletion=categories,
    ),
]
PromptText = Annotated[
    str | None, option("--prompt", "-p", metavar="TEXT", help="The question as an interviewer asks it.")
]
KeyPoints = Annotated[
    list[str] | None,
    option("--key-point", "-K", metavar="TEXT", help="A key point (repeatable). " + _CLAIM_HELP),
]
Aliases = Annotated[
    list[str] | None,
    option(
        "--alias",
        metavar="N: TEXT",
        help="Another way to say key point N, numbered from 1 (repeatable): the grader knows only the "
        "words a key point is given.",
    ),
]
# -k means --kind in every other command; in add it meant --key-point, and still does, with a
# note, for one release. Hidden, so that help shows only -K.
OldKeyPoints = Annotated[
    list[str] | None,
    option("-k", metavar="TEXT", hidden=True, help="Deprecated: --key-point (-K). Will mean --kind."),
]
_OLD_K_NOTE = (
    "prep: -k for --key-point is deprecated; use --key-point or -K (-k will mean --kind, as elsewhere)"
)
Pitfalls = Annotated[
    list[str] | None,
    option("--pitfall", metavar="TEXT", help="A known wrong claim (repeatable). " + _CLAIM_HELP),
]
Tags = Annotated[list[str] | None, option("--tag", "-t", metavar="TAG", help="A tag (repeatable).")]
Kind = Annotated[str, typer.Option("--kind", metavar="KIND", help="technical, behavioral, strategy or ask.")]
Difficulty = Annotated[
    int, typer.Option("--difficulty", "-d", metavar="1-3", min=1, max=3, help="1 (warm-up) to 3.")
]
TargetSeconds = Annotated[
    int, typer.Option("--target-seconds", metavar="SECONDS", min=1, help="Target spoken length.")
]
FollowUps = Annotated[
    list[str] | None,
    option(
        "--follow-up", metavar="ID", help="Id of a deeper question (repeatable).", autocompletion=question_ids
    ),
]
QuestionId = Annotated[
    str | None, option("--id", metavar="ID", help="Id to use instead of one made from the prompt.")
]
CategoryTitle = Annotated[
    str | None, option("--title", metavar="TEXT", help="Title of a new category (with --story: the story's).")
]
StoryFlag = Annotated[
    bool,
    typer.Option(
        "--story",
        help="Add a story to your story bank instead of a question: --title, --situation, --task, "
        "--action, --result, --metric and --for (asked for on a terminal).",
    ),
]
Situation = Annotated[str | None, option("--situation", metavar="TEXT", help="The story's situation.")]
Task = Annotated[str | None, option("--task", metavar="TEXT", help="The story's task: what was yours to do.")]
Action = Annotated[str | None, option("--action", metavar="TEXT", help="What you did, in the story.")]
Result = Annotated[str | None, option("--result", metavar="TEXT", help="What came of it, with a number.")]
Metrics = Annotated[
    list[str] | None,
    option("--metric", metavar="TEXT", help="A number the story can quote, e.g. '40% cheaper' (repeatable)."),
]
Covers = Annotated[
    list[str] | None,
    option(
        "--for",
        metavar="ID",
        help="A question whose prepared answer the story fits: its id is added to that answer's "
        "stories (repeatable).",
        autocompletion=question_ids,
    ),
]


# The option of `prep add` that gives each field of a question.
_OPTION_OF = {
    "id": "--id", "prompt": "--prompt", "kind": "--kind", "difficulty": "--difficulty", "tags": "--tag",
    "target_seconds": "--target-seconds", "key_points": "--key-point", "pitfalls": "--pitfall",
    "follow_ups": "--follow-up",
}  # fmt: skip


@dataclass
class _Draft:
    """The fields of the question being added, as given or as asked."""

    category: str | None
    prompt: str | None
    key_points: list[str] | None
    pitfalls: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    kind: str = "technical"
    difficulty: int = 2
    target_seconds: int = 60


def add(
    ctx: typer.Context,
    category: CategoryName = None,
    prompt: PromptText = None,
    key_point: KeyPoints = None,
    pitfall: Pitfalls = None,
    tag: Tags = None,
    kind: Kind = "technical",
    difficulty: Difficulty = 2,
    target_seconds: TargetSeconds = 60,
    follow_up: FollowUps = None,
    question_id: QuestionId = None,
    title: CategoryTitle = None,
    alias: Aliases = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was written as JSON.")] = False,
    old_key_point: OldKeyPoints = None,
    story: StoryFlag = False,
    situation: Situation = None,
    task: Task = None,
    action: Action = None,
    result: Result = None,
    metric: Metrics = None,
    covers: Covers = None,
) -> None:
    """Add a question: asks for each field, or takes them all as options for scripts.

    On a terminal, prep asks for what the options leave out: the category, the prompt, each key
    point and other ways to say it, pitfalls, tags, kind, difficulty and target time (the id,
    a new category's title and follow-ups are options only; `prep answer` adds your answer).
    The question is appended to its category file as a new block; every other byte of the file
    stays as it was, and the whole bank is validated before anything is written.
    """
    from prep.bank import authoring
    from prep.cli.story_form import add_story

    parts = {"situation": situation, "task": task, "action": action, "result": result}
    if story or metric or covers or any(v is not None for v in parts.values()):
        _refuse_question_options(story, category, prompt, key_point or old_key_point, pitfall, tag, follow_up)
        return add_story(ctx.obj, question_id, title, parts, metric or [], covers or [], as_json=as_json)
    if old_key_point:
        echo(_OLD_K_NOTE, err=True)
        key_point = [*(key_point or []), *old_key_point]
    app: AppContext = ctx.obj
    location = app.writable_bank_location()  # refused before any question is asked
    bank = app.bank()
    _check_follow_ups(follow_up or [], list(bank.questions))  # before any question is asked
    interactive = plain.interactive() and not as_json
    draft = _Draft(category, prompt, key_point, pitfall or [], tag or [], kind, difficulty, target_seconds)
    _fill_in(draft, bank, interactive=interactive)
    draft.key_points = _with_aliases(draft.key_points or [], alias or [])
    if draft.category not in bank.categories and title is None and not interactive:
        _refuse_likely_typo(draft.category, list(bank.categories))
    try:
        change = authoring.add_question(
            location, bank, category=draft.category, prompt=draft.prompt, key_points=draft.key_points or [],
            pitfalls=draft.pitfalls, tags=draft.tags, kind=draft.kind, difficulty=draft.difficulty,
            target_seconds=draft.target_seconds, follow_ups=follow_up or [], question_id=question_id,
            title=title, retired=app.retired_ids(),
        )  # fmt: skip
    except authoring.FieldRejected as rejected:  # in the words of the option that gave the value
        option = _OPTION_OF.get(rejected.field, rejected.field)
        raise UsageError(f"{option}: {rejected.reason}; nothing was written") from None
    report_change(change, as_json, f"added {change.question_id} to {display_path(change.files[0])}")
    similar = change.detail.get("similar_to")
    if similar and not as_json:
        echo(
            f"warning: its prompt is {similar['similarity']}% like that of {similar['id']!r} "
            f"(`prep show {similar['id']}`)",
            err=True,
        )


def _refuse_question_options(story: bool, *given_for_questions) -> None:  # type: ignore[no-untyped-def]
    """--story and the story options go together, and apart from the options of a question."""
    if not story:
        raise UsageError("--situation, --task, --action, --result, --metric and --for go with --story")
    if any(given_for_questions):
        raise UsageError(
            "--story adds a story: --category, --prompt, --key-point, --pitfall, --tag and --follow-up "
            "are for questions"
        )


def _fill_in(draft: _Draft, bank, *, interactive: bool) -> None:  # type: ignore[no-untyped-def]
    """Ask for what the options left out, on a terminal; without one, say which option is missing.
    What the bank would refuse is asked again at once, so nothing typed is lost to it later."""
    categories = list(bank.categories)
    if draft.category is None:
        if not interactive:
            raise UsageError("--category is required (or run interactively)")
        echo(wrapped_list("Categories", categories or ["none yet"]))
        draft.category = _ask_until(
            "Category (existing or new)", lambda text: check_category_name(_complete(text, categories))
        )
    if draft.prompt is None:
        if not interactive:
            raise UsageError("--prompt is required (or run interactively)")
        draft.prompt = _ask_until("Prompt", lambda text: _new_prompt(bank, text))
    if draft.key_points is None and interactive:
        draft.key_points = _ask_key_points()
        draft.pitfalls = draft.pitfalls or plain.ask_list("Pitfalls: known wrong claims")
        draft.tags = draft.tags or _ask("Tags (separated by commas or spaces)", "").replace(",", " ").split()
        draft.kind = _ask_valid(f"Kind ({', '.join(KINDS)})", draft.kind, lambda v: v if v in KINDS else None)
        draft.difficulty = _ask_valid("Difficulty 1-3", draft.difficulty, lambda v: _int_in(v, 1, 3))
        draft.target_seconds = _ask_valid(
            "Target seconds", draft.target_seconds, lambda v: _int_in(v, 1, 24 * 3600)
        )


def _ask_until(label: str, check):  # type: ignore[no-untyped-def]
    """Ask until *check* accepts the answer (it raises UsageError, which is shown, to refuse it)."""
    while True:
        try:
            return check(_ask(label))
        except UsageError as refused:
            echo(f"  {refused.message}; try again", err=True)


def _new_prompt(bank, text: str) -> str:  # type: ignore[no-untyped-def]
    from prep.bank.naming import prompt_key

    if not text.strip():
        raise UsageError("the prompt is empty")
    same = next((q.id for q in bank.questions.values() if prompt_key(q.prompt) == prompt_key(text)), None)
    if same is not None:
        raise UsageError(f"question {same!r} already asks this")
    return text


def _ask_key_points() -> list[str]:
    """Each key point, then other ways to say it: the grader knows only the words it is given."""
    echo("Key points, one at a time (empty line to finish):")
    points: list[str] = []
    while True:
        text = typer.prompt(f"  {len(points) + 1}", default="", show_default=False, prompt_suffix=". ")
        if not text.strip():
            return points
        aliases = plain.ask_list("     Other ways to say it, as you would in an answer", finish="go on")
        points.append(" | ".join([text.strip(), *aliases]))


def _with_aliases(points: list[str], aliases: list[str]) -> list[str]:
    """The key points ('text | alias') with each --alias 'N: text' added to point N."""
    points = list(points)
    for item in aliases:
        number, colon, text = item.partition(":")
        if not colon or not number.strip().isdigit() or not text.strip():
            raise UsageError(
                f"--alias {item!r}: write 'N: text', N the number of the key point (1 for the first)"
            )
        n = int(number)
        if not 1 <= n <= len(points):
            have = f"key points 1 to {len(points)}" if points else "no key points"
            raise UsageError(f"--alias {item!r}: the question has {have}")
        points[n - 1] += " | " + text.strip()
    return points


def _check_follow_ups(follow_ups: list[str], ids: list[str]) -> None:
    """A --follow-up must name a question already in the bank."""
    from prep.cli.usage import did_you_mean

    for follow_up in follow_ups:
        if follow_up not in ids:
            raise UsageError(
                f"--follow-up {follow_up}: no such question id{did_you_mean(follow_up, ids)}",
                hint="see `prep list`",
            )


def _refuse_likely_typo(category: str | None, categories: list[str]) -> None:
    """A typo in --category would quietly start a category of its own."""
    from prep.suggest import did_you_mean

    hint = did_you_mean(category or "", categories)
    if hint:
        raise UsageError(
            f"there is no category {category!r}; {hint}",
            hint="to start a new category with that name, give it a --title",
        )


def _complete(text: str, choices: list[str]) -> str:
    """An existing category as typed, or, for a unique prefix of one, that one if the user agrees."""
    text = text.strip()
    matches = [c for c in choices if c.startswith(text)]
    if text in choices or len(matches) != 1:
        return text
    return (
        matches[0]
        if typer.confirm(f"Did you mean {matches[0]}? (no: a new category {text!r})", default=True)
        else text
    )


def _ask(label: str, default: str | None = None) -> str:
    return typer.prompt(label, default=default, show_default=default is not None)


def _ask_valid(label: str, default, parse):  # type: ignore[no-untyped-def]
    """Ask until *parse* accepts the answer, so nothing typed so far is lost to a bad value."""
    while True:
        value = parse(_ask(label, str(default)).strip())
        if value is not None:
            return value
        echo(f"  not a valid value for {label.split(' (')[0].lower()}; try again", err=True)


def _int_in(text: str, low: int, high: int) -> int | None:
    return int(text) if text.isdigit() and low <= int(text) <= high else None
