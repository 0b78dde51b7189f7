"""What `prep state share` prints: what turning sharing on or off did, and the devices of a
shared history."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from prep.cli.output import echo
from prep.cli.plain import counted
from prep.errors import display_path

if TYPE_CHECKING:
    from prep.state.share import Shared, SharingStatus


def render_shared(shared: Shared | None, folder: Path | None) -> None:
    """Sharing turned on (*shared*) or off for this device (None)."""
    if shared is None:
        if folder is None:
            echo("this bank's history is not shared: nothing to turn off")
            return
        echo(f"this device no longer writes to {display_path(folder)}; its file stays there,")
        echo("and what the other devices write is still taken in. `prep state share` turns it back on.")
        return
    where = display_path(shared.folder)
    echo(f"sharing this bank's review history in {where}{' (new)' if shared.created else ''}")
    echo(
        f"this device is {shared.device}: it writes {display_path(shared.file)}"
        f" ({counted(shared.written, 'event')} of its history written now)"
    )
    echo(
        "commit the folder with the bank (git add history && git commit), or let your sync tool carry it;"
        " other devices take it in when they next use the bank"
    )


def render_status(status: SharingStatus) -> None:
    if status.folder is None:
        echo("this bank's history is not shared: `prep state share` shares it through the bank's folder")
        return
    writes = "writes there" if status.writes else "does not write there (`prep state share` turns it on)"
    echo(f"shared history: {display_path(status.folder)}; this device is {status.device} and {writes}")
    if not status.devices:
        echo("  no device has written to it yet")
        return
    width = max(len(d.device) for d in status.devices) + 2
    echo(f"  {'device':<{width}}  {'events':>6}  {'last review':<16}  not taken in")
    for device in status.devices:
        name = device.device + (" *" if device.this_device else "")
        echo(f"  {name:<{width}}  {device.events:>6}  {_local(device.last_review):<16}  {device.pending}")
    if any(device.this_device for device in status.devices):
        echo("  (* this device)")
    else:
        echo(f"  this device ({status.device}) has written nothing there yet")


def _local(stamp: str | None) -> str:
    if stamp is None:
        return "-"
    from prep.state.cards import parse_time

    try:
        return parse_time(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp  # a hand-edited line: shown as written
