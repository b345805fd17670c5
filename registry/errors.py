"""Every "could not run", and turning one into a line a person can act on.

A finding about a record is a :class:`~registry.diagnostics.Diagnostic`, never an exception; an
exception means the command could not do what it was asked, and ends in exit code 2 with its message.
The whole tree::

    RegistryError            could not run (exit 2); the message is for the user as it is
    ├── UsageError           the check was asked for a path that does not exist or lies outside the registry
    ├── RootNotFound         no folder holding records/ at or above the one given
    ├── FmtRefused           fmt cannot rewrite a file without changing a value or losing a comment
    ├── QueryError           the SQL could not run; DuckDB's message, which names the problem
    ├── BuildRefused         the registry has errors; the database is built only from a clean registry
    │                        (in :mod:`registry.db`: it carries the check result that refused)
    └── SiteRefused          the registry has errors; the site is built only from a clean registry

The formula engine's own input errors (:class:`registry.engine.units.QuantityError` and the other
``ValueError`` subclasses of :mod:`registry.engine`) are not in the tree: the engine imports nothing of
the rest of the package, and its callers turn those errors into findings or into a ``RegistryError``.
"""

from __future__ import annotations

import errno

ACTIONABLE = frozenset(
    {
        errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOENT, errno.ENOTDIR,
        errno.EISDIR, errno.EEXIST, errno.EMFILE, errno.ENFILE, errno.ENAMETOOLONG, errno.ELOOP, errno.EIO,
    }
)  # fmt: skip
"""OS errors a person can act on (free space, fix permissions, choose another path): one line, never
"internal error"."""


class RegistryError(Exception):
    """An expected failure to run, whose message is meant for the user as it is."""


class UsageError(RegistryError):
    """The check could not run as asked (a path that does not exist, outside the registry, ...)."""


class RootNotFound(RegistryError):
    """No folder holding ``records/`` was found."""


class FmtRefused(RegistryError):
    """The file cannot be rewritten without changing a value or losing a comment; it stays as it is."""


class QueryError(RegistryError):
    """The SQL could not run: the message is DuckDB's, which names the problem and its position."""


class SiteRefused(RegistryError):
    """The registry has errors; the site is built only from records that check clean."""


def describe(error: BaseException) -> str:
    """A one-line account of an error: the message for expected ones, the type and message otherwise."""
    if isinstance(error, RegistryError):
        return str(error)
    if isinstance(error, OSError) and error.filename:
        return f"{error.filename}: {error.strerror}"
    if isinstance(error, OSError) and error.errno in ACTIONABLE:
        return error.strerror or str(error)
    return (
        f"internal error ({type(error).__name__}: {error}); "
        "set REGISTRY_DEBUG=1 to see the traceback, and please report it"
    )
