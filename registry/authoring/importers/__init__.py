"""Importers: published benchmark results turned into benchmark records (``registry import``).

Each importer reads its source completely and checks it before anything is written: a bad file is one
located error (``file:line``) and no record changes; a row it cannot map to the registry's models,
hardware and engines is listed with its reason, never guessed and never dropped silently.
"""
