"""The check pipeline: discover and load the files, validate them, index the records and resolve their
references, recompute their figures, and cache what is unchanged. :func:`registry.checker.pipeline.check`
runs every stage."""
