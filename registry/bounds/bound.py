"""A bound on one stated figure: its value, the figure it bounds, its inputs, its derivation, and, when
the figure breaks it, the likeliest slip that makes the figure fit.

A *ceiling* is a most (a throughput no hardware can beat), a *floor* a least (a latency no hardware can
undercut), an *equal* a relation between two figures of the same run. ``reached`` is the fraction of
the bound the figure attains, written the same way for all three: the figure over a ceiling, a floor
over the figure, the figure over what the relation expects. A plausible figure reaches at most 1 (100%
of the roofline); an equal reaches 1 within its tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from registry.bounds.facts import Figure

BoundKind = Literal["compute-roof", "bandwidth-roof", "decode-roof", "prefill-floor", "consistency", "unit"]
"""The bounds on stated figures (the memory fit bounds the run, not a figure); ``unit`` is a figure
whose unit contradicts its run log or its benchmark's own."""

BOUND_KINDS: tuple[BoundKind, ...] = (
    "compute-roof",
    "bandwidth-roof",
    "decode-roof",
    "prefill-floor",
    "consistency",
)

Side = Literal["ceiling", "floor", "equal"]

PHYSICS_TOLERANCE = Fraction(5, 100)
"""How far past a roof or floor a figure may go before it is flagged: the work per token is counted from
``params_active_b``, which records round (37 for DeepSeek-V3's 37.x B), and vendors round their peaks."""

CONSISTENCY_TOLERANCE = Fraction(10, 100)
"""How far two figures of one run may disagree: a tool measures them over slightly different windows
(warm-up, the last requests' tail) and a source rounds each on its own."""


@dataclass(frozen=True, slots=True)
class Slip:
    """A mistake that, undone, brings the figure within its bound: the figure is divided by ``factor``
    (a throughput, or a latency's floor over it) when the slip is undone."""

    description: str
    factor: Fraction
    exact: bool = True
    """False for a slip that explains any factor up to ``factor`` (tokens per step of an unstated
    speculative decoding), so what the figure reaches once it is undone is not known."""


@dataclass(frozen=True, slots=True)
class Bound:
    """One bound on one figure, or why it cannot be computed (``reason``)."""

    kind: BoundKind
    position: int
    """The figure's index in the record's ``metrics``."""
    subject: str
    """The figure in words: ``output throughput per accelerator``."""
    side: Side
    unit: str
    """The SI unit of ``limit`` and ``measured``: ``tok/s``, ``req/s`` or ``s``."""
    stated: str
    """The figure as the record writes it."""
    measured: Fraction
    limit: Fraction | None
    tolerance: Fraction
    what: str
    """The bound in words, for a message: ``the compute roof of 8 x NVIDIA B200 at fp4 for 37 B active
    parameters``."""
    inputs: tuple[tuple[str, str], ...] = ()
    """Each input the bound was computed from, by name, as written in the trace."""
    trace: tuple[str, ...] = ()
    reason: str | None = None
    slips: tuple[Slip, ...] = ()
    """Candidate mistakes, tried in this order when the figure breaks the bound."""

    @property
    def computable(self) -> bool:
        return self.limit is not None and self.reason is None

    @property
    def reached(self) -> Fraction | None:
        """The fraction of the bound the figure attains (see the module's docstring); None without one."""
        if self.limit is None or self.limit == 0 or self.measured == 0:
            return None
        if self.side == "floor":
            return self.limit / self.measured
        return self.measured / self.limit

    @property
    def exceeded(self) -> bool:
        """True when the figure breaks the bound by more than its tolerance."""
        reached = self.reached
        if reached is None:
            return False
        if self.side == "equal":
            return abs(reached - 1) > self.tolerance
        return reached > 1 + self.tolerance

    @property
    def slip(self) -> Slip | None:
        """The first slip, in the order the bound lists them (the specific before the generic: a
        per-system figure written per accelerator before a tenfold typo), that brings the figure within
        the bound, if any does."""
        reached = self.reached
        if reached is None or not self.exceeded:
            return None
        for slip in self.slips:
            fixed = reached / slip.factor
            if self.side == "equal" and abs(fixed - 1) <= self.tolerance:
                return slip
            if self.side != "equal" and fixed <= 1 + self.tolerance:
                return slip
        return None


def not_computable(
    kind: BoundKind, figure: Figure, subject: str, side: Side, unit: str, reason: str
) -> Bound:
    """A bound on ``figure`` that cannot be computed, with the reason named."""
    return Bound(
        kind,
        figure.position,
        subject,
        side,
        unit,
        figure.text,
        figure.value,
        None,
        Fraction(0),
        "",
        reason=reason,
    )
