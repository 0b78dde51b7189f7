"""Writing files so that a crash never leaves half of one: temp file, fsync, rename.

Used for every file prep writes: bank YAML, exports (markdown, CSV, JSON Lines) and the
cram sheet. An OS error becomes a WriteFailed naming the file.
"""

from __future__ import annotations

import codecs
import os
import tempfile
from pathlib import Path

from prep.errors import WriteFailed, display_path


def atomic_write(path: Path, text: str) -> None:
    """Write via a temporary file in the same directory, fsync, then os.replace.

    A crash at any point leaves either the old file or the new one, never a mix. An OS error
    (no permission, a full disk) becomes a WriteFailed naming the file.
    """
    _replace(Path(path), text.encode("utf-8"))


def write_files(texts: dict[Path, str | None]) -> None:
    """Write (or, for None, delete) several files, all or nothing: when one of them cannot be
    written, those already written get their old content back before the error is raised.

    Texts are edited with "\n" line ends and no BOM; a file that had CRLF line ends or a UTF-8
    BOM keeps them."""
    originals = {path: path.read_bytes() if path.exists() else None for path in texts}
    done: list[Path] = []
    try:
        for path, text in texts.items():
            if text is None:
                try:
                    path.unlink(missing_ok=True)
                except OSError as error:
                    raise WriteFailed(
                        f"cannot delete {display_path(path)}: {error.strerror or error}"
                    ) from error
            else:
                _replace(path, _in_style_of(originals[path], text))
            done.append(path)
    except BaseException as error:
        stuck = []
        for path in reversed(done):
            try:
                old = originals[path]
                if old is None:
                    path.unlink(missing_ok=True)
                else:
                    _replace(path, old)
            except (OSError, WriteFailed):
                stuck.append(display_path(path))
        if isinstance(error, WriteFailed):
            error.hint = (
                f"could not restore {', '.join(stuck)}: check it with `prep validate`"
                if stuck
                else "nothing was changed"
            )
        raise


def _in_style_of(original: bytes | None, text: str) -> bytes:
    data = text.encode("utf-8")
    if original is None:
        return data
    if b"\r\n" in original and b"\r\n" not in data:
        data = data.replace(b"\n", b"\r\n")
    if original.startswith(codecs.BOM_UTF8) and not data.startswith(codecs.BOM_UTF8):
        data = codecs.BOM_UTF8 + data
    return data


def _replace(path: Path, data: bytes) -> None:
    # A bank file that is a symlink (to a shared file elsewhere) is written where it points,
    # and stays a link: replacing the link itself would fork the file without a word.
    path = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise WriteFailed(f"cannot write {display_path(path)}: {error.strerror or error}") from error
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp makes the file 0600; keep the mode of the file replaced, or for a new file
        # the one the user's umask gives, as any other program's new file would have.
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException as error:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise WriteFailed(f"cannot write {display_path(path)}: {error.strerror or error}") from error
        raise
    try:  # make the rename itself durable
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it: put it straight back
    os.umask(mask)
    return mask
