"""Writing records: ``new``, ``fmt`` and ``import-config``."""
