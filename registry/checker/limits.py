"""How much one record file may hold: the bounds that keep a hostile file from costing more than a
record could. Both loaders enforce them, and the check cache reads the size bound without importing
the loaders (a cache hit must stay light)."""

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_ALIASES = 100
MAX_NODES = 200_000
