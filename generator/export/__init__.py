"""Exports to the apps referees prepare and play in.

One module per target: ``foundry/`` (Scene, JournalEntry and RollTable documents for Foundry VTT
version 13), ``vault`` (an Obsidian vault of linked markdown notes), ``table_export`` (any
random table as a Foundry RollTable, CSV or markdown). ``files`` holds what they share: file
names safe on every system, stable document ids, and folders written whole or not at all.

Exporters never roll the world's dice: they read the model and the renderers' text. The one
exception is a table export's "rolled fresh per result" text, which rolls from a stream named
by the table, so the same tables give the same bytes.
"""
