"""Low-rank factorization arithmetic: when does ``W ≈ A·B`` save parameters?

A dense ``d × m`` matrix has ``d·m`` parameters. Factored as ``A (d × r) · B (r × m)`` it has
``r·(d + m)``. The factorization saves only below the break-even rank ``r* = d·m / (d + m)``; at
``r*`` it costs exactly as much as ``W``, above it more. For ``4096 × 4096``, ``r* = 2048``; for
``4096 × 1024``, ``r* = 4,194,304 / 5,120 = 819.2`` — the threshold depends on both sides, it is not
"half of d". MLA's down/up projections are such a factorization (DeepSeek-V2, arXiv:2405.04434); so is a
LoRA adapter (Hu et al., ICLR 2022), with the opposite role.
"""

from __future__ import annotations

from fractions import Fraction


def _check(*sizes: int) -> None:
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"matrix sizes and ranks are whole numbers >= 1, not {size!r}")


def dense_params(d: int, m: int) -> int:
    """Parameters of a dense ``d × m`` matrix: ``d · m``."""
    _check(d, m)
    return d * m


def factored_params(d: int, m: int, r: int) -> int:
    """Parameters of ``A (d × r) · B (r × m)``: ``r · (d + m)``."""
    _check(d, m, r)
    return r * (d + m)


def break_even_rank(d: int, m: int) -> Fraction:
    """The rank at which the factorization costs exactly the dense matrix: ``r* = d·m / (d + m)``.

    From ``r (d + m) < d m  ⇔  r < d m / (d + m)``; exact, so ``4096 × 1024`` gives ``4096/5`` (819.2).
    """
    _check(d, m)
    return Fraction(d * m, d + m)


def saves_parameters(d: int, m: int, r: int) -> bool:
    """True when rank ``r`` is strictly below the break-even rank, i.e. the factorization is smaller."""
    return factored_params(d, m, r) < dense_params(d, m)


def reduction_factor(d: int, m: int, r: int) -> Fraction:
    """How many times smaller the factorization is: ``d·m / (r·(d + m))`` (4 for 4096², r = 512)."""
    return Fraction(dense_params(d, m), factored_params(d, m, r))
