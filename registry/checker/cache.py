"""A cache of ``registry check``'s answer, so that re-checking an unchanged registry costs a walk.

The answer is reused only when nothing it depends on changed: every file under ``records/`` (its bytes,
found by a content digest), the committed schemas, the tool's own code, the versions of the libraries
that parse and validate, and the options. Files are first compared by ``stat`` (size, mtime, ctime,
inode), as git compares its index, and by their digest when any of them differs: an edit in place with
its mtime put back (``touch -r``) still changes the ctime. A file whose mtime is too close to when the
cache was written to trust is digested anyway, so an edit within the same clock tick is never missed.

A cache file can be committed by anyone in a pull request, so it is data, never trusted to be well
formed: JSON (never pickle), read only when it is a regular file, not a link, in a ``.registry-cache/``
that is a folder of the registry (not a link), under :data:`MAX_CACHE_BYTES`; anything else (a link
to ``/dev/zero``, a pipe, JSON nested past the parser's depth, entries of the wrong shape) is a miss,
and the next write replaces it. The cache is safe to delete. Only light modules are imported here: a
hit must not pay for the validators.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from registry.checker.limits import MAX_FILE_BYTES
from registry.diagnostics import Diagnostic, Severity
from registry.reading import MAX_SCHEMA_BYTES, UnsafeFile, load_json, read_regular

CACHE_DIR = ".registry-cache"
CACHE_FILE = "check.json"
FORMAT = 2
_RACY_NS = 2_000_000_000
_LIBRARIES = (
    "pydantic",
    "pydantic-core",
    "jsonschema",
    "jsonschema-rs",
    "pyyaml",
    "ruamel-yaml",
    "referencing",
)
"""Libraries whose version can change an answer; matched against dist-info folder names."""

MAX_CACHE_BYTES = 64 * 1024 * 1024
"""A cache file larger than this is not read (a larger registry's answer is only checked afresh)."""

Signature = list[int]  # size, mtime_ns, ctime_ns, inode (times 2, plus 1 for a link)


@dataclass(frozen=True)
class FileFacts:
    """What a record file's findings depend on beyond its own bytes, kept so that a later check re-checks
    only what a change can affect (:mod:`registry.checker.incremental`)."""

    id: str | None
    """The id of the record the file holds (valid or salvaged); None when it does not become one."""
    depends: tuple[str, ...]
    """The ids it references or links (its model, engine, hardware, related records)."""
    valid: bool
    """Whether the record validated; a file that did not is "broken" to the records that name it."""


@dataclass(frozen=True)
class Previous:
    """The last check's answer and what it knew of each file, for a check of what changed since."""

    files: int
    diagnostics: list[Diagnostic]
    facts: dict[str, FileFacts]
    changed: frozenset[str]
    """Record files added, removed or edited since (their paths, relative to the root)."""


@dataclass
class CachedResult:
    """A check result read back from the cache: what the reporters need."""

    root: Path
    files: int
    diagnostics: list[Diagnostic]

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def ok(self) -> bool:
        return self.count(Severity.ERROR) == 0


def file_digest(path: Path) -> str:
    """The content digest of a regular file. A pipe or a device is never opened (a pipe would block and a
    device may never end), and a file past the record size limit is known by its size alone: the check
    refuses it by size, and reading 50 MB to learn that would defeat the limit."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        return f"special {stat.S_IFMT(info.st_mode)}"
    if info.st_size > MAX_FILE_BYTES:
        return f"size {info.st_size}"
    with open(path, "rb") as handle:
        return content_digest(handle.read(MAX_FILE_BYTES + 1))


DIGEST_BYTES = 16


def content_digest(raw: bytes) -> str:
    """A record file's content digest, as the cache and the database's fingerprint know it; the check
    takes it of the bytes it reads (:attr:`registry.checker.pipeline.CheckResult.digests`)."""
    return hashlib.blake2b(raw, digest_size=DIGEST_BYTES).hexdigest()


def _tool_fingerprint(root: Path) -> str:
    """The code, the schemas and the libraries the answer depends on.

    The package's own files are compared by stat (an edit changes size or mtime); the libraries by the
    versions in their installed metadata folders' names, read with one directory listing each.
    """
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{FORMAT} {sys.version}".encode())
    for folder in {Path(p) for p in sys.path if p.endswith("site-packages")}:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info") and name.split("-")[0].lower().replace("_", "-") in _LIBRARIES:
                digest.update(name.encode())
    package = Path(__file__).resolve().parents[1]  # the whole registry package
    for path in sorted(package.rglob("*.py")):
        info = path.stat()
        digest.update(f"{path.relative_to(package).as_posix()} {info.st_size} {info.st_mtime_ns}".encode())
    for path in sorted((root / "schemas").glob("*.json")):
        digest.update(path.name.encode())
        try:
            digest.update(read_regular(path, MAX_SCHEMA_BYTES, follow_links=False))
        except UnsafeFile as refused:  # the check itself refuses it, with its place; never a hit
            digest.update(f"{refused} {time.time_ns()}".encode())
    return digest.hexdigest()


def _walk(root: Path) -> dict[str, Signature]:
    """Every entry under records/ (links not followed) with its stat signature."""
    found: dict[str, Signature] = {}
    records = root / "records"
    if records.is_symlink() or not records.is_dir():
        return {"records": [-1, -1, -1, -1]}
    skip = len(str(root)) + 1
    stack = [str(records)]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                info = entry.stat(follow_symlinks=False)
                relative = entry.path[skip:].replace(os.sep, "/")
                if entry.is_dir(follow_symlinks=False):
                    found[relative + "/"] = [0, 0, 0, info.st_ino]
                    stack.append(entry.path)
                else:
                    kind = 1 if entry.is_symlink() else 0
                    found[relative] = [
                        info.st_size,
                        info.st_mtime_ns,
                        info.st_ctime_ns,
                        info.st_ino * 2 + kind,
                    ]
    return found


class CheckCache:
    """The cache for one invocation: ``lookup`` before checking, ``store`` after."""

    def __init__(self, root: Path, options: dict[str, Any]) -> None:
        self.root = root
        self.path = root / CACHE_DIR / CACHE_FILE
        self.options = options
        self.tree = _walk(root)
        self.key = {"format": FORMAT, "tool": _tool_fingerprint(root), "options": options}
        self.digests: dict[str, str] = {}
        self.previous: Previous | None = None
        """After a :meth:`lookup` that missed: the last answer and what changed since, when the cache
        holds what a check of only the changes needs."""
        self._record_files: list[str] | None = None

    def lookup(self) -> CachedResult | None:
        """The stored answer if it still holds; ``None`` for a miss, and for a cache file that cannot be
        trusted to be one (see the module's docstring): never an error."""
        try:
            return self._lookup()
        except (UnsafeFile, OSError, ValueError, RecursionError, TypeError, KeyError, IndexError):
            return None

    def _lookup(self) -> CachedResult | None:
        if not _own_folder(self.path.parent):
            return None
        stored = load_json(read_regular(self.path, MAX_CACHE_BYTES, follow_links=False), self.path, "a cache")
        if not isinstance(stored, dict) or stored.get("key") != self.key:
            return None
        files = stored.get("files")
        if not isinstance(files, dict):
            return None
        written = int(stored.get("written_ns", 0))
        changed = set(files).symmetric_difference(self.tree)
        for path, signature in self.tree.items():
            cached = files.get(path)
            if path.endswith("/") or cached is None:
                continue
            trusted = cached[0] == signature and signature[1] < written - _RACY_NS
            if not trusted and cached[1] != self._digest_of(path):
                changed.add(path)
            else:
                self.digests.setdefault(path, str(cached[1]))  # unchanged: not read again on store
        result = stored["result"]
        diagnostics = [_diagnostic(item) for item in result["diagnostics"]]
        facts = stored.get("facts")
        if not changed:
            if isinstance(facts, dict):
                self._record_files = [str(path) for path in facts]
            return CachedResult(self.root, int(result["files"]), diagnostics)
        if isinstance(facts, dict):
            known = {str(path): _facts(item) for path, item in facts.items()}
            self.previous = Previous(int(result["files"]), diagnostics, known, frozenset(changed))
        return None

    def record_files(self) -> list[str] | None:
        """After a :meth:`lookup` that hit: the record files the answer is about (None when the cache
        does not say), from which ``registry check PATHS`` reports on the files named."""
        return self._record_files

    def _digest_of(self, path: str) -> str:
        if path not in self.digests:
            target = self.root / path
            self.digests[path] = "link" if target.is_symlink() else file_digest(target)
        return self.digests[path]

    def store(
        self,
        files: int,
        diagnostics: list[Diagnostic],
        digests: Mapping[str, str] | None = None,
        facts: Mapping[str, FileFacts] | None = None,
    ) -> None:
        """Write the answer; a cache that cannot be written is only a slower next run. ``digests`` are
        those the check took of the files it read, so they are not read again; ``facts``, what each
        file's findings depend on, let the next check re-check only what changed."""
        from registry.files import write_atomic  # lazy

        for path, digest in (digests or {}).items():
            self.digests.setdefault(path, digest)
        written = time.time_ns()
        entries = {
            path: [signature, "" if path.endswith("/") else self._digest_of(path)]
            for path, signature in self.tree.items()
        }
        payload = {
            "key": self.key,
            "written_ns": written,
            "files": entries,
            "result": {"files": files, "diagnostics": [_plain(d) for d in diagnostics]},
        }
        if facts is not None:
            payload["facts"] = {path: [f.id, list(f.depends), f.valid] for path, f in facts.items()}
        try:
            _make_own_folder(self.path.parent)
            if os.path.islink(self.path) or (self.path.exists() and not self.path.is_file()):
                self.path.unlink()  # a link, a pipe: replaced (a folder stays, and the write fails)
            # not forced to disk: a cache lost in a crash is only a slower next run, never a wrong one
            write_atomic(self.path, json.dumps(payload, separators=(",", ":")), durable=False)
            gitignore = self.path.parent / ".gitignore"
            if not gitignore.exists():
                write_atomic(gitignore, "*\n")
        except OSError:
            pass


def _own_folder(folder: Path) -> bool:
    """Whether ``folder`` is a real folder, not a link to one (which could point into records/)."""
    try:
        return stat.S_ISDIR(os.lstat(folder).st_mode)
    except OSError:
        return False


def _make_own_folder(folder: Path) -> None:
    """Make ``folder`` a real folder, removing a link or a file in its place."""
    if _own_folder(folder):
        return
    if os.path.lexists(folder):
        folder.unlink()
    folder.mkdir()


def _plain(d: Diagnostic) -> list[Any]:
    return [d.code, d.severity.value, d.path, d.line, d.column, d.message, d.hint, d.pointer, d.name]


def _diagnostic(item: list[Any]) -> Diagnostic:
    code, severity, path, line, column, message, hint, pointer, name = item
    return Diagnostic(
        str(code),
        Severity(severity),
        str(path),
        int(line),
        int(column),
        str(message),
        str(hint),
        str(pointer),
        str(name),
    )


def _facts(item: Any) -> FileFacts:
    """One file's facts as stored; anything of another shape is a miss (a ``TypeError``)."""
    record_id, depends, valid = item
    if not (record_id is None or isinstance(record_id, str)) or not isinstance(depends, list):
        raise TypeError("facts of the wrong shape")
    if not all(isinstance(target, str) for target in depends) or not isinstance(valid, bool):
        raise TypeError("facts of the wrong shape")
    return FileFacts(record_id, tuple(depends), valid)
