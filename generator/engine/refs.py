"""References between tables: no chain loops back on itself or nests deeper than rolling
allows (TableSet._render's MAX_DEPTH), checked at load with a stack of its own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MAX_DEPTH = 12  # nested references deeper than this are certainly a mistake


def _shown(cycle: list[str]) -> str:
    """A cycle as `a -> b -> a`, its middle cut when it is long (one line, not 20 KB)."""
    if len(cycle) <= 8:
        return " -> ".join(cycle)
    cut = len(cycle) - 6
    return " -> ".join([*cycle[:4], f"... ({cut:,} more)", *cycle[-2:]])


def check_references(tables: dict[str, Any]) -> list[str]:
    """No chain of references loops back on itself, or nests deeper than rolling allows.

    Walked with a stack of its own (a chain of thousands of tables is a user's to write), and
    the depth found here is the one TableSet._render enforces, so a set that loads rolls."""
    problems: list[str] = []
    graph: dict[str, list[tuple[str, int]]] = {}
    for t in tables.values():
        edges: list[tuple[str, int]] = []
        for e in t.entries:
            for tpl in [e.template, *e.templates.values()]:
                edges += [(ref, e.line) for ref in tpl.refs if ref in tables]
        graph[t.id] = list(dict.fromkeys(edges))
    state: dict[str, int] = {}  # 1 visiting, 2 done
    depth: dict[str, int] = {}  # references below a table on its longest chain
    below: dict[str, str] = {}  # the next table on that chain
    reported: set[frozenset[str]] = set()
    for start in sorted(graph):
        if start in state:
            continue
        path: list[str] = [start]
        todo: list[Iterator[tuple[str, int]]] = [iter(graph[start])]
        state[start] = 1
        while todo:
            node = path[-1]
            step = next(todo[-1], None)
            if step is None:
                todo.pop()
                path.pop()
                deepest = max(
                    ((depth[ref] + 1, ref) for ref, _ in graph[node] if state.get(ref) == 2),
                    default=(0, ""),
                )
                depth[node], below[node] = deepest
                state[node] = 2
                continue
            ref, line = step
            if state.get(ref) == 1:
                cycle = path[path.index(ref) :] + [ref]
                key = frozenset(cycle)
                if key not in reported:
                    reported.add(key)
                    problems.append(
                        f"{tables[node].path}:{line}: table '{node}': reference cycle "
                        + _shown(cycle)
                    )
            elif ref not in state:
                state[ref] = 1
                path.append(ref)
                todo.append(iter(graph[ref]))
    deep = {t for t, d in depth.items() if d > MAX_DEPTH}
    inner = {ref for t in deep for ref, _ in graph[t]}
    for t in sorted(deep - inner):  # the head of each chain that is too deep
        chain = [t]
        while below.get(chain[-1]) and len(chain) < 5:
            chain.append(below[chain[-1]])
        shown = " -> ".join(chain) + (" -> ..." if depth[chain[-1]] else "")
        problems.append(
            f"{tables[t].path}:{tables[t].line}: table '{t}': references nest {depth[t]:,} "
            f"deep ({shown}); at most {MAX_DEPTH}"
        )
    return problems
