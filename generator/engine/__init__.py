"""The engine: seeds and addresses, dice, YAML tables (loaded, validated, cached), hex math.

Everything above it (plan, sim, build, render, export, cli) draws on these; they import
nothing from the rest of the package but `generator.errors`.
"""
