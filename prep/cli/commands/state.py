"""`prep state check|export|import|prune|share|rebuild`: the review history's health, backup,
moves, and sharing through the bank's folder."""

from pathlib import Path
from typing import Annotated

import typer

from prep.cli import plain
from prep.cli.context import AppContext
from prep.cli.options import command_group
from prep.cli.output import echo, emit_json, write_output
from prep.cli.plain import counted
from prep.errors import EXIT_STATE, CommandLineError, UsageError

state_app = command_group(
    "Check, export, import, prune or share your review history (the SQLite state database)."
)


@state_app.command("check")
def check(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Run SQLite's integrity check, list kept backups and damaged copies, and say how to restore.

    Only looks: the database is opened read-only and nothing is moved or changed.
    """
    from prep.state.health import check as run_check

    app: AppContext = ctx.obj
    health = run_check(app.state_path)
    if as_json:
        emit_json(health.to_dict())
    else:
        echo(f"state database: {health.path}")
        echo(f"  {health.detail}")
        if health.note:
            echo(f"  {health.note}")
        if health.reviews is not None:
            echo(
                f"  {counted(health.reviews, 'review')}, {counted(health.cards or 0, 'card')}, "
                f"schema {health.schema}"
            )
        for title, paths in (("backups", health.backups), ("damaged copies (moved aside)", health.damaged)):
            if paths:
                echo(f"{title}, newest first:")
                for path in paths:
                    echo(f"  {path}")
        if health.restore:
            echo("to restore your history:")
            for step, command in health.restore:
                echo(f"  {step}:\n    {command}")
    if not health.ok:
        raise typer.Exit(EXIT_STATE)


@state_app.command("export")
def export(
    ctx: typer.Context,
    file: Annotated[
        Path | None,
        typer.Argument(
            metavar="FILE", help="Where to write (JSON Lines); '-' or nothing for stdout.", show_default=False
        ),
    ] = None,
    all_banks: Annotated[
        bool, typer.Option("--all-banks", help="Every bank's history, not only this bank's.")
    ] = False,
) -> None:
    """Write this bank's card states, reviews and practice answers as JSON Lines: a backup you can
    diff, move and re-import."""
    from prep.state.history import export_lines

    app: AppContext = ctx.obj
    with app.store(write=False, shown=True) as store:  # a backup of nothing is worth a word
        text = "".join(line + "\n" for line in export_lines(store, all_banks=all_banks))
    write_output(text, None if file is None or str(file) == "-" else file)


@state_app.command("import")
def import_(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A file written by `prep state export`.")],
    keep_banks: Annotated[
        bool,
        typer.Option(
            "--keep-banks",
            help="Keep the bank each row names (an export made with --all-banks); by default what is "
            "imported becomes this bank's history.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was merged as JSON.")] = False,
) -> None:
    """Merge an export (or a device file of a shared history) into this bank's history.

    Events count once (by id, or question and time), so importing twice is harmless; an undo
    in the file undoes; the cards whose reviews changed are replayed in time order.
    """
    from prep.state.history import import_lines

    app: AppContext = ctx.obj
    if not file.is_file():
        raise UsageError(f"{file} is a directory, not a file" if file.is_dir() else f"no such file: {file}")
    with app.store() as store:
        report = import_lines(store, file, app.replay(store), keep_banks=keep_banks)
    if as_json:
        emit_json(report.to_dict())
    else:
        echo(
            f"reviews: {report.reviews_added} added, {report.reviews_present} already present; "
            f"cards: {report.cards_added} added, {report.cards_updated} updated, {report.cards_kept} kept"
            + (
                f"; practice: {report.practice_added} added, {report.practice_present} already present"
                if report.practice_added or report.practice_present
                else ""
            )
            + (
                f"; teachings: {report.teachings_added} added, {report.teachings_present} already present"
                if report.teachings_added or report.teachings_present
                else ""
            )
            + (
                f"; undos: {report.undos_added} added, {report.undos_present} already present"
                if report.undos_added or report.undos_present
                else ""
            )
        )


@state_app.command("prune")
def prune(
    ctx: typer.Context,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    unassigned: Annotated[
        bool,
        typer.Option(
            "--unassigned",
            help="Also history recorded before prep kept track of banks, of questions not in this bank.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was deleted as JSON.")] = False,
) -> None:
    """Delete this bank's history of questions that are no longer in it."""
    from prep.state.history import orphans
    from prep.state.history import prune as run_prune

    app: AppContext = ctx.obj
    keep = set(app.bank().questions)
    nothing = {"questions": 0, "reviews": 0, "cards": 0, "practice": 0, "teachings": 0}
    with app.store(write=False) as store:
        gone = orphans(store, keep, unassigned=unassigned)
        if not gone:
            if as_json:
                emit_json(nothing)
            else:
                echo("nothing to prune: every question in this bank's history is in the bank")
            return
        store.require_write()
        if not yes:
            if not plain.interactive():
                raise UsageError(f"{counted(len(gone), 'question')} would be pruned; pass --yes to confirm")
            # Questions go to stderr, so that stdout holds only the result (JSON with --json).
            echo("history of questions no longer in the bank: " + ", ".join(gone), err=True)
            if not typer.confirm("Delete it?", default=False, err=True):
                if as_json:
                    emit_json(nothing)
                else:
                    echo("nothing deleted")
                return
        result = run_prune(store, keep, unassigned=unassigned)
    if as_json:
        emit_json(result)
    else:
        echo(
            f"pruned {counted(result['questions'], 'question')}: {counted(result['reviews'], 'review')}, "
            f"{counted(result['cards'], 'card')}, {counted(result['practice'], 'practice answer')}"
            + (f", {counted(result['teachings'], 'teaching')}" if result["teachings"] else "")
        )


@state_app.command("share")
def share(
    ctx: typer.Context,
    off: Annotated[
        bool, typer.Option("--off", help="Stop this device writing to the bank's history/ (the files stay).")
    ] = False,
    status: Annotated[
        bool,
        typer.Option("--status", help="Show the devices, their last review and what is not taken in yet."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Share this bank's review history through its folder (git, Syncthing, Dropbox).

    Makes history/ in the bank and writes this device's reviews, practice answers, undos and
    taught phrasings to history/DEVICE.jsonl, one file per device, so merges do not conflict
    while each machine has its own device name.
    Every prep using the bank then writes there and takes in what other devices appended.
    The device name is made once per state file; $PREP_DEVICE overrides it.
    """
    from prep.cli.render_share import render_shared, render_status
    from prep.state import share as sharing

    app: AppContext = ctx.obj
    if off and status:
        raise CommandLineError("--off and --status exclude each other")
    if status:
        with app.store(write=False, take_in=False) as store:
            result = sharing.status(store)
        emit_json(result.to_dict()) if as_json else render_status(result)
        return
    location = app.writable_bank_location()
    with app.store(take_in=not off) as store:
        if off:
            folder = sharing.stop_sharing(store)
            done = {"writes": False, "folder": str(folder) if folder else None}
            emit_json(done) if as_json else render_shared(None, folder)
            return
        shared = sharing.share(store, location.root)
    emit_json(shared.to_dict()) if as_json else render_shared(shared, shared.folder)


@state_app.command("rebuild")
def rebuild(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was rebuilt as JSON.")] = False,
) -> None:
    """Make every schedule that is not the replay of its reviews that replay (what `state check` reports)."""
    from prep.state.history import rebuild_mismatched

    app: AppContext = ctx.obj
    with app.store() as store:
        rebuilt = rebuild_mismatched(store, app.replay(store))
    if as_json:
        emit_json({"rebuilt": [{"bank": m.bank, "question": m.question_id} for m in rebuilt]})
    elif rebuilt:
        echo(f"rebuilt {counted(len(rebuilt), 'schedule')}: " + ", ".join(m.question_id for m in rebuilt))
    else:
        echo("nothing to rebuild: every schedule is the replay of its reviews")
