"""Generate the Bloodstones house map "grand" (5-6 players) as a map data file.

Run from the repository root:

    python tools/make_grand_map.py            # writes src/.../data/maps/grand.json
    python tools/make_grand_map.py --svg x.svg  # also draws the cells (terrain colours, ids)
    python tools/make_grand_map.py --search 200 # report which jitter seeds pass the checks

Standard library only (no numpy/scipy). The output is deterministic: same script, same file.

Design in one paragraph: six identical realms (sectors) round a central lake, the Heartmere.
Every area is a site on a jittered hexagonal lattice; the sites of one 60-degree sector are
laid out once (TEMPLATE) and copied by exact 60-degree rotation, so the map has six-fold
rotational symmetry in its graph and its picture. The map is a disc; each area's cell is its
Voronoi cell clipped to the disc, and two areas border each other exactly when their cells
share an edge inside the disc (the Delaunay edges whose Voronoi edge is visible). Sites whose
cells would meet almost at a point are nudged (symmetrically) until every border is clearly
visible. A ring of twelve sea areas circles the coast (a bay in the middle of each realm, a
sound on each frontier between realms), so ships can sail round the whole map; the
Heartmere links the six inner shores. Mountains and deserts sit on the frontiers, never next
to a citadel. The checks in `problems` must all pass or nothing is written.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src/bloodforge/games/bloodstones/data/maps/grand.json"
MAP1 = ROOT / "src/bloodforge/games/bloodstones/data/maps/map1.json"

CANVAS = 3000.0  # square picture space, origin top left, y down
CX = CY = CANVAS / 2
S = 190.0  # lattice spacing (distance between neighbouring sites)
JITTER = 0.17  # maximal random displacement of a site, in lattice spacings
TWIST = 7.0  # degrees of pinwheel twist at the coast (applied to all sectors alike)
MAP_R = 7.8  # the map is the disc of this radius (lattice spacings) round the centre
FRAME_R = 40.0  # far-away helper points that keep every Voronoi cell bounded
FRAME_N = 12
SEED = 1  # jitter seed; --search lists the seeds that pass every check
MIN_BORDER = 0.25  # shortest allowed shared cell edge, in lattice spacings
REPAIR_ROUNDS = 60  # at most this many rounds of nudging sites with short borders
REPAIR_STEP = 0.02  # lattice spacings per nudge

REALMS = ("Aldmoor", "Brennach", "Corvane", "Dunmarrow", "Eskerfell", "Faelholt")

# One sector, in axial lattice coordinates (a, b): the site is a*(1, 0) + b*(1/2, sqrt(3)/2)
# before rotation, so the sector spans lattice angles [0, 60) and its axis is at 30 degrees.
# Sites with b == 0 sit on the frontier ray with the previous realm. Columns: key, (a, b),
# terrain, name ("{r}" = realm), radial scale, angle nudge (degrees).
TEMPLATE: tuple[tuple[str, tuple[int, int], str, str, float, float], ...] = (
    ("strand", (1, 0), "plains", "{r} Strand", 1.42, 0.0),  # inner shore of the Heartmere
    ("downs", (1, 1), "plains", "{r} Downs", 1.12, 0.0),
    ("waste", (2, 0), "desert", "{r} Waste", 1.02, 0.0),  # frontier
    ("wood", (2, 1), "forest", "{r} Wood", 1.0, 0.0),
    ("leas", (1, 2), "plains", "{r} Leas", 1.0, 0.0),
    ("spire", (3, 0), "mountains", "{r} Spire", 1.0, 0.0),  # frontier
    ("vale", (2, 2), "plains", "{r} Vale", 1.0, 0.0),
    ("fields", (3, 1), "plains", "{r} Fields", 1.0, 0.0),
    ("thicket", (1, 3), "forest", "{r} Thicket", 1.0, 0.0),
    ("gap", (4, 0), "plains", "{r} Gap", 1.0, 0.0),  # frontier pass
    ("meads", (3, 2), "plains", "{r} Meads", 1.0, 0.0),
    ("heath", (2, 3), "plains", "{r} Heath", 1.0, 0.0),
    ("holt", (4, 1), "forest", "{r} Holt", 1.0, 0.0),
    ("watch", (1, 4), "hills", "{r} Watch", 1.0, 0.0),
    ("rimwood", (5, 0), "forest", "{r} Rimwood", 1.0, 0.0),  # frontier coast
    ("shore", (4, 2), "plains", "{r} Shore", 0.9, 0.0),
    ("tor", (3, 3), "hills", "{r} Tor", 1.0, 0.0),  # suggested citadel, on the bay
    ("cliffwood", (2, 4), "forest", "{r} Cliffwood", 0.93, 0.0),
    ("bay", (3, 3), "sea", "Bay of {r}", 1.16, 0.0),  # the realm's own sea, off the Tor
    ("sound", (6, 0), "sea", "{r} Sound", 1.02, 0.0),  # frontier sea, shared by two realms
)
CENTRE_NAME = "The Heartmere"
CITADEL_KEY = "tor"
PER_SECTOR = len(TEMPLATE)
KEYS = [t[0] for t in TEMPLATE]


# ----------------------------------------------------------------------------- geometry
def site_positions(seed: int, offsets: list[tuple[float, float]] | None = None
                   ) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Area sites (index = area id) and far frame points, in picture coordinates.

    `offsets` (pixels, one per template site, in sector 0's frame) are the small corrections
    that `build` makes so that every border is clearly visible."""
    rng = random.Random(seed)
    rim = max(math.hypot(a + b / 2, b * math.sqrt(3) / 2) for _, (a, b), *_ in TEMPLATE)
    base: list[tuple[float, float]] = []  # sector 0 sites relative to the centre, in pixels
    for j, (_, (a, b), terrain, _, scale, nudge) in enumerate(TEMPLATE):
        x, y = a + b / 2, b * math.sqrt(3) / 2
        r, th = math.hypot(x, y) * scale, math.degrees(math.atan2(y, x)) + nudge
        x, y = r * math.cos(math.radians(th)), r * math.sin(math.radians(th))
        jr, ja = JITTER * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        if terrain != "sea":  # seas keep their place so the coast ring stays even
            x, y = x + jr * math.cos(ja), y + jr * math.sin(ja)
        r, th = math.hypot(x, y), math.degrees(math.atan2(y, x))
        ang = math.radians(th + TWIST * min(r / rim, 1.0) - 120)  # sector 0's axis points up
        ox, oy = offsets[j] if offsets else (0.0, 0.0)
        base.append((S * r * math.cos(ang) + ox, S * r * math.sin(ang) + oy))
    sites = [(CX, CY)]
    for k in range(6):
        c, s = math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))
        sites.extend((CX + x * c - y * s, CY + x * s + y * c) for x, y in base)
    frame = []
    for i in range(FRAME_N):
        ang = math.radians(360 * (i + 0.5) / FRAME_N)
        frame.append((CX + S * FRAME_R * math.cos(ang), CY + S * FRAME_R * math.sin(ang)))
    return sites, frame


def circumcircle(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]
                 ) -> tuple[float, float, float]:
    ax, ay = p
    bx, by = q
    cx, cy = r
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay)
          + (cx * cx + cy * cy) * (ay - by)) / d
    uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx)
          + (cx * cx + cy * cy) * (bx - ax)) / d
    return ux, uy, (ux - ax) ** 2 + (uy - ay) ** 2


def delaunay(points: list[tuple[float, float]]) -> list[tuple[int, int, int]]:
    """Bowyer-Watson triangulation; returns triangles as index triples."""
    n = len(points)
    big = 100 * CANVAS
    pts = [*points, (CX - big, CY - big), (CX + big, CY - big), (CX, CY + big)]
    tris: dict[tuple[int, int, int], tuple[float, float, float]] = {
        (n, n + 1, n + 2): circumcircle(pts[n], pts[n + 1], pts[n + 2])
    }
    for i in range(n):
        px, py = pts[i]
        bad = [t for t, (ux, uy, r2) in tris.items() if (px - ux) ** 2 + (py - uy) ** 2 < r2]
        edges: dict[tuple[int, int], int] = {}
        for t in bad:
            for e in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
                key = (min(e), max(e))
                edges[key] = edges.get(key, 0) + 1
            del tris[t]
        for (u, v), count in edges.items():
            if count == 1:
                tris[(u, v, i)] = circumcircle(pts[u], pts[v], pts[i])
    return [t for t in tris if max(t) < n]


def clip_segment(p: tuple[float, float], q: tuple[float, float], radius: float) -> float:
    """Length of the part of segment pq inside the disc of `radius` round the centre."""
    (px, py), (qx, qy) = (p[0] - CX, p[1] - CY), (q[0] - CX, q[1] - CY)
    dx, dy = qx - px, qy - py
    a, b, c = dx * dx + dy * dy, 2 * (px * dx + py * dy), px * px + py * py - radius * radius
    disc = b * b - 4 * a * c
    if a == 0 or disc <= 0:
        return 0.0
    t0, t1 = (-b - math.sqrt(disc)) / (2 * a), (-b + math.sqrt(disc)) / (2 * a)
    t0, t1 = max(t0, 0.0), min(t1, 1.0)
    return max(t1 - t0, 0.0) * math.sqrt(a)


def clip_polygon(poly: list[tuple[float, float]], radius: float, sides: int = 360
                 ) -> list[tuple[float, float]]:
    """Convex polygon clipped to the disc (approximated by a regular polygon outside it)."""
    r = radius / math.cos(math.pi / sides)  # the polygon's edges touch the circle
    out = poly
    for k in range(sides):
        a0, a1 = 2 * math.pi * k / sides, 2 * math.pi * (k + 1) / sides
        ex0, ey0 = CX + r * math.cos(a0), CY + r * math.sin(a0)
        ex1, ey1 = CX + r * math.cos(a1), CY + r * math.sin(a1)

        def inside(pt: tuple[float, float], ex0: float = ex0, ey0: float = ey0,
                   ex1: float = ex1, ey1: float = ey1) -> bool:
            return (ex1 - ex0) * (pt[1] - ey0) - (ey1 - ey0) * (pt[0] - ex0) >= 0

        src, out = out, []
        for i, cur in enumerate(src):
            prev = src[i - 1]
            if inside(cur) != inside(prev):
                (x1, y1), (x2, y2) = prev, cur
                den = (x2 - x1) * (ey1 - ey0) - (y2 - y1) * (ex1 - ex0)
                t = ((ex0 - x1) * (ey1 - ey0) - (ey0 - y1) * (ex1 - ex0)) / den
                out.append((x1 + t * (x2 - x1), y1 + t * (y2 - y1)))
            if inside(cur):
                out.append(cur)
        if not out:
            break
    return out


def borders_and_cells(sites: list[tuple[float, float]], frame: list[tuple[float, float]],
                      with_cells: bool = True
                      ) -> tuple[dict[tuple[int, int], float], dict[int, list[tuple[float, float]]]]:
    """Visible shared-edge length of every pair of areas whose cells touch inside the map disc,
    and each area's cell (its Voronoi cell clipped to the disc)."""
    pts = sites + frame
    n = len(sites)
    radius = MAP_R * S
    tris = delaunay(pts)
    centre = {t: circumcircle(pts[t[0]], pts[t[1]], pts[t[2]])[:2] for t in tris}
    by_edge: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    around: dict[int, list[tuple[float, float]]] = {i: [] for i in range(n)}
    for t in tris:
        for u, v in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
            by_edge.setdefault((min(u, v), max(u, v)), []).append(t)
        for i in t:
            if i < n:
                around[i].append(centre[t])
    borders = {}
    for (u, v), ts in by_edge.items():
        if u < n and v < n:
            if len(ts) != 2:
                raise SystemExit(f"area sites {u}-{v} lie on the hull: enlarge the frame")
            length = clip_segment(centre[ts[0]], centre[ts[1]], radius)
            if length > 0:
                borders[(u, v)] = length
    cells = {}
    for i, corners in around.items() if with_cells else ():
        sx, sy = sites[i]
        cell = sorted(corners, key=lambda c: math.atan2(c[1] - sy, c[0] - sx))
        cells[i] = clip_polygon(cell, radius)
    return borders, cells


# ----------------------------------------------------------------------------- the map
def area_id(sector: int, key: str) -> int:
    return 1 + PER_SECTOR * sector + KEYS.index(key)


def terrain_of(i: int) -> str:
    return "sea" if i == 0 else TEMPLATE[(i - 1) % PER_SECTOR][2]


def name_of(i: int) -> str:
    if i == 0:
        return CENTRE_NAME
    return TEMPLATE[(i - 1) % PER_SECTOR][3].format(r=REALMS[(i - 1) // PER_SECTOR])


def rotate(i: int, steps: int = 1) -> int:
    if i == 0:
        return 0
    k, j = divmod(i - 1, PER_SECTOR)
    return 1 + PER_SECTOR * ((k + steps) % 6) + j


def bfs(adj: dict[int, set[int]], src: int, allowed: set[int] | None = None) -> dict[int, int]:
    dist = {src: 0}
    queue = deque([src])
    while queue:
        a = queue.popleft()
        for b in adj[a]:
            if b not in dist and (allowed is None or b in allowed):
                dist[b] = dist[a] + 1
                queue.append(b)
    return dist


def build(seed: int) -> dict:
    """Sites, borders and cells for one jitter seed.

    Four sites on (nearly) one empty circle give cells that meet almost at a point, so whether
    the areas touch would be unclear. Such a border is lengthened by nudging its two sites a
    little towards each other (in every sector alike), until every border is clearly visible
    or REPAIR_ROUNDS have passed (then `problems` reports the short border)."""
    offsets = [(0.0, 0.0)] * PER_SECTOR
    for _ in range(REPAIR_ROUNDS):
        sites, frame = site_positions(seed, offsets)
        borders, _ = borders_and_cells(sites, frame, with_cells=False)
        short = [e for e, length in borders.items() if length < MIN_BORDER * S]
        if not short:
            break
        for u, v in short:
            for p, q in ((u, v), (v, u)):
                if p == 0:
                    continue
                k, j = divmod(p - 1, PER_SECTOR)
                dx, dy = sites[q][0] - sites[p][0], sites[q][1] - sites[p][1]
                step = REPAIR_STEP * S / math.hypot(dx, dy) / 6  # each orbit is seen 6 times
                c, s = math.cos(math.radians(-60 * k)), math.sin(math.radians(-60 * k))
                ox, oy = offsets[j]
                offsets[j] = (ox + step * (dx * c - dy * s), oy + step * (dx * s + dy * c))
    borders, cells = borders_and_cells(sites, frame)
    n = len(sites)
    adj: dict[int, set[int]] = {i: set() for i in range(n)}
    for u, v in borders:
        adj[u].add(v)
        adj[v].add(u)
    return {"seed": seed, "sites": sites, "frame": frame, "borders": borders, "cells": cells,
            "adj": adj, "offsets": offsets}


def problems(m: dict) -> list[str]:
    """Every design rule the map must meet; empty when the map is acceptable."""
    adj, borders = m["adj"], m["borders"]
    out = []
    short = [(e, round(length)) for e, length in borders.items() if length < MIN_BORDER * S]
    if short:
        out.append(f"borders too short to see: {short}")
    if any(rotate(b) not in adj[rotate(a)] for a in adj for b in adj[a]):
        out.append("not six-fold symmetric")
    spots = [area_id(k, CITADEL_KEY) for k in range(6)]
    for x in spots:
        d = bfs(adj, x)
        close = [y for y in spots if y != x and d[y] < 4]
        if close:
            out.append(f"citadel spot {x} within 3 of {close}")
        if area_id(spots.index(x), "bay") not in adj[x]:
            out.append(f"citadel spot {x} is not on its bay")
    land = {i for i in adj if terrain_of(i) != "sea"}
    if len(bfs(adj, 1, land)) != len(land):
        out.append("land is not connected without ships")
    open_land = {i for i in land if terrain_of(i) in ("plains", "forest", "hills")}
    if len(bfs(adj, spots[0], open_land)) != len(open_land):
        out.append("mountains/deserts cut the open land apart")
    if not chaos_candidates(adj, spots):
        out.append("no Chaos Horde start area")
    seas = {i for i in adj if terrain_of(i) == "sea" and i != 0}
    if any(len(adj[s] & seas) != 2 for s in seas) or len(bfs(adj, min(seas), seas)) != len(seas):
        out.append("the coastal seas do not form one ring")
    if any(terrain_of(b) != "plains" for b in adj[0]):
        out.append("the Heartmere touches more than the six strands")
    if any(not adj[i] & {j for j in adj if terrain_of(j) != "sea"} for i in adj if i not in land):
        out.append("a sea without a coast")
    edge = [i for i in adj if terrain_of(i) != "sea" and any(
        math.hypot(x - CX, y - CY) > MAP_R * S - 1 for x, y in m["cells"][i])]
    if edge:
        out.append(f"land reaches the map edge: {edge}")
    return out


def chaos_candidates(adj: dict[int, set[int]], spots: list[int]) -> list[int]:
    far = set(adj)
    for x in spots:
        d = bfs(adj, x)
        far &= {i for i in adj if d[i] >= 3}
    return sorted(i for i in far if terrain_of(i) in ("plains", "forest", "hills"))


def territory(adj: dict[int, set[int]], spots: list[int],
              dists: dict[int, dict[int, int]] | None = None) -> dict[int, dict[str, int]]:
    """Areas strictly nearest each citadel (ties go to nobody) and their village room."""
    dists = dists or {x: bfs(adj, x) for x in spots}
    out = {x: {"areas": 0, "land": 0, "village_slots": 0, "seas": 0} for x in spots}
    cap = {"plains": 2, "forest": 1, "hills": 1}
    for i in adj:
        best = min(dists[x][i] for x in spots)
        owners = [x for x in spots if dists[x][i] == best]
        if len(owners) == 1:
            t = out[owners[0]]
            t["areas"] += 1
            t["land"] += terrain_of(i) != "sea"
            t["seas"] += terrain_of(i) == "sea"
            t["village_slots"] += cap.get(terrain_of(i), 0) if i != owners[0] else 0
    return out


def balanced_spots(adj: dict[int, set[int]], realms: tuple[int, ...]) -> list[int]:
    """One coastal citadel area per listed realm, pairwise at least 4 apart, chosen so that the
    citadels' territories (areas nearest each) are as even as possible: smallest spread of
    village room, then of areas, then the most Tors, then the earliest combination."""
    coastal = {i for i in adj if any(terrain_of(j) == "sea" and j != 0 for j in adj[i])}
    options = [[area_id(k, key) for key in KEYS if area_id(k, key) in coastal
                and terrain_of(area_id(k, key)) in ("plains", "forest", "hills")] for k in realms]
    dists = {i: bfs(adj, i) for group in options for i in group}
    best: tuple[int, int, int, list[int]] | None = None
    for combo in itertools.product(*options):
        if any(dists[x][y] < 4 for x, y in itertools.combinations(combo, 2)):
            continue
        t = territory(adj, list(combo), dists)
        slots = [t[x]["village_slots"] for x in combo]
        areas = [t[x]["areas"] for x in combo]
        tors = sum(1 for x in combo if KEYS[(x - 1) % PER_SECTOR] == CITADEL_KEY)
        key = (max(slots) - min(slots), max(areas) - min(areas), -tors, list(combo))
        if best is None or key[:3] < best[:3]:
            best = key
    assert best is not None, f"no legal citadel set for realms {realms}"
    return best[3]


def to_json(m: dict) -> dict:
    adj, sites = m["adj"], m["sites"]
    n = len(sites)
    map1 = json.loads(MAP1.read_text(encoding="utf-8"))
    counts: dict[str, int] = {}
    for i in range(n):
        counts[terrain_of(i)] = counts.get(terrain_of(i), 0) + 1
    tors = [area_id(k, CITADEL_KEY) for k in range(6)]
    five_chaos = tors[:5]
    five = balanced_spots(adj, (0, 1, 2, 4, 5))
    four = balanced_spots(adj, (0, 1, 3, 4))

    def spot_set(spots: list[int], note: str) -> dict:
        t = territory(adj, spots)
        return {"spots": spots, "names": [name_of(x) for x in spots],
                "territory_areas": [t[x]["areas"] for x in spots],
                "territory_village_slots": [t[x]["village_slots"] for x in spots],
                "chaos_start_candidates": chaos_candidates(adj, spots), "note": note}

    areas = []
    for i in range(n):
        x, y = sites[i]
        areas.append({"id": i, "terrain": terrain_of(i), "adjacent": sorted(adj[i]),
                      "x": round(x, 1), "y": round(y, 1), "name": name_of(i)})
    sectors = [{"sector": k, "realm": REALMS[k], "tor": tors[k], "bay": area_id(k, "bay"),
                "sound_with_previous_realm": area_id(k, "sound"),
                "areas": [area_id(k, key) for key in KEYS]} for k in range(6)]
    per = {t: sum(1 for x in TEMPLATE if x[2] == t) for t in ("plains", "forest", "hills",
                                                             "mountains", "desert", "sea")}
    return {
        "source": ("House content, not part of the published game: an original 5-6 player map "
                   "for bloodforge, generated by tools/make_grand_map.py (deterministic, stdlib "
                   "only). Terrain rules are copied unchanged from Map 1."),
        "map_id": "grand",
        "name": "The Six Realms of the Heartmere",
        "players": {"min": 5, "max": 6},
        "house_content": True,
        "area_count": n,
        "link_count": sum(len(a) for a in adj.values()) // 2,
        "terrain_counts": dict(sorted(counts.items())),
        "coordinate_space": {
            "width": CANVAS, "height": CANVAS, "origin": "top_left", "y_axis": "down",
            "point": ("the area's Voronoi site: its cell is the part of the map disc nearer to "
                      "it than to any other area's point; two areas border each other exactly "
                      "when their cells share an edge inside the disc"),
            "map_disc": {"cx": CX, "cy": CY, "r": MAP_R * S,
                         "note": "clip the Voronoi cells to this disc; outside it is off the map"},
        },
        "design_notes": [
            f"Six identical realms of {PER_SECTOR} areas ({per['plains']} plains, "
            f"{per['forest']} forest, {per['hills']} hills, {per['mountains']} mountains, "
            f"{per['desert']} desert, {per['sea']} seas) round a central lake, the Heartmere. "
            "The map has exact six-fold rotational symmetry: every realm has the same terrain, "
            "coast and distances.",
            "Each realm's suggested citadel is its Tor (hills) on the coast of its own Bay: "
            "four land neighbours (Meads, Heath, Shore, Cliffwood) and ship access. Neighbouring "
            "Tors are 6 borders apart by land and 4 by sea (Tor-Bay-Sound-Bay-Tor), opposite "
            "ones 8. The realm's Vale, Fields, Meads, Heath and Leas (plains) give village room.",
            "Seas: twelve coastal seas form one ring round the continent (each realm's Bay "
            "alternates with a Sound on the frontier between two realms; about 6 coastal land "
            "areas each), so chains of ships carry units round the coast and a realm can strike "
            "its neighbours by sea. The Heartmere touches the six Strands: a separate inner sea "
            "that ferries units across the middle, worth fighting over. The land is connected "
            "without ships.",
            "Frontiers between realms run out from the Heartmere: Strand (plains), Waste "
            "(desert), Spire (mountains), Gap (plains pass), Rimwood (forest) and the Sound. "
            "Two realms meet at three land crossings - round the Heartmere, through the Waste "
            "(cheap but deadly to stop in) and through the Gap, overlooked by the next realm's "
            "Watch (hills) - plus the sea. Mountains and deserts never touch a Tor and never cut "
            "a realm off; Hill Folk and undead can cut across the Spires.",
            "Player counts (there are five citadel factions; the Chaos Horde has none): 6 "
            "players = 5 citadels + Chaos Horde; 5 players = 5 citadels, or 4 citadels + Chaos "
            "Horde. citadel_spot_sets gives a suggested set for each, with each citadel's "
            "territory (areas nearer to it than to any other citadel) and the legal Chaos "
            "start areas. Players may of course place elsewhere within the rules.",
            "The centre (Strands, Downs, Woods, Leas) is at least 3 from every Tor, so the "
            "Chaos Horde can always start there; with an open realm it may also start in it.",
            "Geometry: sites on a jittered hexagonal lattice (spacing "
            f"{S:.0f} in a {CANVAS:.0f} x {CANVAS:.0f} picture), one sector laid out and "
            "rotated; borders are the Delaunay edges whose Voronoi edge is visible inside the "
            f"map disc, every one at least {MIN_BORDER * S:.0f} long. Rivers are not modelled.",
        ],
        "citadel_spots": tors,
        "citadel_spot_sets": {
            "6_players_chaos": spot_set(five_chaos, (
                f"5 citadels on the Tors of five realms; the Chaos Horde gets {REALMS[5]} "
                f"(its Tor, area {tors[5]}, is a legal start) or the centre, so every player "
                "has a realm")),
            "5_players_no_chaos": spot_set(five, (
                f"5 citadels with {REALMS[3]} left open: the citadels are spread towards the "
                "open realm (Tor, Watch, Watch, Holt, Holt - all coastal) so their territories "
                "are nearly even; using five Tors instead would give the two Tors beside the "
                "open realm about twice the room of the others")),
            "5_players_chaos": spot_set(four, (
                f"4 citadels on the Tors of four realms; {REALMS[2]} and {REALMS[5]} (opposite "
                "each other) stay open, so each citadel has one occupied and one open "
                "neighbour; the Chaos Horde starts in an open realm or the centre")),
            "6_citadels": spot_set(tors, "all six Tors (only with a sixth citadel faction)"),
        },
        "chaos_start_candidates": chaos_candidates(adj, tors),
        "sectors": sectors,
        "generator": {"script": "tools/make_grand_map.py", "seed": m["seed"], "spacing": S,
                      "jitter": JITTER, "twist_degrees": TWIST, "min_border": MIN_BORDER * S},
        "terrain_rules": map1["terrain_rules"],
        "areas": areas,
    }


def svg(m: dict, path: Path) -> None:
    colour = {"plains": "#cfe3a0", "forest": "#5f9a4f", "hills": "#b99a62",
              "mountains": "#8a8580", "desert": "#ecd28c", "sea": "#7fb3d9"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CANVAS:.0f} {CANVAS:.0f}">',
             f'<rect width="{CANVAS:.0f}" height="{CANVAS:.0f}" fill="#2f5f86"/>']
    for i, cell in m["cells"].items():
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in cell)
        parts.append(f'<polygon points="{pts}" fill="{colour[terrain_of(i)]}" stroke="#333" '
                     'stroke-width="4"/>')
    for i, (x, y) in enumerate(m["sites"]):
        parts.append(f'<text x="{x:.0f}" y="{y:.0f}" font-size="44" text-anchor="middle" '
                     f'dominant-baseline="middle">{i}</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--svg", type=Path)
    ap.add_argument("--search", type=int, metavar="N", help="list passing seeds among 0..N-1")
    args = ap.parse_args(argv)
    if args.search:
        for seed in range(args.search):
            m = build(seed)
            if not problems(m):
                print(seed, "min border", round(min(m["borders"].values())))
        return 0
    m = build(SEED)
    bad = problems(m)
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 1
    args.out.write_text(json.dumps(to_json(m), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    if args.svg:
        svg(m, args.svg)
        print(f"wrote {args.svg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
