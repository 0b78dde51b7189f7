"""`prep state share`: turning a bank's shared history on and off for this device, and what its
device files hold (``sharing`` writes them, ``takein`` reads them)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prep.errors import UsageError, WriteFailed, display_path
from prep.paths import BUNDLED_KEY
from prep.state.history import export_rows
from prep.state.sharing import (
    DEVICE_SUFFIX,
    HISTORY_DIR,
    README,
    Mark,
    advance_mark,
    append_lines,
    device_files,
    device_id,
    event_line,
    file_records,
    history_dir,
    logged_events,
    read_marks,
    set_writing,
    still_holds,
    writes,
)

if TYPE_CHECKING:
    from prep.state.store import Store


@dataclass(frozen=True)
class Shared:
    """What `prep state share` did."""

    folder: Path
    file: Path
    device: str
    created: bool  # the history/ folder is new
    written: int  # events of this device's history written to its file now

    def to_dict(self) -> dict[str, Any]:
        return {
            "folder": str(self.folder),
            "file": str(self.file),
            "device": self.device,
            "created": self.created,
            "written": self.written,
        }


def share(store: Store, root: Path) -> Shared:
    """Turn sharing on for the bank at *root* (the store's bank): make its history/ folder (with
    a README) and write to this device's file every event of the bank's history that no device
    file holds yet, which is all of it the first time."""
    if not store.bank_key or store.bank_key == BUNDLED_KEY:
        raise UsageError(
            "the bundled bank is not shared: its folder is prep's own, not one you carry between devices",
            hint="run `prep init` to copy it to a folder of your own (in git, or synced), and share that",
        )
    folder = root / HISTORY_DIR
    created = not folder.is_dir()
    try:
        folder.mkdir(exist_ok=True)
        if not (folder / "README.md").exists():
            (folder / "README.md").write_text(README, encoding="utf-8")
    except OSError as exc:
        raise WriteFailed(f"cannot make {display_path(folder)}: {exc.strerror or exc}") from None
    set_writing(store, True)
    device = device_id(store)
    logged = logged_events(folder)
    lines = [
        event_line(kind, fields)
        for kind, fields in export_rows(store)
        if kind != "card" and fields["event"] not in logged
    ]
    path = folder / f"{device}{DEVICE_SUFFIX}"
    if lines or not path.exists():
        with store.transaction() as db:
            advance_mark(db, str(store.bank_key), path.name, append_lines(path, lines, device))
    return Shared(folder, path, device, created, len(lines))


def stop_sharing(store: Store) -> Path | None:
    """This device stops writing to the bank's history/ (its file stays, and the other devices'
    events are still taken in). The folder, if there is one."""
    set_writing(store, False)
    return history_dir(store.bank_key)


@dataclass
class DeviceStatus:
    device: str
    file: Path
    events: int
    last_review: str | None  # as recorded (UTC)
    pending: int  # whole lines not taken in yet
    this_device: bool

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "file": str(self.file)}


@dataclass
class SharingStatus:
    folder: Path | None  # None: the bank's history is not shared
    device: str
    writes: bool  # this device writes to the folder (not turned off here)
    devices: list[DeviceStatus]

    def to_dict(self) -> dict[str, Any]:
        return {
            "shared": self.folder is not None,
            "folder": str(self.folder) if self.folder else None,
            "device": self.device,
            "writes": self.writes,
            "devices": [d.to_dict() for d in self.devices],
        }


def status(store: Store) -> SharingStatus:
    """The devices of the bank's history: their events, last review, and what of each this
    state has not taken in yet (it takes in nothing itself)."""
    folder = history_dir(store.bank_key)
    device = device_id(store)
    if folder is None:
        return SharingStatus(None, device, False, [])
    read = read_marks(store.db, str(store.bank_key))
    devices = []
    for name, size in sorted(device_files(folder).items()):
        records = file_records(folder / name)
        events = [r for r in records if r.get("type") != "prep-state"]
        reviews = [
            r["reviewed_at"]
            for r in events
            if r.get("type") == "review" and isinstance(r.get("reviewed_at"), str)
        ]
        mark = read.get(name, Mark())
        offset = mark.offset if mark.offset <= size and still_holds(folder / name, mark) else 0
        with open(folder / name, "rb") as handle:  # a file rewritten under its mark is read again whole
            handle.seek(offset)
            unread = handle.read(size - offset)
        waiting = unread[: unread.rfind(b"\n") + 1].count(b"\n") - (1 if offset == 0 and unread else 0)
        devices.append(
            DeviceStatus(
                name.removesuffix(".jsonl"), folder / name, len(events), max(reviews, default=None),
                max(waiting, 0), name == f"{device}.jsonl",
            )
        )  # fmt: skip
    return SharingStatus(folder, device, writes(store), devices)
