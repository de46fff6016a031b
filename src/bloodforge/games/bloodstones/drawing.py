"""How to draw a Bloodstones map: area outlines and borders, part of `game.static_info()`.

The map files give each area a centre point, its terrain and its borders, but no outline. We
draw each area as the Voronoi cell of its point (clipped to a rounded shape around it so the
coast does not run to the picture's edge), then classify every shared cell edge: a border
between neighbours is drawn thin, an edge between areas that do *not* border each other
(a river or a ridge in the printed map) is drawn thick, and a border whose cells do not touch
gets a dashed link so that every adjacency the rules use is visible.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .content import Area, Board

Point = tuple[float, float]

_EPS = 1e-6


@lru_cache(maxsize=16)
def map_drawing(board: Board) -> dict[str, Any]:
    """Cell outlines, labels and classified borders of a board (cached: boards are cached too)."""
    areas = list(board.data.areas)
    seeds = _seeds(board.id, areas)
    cells = voronoi_cells(seeds)
    ids = [a.id for a in areas]
    out_areas = []
    for a in areas:
        sx, sy = seeds[a.id]
        out_areas.append({
            "id": a.id,
            "label_x": round(a.label_x if a.label_x is not None else sx, 1),
            "label_y": round(a.label_y if a.label_y is not None else sy, 1),
            "polygon": [[round(x, 1), round(y, 1)] for x, y in cells[a.id]],
        })
    borders = _borders(ids, cells, {a.id: set(a.adjacent) for a in areas}, seeds)
    xs = [p[0] for c in cells.values() for p in c]
    ys = [p[1] for c in cells.values() for p in c]
    return {
        "viewbox": [math.floor(min(xs)), math.floor(min(ys)),
                    math.ceil(max(xs) - min(xs)), math.ceil(max(ys) - min(ys))],
        "areas": out_areas,
        "borders": borders,
    }


def _seeds(map_id: str, areas: list[Area]) -> dict[int, Point]:
    seeds = {a.id: (a.x, a.y) for a in areas}
    if map_id == "map1" and 61 in seeds and 60 in seeds:
        # Area 61 is a thin sea crescent whose data point falls on area 60 (see the map
        # file): move its seed (and so its label) off 60, towards the seas it borders.
        sea = [seeds[n] for a in areas if a.id == 61 for n in a.adjacent if n != 60]
        if sea:
            x60, y60 = seeds[60]
            cx = sum(p[0] for p in sea) / len(sea)
            cy = sum(p[1] for p in sea) / len(sea)
            seeds[61] = (x60 + 0.45 * (cx - x60), y60 + 0.45 * (cy - y60))
    return seeds


def voronoi_cells(seeds: dict[int, Point], reach: float = 1.25) -> dict[int, list[Point]]:
    """Each seed's Voronoi cell, cut to a 24-gon around the seed (radius: `reach` times the
    distance to its farthest nearest-few neighbours), so that edge cells stay compact."""
    pts = list(seeds.items())
    cells: dict[int, list[Point]] = {}
    for i, (p, xy) in enumerate(pts):
        dists = sorted(math.dist(xy, q) for j, (_, q) in enumerate(pts) if j != i)
        radius = reach * (dists[min(3, len(dists) - 1)] if dists else 200.0)
        poly = [
            (xy[0] + radius * math.cos(2 * math.pi * k / 24), xy[1] + radius * math.sin(2 * math.pi * k / 24))
            for k in range(24)
        ]
        for j, (_, q) in enumerate(pts):
            if j == i:
                continue
            poly = _clip_half_plane(poly, xy, q)
            if not poly:
                break
        cells[p] = poly
    return cells


def _clip_half_plane(poly: list[Point], a: Point, b: Point) -> list[Point]:
    """Keep the part of convex `poly` closer to `a` than to `b` (Sutherland-Hodgman)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = b[0] - a[0], b[1] - a[1]

    def side(p: Point) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny

    out: list[Point] = []
    n = len(poly)
    for k in range(n):
        cur, nxt = poly[k], poly[(k + 1) % n]
        sc, sn = side(cur), side(nxt)
        if sc <= 0:
            out.append(cur)
        if (sc < 0 < sn) or (sn < 0 < sc):
            t = sc / (sc - sn)
            out.append((cur[0] + t * (nxt[0] - cur[0]), cur[1] + t * (nxt[1] - cur[1])))
    return out


def _shared_edge(c1: list[Point], c2: list[Point], tol: float = 0.5) -> tuple[Point, Point] | None:
    """The segment two convex cells share, if any (vertices of one lying on the other's edges)."""
    on: list[Point] = []
    for p in c1:
        if _on_boundary(p, c2, tol):
            on.append(p)
    for p in c2:
        if _on_boundary(p, c1, tol) and all(math.dist(p, q) > tol for q in on):
            on.append(p)
    if len(on) < 2:
        return None
    best = max(((p, q) for p in on for q in on), key=lambda pq: math.dist(*pq))
    if math.dist(*best) < 2.0:
        return None
    return best


def _on_boundary(p: Point, poly: list[Point], tol: float) -> bool:
    n = len(poly)
    for k in range(n):
        a, b = poly[k], poly[(k + 1) % n]
        length = math.dist(a, b)
        if length < _EPS:
            continue
        cross = abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / length
        if cross > tol:
            continue
        dot = (p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])
        if -tol * length <= dot <= length * length + tol * length:
            return True
    return False


def _borders(
    ids: list[int], cells: dict[int, list[Point]], adjacent: dict[int, set[int]], seeds: dict[int, Point]
) -> list[dict[str, Any]]:
    """Every drawn line between areas: `border` (neighbours sharing an edge), `barrier` (an edge
    between non-neighbours) or `link` (neighbours whose cells do not touch: centre to centre)."""
    out: list[dict[str, Any]] = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            edge = _shared_edge(cells[a], cells[b])
            linked = b in adjacent[a]
            if edge is not None:
                (x1, y1), (x2, y2) = edge
                out.append({
                    "a": a, "b": b, "kind": "border" if linked else "barrier",
                    "points": [[round(x1, 1), round(y1, 1)], [round(x2, 1), round(y2, 1)]],
                })
            elif linked:
                (x1, y1), (x2, y2) = seeds[a], seeds[b]
                out.append({
                    "a": a, "b": b, "kind": "link",
                    "points": [[round(x1, 1), round(y1, 1)], [round(x2, 1), round(y2, 1)]],
                })
    return out
