"""Bytes per element, block scales included, exact."""

from __future__ import annotations

from fractions import Fraction

import pytest

from registry.engine import DTYPES, UnknownDtypeError, bytes_per_element, canonical_dtype, get_dtype
from registry.kinds.records import DTYPE_PATTERN


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("fp32", Fraction(4)),
        ("bf16", Fraction(2)),
        ("fp16", Fraction(2)),
        ("fp8", Fraction(1)),
        ("fp8_e4m3", Fraction(1)),
        ("fp8_e5m2", Fraction(1)),
        ("int8", Fraction(1)),
        ("int4", Fraction(1, 2)),
        ("fp4", Fraction(1, 2)),
        ("q8_0", Fraction(34, 32)),
        ("q4_0", Fraction(18, 32)),
        ("nvfp4", Fraction(9, 16)),
        ("mxfp4", Fraction(17, 32)),
        ("q4_k", Fraction(144, 256)),
        ("q5_k", Fraction(176, 256)),
        ("q6_k", Fraction(210, 256)),
    ],
)
def test_bytes_per_element(name: str, expected: Fraction) -> None:
    assert bytes_per_element(name) == expected


def test_block_formats_cost_more_than_their_bit_width() -> None:
    assert bytes_per_element("q8_0") > bytes_per_element("int8")
    assert bytes_per_element("q4_0") > bytes_per_element("int4")
    assert bytes_per_element("nvfp4") > bytes_per_element("fp4")


def test_q8_0_row_is_whole_blocks_of_34_bytes() -> None:
    q8 = get_dtype("q8_0")
    assert q8.row_bytes(1024) == 1088
    assert q8.fits(1024)
    assert not q8.fits(1000)


@pytest.mark.parametrize(("alias", "name"), [("bfloat16", "bf16"), ("float16", "fp16"), ("F32", "fp32")])
def test_engine_spellings_map_to_canonical_names(alias: str, name: str) -> None:
    assert canonical_dtype(alias) == name


def test_unknown_dtype_names_the_known_ones() -> None:
    with pytest.raises(UnknownDtypeError, match=r"known dtypes: .*bf16.*q8_0"):
        get_dtype("fp12")


def test_every_dtype_a_record_may_state_is_known() -> None:
    import re

    names = re.match(r"\^\((.*)\)\$", DTYPE_PATTERN)
    assert names is not None
    assert set(names.group(1).split("|")) <= set(DTYPES)
