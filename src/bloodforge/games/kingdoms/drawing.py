"""The map's picture: area outlines traced from a character grid in `data/map.json`.

The adjacency graph is the rules; the picture only has to show it. Points alone (the renderer's
Voronoi cells) drew cells that touched where the rules say nothing and left most links as dashed
lines (issue 18). A grid of characters, one per area, is a picture a designer can edit in a text
editor: every area is the union of its squares, two areas touch exactly where their squares share
a side, and `check` refuses a drawing where two areas touch without a link (or an area is missing,
split in two, or has a hole). Links whose areas do not touch are drawn by the browser as lines;
the house graph is not planar (every one of the three central islands and both maelstroms reach
every inner sea), so a few must stay lines, and `lines` counts them for the tests.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

Point = tuple[int, int]  # (row, col) of a grid corner


@dataclass(frozen=True)
class Outline:
    """One area's outline in map units (0..1) and the point its label and pieces go."""

    polygon: list[list[float]]
    x: float
    y: float


def cells_of(rows: list[str], legend: dict[str, str]) -> dict[str, set[Point]]:
    """Squares per area id ('.' and spaces are open water drawn as background)."""
    out: dict[str, set[Point]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in ". ":
                continue
            if ch not in legend:
                raise ValueError(f"drawing row {r + 1}, column {c + 1}: character {ch!r} is not in the legend")
            out.setdefault(legend[ch], set()).add((r, c))
    return out


def touching(cells: dict[str, set[Point]]) -> set[frozenset[str]]:
    """Pairs of areas whose squares share a side."""
    where = {p: a for a, ps in cells.items() for p in ps}
    out = set()
    for (r, c), a in where.items():
        for q in ((r + 1, c), (r, c + 1)):
            b = where.get(q)
            if b is not None and b != a:
                out.add(frozenset((a, b)))
    return out


def _connected(ps: set[Point]) -> bool:
    start = next(iter(ps))
    seen = {start}
    todo = deque([start])
    while todo:
        r, c = todo.popleft()
        for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if q in ps and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(ps)


def _loops(ps: set[Point]) -> list[list[Point]]:
    """The boundary of a set of squares as closed loops of grid corners (the area on the left
    when walking clockwise on screen). Every unit corner is kept, so an edge two areas share
    has the same corners in both outlines (the renderer finds shared edges by corners)."""
    nxt: dict[Point, list[Point]] = {}
    for r, c in ps:
        # directed sides with the square on the right (screen y down): top, right, bottom, left
        if (r - 1, c) not in ps:
            nxt.setdefault((r, c), []).append((r, c + 1))
        if (r, c + 1) not in ps:
            nxt.setdefault((r, c + 1), []).append((r + 1, c + 1))
        if (r + 1, c) not in ps:
            nxt.setdefault((r + 1, c + 1), []).append((r + 1, c))
        if (r, c - 1) not in ps:
            nxt.setdefault((r + 1, c), []).append((r, c))
    loops = []
    while nxt:
        start = min(nxt)
        loop = [start]
        here = start
        while True:
            outs = nxt[here]
            to = outs.pop()
            if not outs:
                del nxt[here]
            if to == start:
                break
            loop.append(to)
            here = to
        loops.append(loop)
    return loops


def _label_cell(ps: set[Point]) -> Point:
    """The square farthest from the area's edge (ties: nearest the middle of its squares)."""
    depth: dict[Point, int] = {}
    todo: deque[Point] = deque()
    for r, c in ps:
        if any(q not in ps for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))):
            depth[(r, c)] = 0
            todo.append((r, c))
    while todo:
        r, c = todo.popleft()
        for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if q in ps and q not in depth:
                depth[q] = depth[(r, c)] + 1
                todo.append(q)
    mr = sum(r for r, _ in ps) / len(ps)
    mc = sum(c for _, c in ps) / len(ps)
    return max(sorted(ps), key=lambda p: (depth[p], -((p[0] - mr) ** 2 + (p[1] - mc) ** 2)))


def outlines(rows: list[str], legend: dict[str, str]) -> dict[str, Outline]:
    """Every area's outline; raises ValueError for a split area or one with a hole."""
    size = max(len(rows), max((len(r) for r in rows), default=0))
    out = {}
    for area, ps in sorted(cells_of(rows, legend).items()):
        if not _connected(ps):
            raise ValueError(f"drawing: area {area} is split into several pieces")
        loops = _loops(ps)
        if len(loops) != 1:
            raise ValueError(f"drawing: area {area} has a hole or touches itself at a corner")
        r, c = _label_cell(ps)
        out[area] = Outline(
            polygon=[[round(pc / size, 5), round(pr / size, 5)] for pr, pc in loops[0]],
            x=round((c + 0.5) / size, 5), y=round((r + 0.5) / size, 5))
    return out


def check(rows: list[str], legend: dict[str, str], spaces: Iterable[str], links: Iterable[tuple[str, str]]) -> None:
    """A drawing must show every space once and never make two areas touch without a link."""
    ids = set(spaces)
    unknown = sorted(set(legend.values()) - ids)
    if unknown:
        raise ValueError(f"drawing legend names unknown spaces: {unknown}")
    cells = cells_of(rows, legend)
    missing = sorted(ids - set(cells))
    if missing:
        raise ValueError(f"drawing does not show: {missing}")
    linked = {frozenset(x) for x in links}
    wrong = sorted(tuple(sorted(p)) for p in touching(cells) - linked)
    if wrong:
        raise ValueError(f"drawing: these areas touch but are not linked: {wrong}")
    outlines(rows, legend)


def lines(rows: list[str], legend: dict[str, str], links: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The links the browser draws as lines (their areas do not touch)."""
    touch = touching(cells_of(rows, legend))
    return sorted({tuple(sorted(x)) for x in links if frozenset(x) not in touch})  # type: ignore[misc]
