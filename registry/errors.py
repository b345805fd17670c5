"""Turning "could not run" into one line a person can act on."""

from __future__ import annotations


class RegistryError(Exception):
    """An expected failure to run, whose message is meant for the user as it is."""


def describe(error: BaseException) -> str:
    """A one-line account of an error: the message for expected ones, the type and message otherwise."""
    from registry.check.pipeline import UsageError
    from registry.root import RootNotFound

    if isinstance(error, RegistryError | UsageError | RootNotFound):
        return str(error)
    if isinstance(error, OSError) and error.filename:
        return f"{error.filename}: {error.strerror}"
    return (
        f"internal error ({type(error).__name__}: {error}); "
        "set REGISTRY_DEBUG=1 to see the traceback, and please report it"
    )
