"""Movement (R-MOV), reachability for NPC automation (spec §2.1, N9, N11, N14) and the geometry of
forced movement (R-FM, KW-PUSH/PULL/THROW).

One search serves everyone: `explore` walks every legal path up to the movement allowance and
keeps, per end hex, the Pareto-best (steps, hazard tiles entered) paths. Humans move by
destination along the path that enters the fewest hazards (then the shortest); NPCs read safe
and unsafe shortest paths from the same table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from .hexes import Hex, distance, neighbours
from .model import Unit
from .world import World


class Route(NamedTuple):
    """One way to an end hex. A named tuple, not a frozen dataclass: searches build thousands
    a game and a tuple is several times cheaper to make (issue 23)."""

    steps: int
    tiles: frozenset[str]  # hazard tiles entered on the way (the destination included)
    path: tuple[Hex, ...]  # hexes entered, in order


def hazard_tiles_at(w: World, mover: Unit) -> dict[Hex, list[str]]:
    """Hexes of hazard tiles that would harm `mover` now (R-HAZ-1, A44, A45), except tiles that
    already hit it this turn (R-HAZ-2: once per turn). Minions and Flying figures: none (R-MIN-9,
    KW-FLY)."""
    if mover.kind == "minion" or mover.is_flying:
        return {}
    out: dict[Hex, list[str]] = {}
    for t in w.board.tiles:
        if not harms(w, t.env, t.owner, mover) or (mover.uid, t.tid) in w.board.hazard_hits:
            continue
        for h in t.hexes:
            out.setdefault(h, []).append(t.tid)
    return out


def harms(w: World, env_id: str, owner: str | None, victim: Unit) -> bool:
    env = w.content.environmental(env_id)
    if not env.hazard or victim.kind == "minion" or victim.is_flying:
        return False
    if owner is not None and owner in w.board.units:
        o = w.board.units[owner]
        if env.owner_immune and (o.uid == victim.uid or w.allies(o, victim)):
            return False
        if env.harms == "enemies_of_owner" and not w.enemies(o, victim):
            return False
    return True


def can_pass(w: World, mover: Unit, h: Hex, occupied: dict[Hex, Unit], blocked: set[Hex]) -> bool:
    """R-MOV-2/3/5, TB10: walls and blocking tiles stop everyone; figures stop all but Flying
    movers and allies."""
    if h not in w.cells or h in blocked:
        return False
    other = occupied.get(h)
    return other is None or other.uid == mover.uid or mover.is_flying or w.allies(mover, other)


def explore(w: World, mover: Unit, max_steps: int, start: Hex | None = None) -> dict[Hex, list[Route]]:
    """Every hex `mover` may end a move on within `max_steps` (its start included, 0 steps),
    with the Pareto-best routes by (steps, distinct hazard tiles).

    *Why a memo:* the same search is asked for by the legal actions, again by the move that
    applies one of them, and several times per NPC step (issue 23: 52 % of random playouts).
    The memo is keyed by everything the search reads (the mover, the figures' spaces and
    sides, the tiles, the mover's hazard hits this turn), so a changed position can never read
    a stale answer. Callers must not change the returned table (it is shared)."""
    origin = start if start is not None else mover.hex
    assert origin is not None
    key, table = _memo(w, mover, max_steps, origin)
    found = table.get(key)
    if found is None:
        if len(table) >= _MEMO_SIZE:
            table.clear()
        found = table[key] = _explore(w, mover, max_steps, origin)
    return found


def explore_within(w: World, mover: Unit, max_steps: int, target: Hex, reach: int) -> dict[Hex, list[Route]]:
    """`explore`'s table for the end hexes within `reach` of `target` (what an NPC's move
    toward its target reads, N11), others maybe left out: states from which no hex within
    `reach` of `target` lies within the steps left (hex distance) are not expanded. A state
    is kept or dropped by its hex and step alone, and a kept state's predecessors are kept,
    so the kept states are found in the same order with the same paths as by the full
    search; every state on a hex within `reach` is kept."""
    found = _memo_get(w, mover, max_steps)
    if found is not None:
        return found
    origin = mover.hex
    assert origin is not None
    key, table = _memo(w, mover, max_steps, origin)
    near_key = ("near", target, reach, *key)
    routes: dict[Hex, list[Route]] | None = table.get(near_key)
    if routes is None:
        routes = _explore(w, mover, max_steps, origin, target, within=reach)
        if len(table) >= _MEMO_SIZE:
            table.clear()
        table[near_key] = routes
    return routes


def _memo_get(w: World, mover: Unit, max_steps: int) -> dict[Hex, list[Route]] | None:
    """The full table if it is in the memo already."""
    origin = mover.hex
    assert origin is not None
    key, table = _memo(w, mover, max_steps, origin)
    found: dict[Hex, list[Route]] | None = table.get(key)
    return found


def destinations(w: World, mover: Unit, max_steps: int) -> list[Hex]:
    """The end hexes of `explore` (its keys), sorted, without working out the routes: what a
    list of move actions needs (a minion's moves are listed at every step of its summoner's
    turn, and seldom taken). Every hex within reach is an end hex whatever hazards lie on the
    way, so the plain search over hexes gives the same set."""
    return list(shared_destinations(w, mover, max_steps))


def shared_destinations(w: World, mover: Unit, max_steps: int) -> list[Hex]:
    """`destinations` without the copy: the memo's own list, the same object for every
    position with the same obstacles near the mover (so a caller may key what it derives
    from it by the object). Callers must not change it."""
    origin = mover.hex
    assert origin is not None
    key, table = _memo(w, mover, max_steps, origin)
    reach_key = ("reach", *key)
    ends: list[Hex] | None = table.get(reach_key)
    if ends is None and (found := table.get(key)) is not None:
        ends = table[reach_key] = sorted(found)  # sorted once, not at every call
    if ends is None:
        # What the walk reads lies within `max_steps` of the origin (the disk): the hexes it
        # may not enter and the figures' spaces it may not end on there. Keyed by those, the
        # answer is the same in every position and game on this map (issue 23: a move
        # elsewhere on the board takes a new layout, and asked again a search it cannot
        # change). Both are read straight off the layout's occupancy, in one pass over the
        # figures, without the mover's whole obstacle set (`_obstacles`, as it would be cut
        # to the disk: blocking tiles, and figures of other sides unless it flies).
        occupants, sides, blocking = _occupancy(w)
        uid, side, flying = mover.uid, mover.side, mover.is_flying
        disk = _disk(origin, max_steps)
        stop = disk & blocking
        others_at = []
        enemies_at = []
        for h, o in occupants.items():
            if o != uid and h in disk:
                if h != origin:
                    others_at.append(h)
                if not flying and sides[h] != side:
                    enemies_at.append(h)
        if enemies_at:
            stop = stop.union(enemies_at)
        others = frozenset(others_at)
        geo_key = (w.cells, origin, max_steps, stop, others)
        ends = _ENDS.get(geo_key)
        if ends is None:
            around = _neighbour_table(w.cells)
            if origin not in around:  # a start outside the arena (scenarios): only its neighbours in it
                around = {**around, origin: tuple(n for n in neighbours(origin) if n in w.cells)}
            # the walk tests only hexes within the disk, so the obstacles there are all it needs;
            # no end on another figure's space (every hex reached lies in the disk)
            ends = sorted(_reach(max_steps, origin, stop, around) - others)
            if len(_ENDS) >= _GEO_SIZE:
                _ENDS.clear()
            _ENDS[geo_key] = ends
        if len(table) >= _MEMO_SIZE:
            table.clear()
        table[reach_key] = ends
    return ends


def _disk(origin: Hex, radius: int) -> frozenset[Hex]:
    """Every hex (inside the arena or not) within `radius` of `origin`, made once per origin
    and radius: the part of the obstacles a walk of `radius` steps can read is their
    intersection with it (worked out by hex distance per obstacle before, the key of the
    end-hex cache cost more than half the walk it saves; issue 23)."""
    key = (origin, radius)
    found = _DISKS.get(key)
    if found is None:
        if len(_DISKS) > 8192:
            _DISKS.clear()
        oq, or_ = origin
        found = _DISKS[key] = frozenset((oq + dq, or_ + dr) for dq in range(-radius, radius + 1)
                                        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1))
    return found


_DISKS: dict[tuple[Hex, int], frozenset[Hex]] = {}


#: Answers of the walk over hexes by what it reads (see `destinations`): pure
#: functions of the map, the origin, the steps and the obstacles near the origin, so shared by
#: every state in the process. Their values are never changed (callers copy).
_GEO_SIZE = 8192
_ENDS: dict[tuple[Any, ...], list[Hex]] = {}


def routes_to(w: World, mover: Unit, max_steps: int, to: Hex) -> list[Route]:
    """`explore(w, mover, max_steps)[to]` without searching the rest of the table: states
    that cannot reach `to` in the steps left (hex distance) are not expanded, which leaves
    the states that can exactly as the full search finds them (the move that applies one of
    the listed `move` actions needs one destination's routes)."""
    origin = mover.hex
    assert origin is not None
    key, table = _memo(w, mover, max_steps, origin)
    found = table.get(key)
    if found is not None:
        return found[to]  # type: ignore[no-any-return]
    to_key = ("to", to, *key)
    routes: list[Route] | None = table.get(to_key)
    if routes is None:
        routes = _explore(w, mover, max_steps, origin, to)[to]
        if len(table) >= _MEMO_SIZE:
            table.clear()
        table[to_key] = routes
    return routes


def search_key(w: World, mover: Unit, max_steps: int) -> tuple[Any, ...]:
    """Everything a search of `mover` from its space reads (the memo key of `explore`), for
    callers that memoise what they derive from a search in `World.layout_memo`."""
    origin = mover.hex
    assert origin is not None
    return _memo(w, mover, max_steps, origin)[0]


def _memo(w: World, mover: Unit, max_steps: int, origin: Hex) -> tuple[tuple[Any, ...], dict[Any, Any]]:
    """The memo key of a search (everything it reads) and the state's memo table."""
    b = w.board
    hits = _EMPTY
    if b.hazard_hits:
        me = mover.uid
        mine = [t for uid, t in b.hazard_hits if uid == me]
        if mine:
            hits = frozenset(mine)
    # The layout token stands for the figures' spaces, lives and sides and the tiles (every
    # change of them takes a new token: `Board.moved`), the rest is read here.
    key = (mover.uid, mover.kind, mover.side, mover.is_flying, origin, max_steps, b.layout, hits)
    return key, w.layout_memo()


def _obstacles(w: World, mover: Unit, origin: Hex) -> tuple[dict[Hex, str], set[Hex], dict[Hex, tuple[Hex, ...]]]:
    """What a search needs of the board: who (unit id) stands where, the hexes `mover` may
    not enter (R-MOV-2/3/5, TB10: blocking tiles, and figures other than itself, its allies,
    or any figure when it flies), and each hex's neighbours inside the arena. The first two
    are memoised by the layout (`Board.layout`), the mover and whether it flies (a side
    is fixed in play); callers must not change them."""
    flying = mover.is_flying
    table = w.layout_memo()
    key = ("obstacles", w.board.layout, mover.uid, flying)
    found: tuple[dict[Hex, str], set[Hex]] | None = table.get(key)
    if found is None:
        occupants, sides, blocking = _occupancy(w)
        stop = set(blocking)
        if not flying:
            me, side = mover.uid, mover.side
            for h, uid in occupants.items():
                if uid != me and sides[h] != side:
                    stop.add(h)
        found = (occupants, stop)
        if len(table) >= _MEMO_SIZE:
            table.clear()
        table[key] = found
    occupants, stop = found
    around = _neighbour_table(w.cells)
    if origin not in around:  # a start outside the arena (scenarios): only its neighbours in it
        around = {**around, origin: tuple(n for n in neighbours(origin) if n in w.cells)}
    return occupants, stop, around


def _occupancy(w: World) -> tuple[dict[Hex, str], dict[Hex, int], frozenset[Hex]]:
    """Who (unit id) stands where, their sides, and the blocking tiles' hexes: the same for
    every mover, memoised by the layout (`Board.layout`). Callers must not change them."""
    table = w.layout_memo()
    key = ("occupancy", w.board.layout)
    layout: tuple[dict[Hex, str], dict[Hex, int], frozenset[Hex]] | None = table.get(key)
    if layout is None:
        ids: dict[Hex, str] = {}
        sides_at: dict[Hex, int] = {}
        for o in w.board.units.values():  # `World.occupied` in one pass (the last on a hex wins there too)
            if o.alive and o.hex is not None:
                ids[o.hex] = o.uid
                sides_at[o.hex] = o.side
        layout = (ids, sides_at, frozenset(w.blocking_tiles()))
        if len(table) >= _MEMO_SIZE:
            table.clear()
        table[key] = layout
    return layout


_MEMO_SIZE = 1024
_route = tuple.__new__  # Route(...) without the named tuple's Python-level constructor
_EMPTY: frozenset[str] = frozenset()
_NEIGHBOURS: dict[frozenset[Hex], dict[Hex, tuple[Hex, ...]]] = {}


def _neighbour_table(cells: frozenset[Hex]) -> dict[Hex, tuple[Hex, ...]]:
    """Each cell's neighbours inside the arena, in `neighbours` order (walls are never entered)."""
    table = _NEIGHBOURS.get(cells)
    if table is None:
        if len(_NEIGHBOURS) > 16:
            _NEIGHBOURS.clear()
        table = _NEIGHBOURS[cells] = {h: tuple(n for n in neighbours(h) if n in cells) for h in cells}
    return table


def _explore(w: World, mover: Unit, max_steps: int, origin: Hex, to: Hex | None = None,
             within: int | None = None) -> dict[Hex, list[Route]]:
    """The search itself: breadth first over (hex, hazard tiles entered), the first path found
    kept per pair, in the same order as the rules' plain reading (see `can_pass`). With `to`,
    only states that can still reach `to` are expanded and only its routes are returned;
    with `within` as well, only states that can still reach a hex within `within` of `to`
    are expanded and the routes of every hex reached are returned (`explore_within`)."""
    pad = 0 if within is None else within
    only = to if within is None else None  # the one end hex asked for, if any
    occupied, stop, around = _obstacles(w, mover, origin)
    harmful = hazard_tiles_at(w, mover)
    far = _distances(w.cells, to) if to is not None else None
    oq, or_ = origin
    near = False  # a hazard hex within max_steps as the crow flies (a path is never shorter)
    for hq, hr in harmful:
        dq, dr = hq - oq, hr - or_
        if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= max_steps:
            near = True
            break
    if not near:
        seen = _plain_search(max_steps, origin, stop, around, far, pad)
        uid = mover.uid
        return {h: [route] for h, route in seen.items()
                if (only is None or h == only) and (h == origin or (o := occupied.get(h)) is None or o == uid)}
    # Sets of tiles as bit masks (one bit per tile id): the same set algebra, cheaper.
    bits: dict[str, int] = {}
    hazards: dict[Hex, int] = {}
    for h, tids in harmful.items():
        mask = 0
        for tid in tids:
            mask |= bits.setdefault(tid, 1 << len(bits))
        hazards[h] = mask
    # A state whose tiles strictly include those of a state on the same hex reached in fewer
    # steps is not expanded: it and everything after it is worse in both steps and tiles than
    # what the better state leads to, so it can never be Pareto-best, and it is never the
    # first to reach a state that is (the answer is the same table as the plain search).
    best: dict[tuple[Hex, int], tuple[int, tuple[Hex, ...]]] = {(origin, 0): (0, ())}
    single = len(bits) == 1  # the usual case (a Boss's one signature tile): no subset lists needed
    at: dict[Hex, list[tuple[int, int]]] = {origin: [(0, 0)]}
    frontier: list[tuple[Hex, int, tuple[Hex, ...]]] = [(origin, 0, ())]
    for step in range(1, max_steps + 1):
        nxt: list[tuple[Hex, int, tuple[Hex, ...]]] = []
        bound = max_steps - step + pad
        for here, got, path in frontier:
            for n in around[here]:
                if n in stop:
                    continue
                if far is not None and far[n] > bound:
                    continue  # cannot reach `to` (or a hex within `pad` of it) any more
                tiles = got | hazards.get(n, 0)
                key = (n, tiles)
                if key in best:
                    continue
                if single:  # one tile: the only smaller set is the empty one
                    if tiles:
                        clear = best.get((n, 0))
                        if clear is not None and clear[0] < step:
                            continue
                    p = (*path, n)
                    best[key] = (step, p)
                    nxt.append((n, tiles, p))
                    continue
                prior = at.get(n)
                if prior is None:
                    at[n] = [(step, tiles)]
                else:
                    if tiles:
                        dominated = False
                        for s_, t_ in prior:
                            if s_ < step and t_ | tiles == tiles and t_ != tiles:
                                dominated = True
                                break
                        if dominated:
                            continue
                    prior.append((step, tiles))
                p = (*path, n)
                best[key] = (step, p)
                nxt.append((n, tiles, p))
        frontier = nxt
    names = sorted(bits, key=bits.__getitem__)
    sets: dict[int, frozenset[str]] = {0: _EMPTY}
    out: dict[Hex, list[Route]] = {}
    for (h, mask), (steps, path) in best.items():
        if only is not None and h != only:
            continue
        if h != origin and h in occupied and occupied[h] != mover.uid:
            continue  # may pass, may not end (R-MOV-2, R-MOV-5, KW-FLY)
        entered = sets.get(mask)
        if entered is None:
            entered = sets[mask] = frozenset(t for i, t in enumerate(names) if mask >> i & 1)
        r = _route(Route, (steps, entered, path))
        routes = out.get(h)
        if routes is None:
            out[h] = [r]
        else:
            routes.append(r)
    for h, routes in out.items():
        if len(routes) == 1:
            continue
        routes.sort(key=lambda r: (r.steps, len(r.tiles), sorted(r.tiles), r.path))
        pareto: list[Route] = []
        for r in routes:
            if all(len(p.tiles) > len(r.tiles) for p in pareto):
                pareto.append(r)
        out[h] = pareto
    return out


def _distances(cells: frozenset[Hex], to: Hex) -> dict[Hex, int]:
    """Hex distance from every cell to `to`, made once per map and hex: the searches toward
    one hex (`routes_to`, `explore_within`) test it for every neighbour they meet (issue 23:
    three `abs` per test before)."""
    key = (cells, to)
    found = _DISTANCES.get(key)
    if found is None:
        if len(_DISTANCES) > 4096:
            _DISTANCES.clear()
        tq, tr = to
        found = _DISTANCES[key] = {h: (abs(h[0] - tq) + abs(h[1] - tr) + abs(h[0] - tq + h[1] - tr)) // 2
                                   for h in cells}
    return found


_DISTANCES: dict[tuple[frozenset[Hex], Hex], dict[Hex, int]] = {}


def _reach(max_steps: int, origin: Hex, stop: frozenset[Hex] | set[Hex],
           around: dict[Hex, tuple[Hex, ...]]) -> set[Hex]:
    """The hexes `_plain_search` enters (its keys), without making the paths: the same
    breadth-first walk over hexes, a ring of new hexes per step, so the same set (the rings
    made with set operations: one C call per hex instead of six tests; issue 23)."""
    seen = {origin}
    frontier: Iterable[Hex] = (origin,)
    for _ in range(max_steps):
        ring: set[Hex] = set()
        for here in frontier:
            ring.update(around[here])
        ring -= seen
        ring -= stop
        if not ring:
            break
        seen |= ring
        frontier = ring
    return seen


def _plain_search(max_steps: int, origin: Hex, stop: set[Hex], around: dict[Hex, tuple[Hex, ...]],
                  far: dict[Hex, int] | None = None, pad: int = 0) -> dict[Hex, Route]:
    """Breadth first over hexes, the first (shortest) path kept per hex: `_explore`'s answer
    when no hex within reach holds a hazard for the mover (no route can enter a tile, so
    the states are the hexes, met in the same order). With `far` (every cell's distance to
    a hex `to`, `_distances`), hexes from which no hex within `pad` of `to` lies within the
    steps left are not entered."""
    seen: dict[Hex, Route] = {origin: Route(0, _EMPTY, ())}
    frontier: list[tuple[Hex, tuple[Hex, ...]]] = [(origin, ())]
    for step in range(1, max_steps + 1):
        nxt: list[tuple[Hex, tuple[Hex, ...]]] = []
        bound = max_steps - step + pad
        for here, path in frontier:
            for n in around[here]:
                if n in seen or n in stop:
                    continue
                if far is not None and far[n] > bound:
                    continue
                p = (*path, n)
                seen[n] = _route(Route, (step, _EMPTY, p))
                nxt.append((n, p))
        frontier = nxt
    return seen


def safest(routes: list[Route]) -> Route:
    """A human's move: fewest hazard tiles, then fewest steps (ruling: a Move is a destination)."""
    return min(routes, key=lambda r: (len(r.tiles), r.steps, r.path))


def safe_steps(routes: list[Route]) -> int | None:
    """Length of the shortest safe route (no hazard entered), if any (spec §2.1 safe path)."""
    safe = [r.steps for r in routes if not r.tiles]
    return min(safe) if safe else None


def shortest(routes: list[Route]) -> Route:
    """Shortest route, then fewest hazard tiles (N11c, TB4)."""
    return min(routes, key=lambda r: (r.steps, len(r.tiles), r.path))


def step_options(w: World, subject: Unit, origin: Hex, kind: str) -> list[tuple[Hex, str]]:
    """One step of a Push/Pull (KW-PUSH/PULL): each hex one farther (push) or closer (pull) than
    now, with what happens there: 'free', 'wall', 'figure' or 'solid' (a collision, R-FM-6)."""
    assert subject.hex is not None
    now = distance(subject.hex, origin)
    want = now + 1 if kind in ("push", "throw") else now - 1
    if want < 0:
        return []
    occupied = w.occupied()
    solid = w.solid_tiles()
    out: list[tuple[Hex, str]] = []
    for n in neighbours(subject.hex):
        if distance(n, origin) != want:
            continue
        if n not in w.cells:
            out.append((n, "wall"))
        elif n in occupied and occupied[n].uid != subject.uid:
            out.append((n, "figure"))
        elif n in solid:
            out.append((n, "solid"))
        else:
            out.append((n, "free"))
    return sorted(out)


def throw_landings(w: World, subject: Unit, origin: Hex, amount: int) -> tuple[list[Hex], bool]:
    """KW-THROW with TB12: free hexes at the full distance reachable by steps each one farther,
    passing over figures; else the farthest free ones. The flag says a wall stopped the throw
    short (a collision with the Arena wall)."""
    assert subject.hex is not None
    occupied = w.occupied()
    layers: list[set[Hex]] = [{subject.hex}]
    for _ in range(amount):
        nxt: set[Hex] = set()
        for h in layers[-1]:
            for n in neighbours(h):
                if n in w.cells and distance(n, origin) == distance(h, origin) + 1:
                    nxt.add(n)
        if not nxt:
            break
        layers.append(nxt)
    walled = len(layers) - 1 < amount
    for layer in reversed(layers[1:]):
        free = sorted(h for h in layer if h not in occupied)
        if free:
            return free, walled
    return [], walled
