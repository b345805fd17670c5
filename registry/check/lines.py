"""Many short texts kept as one buffer rather than as an object each."""

from __future__ import annotations


class Lines:
    """Texts without line breaks, in order, as UTF-8 lines of one buffer: about their length in memory,
    where a ``str`` each costs some 50 bytes more and, made one by one among a process's short-lived
    objects, stays scattered through memory that would otherwise go back to the system.
    :meth:`texts` makes them as objects again, all at once."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def append(self, text: str) -> None:
        """Add ``text``, which holds no line break."""
        self._buffer += text.encode()
        self._buffer += b"\n"

    def texts(self) -> list[str]:
        """Every text added, in order."""
        return self._buffer.decode().split("\n")[:-1]
