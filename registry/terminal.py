"""Text for a terminal or a log: the one escaping every command uses to print record or source text.

A record, a file name or an imported cell can hold characters that act on a terminal instead of showing
(``ESC ] 0 ;`` retitles it, ``ESC [ 2J`` clears it, a line break forges a line that looks like another
finding) or that a reader cannot see (bidirectional controls, invisible formatting characters). Every
place that prints such text (the check's reporters, ``import``, ``calc``, ``explain``, ``query``, an
error message) writes it through :func:`terminal_safe`, which spells each of them as an escape.
"""

from __future__ import annotations

import re

INVISIBLE_FORMAT = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
"""Every character of Unicode's category Cf (format), as of Unicode 15.1, as ranges of a character class."""
_UNPRINTABLE = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{INVISIBLE_FORMAT}]")


def terminal_safe(value: str) -> str:
    """``value`` with every control, separator and invisible formatting character written as an
    escape (``\\x1b``, ``\\n``, ``\\u200e``)."""
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), value)


def terminal_lines(text: str) -> str:
    """A text of several lines for a terminal: each line through :func:`terminal_safe`, its line
    breaks kept."""
    return "\n".join(terminal_safe(line) for line in text.split("\n"))
