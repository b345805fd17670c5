"""A benchmark page's bounds: each figure's bounds with the fraction reached (% of roofline), the
verdict, and each bound's derivation; a bound that cannot be computed says why. Read from the results
the check computed; every value that reaches the page (a figure as written, a hardware name inside a
bound's words) is escaped as text."""

from __future__ import annotations

from registry.bounds import Bound, percent
from registry.checker.bounds import RULE_OF, hint, message, written_limit
from registry.site import _figures
from registry.site._html import Cell, Html, badge, block, element, join, table

BOUND_NAMES = {
    "compute-roof": "compute roof",
    "bandwidth-roof": "memory bandwidth",
    "prefill-floor": "prefill floor",
    "consistency": "consistency",
    "decode-roof": "decode roof",
}
PHYSICS = ("compute-roof", "bandwidth-roof", "decode-roof", "prefill-floor")
"""The bounds from the hardware's datasheet figures: their fraction reached is the % of roofline."""


def roofline(bounds: tuple[Bound, ...], position: int) -> Bound | None:
    """The tightest computable physical bound on the figure at ``position``: the one it reaches most of."""
    found = [b for b in bounds if b.position == position and b.kind in PHYSICS and b.computable]
    return max(found, key=lambda b: b.reached or 0, default=None)


def _stated(text: str) -> Cell:
    """The figure written the site's way, as the record writes it on hover."""
    shown = _figures.stated(text)
    return Cell(shown.text, sort=shown.sort, title=shown.title, class_="stated")


def _verdict(bound: Bound) -> Html:
    if not bound.computable:
        return badge("not computable", "neutral")
    return badge("exceeded", "disagrees") if bound.exceeded else badge("within", "agrees")


def _row(bound: Bound) -> list[object]:
    reached = bound.reached if bound.computable else None
    return [
        Cell(bound.position + 1, sort=bound.position + 1),
        bound.subject,
        _stated(bound.stated),
        BOUND_NAMES[bound.kind],
        Cell(written_limit(bound) if bound.computable else "—", class_="engine-value"),
        Cell(percent(reached) if reached is not None else "—", sort=float(reached) if reached else None),
        Cell(_verdict(bound), title=RULE_OF[bound.kind].code if bound.exceeded else None),
        _words(bound),
    ]


def _words(bound: Bound) -> str:
    if not bound.computable:
        return f"not computable: {bound.reason}"
    if bound.exceeded:
        return f"{RULE_OF[bound.kind].code}: {message(bound)}"
    return bound.what


def _detail(number: int, bound: Bound) -> Html:
    lines = list(bound.trace) if bound.computable else [f"not computable: {bound.reason}"]
    if bound.computable and bound.reached is not None:
        lines.append(f"reached: {percent(bound.reached)} of the bound ({written_limit(bound)})")
    if bound.exceeded:
        lines += [f"{RULE_OF[bound.kind].code}: {message(bound)}", f"hint: {hint(bound)}"]
    summary = element("summary", join([f"{BOUND_NAMES[bound.kind]} on {bound.subject} ", _verdict(bound)]))
    return element(
        "details", join([summary, element("pre", "\n".join(lines), class_="trace")]), id=f"bound-{number}"
    )


def section(bounds: tuple[Bound, ...]) -> str:
    """The page's Bounds section; nothing for a record without figures."""
    if not bounds:
        return ""
    intro = element(
        "p",
        "Each stated figure against what the hardware allows for the model it served (compute roof, "
        "memory bandwidth, prefill floor: the fraction reached is the % of roofline) and against the "
        "run's other figures (consistency). Peaks are the vendor's dense figures.",
    )
    if not any(bound.computable for bound in bounds):
        missing = dict.fromkeys(f"{BOUND_NAMES[b.kind]}: {b.reason}" for b in bounds if b.reason)
        intro = join(
            [
                intro,
                element(
                    "p",
                    "No bound on these figures can be computed. Missing: " + "; ".join(missing) + ".",
                    class_="bounds-missing",
                ),
            ]
        )
    body = table(
        ["#", "Figure", "Stated", "Bound", "Bound value", "Reached", "Verdict", "Explanation"],
        (_row(bound) for bound in bounds),
        sortable=True,
        numeric=(0, 5),
    )
    details = element(
        "div",
        join(_detail(number, bound) for number, bound in enumerate(bounds, start=1)),
        class_="claim-details",
        data_search_exclude=True,
    )
    return (
        "## Bounds\n"
        + block(intro, body, class_="bounds")
        + block(element("p", element("strong", "Each bound worked out")), details)
    )
