"""Writing generated files: atomically, only when their content changed, and removing stale ones.

An unchanged page keeps its file (and its modification time), so a rebuild after editing one record
rewrites one page; a page whose record was deleted is removed, so the site never serves a ghost. Every
page passes through :func:`registry.site._guard.guard_page` on its way here: no address on it can run
script or load from the network, whatever made it.
"""

from __future__ import annotations

import filecmp
import os
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

from registry.site._guard import guard_page


class GeneratedFolder:
    """The git-ignored folder of generated files; paths given to :meth:`write` are relative to the
    docs folder (``generated/models/x.md``) and must lie inside this folder."""

    def __init__(self, docs_dir: Path, name: str) -> None:
        self.docs_dir = docs_dir
        self.root = docs_dir / name
        self.written: set[str] = set()
        """Every file this build wrote or kept, as its path's text (a ``Path`` costs several times the
        memory, and a large site writes tens of thousands)."""
        self.changed = 0
        self._folders: set[Path] = set()

    def path(self, page: str) -> Path:
        """The file of ``page``; a page outside this folder (``..``, an absolute path) is refused.

        Checked on the path's parts rather than by resolving it: pages are named by the generator, and
        resolving costs system calls for each of tens of thousands of files."""
        parts = page.split("/")
        if page.startswith("/") or "" in parts or "." in parts or ".." in parts or parts[0] != self.root.name:
            raise ValueError(f"{page} is outside {self.root}")
        return self.docs_dir.joinpath(*parts)

    def write(self, page: str, content: str | bytes) -> Path:
        """Write one file unless it already holds exactly ``content``."""
        target = self.path(page)
        data = guard_page(content).encode("utf-8") if isinstance(content, str) else content
        self.written.add(str(target))
        try:
            if target.stat().st_size == len(data) and target.read_bytes() == data:
                return target
        except FileNotFoundError:
            self._create(target, data)
        else:
            self._replace(target, data)
        self.changed += 1
        return target

    def write_parts(self, page: str, parts: Iterable[str]) -> Path:
        """Write a large file from its parts as they are made, so it is never whole in memory; as
        :meth:`write`, an unchanged file is left as it was."""

        def fill(temporary: Path) -> None:
            with open(temporary, "w", encoding="utf-8", newline="") as handle:
                handle.writelines(map(guard_page, parts))

        return self._write_through(page, fill)

    def copy(self, page: str, source: Path) -> Path:
        """Copy the file ``source`` here (a download made elsewhere) without reading it into memory;
        as :meth:`write`, an unchanged file is left as it was."""
        target = self.path(page)
        try:
            if target.stat().st_size == source.stat().st_size and filecmp.cmp(source, target, shallow=False):
                self.written.add(str(target))
                return target
        except FileNotFoundError:
            pass
        return self._write_through(page, lambda temporary: shutil.copyfile(source, temporary))

    def _write_through(self, page: str, fill: Callable[[Path], object]) -> Path:
        """Make the file beside its place with ``fill``, then rename it over the old one unless the
        two are the same."""
        target = self.path(page)
        self.written.add(str(target))
        if self._beside(target, fill, keep_if_same=True):
            self.changed += 1
        return target

    def _beside(self, target: Path, fill: Callable[[Path], object], *, keep_if_same: bool = False) -> bool:
        """Write ``target`` beside itself with ``fill``, then rename it over: a reader (``mkdocs
        serve``) sees the old file or the new one, never a torn one. With ``keep_if_same``, a new file
        equal to the old one is dropped instead; returns whether ``target`` was replaced."""
        temporary = self._folder(target) / f".{target.name}.{os.getpid()}.tmp"
        try:
            fill(temporary)
            if keep_if_same and target.is_file() and filecmp.cmp(temporary, target, shallow=False):
                temporary.unlink()
                return False
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return True

    def _folder(self, target: Path) -> Path:
        folder = target.parent
        if folder not in self._folders:
            folder.mkdir(parents=True, exist_ok=True)
            self._folders.add(folder)
        return folder

    def _create(self, target: Path, data: bytes) -> None:
        """A page that did not exist is written in place: no reader has an older version to keep,
        and a cold build creates tens of thousands of pages, where a temporary file and a rename each
        would double the file-system work."""
        self._folder(target)
        try:
            handle = open(target, "xb")  # noqa: SIM115 (closed below; a file made meanwhile is not ours)
        except FileExistsError:
            self._replace(target, data)
            return
        try:
            with handle:
                handle.write(data)
        except OSError as error:
            target.unlink(missing_ok=True)
            raise OSError(error.errno, error.strerror, str(target)) from error
        except BaseException:
            target.unlink(missing_ok=True)
            raise

    def _replace(self, target: Path, data: bytes) -> None:
        """An existing page is replaced through :meth:`_beside`. Lighter than
        :func:`registry.files.write_atomic` (no fsync, no random name): pages are regenerated from the
        records on every build, so neither durability nor the permissions of a hand-made file matter."""
        self._beside(target, lambda temporary: temporary.write_bytes(data))

    def prune(self) -> int:
        """Remove every file under the folder that this build did not write, then empty folders."""
        removed = 0
        if not self.root.is_dir():
            return 0
        for folder, subfolders, files in os.walk(self.root, topdown=False):
            for name in files:
                path = os.path.join(folder, name)
                if path not in self.written:
                    os.unlink(path)
                    removed += 1
            for name in subfolders:
                sub = Path(folder, name)
                if not any(sub.iterdir()):
                    sub.rmdir()
        return removed
