"""Atomic writes: a temporary file beside the target, flushed, then renamed into place.

The temporary file is named ``.<target>.<random>.registry.tmp``, a name the check knows as the tool's
own (:func:`is_temporary`): a process killed between writing and renaming leaves one behind, which the
check reports as a warning (R009) and ``registry fmt`` removes once it is a minute old
(:func:`remove_stale_temporaries`). An OS error while writing names the target: a full disk or a
read-only folder is one line a person can act on.

Every folder the tool writes into or removes from (the site's generated pages, ``build/``, the
database's folder, a collection of records) goes through :func:`own_folder` first: a link, or a file
where a folder should be, anywhere between the registry's root and the folder is refused before a byte
is written, because a committed link (``site/generated -> ../records``) would turn a write or a prune
into a change of whatever it points at.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from registry.errors import RegistryError

TEMPORARY_SUFFIX = ".registry.tmp"
_TEMPORARY = re.compile(r"\.[^/]+\.[A-Za-z0-9_]+" + re.escape(TEMPORARY_SUFFIX))
STALE_SECONDS = 60.0
"""A temporary file older than this belongs to no running write (a record is written in milliseconds)."""


def write_atomic(path: Path, data: str | bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one, never a torn one.

    ``durable`` also forces the bytes to disk before the rename, so that a crash of the machine cannot
    leave an empty file in place of a record. Output that is regenerated from the records anyway (the
    site's pages) passes ``durable=False``: still never torn, but without paying an fsync per page.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    write_atomic_with(path, lambda handle: handle.write(raw), durable=durable)


def write_atomic_with(path: Path, fill: Callable[[BinaryIO], object], *, durable: bool = True) -> None:
    """As :func:`write_atomic`, for a file written in parts: ``fill`` writes them to the open handle,
    so a large file is never whole in memory."""
    try:
        _write_beside(path, fill, durable=durable)
    except OSError as error:
        if error.filename is None:  # raised by a write or a sync: say which file could not be written
            raise OSError(error.errno, error.strerror, str(path)) from error
        raise


def _write_beside(path: Path, fill: Callable[[BinaryIO], object], *, durable: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMPORARY_SUFFIX, dir=path.parent)
    try:
        os.chmod(temporary, _mode_for(path))
        with os.fdopen(fd, "wb") as handle:
            fill(handle)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_all_atomic(writes: list[tuple[Path, bytes]]) -> None:
    """Write every ``(path, data)`` or none of them: all are staged first as temporary files beside
    their targets (flushed and synced), then renamed into place one after another.

    A failure while staging (a full disk, a read-only folder) or a signal (Ctrl-C) then removes every
    temporary file and leaves every target as it was. The renames run with SIGINT and SIGTERM held
    back (delivered once they are done), so a signal cannot stop them halfway; should a rename itself
    fail, the targets already replaced get their old bytes back and the new ones are removed. A
    collection folder made for a new file is removed again when nothing is written."""
    staged: list[tuple[Path, str, bytes | None]] = []
    made: list[Path] = []
    try:
        for path, data in writes:
            if not path.parent.exists():
                path.parent.mkdir()
                made.append(path.parent)
            old = path.read_bytes() if path.exists() else None
            staged.append((path, _stage(path, data), old))
        with _signals_held():
            _rename_all(staged)
    except BaseException:
        for _, temporary, _ in staged:
            Path(temporary).unlink(missing_ok=True)
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def _stage(path: Path, data: bytes) -> str:
    """``data`` in a synced temporary file beside ``path``; its name. An OS error names ``path``."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMPORARY_SUFFIX, dir=path.parent)
    try:
        os.chmod(temporary, _mode_for(path))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise OSError(error.errno, error.strerror, str(path)) from error
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


def _rename_all(staged: list[tuple[Path, str, bytes | None]]) -> None:
    done: list[tuple[Path, bytes | None]] = []
    try:
        for path, temporary, old in staged:
            os.replace(temporary, path)
            done.append((path, old))
    except OSError:
        for path, old in reversed(done):
            if old is None:
                path.unlink(missing_ok=True)
            else:
                write_atomic(path, old)
        raise


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back for the block, where the platform can (the main thread of a POSIX
    process); delivered when it ends."""
    held = {signal.SIGINT, signal.SIGTERM}
    can = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held) if can else None
    try:
        yield
    finally:
        if previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _mode_for(path: Path) -> int:
    """Keep an existing file's permissions; give a new one the usual 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def is_temporary(name: str) -> bool:
    """Whether a file name is one of :func:`write_atomic`'s temporary files."""
    return _TEMPORARY.fullmatch(name) is not None


def remove_stale_temporaries(folder: Path, older_than: float = STALE_SECONDS) -> list[Path]:
    """Remove the temporary files under ``folder`` (links not followed) last written more than
    ``older_than`` seconds ago; the paths removed."""
    removed: list[Path] = []
    now = time.time()
    for parent, subfolders, names in os.walk(folder):
        for name in names:
            path = Path(parent, name)
            if not is_temporary(name) or path.is_symlink() or not path.is_file():
                continue
            if now - path.stat().st_mtime > older_than:
                path.unlink()
                removed.append(path)
        subfolders[:] = [s for s in subfolders if not os.path.islink(os.path.join(parent, s))]
    return removed


class UnsafeFolder(RegistryError):
    """A folder the tool would write into or remove from that is a link, or not a folder."""


def own_folder(base: Path, folder: Path, *, create: bool = True) -> Path:
    """``folder``, checked to be the registry's own: every folder from ``base`` (excluded: the user
    chose it) down to ``folder`` a real folder, never a link, and (with ``create``) made where missing,
    one level at a time so that no link can be followed meanwhile. A ``folder`` outside ``base`` (an
    ``--out`` the user chose) has only its own last component checked. Raises :class:`UnsafeFolder`
    naming the first link or non-folder, before anything is written."""
    try:
        parts = folder.relative_to(base).parts
        current = base
    except ValueError:
        parts, current = (folder.name,), folder.parent
    for part in parts:
        if part in ("", ".", ".."):
            raise UnsafeFolder(f"{folder}: not a folder path the tool writes into")
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            if not create:
                return folder
            try:
                current.mkdir()
                continue
            except FileExistsError:  # made meanwhile by another writer: checked as found
                mode = os.lstat(current).st_mode
        if stat.S_ISLNK(mode):
            raise UnsafeFolder(
                f"{current} is a symbolic link; the tool writes and removes files only in folders of its "
                "own (remove the link, and keep it out of git)"
            )
        if not stat.S_ISDIR(mode):
            raise UnsafeFolder(f"{current} is not a folder; the tool needs a folder of its own there")
    return folder


def refuse_link(path: Path) -> None:
    """Refuse a file the tool would replace when it is a link or not a regular file (a device, a pipe,
    a folder): :class:`UnsafeFolder`, naming it."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise UnsafeFolder(f"{path} is a symbolic link; the tool replaces only files of its own")
    if not stat.S_ISREG(mode):
        raise UnsafeFolder(f"{path} is not a regular file; the tool replaces only files of its own")
