"""Taking in what the devices sharing a bank's history appended to their files since this
state last looked, by file size and offset: when no file grew, nothing is read. The new lines
are merged as `prep state import` merges an export (``merge``), so that the cards they touch
become the replay of their reviews.

A last line without its end (a sync in progress) is left for later; a line that does not read
is reported once, with its file and line, and skipped; an event seen before (a copied file)
counts once. How far each file was read is kept in the state, with what it read, in one
transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from prep.errors import Problem, display_path
from prep.state.sharing import device_files, history_dir, read_marks, save_marks

if TYPE_CHECKING:
    from prep.state.merge import ImportReport
    from prep.state.replay import Replay
    from prep.state.store import Store


@dataclass
class TakenIn:
    """What one take-in merged, and the lines it skipped."""

    report: ImportReport
    problems: list[Problem] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # the device files read


def take_in(store: Store, replay: Replay) -> TakenIn | None:
    """Merge what the device files of the bank's history hold beyond what was read of them
    (None when no file changed, the bank's history is not shared, or the state is read-only)."""
    folder = history_dir(store.bank_key)
    if folder is None or store.read_only:
        return None
    marks = read_marks(store.db, str(store.bank_key))
    changed = {
        name: size for name, size in device_files(folder).items() if marks.get(name, (0, 0))[0] != size
    }
    if not changed:
        return None
    from prep.state.merge import ImportReport, merge  # deferred: the checks of records load pydantic
    from prep.state.records import Incoming, parse_lines

    incoming, moved = Incoming(), {}
    for name, size in sorted(changed.items()):
        offset, count = marks.get(name, (0, 0))
        if size < offset:  # replaced by a shorter file (a checkout, a restore): read it again
            offset, count = 0, 0
        try:
            numbered, end, lines = _whole_lines(folder / name, offset, count, size)
        except OSError:
            continue  # gone since the folder was listed: nothing to read
        if end == offset:
            continue  # no whole line yet
        parsed = parse_lines(numbered, display_path(folder / name))
        incoming.problems += parsed.problems
        if parsed.complete:  # else a newer format: read again once prep is upgraded
            incoming.events += parsed.events
            moved[name] = (end, count + lines)
    if not moved:
        return TakenIn(ImportReport(), incoming.problems) if incoming.problems else None
    report = merge(store, incoming, replay, finish=lambda db: save_marks(db, str(store.bank_key), moved))
    return TakenIn(report, incoming.problems, sorted(moved))


def _whole_lines(path: Path, offset: int, count: int, size: int) -> tuple[list[tuple[int, str]], int, int]:
    """The numbered whole lines of *path* between *offset* and *size* (the header first, as line
    1, when reading on from an offset), where they end, and how many there are."""
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
    return numbered, offset + len(whole), len(lines)
