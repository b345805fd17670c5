"""Writing generated files: atomically, only when their content changed, and removing stale ones.

An unchanged page keeps its file (and its modification time), so a rebuild after editing one record
rewrites one page; a page whose record was deleted is removed, so the site never serves a ghost.

Only what the tool wrote is ever removed: each build lists the files it wrote in a manifest
(:data:`MANIFEST`, inside the folder), and the next build removes a file only when the last manifest
names it and this build did not write it. A file the tool never wrote is left alone, wherever it is.
Every folder written into or removed from is the tool's own (:func:`registry.files.own_folder`): the
generated folder, or any folder inside it, being a link (``site/generated -> ../records``, committed
because ``.gitignore`` names only a folder) is refused before anything is written. Every
page passes through :func:`registry.site._guard.guard_page` on its way here: no address on it can run
script or load from the network, whatever made it.
"""

from __future__ import annotations

import filecmp
import os
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

from registry.files import own_folder
from registry.reading import UnsafeFile, read_regular
from registry.site._guard import guard_page

MANIFEST = ".registry-manifest"
"""The list of the files the last build wrote, one path relative to the generated folder a line
(MkDocs leaves dot files out of the site)."""
MAX_MANIFEST_BYTES = 256 * 1024 * 1024


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
        own_folder(docs_dir.parent, self.root, create=False)

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
            own_folder(self.docs_dir.parent, folder)
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
        """Remove every file the last build wrote (its manifest names it) that this build did not,
        then the folders that leaves empty; write this build's manifest. A file no manifest names is
        never removed, and nothing is removed through a link."""
        stale = sorted(set(self._manifest()) - self.written, reverse=True)
        removed = sum(self._remove(path) for path in stale)
        if self.root.is_dir():
            listed = sorted(os.path.relpath(path, self.root) for path in self.written)
            self._beside(self.root / MANIFEST, lambda t: t.write_text("".join(f"{p}\n" for p in listed)))
        return removed

    def _manifest(self) -> list[str]:
        """The files the last build wrote (as :attr:`written` spells them), from its manifest; an
        entry that is not a plain relative path inside the folder is ignored."""
        path = self.root / MANIFEST
        if not os.path.lexists(path):
            return []
        try:
            text = read_regular(path, MAX_MANIFEST_BYTES, follow_links=False).decode("utf-8", "replace")
        except UnsafeFile:
            return []
        entries = []
        for line in text.splitlines():
            parts = line.split("/")
            if line and not line.startswith("/") and not {"", ".", ".."} & set(parts) and "\0" not in line:
                entries.append(str(self.root.joinpath(*parts)))
        return entries

    def _remove(self, path: str) -> bool:
        """Remove one stale file and the folders it leaves empty, each checked to be the folder's own."""
        target = Path(path)
        own_folder(self.root, target.parent, create=False)
        try:
            os.unlink(target)  # a link is removed itself, never followed
        except FileNotFoundError:
            return False
        except IsADirectoryError:
            return False
        folder = target.parent
        while folder != self.root and folder.is_relative_to(self.root):
            try:
                folder.rmdir()
            except OSError:
                break
            folder = folder.parent
        return True
