"""The formula engine: pure functions from a cache layout and precisions to exact bytes and a trace."""

from registry.engine.layout import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    LayerGroup,
    Layout,
    LayoutError,
    Mechanism,
    NoCache,
    Recurrent,
    Shared,
    SlidingWindow,
    StateTensor,
    group_layers,
    layout_from_layers,
    uniform_layout,
)

__all__ = [
    "MLA",
    "Attention",
    "Chunked",
    "Compressed",
    "LayerGroup",
    "Layout",
    "LayoutError",
    "Mechanism",
    "NoCache",
    "Recurrent",
    "Shared",
    "SlidingWindow",
    "StateTensor",
    "group_layers",
    "layout_from_layers",
    "uniform_layout",
]
