"""Area graphs: maps made of areas with borders (Bloodstones, Kingdoms of Blood, Five Forts).

The graph is immutable and shared by every state of a game, so states only hold what changes.
Distances are cached per source because setup rules ("two areas between citadels") and agents
ask for them again and again.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence


class AreaGraph:
    """Undirected graph over integer area ids with symmetric adjacency checked on creation."""

    __slots__ = ("_distance_cache", "ids", "neighbours")

    def __init__(self, adjacency: Mapping[int, Iterable[int]]) -> None:
        neighbours: dict[int, tuple[int, ...]] = {a: tuple(sorted(set(n))) for a, n in adjacency.items()}
        for a, ns in neighbours.items():
            for b in ns:
                if b == a:
                    raise ValueError(f"area {a} lists itself as a neighbour")
                if b not in neighbours:
                    raise ValueError(f"area {a} borders unknown area {b}")
                if a not in neighbours[b]:
                    raise ValueError(f"border {a}-{b} is listed by {a} but not by {b}")
        self.neighbours = neighbours
        self.ids: tuple[int, ...] = tuple(sorted(neighbours))
        self._distance_cache: dict[int, dict[int, int]] = {}

    def __contains__(self, area: object) -> bool:
        return area in self.neighbours

    def __len__(self) -> int:
        return len(self.ids)

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]

    def edges(self) -> list[tuple[int, int]]:
        return [(a, b) for a in self.ids for b in self.neighbours[a] if a < b]

    def distances_from(self, source: int) -> dict[int, int]:
        """Number of borders crossed to reach each area (breadth-first, cached)."""
        cached = self._distance_cache.get(source)
        if cached is not None:
            return cached
        dist = {source: 0}
        queue = deque([source])
        while queue:
            a = queue.popleft()
            for b in self.neighbours[a]:
                if b not in dist:
                    dist[b] = dist[a] + 1
                    queue.append(b)
        self._distance_cache[source] = dist
        return dist

    def distance(self, a: int, b: int) -> int | None:
        return self.distances_from(a).get(b)

    def components(self, areas: Iterable[int]) -> list[set[int]]:
        """Connected components of the subgraph induced by `areas`."""
        remaining = set(areas)
        out: list[set[int]] = []
        while remaining:
            start = remaining.pop()
            comp = {start}
            stack = [start]
            while stack:
                a = stack.pop()
                for b in self.neighbours[a]:
                    if b in remaining:
                        remaining.discard(b)
                        comp.add(b)
                        stack.append(b)
            out.append(comp)
        return out

    def cheapest_costs(
        self,
        source: int,
        enter_cost: Callable[[int], int | None],
        can_pass: Callable[[int], bool],
        budget: int | None = None,
    ) -> dict[int, int]:
        """Dijkstra over areas: cost to enter each reachable area.

        `enter_cost(area)` is None where the mover may not enter; `can_pass(area)` says whether it
        may continue beyond an area once inside (enemy units stop movement, for example).
        """
        best = {source: 0}
        heap = [(0, source)]
        while heap:
            cost, a = heapq.heappop(heap)
            if cost > best.get(a, cost):
                continue
            if a != source and not can_pass(a):
                continue
            for b in self.neighbours[a]:
                step = enter_cost(b)
                if step is None:
                    continue
                total = cost + step
                if budget is not None and total > budget:
                    continue
                if total < best.get(b, total + 1):
                    best[b] = total
                    heapq.heappush(heap, (total, b))
        return best


class SquareGrid:
    """Rectangular board of squares addressed (col, row); blocked squares cannot be entered."""

    __slots__ = ("_open", "blocked", "height", "width")

    def __init__(self, width: int, height: int, blocked: Iterable[tuple[int, int]] = ()) -> None:
        if width < 1 or height < 1:
            raise ValueError(f"grid must be at least 1x1, got {width}x{height}")
        self.width = width
        self.height = height
        self.blocked = frozenset(blocked)
        for sq in self.blocked:
            if not self.on_board(sq):
                raise ValueError(f"blocked square {sq} is off the {width}x{height} board")
        #: each square's passable orthogonal neighbours, in `orthogonal` order (movement asks
        #: for them inside every search iteration)
        self._open = {sq: tuple(n for n in self.orthogonal(sq) if n not in self.blocked) for sq in self.squares()}

    def on_board(self, sq: tuple[int, int]) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def passable(self, sq: tuple[int, int]) -> bool:
        return self.on_board(sq) and sq not in self.blocked

    def orthogonal(self, sq: tuple[int, int]) -> list[tuple[int, int]]:
        c, r = sq
        return [s for s in ((c, r - 1), (c + 1, r), (c, r + 1), (c - 1, r)) if self.on_board(s)]

    def reachable(
        self, start: tuple[int, int], steps: int, occupied: Callable[[tuple[int, int]], bool]
    ) -> dict[tuple[int, int], int]:
        """Squares reachable in at most `steps` orthogonal moves through passable, free squares."""
        dist = {start: 0}
        frontier = [start]
        opened = self._open
        for d in range(1, steps + 1):
            reached = []
            for sq in frontier:
                for nxt in opened[sq] if sq in opened else [n for n in self.orthogonal(sq) if self.passable(n)]:
                    if nxt not in dist and not occupied(nxt):
                        dist[nxt] = d
                        reached.append(nxt)
            if not reached:
                break
            frontier = reached
        return dist

    def squares(self) -> Sequence[tuple[int, int]]:
        return [(c, r) for r in range(self.height) for c in range(self.width)]
