"""The generators: pure functions from (parameters, TableSet, Rng) to a model.

Sites, regions, treasure and the bestiary. They never print, read files or render.
"""
