"""Delve: procedural adventure sites, hex regions, treasure and booklets for referees.

Flow, in one direction: tables (YAML) -> generators (pure functions of params, TableSet, Rng)
-> model (dataclasses that round-trip through JSON) -> renderers -> CLI.
"""

__version__ = "0.1.0"
