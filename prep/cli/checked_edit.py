"""An edit in $EDITOR, checked: the bank is validated again when the editor closes, and an edit
that left problems is not left behind silently. `prep edit` and `e` in a drill both offer the
same choice: edit again (Enter), revert the file to what it was, or keep it with its problems.
Ctrl-C or the end of the input at that choice reverts, and interrupts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from prep.cli.editor import open_editor
from prep.cli.keys import choose_key
from prep.cli.output import echo
from prep.errors import PrepError, display_path

if TYPE_CHECKING:
    from prep.bank.contents import Bank, Origin
    from prep.errors import Problem
    from prep.paths import BankLocation

CHOICE_PROMPT = "[e]dit again, [r]evert, [k]eep anyway?"


@dataclass
class CheckedEdit:
    outcome: Literal["valid", "reverted", "kept"]
    changed: bool  # the file is not what it was before the edit
    bank: Bank | None = None  # as loaded after the edit, when it is valid
    problems: list[Problem] = field(default_factory=list)  # every problem the bank has now


def edit_checked(
    location: BankLocation, origin: Origin, *, before: list[Problem] | None = None, err: bool = False
) -> CheckedEdit:
    """Open *origin* in the editor until the edit leaves no problem it made (*before*: the
    problems the bank already had), the user reverts it, or keeps it anyway. *err*: ask on
    standard error (a drill with --json keeps standard output for its summary)."""
    from prep.bank.load import check_bank

    original = origin.file.read_bytes()
    edited = display_path(origin.file)
    # Problems elsewhere that are not this edit's doing, by place: their message may quote a line
    # of the edited file, which the edit can move ("first defined at ...:10").
    already = {(p.file, p.line, p.column, p.path) for p in before or () if p.file != edited}
    while True:
        try:
            open_editor(origin.file, origin.line)
        except PrepError:
            if origin.file.read_bytes() == original:
                raise  # the editor failed and the file is as it was
            # The editor failed after the file was saved: check what it left, as after any edit.
        bank, problems = check_bank(location)
        changed = origin.file.read_bytes() != original
        fresh = [p for p in problems if (p.file, p.line, p.column, p.path) not in already]
        if not fresh:
            return CheckedEdit("valid", changed, bank, problems)
        for problem in fresh:
            echo(str(problem), err=True)
        try:
            choice = choose_key(CHOICE_PROMPT, "erk", default="e", err=err)
        except KeyboardInterrupt:
            choice = None
        if choice is None:  # the edit is abandoned: the file goes back to what it was
            _revert(origin, original)
            echo(f"prep: edit discarded: {edited} reverted to what it was before", err=True)
            raise KeyboardInterrupt
        if choice == "r":
            _revert(origin, original)
            return CheckedEdit("reverted", False)
        if choice == "k":
            return CheckedEdit("kept", True, None, problems)


def _revert(origin: Origin, original: bytes) -> None:
    from prep.files import atomic_write

    atomic_write(origin.file, original.decode("utf-8"))
