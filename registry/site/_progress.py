"""A one-line progress bar for the page generation step, drawn only on a terminal."""

from __future__ import annotations

import time
from typing import TextIO


class Progress:
    """``[#######·········]  412/1,000 pages`` redrawn in place at most ten times a second.

    On a stream that is not a terminal (CI logs, a pipe) nothing is drawn until :meth:`close`, which
    writes one summary line either way.
    """

    def __init__(self, stream: TextIO | None, total: int, label: str = "pages", width: int = 30) -> None:
        self.stream = stream
        self.total = max(total, 0)
        self.label = label
        self.width = width
        self.done = 0
        self.started = time.perf_counter()
        self._drawn_at = 0.0
        self._live = bool(stream is not None and getattr(stream, "isatty", lambda: False)())

    def advance(self, step: int = 1) -> None:
        self.done += step
        now = time.perf_counter()
        if self._live and (now - self._drawn_at >= 0.1 or self.done >= self.total):
            self._drawn_at = now
            self._draw()

    def _draw(self) -> None:
        assert self.stream is not None
        share = 1.0 if self.total == 0 else min(self.done / self.total, 1.0)
        filled = int(share * self.width)
        bar = "#" * filled + "·" * (self.width - filled)
        self.stream.write(
            f"\rgenerating [{bar}] {self.done:>{len(f'{self.total:,}')},}/{self.total:,} {self.label}"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.stream is None:
            return
        seconds = time.perf_counter() - self.started
        prefix = "\r" if self._live else ""
        clear = " " * (self.width + 40) + "\r" if self._live else ""
        self.stream.write(f"{prefix}{clear}generated {self.done:,} {self.label} in {seconds:.1f} s\n")
        self.stream.flush()
