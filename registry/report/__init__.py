"""Reporting to a person or a program: the check's reporters, ``calc`` and ``explain``."""
