"""Taking in what the devices sharing a bank's history appended to their files since this
state last looked, by file size and offset: when no file grew, nothing is read. The new lines
are merged as `prep state import` merges an export (``merge``), so that the cards they touch
become the replay of their reviews.

A last line without its end (a sync in progress) is left for later; a line that does not read
is reported once, with its file and line, and skipped; an event seen before (a copied file)
counts once; a file rewritten under what was read of it is read again from its start; events
in this device's own file that this state never wrote are said (two machines write as one).
How far each file was read is kept in the state, with what it read, in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from prep.errors import Problem, UsageError, display_path
from prep.state.sharing import (
    Mark,
    device_file,
    device_files,
    history_dir,
    line_print,
    read_marks,
    save_marks,
    still_holds,
)

if TYPE_CHECKING:
    from prep.state.merge import ImportReport
    from prep.state.replay import Replay
    from prep.state.store import Store


@dataclass
class TakenIn:
    """What one take-in merged, the lines it skipped, and, when this device's own file held
    events this state never wrote (another machine writing as the same device), that file."""

    report: ImportReport
    problems: list[Problem] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # the device files read
    stranger: str | None = None  # this device's own file, shown as a path, holding others' events


def take_in(store: Store, replay: Replay) -> TakenIn | None:
    """Merge what the device files of the bank's history hold beyond what was read of them
    (None when no file changed, the bank's history is not shared, or the state is read-only).
    A file that no longer holds what was read of it (rewritten by a merge or a checkout) is read
    again from its start: what was taken in counts once, and every line has its own number."""
    folder = history_dir(store.bank_key)
    if folder is None or store.read_only:
        return None
    marks = read_marks(store.db, str(store.bank_key))
    changed = {
        name: size for name, size in device_files(folder).items() if marks.get(name, Mark()).offset != size
    }
    if not changed:
        return None
    from prep.state.merge import ImportReport, merge, unseen  # deferred: the checks of records load pydantic
    from prep.state.records import Incoming, parse_lines

    try:
        own = device_file(store)
    except UsageError:  # a $PREP_DEVICE that cannot name a file: said where this device writes
        own = None
    incoming, moved, stranger = Incoming(), {}, None
    for name, size in sorted(changed.items()):
        path = folder / name
        try:
            mark = marks.get(name, Mark())
            if size < mark.offset or not still_holds(path, mark):
                mark = Mark()  # rewritten under the mark: read it again
            numbered, end, lines, tail = _whole_lines(path, mark.offset, mark.lines, size)
        except OSError:
            continue  # gone since the folder was listed: nothing to read
        if end == mark.offset:
            continue  # no whole line yet
        parsed = parse_lines(numbered, display_path(path))
        incoming.problems += parsed.problems
        if parsed.complete:  # else a newer format: read again once prep is upgraded
            incoming.events += parsed.events
            moved[name] = Mark(end, mark.lines + lines, tail)
            if own is not None and name == own.name and unseen(store, parsed.events):
                stranger = display_path(path)
    if not moved:
        return TakenIn(ImportReport(), incoming.problems) if incoming.problems else None
    report = merge(store, incoming, replay, finish=lambda db: save_marks(db, str(store.bank_key), moved))
    return TakenIn(report, incoming.problems, sorted(moved), stranger)


def _whole_lines(
    path: Path, offset: int, count: int, size: int
) -> tuple[list[tuple[int, str]], int, int, str]:
    """The numbered whole lines of *path* between *offset* and *size* (the header first, as line
    1, when reading on from an offset), where they end, how many there are, and the fingerprint
    of the last one."""
    with open(path, "rb") as handle:
        header = handle.readline() if offset else b""
        handle.seek(offset)
        data = handle.read(size - offset)
    whole = data[: data.rfind(b"\n") + 1]
    numbered = [(1, header.decode("utf-8", "replace"))] if header else []
    lines = whole.split(b"\n")[:-1]
    for number, raw in enumerate(lines, count + 1):
        try:
            numbered.append((number, raw.decode("utf-8")))
        except UnicodeDecodeError:
            numbered.append((number, "not UTF-8 text"))  # not JSON: reported as such
    return numbered, offset + len(whole), len(lines), line_print(whole) if whole else ""
