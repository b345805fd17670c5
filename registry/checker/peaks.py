"""A hardware record's dense peak that looks like a figure with sparsity (F017).

Datasheets print tensor-core peaks with 2:4 structured sparsity, often with only a footnote to say so;
a sparse figure filed as dense doubles every compute bound that reads it. Three signs give one away:

- twice the dense figure of a sibling format the vendor runs at the same rate (:data:`SIBLINGS`);
- equal to, or above, the sparse figure the record itself states for the format;
- equal to a sparse figure another hardware record states for the format (a system record copying its
  GPU's datasheet, a board copying its chip's), when the record states no sparse figure of its own for
  it: one that does has set the two apart, and a half-size part's sparse figure often equals a full
  part's dense one (the MI350P is half an MI350X).

Figures are compared at the precision each is written with, and never more loosely than 1%
(:func:`same`): ``2.25 PFLOP/s`` is half of ``4.5 PFLOP/s``, ``989 TFLOP/s`` half of ``1,979 TFLOP/s``,
and ``5 PFLOP/s`` is not ``4.6 PFLOP/s``. A part
that truly runs a format at twice its sibling's rate says why in ``peak_dense_confirmed``, which
silences the warning for that format; a reason where nothing is questioned is reported, so that it
cannot outlive the figure it explained.

The third sign makes a hardware record's findings depend on every other hardware record, which the
check of what changed knows (:mod:`registry.checker.incremental`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from registry.checker.index import Entry
from registry.codes.formula import SPARSE_PEAK_AS_DENSE
from registry.diagnostics import Diagnostic
from registry.engine.units import Quantity, QuantityError, parse_quantity
from registry.kinds.equipment import by_format
from registry.kinds.records import Hardware

SIBLINGS: tuple[frozenset[str], ...] = (
    frozenset({"bf16", "fp16"}),
    frozenset({"fp8", "int8"}),
    frozenset({"fp4", "nvfp4", "mxfp4"}),
)
"""Formats vendors run at one rate on the same tensor cores: bf16 and fp16 (Hopper, Blackwell, CDNA),
fp8 and int8 (Hopper, Ada, CDNA 3 and 4, B200), and the 4-bit floats (Blackwell's nvfp4 and mxfp4).
Where a part runs one at another rate (B300 cut int8 to a fraction of fp8), the figures are not twice
one another and nothing is said; where it runs one at exactly twice (GeForce's fp16 with fp16
accumulate), the record confirms it."""

DENSE = "/peak_dense_flops_per_device"
SPARSE = "/peak_sparse_flops_per_device"
CONFIRMED = "/peak_dense_confirmed"


@dataclass(frozen=True)
class Known:
    """A sparse figure a hardware record of the registry states: whose, for which format, and the value."""

    hardware: str
    dtype: str
    figure: Quantity


RELATIVE = Fraction(1, 100)
"""The most two figures may differ and still be one figure rounded two ways: a coarsely written one
('5 PFLOP/s', within half a petaFLOP/s as written) is not taken for 4.6 PFLOP/s."""


def same(a: Quantity, b: Quantity, factor: int = 1) -> bool:
    """Whether ``a`` is ``factor`` times ``b`` as the two are written: the values differ by no more than
    their written half-digits together (``b``'s scaled by ``factor``), nor by more than 1%."""
    difference = abs(a.value - factor * b.value)
    written = a.tolerance + factor * b.tolerance
    return difference <= min(written, RELATIVE * max(a.value, factor * b.value))


def peak_findings(entries: Iterable[Entry]) -> Iterator[Diagnostic]:
    """An F017 for each dense peak of each hardware record that looks like a sparse figure, and for each
    ``peak_dense_confirmed`` reason given where no figure is questioned."""
    hardware = [entry for entry in entries if isinstance(entry.record, Hardware)]
    known = [known for entry in hardware for known in _sparse(entry)]
    for entry in hardware:
        yield from _record_findings(entry, known)


def _figures(mapping: dict[str, str]) -> dict[str, Quantity]:
    """The figures of a peaks mapping that read as quantities (the schema stage reports the others)."""
    figures: dict[str, Quantity] = {}
    for dtype, text in mapping.items():
        try:
            figures[dtype] = parse_quantity(text)
        except QuantityError:
            continue
    return figures


def _sparse(entry: Entry) -> Iterator[Known]:
    record = entry.record
    assert isinstance(record, Hardware)
    for dtype, figure in _figures(by_format(record.peak_sparse_flops_per_device)).items():
        yield Known(entry.id, dtype, figure)


def _record_findings(entry: Entry, known: list[Known]) -> Iterator[Diagnostic]:
    record = entry.record
    assert isinstance(record, Hardware)
    dense = _figures(by_format(record.peak_dense_flops_per_device))
    sparse = _figures(by_format(record.peak_sparse_flops_per_device))
    confirmed = by_format(record.peak_dense_confirmed)
    for dtype, figure in dense.items():
        reason = _questioned(entry.id, dtype, figure, dense, sparse, known)
        if reason is not None and dtype not in confirmed:
            yield _at(entry, f"{DENSE}/{dtype}", f"dense {dtype} {figure.text} {reason}", _hint(dtype))
        if reason is None and dtype in confirmed:
            message = (
                f"peak_dense_confirmed gives a reason for {dtype}, but nothing questions its dense figure"
            )
            hint = f"remove peak_dense_confirmed.{dtype}: it explains a figure this record no longer states"
            yield _at(entry, f"{CONFIRMED}/{dtype}", message, hint)
    for dtype in confirmed:
        if dtype not in dense:
            message = f"peak_dense_confirmed gives a reason for {dtype}, which has no dense figure"
            hint = f"remove peak_dense_confirmed.{dtype}, or state the dense {dtype} figure it explains"
            yield _at(entry, f"{CONFIRMED}/{dtype}", message, hint)


def _questioned(
    own: str,
    dtype: str,
    figure: Quantity,
    dense: dict[str, Quantity],
    sparse: dict[str, Quantity],
    known: list[Known],
) -> str | None:
    """Why the dense ``figure`` of ``dtype`` looks like a sparse one, in words; None when nothing says so."""
    stated = sparse.get(dtype)
    if stated is not None and (same(figure, stated) or figure.value > stated.value):
        relation = "equals" if same(figure, stated) else "is above"
        return f"{relation} the sparse {dtype} figure this record states ({stated.text})"
    for group in SIBLINGS:
        if dtype not in group:
            continue
        for sibling in sorted(group - {dtype}):
            other = dense.get(sibling)
            if other is not None and same(figure, other, 2):
                return (
                    f"is twice the dense {sibling} figure ({other.text}), a format vendors run at the same "
                    "rate: it looks like the figure with sparsity"
                )
    if stated is not None:  # its own sparse figure sets the two apart: another part's equal one is chance
        return None
    for item in known:
        if item.hardware != own and item.dtype == dtype and same(figure, item.figure):
            return f"equals the sparse {dtype} figure of {item.hardware} ({item.figure.text})"
    return None


def _hint(dtype: str) -> str:
    return (
        f"if the source prints it 'with sparsity' (or says figures are one-half lower without it), move it "
        f"to peak_sparse_flops_per_device.{dtype} and write half of it here, quoting the footnote; if the "
        f"vendor gives it as dense, say why in peak_dense_confirmed.{dtype}"
    )


def _at(entry: Entry, pointer: str, message: str, hint: str) -> Diagnostic:
    line, column = entry.document.locate(pointer)
    return SPARSE_PEAK_AS_DENSE.diagnostic(entry.path, line, column, message, hint, pointer=pointer)


__all__ = ["SIBLINGS", "Known", "peak_findings", "same"]
