"""Low-rank factorization: the break-even rank of seed 002, exact."""

from __future__ import annotations

from fractions import Fraction

import pytest

from registry.engine import (
    break_even_rank,
    dense_params,
    factored_params,
    reduction_factor,
    saves_parameters,
)


def test_square_4096_breaks_even_at_2048() -> None:
    assert break_even_rank(4096, 4096) == 2048
    assert factored_params(4096, 4096, 2048) == dense_params(4096, 4096) == 16_777_216


def test_threshold_depends_on_both_sides_not_half_of_d() -> None:
    assert break_even_rank(4096, 1024) == Fraction(4_194_304, 5_120) == Fraction(8192, 10)
    assert float(break_even_rank(4096, 1024)) == 819.2


@pytest.mark.parametrize(
    ("rank", "params", "factor"),
    [(512, 4_194_304, 4), (1024, 8_388_608, 2), (2048, 16_777_216, 1)],
)
def test_course_table_of_ranks(rank: int, params: int, factor: int) -> None:
    assert factored_params(4096, 4096, rank) == params
    assert reduction_factor(4096, 4096, rank) == factor


def test_saving_is_strictly_below_the_threshold() -> None:
    assert saves_parameters(4096, 1024, 819)
    assert not saves_parameters(4096, 1024, 820)
    assert not saves_parameters(4096, 4096, 2048)


@pytest.mark.parametrize("bad", [0, -1, True])
def test_sizes_must_be_positive_whole_numbers(bad: int) -> None:
    with pytest.raises(ValueError, match="whole numbers"):
        factored_params(4096, 4096, bad)
