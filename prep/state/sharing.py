"""A review history shared through the bank's own folder (git, Syncthing, Dropbox): the bank's
``history/`` holds one file per device, ``<device>.jsonl``, in the export's format (events only,
``records``). Each file has one writer, its device, which only appends to it, so that a git
merge or a folder sync does not conflict, as long as no two machines write as the same device
(``takein`` tells when this device's own file holds events it never wrote). Reading the others
is ``takein``.

Sharing is the bank's: once ``history/`` exists, every device using the bank writes there
(``prep state share --off`` stops one device writing). Events name their question by its id
and no bank: the folder they are in is their bank, wherever each device keeps it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from prep.errors import UsageError, WriteFailed, display_path
from prep.paths import BUNDLED_KEY
from prep.state.events import FORMAT, FORMAT_VERSION
from prep.state.sqlite import Connection

HISTORY_DIR = "history"
ENV_DEVICE = "PREP_DEVICE"
DEVICE_SUFFIX = ".jsonl"
_DEVICE_SETTING = "device"
_OFF_SETTING = "sharing_off:"  # + the bank's key: this device does not write to that bank's history/
_DEVICE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# What a device file leaves out of an export's records: derived by each state, not the event's.
_DERIVED = ("card_before", "bank")
TAIL_BYTES = 4096  # of the last line taken in of a device file, kept as its fingerprint

README = """\
# Review history

Each file here is one device's review history (`<device>.jsonl`): every review, practice
answer, undo and taught phrasing made with this bank on that device, one JSON object a line,
in the format of `prep state export`. Only that device writes its file, and only at its end,
so merging or syncing this folder does not conflict, as long as each machine has its own device
name (two machines with the same PREP_DEVICE write the same file, and git merges of it can
conflict).

Commit this folder with the bank (or let your sync tool carry it). Every prep that uses the
bank takes in what the other devices appended and replays it, so all devices end with the
same schedule. Do not edit these files; `prep state share --status` shows what is here.
"""


class Store(Protocol):
    """What sharing asks of a ``prep.state.store.Store`` (which calls it as it records events)."""

    db: Connection
    bank_key: str | None
    read_only: bool

    def transaction(self) -> AbstractContextManager[Connection]: ...

    def get_setting(self, key: str) -> str | None: ...


def history_dir(bank_key: str | None) -> Path | None:
    """The bank's ``history/`` folder, when the bank is a folder of one's own that has one."""
    if not bank_key or bank_key == BUNDLED_KEY:
        return None
    folder = Path(bank_key) / HISTORY_DIR
    return folder if folder.is_dir() else None


def device_files(folder: Path) -> dict[str, int]:
    """The device files of a history folder and their sizes in bytes."""
    files = {}
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(DEVICE_SUFFIX) and not entry.name.startswith(".") and entry.is_file():
                files[entry.name] = entry.stat().st_size
    return files


def device_id(store: Store) -> str:
    """This device's name in shared histories: $PREP_DEVICE, else the one made for this state
    file the first time it was asked (the host's name and four random characters)."""
    named = os.environ.get(ENV_DEVICE)
    if named:
        if not _DEVICE_NAME.fullmatch(named):
            raise UsageError(
                f"{ENV_DEVICE}={named!r} cannot name a device file",
                hint="use up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
            )
        return named
    known = store.get_setting(_DEVICE_SETTING)
    if known:
        return known
    made = f"{_host_name()}-{os.urandom(2).hex()}"
    if not store.read_only:  # a state that cannot be written writes no device file either
        _put_setting(store, _DEVICE_SETTING, made)
    return made


def _host_name() -> str:
    import socket

    name = socket.gethostname().split(".")[0].lower()
    return re.sub(r"[^a-z0-9-]+", "-", name).strip("-")[:24] or "device"


def _put_setting(store: Store, key: str, value: str | None) -> None:
    """Save (None: remove) a setting, inside the caller's transaction when there is one."""
    if not store.db.in_transaction:
        with store.transaction():
            _put_setting(store, key, value)
        return
    if value is None:
        store.db.execute("DELETE FROM settings WHERE key = ?", (key,))
    else:
        store.db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))


def set_writing(store: Store, on: bool) -> None:
    """Turn this device's writing to the bank's history/ on or off (kept in its state)."""
    _put_setting(store, _OFF_SETTING + str(store.bank_key), None if on else "1")


def writes(store: Store) -> bool:
    """Whether this device writes to the bank's history/ (not turned off for it here)."""
    return store.get_setting(_OFF_SETTING + str(store.bank_key)) is None


def device_file(store: Store) -> Path | None:
    """The file this device appends its events to, when the bank's history is shared and this
    device writes to it."""
    folder = history_dir(store.bank_key)
    if folder is None or not writes(store):
        return None
    return folder / f"{device_id(store)}{DEVICE_SUFFIX}"


def append_event(store: Store, kind: str, fields: dict[str, Any]) -> None:
    """Append an event just made to this device's file, when the bank's history is shared
    (called inside the transaction that records it: if the file cannot be written, nothing is
    recorded and the error says why)."""
    path = device_file(store)
    if path is not None:
        written = append_lines(path, [event_line(kind, fields)], device_id(store))
        advance_mark(store.db, str(store.bank_key), path.name, written)


def event_line(kind: str, fields: dict[str, Any]) -> str:
    return json.dumps(
        {"type": kind, **{k: v for k, v in fields.items() if k not in _DERIVED}}, sort_keys=True
    )


class Written(NamedTuple):
    """What an append did: the file's size before and after, the lines written and the
    fingerprint of the last of them."""

    before: int
    after: int
    lines: int
    tail: str


def append_lines(path: Path, lines: Iterable[str], device: str) -> Written:
    """Append whole lines at once (one write, synced): a new file starts with the format's
    header; a last line left without its end by a crash is ended first, so that it stays a line
    of its own (reported once where it is read) and does not spoil the next."""
    data = "".join(line + "\n" for line in lines).encode()
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            size = os.fstat(fd).st_size
            if size == 0:
                header = {"type": FORMAT, "version": FORMAT_VERSION, "device": device}
                data = (json.dumps(header, sort_keys=True) + "\n").encode() + data
            elif os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
            return Written(size, size + len(data), data.count(b"\n"), line_print(data))
        finally:
            os.close(fd)
    except OSError as exc:
        raise WriteFailed(
            f"cannot write the shared history {display_path(path)}: {exc.strerror or exc}",
            hint="nothing was recorded; `prep state share --off` stops this device writing there",
        ) from None


class Mark(NamedTuple):
    """How far a device file was taken in: up to the end of its last whole line read (bytes),
    its lines, and the fingerprint of that last line (None for a mark made before prep kept
    one), which tells whether the file still holds what was read."""

    offset: int = 0
    lines: int = 0
    tail: str | None = None


def read_marks(db: Connection, bank_key: str) -> dict[str, Mark]:
    """How far each device file of the bank's history was taken in."""
    rows = db.execute("SELECT name, offset, lines, tail FROM shared_files WHERE bank = ?", (bank_key,))
    return {name: Mark(offset, lines, tail) for name, offset, lines, tail in rows}


def save_marks(db: Connection, bank_key: str, marks: dict[str, Mark]) -> None:
    db.executemany(
        "INSERT OR REPLACE INTO shared_files (bank, name, offset, lines, tail) VALUES (?, ?, ?, ?, ?)",
        [(bank_key, name, *mark) for name, mark in marks.items()],
    )


def advance_mark(db: Connection, bank_key: str, name: str, written: Written) -> None:
    """Count lines this device just appended to its own file as taken in (they are in the state
    already), when all before them were: the next take-in then reads nothing. In the transaction
    that records them, so a failed commit leaves them to be taken in."""
    mark = read_marks(db, bank_key).get(name, Mark())
    if mark.offset == written.before:
        save_marks(db, bank_key, {name: Mark(written.after, mark.lines + written.lines, written.tail)})


def line_print(data: bytes) -> str:
    """The fingerprint of the last line of *data* (which ends with a line's end): its last
    TAIL_BYTES bytes, hashed. The same whether *data* holds the whole line or only those bytes."""
    start = data.rfind(b"\n", 0, len(data) - 1) + 1
    line = data[start:][-TAIL_BYTES:]
    return hashlib.blake2b(line, digest_size=8).hexdigest()


def still_holds(path: Path, mark: Mark) -> bool:
    """Whether *path* still holds, up to the mark, what was taken in of it: a line ends there,
    and it is the line taken in last (as far as a mark without a fingerprint can tell, the first
    alone). A file rewritten under its mark (a merge, a checkout) does not."""
    if not mark.offset:
        return True
    with open(path, "rb") as handle:
        start = max(0, mark.offset - TAIL_BYTES)
        handle.seek(start)
        before = handle.read(mark.offset - start)
    if not before.endswith(b"\n"):
        return False
    return mark.tail is None or line_print(before) == mark.tail


def logged_events(folder: Path) -> set[str]:
    """The ids of the events every device file of *folder* holds (lines that do not read are
    left out: taking in reports them)."""
    events: set[str] = set()
    for name in device_files(folder):
        for record in file_records(folder / name):
            if isinstance(record.get("event"), str):
                events.add(record["event"])
    return events


def file_records(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a device file's whole lines, header included; others skipped."""
    records = []
    with open(path, "rb") as handle:
        for line in handle:
            if not line.endswith(b"\n"):
                break  # being written, or delivered in part by a sync: read later
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                records.append(record)
    return records
