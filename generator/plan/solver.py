"""Difference constraints: lo <= v[b] - v[a] <= hi, solved by Bellman-Ford.

A level's layout is two such systems (one per axis) over its rooms' corners, so placing six
rooms is a few hundred additions instead of a search. The solution is the greatest one not
above zero (every variable as large as the constraints allow), so lower bounds are met exactly
where nothing pushes further: gaps come out at their minimum unless a target pins them.
"""

from __future__ import annotations

INF = 1 << 30


class System:
    """Constraints over n integer variables; `solve` returns their values or None."""

    __slots__ = ("n", "edges")

    def __init__(self, n: int) -> None:
        self.n = n
        self.edges: list[tuple[int, int, int]] = []  # (u, v, w): v[v] <= v[u] + w

    def between(self, a: int, b: int, lo: int | None = None, hi: int | None = None) -> None:
        """lo <= v[b] - v[a] <= hi (either bound may be None)."""
        if hi is not None:
            self.edges.append((a, b, hi))
        if lo is not None:
            self.edges.append((b, a, -lo))

    def exactly(self, a: int, b: int, d: int) -> None:
        self.between(a, b, d, d)

    def copy(self) -> System:
        other = System(self.n)
        other.edges = list(self.edges)
        return other

    def solve(self, start: list[int] | None = None) -> list[int] | None:
        """The greatest solution with every variable at most 0, or None. `start`: this system's
        solution before constraints were added to it; the new one lies at or below it, so the
        relaxation may begin there and reach the same answer sooner."""
        dist = list(start) if start is not None else [0] * self.n
        edges = self.edges
        for _ in range(self.n + 1):
            changed = False
            for u, v, w in edges:
                d = dist[u] + w
                if d < dist[v]:
                    dist[v] = d
                    changed = True
            if not changed:
                return dist
        return None  # a negative cycle: the constraints contradict each other
