"""The formula engine as the database asks it: which engine layouts, which dtypes, which contexts.

Results are memoised on the layout itself, so a thousand records of one model cost one computation
per setting.
"""

from __future__ import annotations

from functools import lru_cache

from registry.engine.compute import CacheResult, Ladder, compute, compute_ladder
from registry.engine.engines import ENGINE_KEYS, UnknownEngineError, get_engine
from registry.engine.layout import Layout


def _distinct_layouts() -> tuple[str, ...]:
    """Every engine layout key once: an alias for the same rules (``transformers@5`` is the current
    ``transformers``) is left out, so a query never sees two identical rows under two names."""
    seen: set[str] = set()
    keys: list[str] = []
    for key in ENGINE_KEYS:
        title = get_engine(key).title
        if title not in seen:
            seen.add(title)
            keys.append(key)
    return tuple(keys)


ENGINE_LAYOUTS: tuple[str, ...] = _distinct_layouts()
"""The engine layouts the per-model tables are computed for, ``ideal`` first."""

KV_DTYPES: tuple[str, ...] = ("bf16", "fp8", "q8_0", "q4_0")
"""KV formats of ``kv_at_context``: the unquantized default, the serving engines' fp8, and
llama.cpp's two block formats. An engine that cannot store a format gets a row saying so."""

CONTEXT_LADDER: tuple[tuple[str, int], ...] = (
    ("4K", 4 * 1024),
    ("32K", 32 * 1024),
    ("128K", 128 * 1024),
    ("1M", 1024 * 1024),
)
"""The standard contexts; K is 1,024 tokens and M 1,048,576, as context lengths are counted."""


@lru_cache(maxsize=1 << 16)
def cache_result(
    layout: Layout,
    engine: str,
    kv_dtype: str,
    context_tokens: int,
    batch: int = 1,
    state_dtype: str | None = None,
    include_mtp: bool = False,
    model_dtype: str | None = None,
    traced: bool = True,
) -> CacheResult | str:
    """The engine's result, or the reason it could not compute one (a message, never an exception).
    A table or chart of figures passes ``traced=False``: the same figures, without the trace."""
    try:
        return compute(
            layout,
            context_tokens=context_tokens,
            batch=batch,
            kv_dtype=kv_dtype,
            state_dtype=state_dtype,
            engine=engine,
            include_mtp=include_mtp,
            model_dtype=model_dtype,
            traced=traced,
        )
    except ValueError as error:
        return str(error)


@lru_cache(maxsize=2048)
def cache_ladder(layout: Layout, engine: str, kv_dtype: str, contexts: tuple[int, ...]) -> Ladder | str:
    """The engine's figures at each of ``contexts`` (:func:`~registry.engine.compute.compute_ladder`),
    or the reason it could not compute any (an unknown engine or format: a message, never an
    exception): what a model's table and chart and its ``kv_at_context`` rows ask for."""
    try:
        return compute_ladder(layout, contexts, kv_dtype=kv_dtype, engine=engine)
    except ValueError as error:
        return str(error)


STANDARD_CONTEXTS = tuple(tokens for _, tokens in CONTEXT_LADDER)
"""The token counts of :data:`CONTEXT_LADDER`."""


def engine_key(written: str) -> str | None:
    """The formula engine's layout for a record's ``layout`` field: the field itself when the engine
    has rules for it as written, else None.

    A version pin the rules were not read at (``sglang@0.5.7``) is not mapped to another release: the
    check does not, so neither do the database and the site.
    """
    try:
        get_engine(written)
    except UnknownEngineError:
        return None
    return written


def reasons(result: CacheResult | Ladder) -> str | None:
    """Why a result has no total, in one line (NULL when it has one)."""
    parts = [*result.unsupported, *result.not_computable]
    return "; ".join(parts) if parts else None
