"""Simulated combat: parties, foes, fights and the danger estimates booklets print.

Pure and seeded, like the generators: ``(party, foes, tables, seed) -> figures``. The parties
and foes (party.py, foes.py) and the tables behind the tactics and verdicts (rules.py) are plain
Python; the fights themselves run thousands of trials side by side as numpy arrays
(engine.py), so numpy is imported only when a simulation runs. danger.py puts estimates on
sites and regions; docs/danger.md names the rule or reading behind every step.
"""
