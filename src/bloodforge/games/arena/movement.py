"""Movement (R-MOV), reachability for NPC automation (spec §2.1, N9, N11, N14) and the geometry of
forced movement (R-FM, KW-PUSH/PULL/THROW).

One search serves everyone: `explore` walks every legal path up to the movement allowance and
keeps, per end hex, the Pareto-best (steps, hazard tiles entered) paths. Humans move by
destination along the path that enters the fewest hazards (then the shortest); NPCs read safe
and unsafe shortest paths from the same table.
"""

from __future__ import annotations

from itertools import count
from typing import Any, NamedTuple

from .hexes import Hex, distance, neighbours
from .model import Tile, Unit
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
    """`explore`'s table cut to the end hexes within `reach` of `target` (what an NPC's move
    toward its target reads, N11; the full table instead when the memo holds it already,
    so callers must cut it themselves): states from which no hex within
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


def shared_destinations(w: World, mover: Unit, max_steps: int) -> tuple[Hex, ...]:
    """`destinations` without the copy: the cache's own tuple, the same object for every
    position with the same obstacles near the mover (so a caller may key what it derives
    from it by the object). Callers must not change it.

    What the walk reads lies within `max_steps` of the origin (the disk): the hexes it may
    not enter and the figures' spaces it may not end on there. Keyed by those, the answer is
    the same in every position and game on this map (a move elsewhere on the board takes a
    new layout, and asked again a search it cannot change). Both are sets of hexes as bit
    masks over the map (`_Grid`), read off the layout's occupancy, so the key is three `&`
    and the walk a few shifts per step (issue 23: the sets of `(q, r)` tuples of before, the
    key and the walk were ~15 % of six-seat playouts)."""
    origin = mover.hex
    assert origin is not None
    grid = _grid(w.cells)
    pos = grid.pos(origin)
    if pos is None:  # farther than a step beyond the wall (scenarios): no step can be taken
        return _stranded(origin)
    key = _ends_key(w, grid, mover, pos, max_steps)
    ends = _ENDS.get(key)
    if ends is None:
        ends = tuple(grid.hexes_of(_ends_mask(grid, key)))
        if len(_ENDS) >= _GEO_SIZE:
            _ENDS.clear()
        _ENDS[key] = ends
    return ends


def end_mask(w: World, mover: Unit, max_steps: int) -> tuple[_Grid, int] | None:
    """`shared_destinations` as a bit mask over the map's grid (with the grid), or None when
    the start lies beyond the grid's box (scenarios; callers then read the hexes).

    *Why:* "is some end hex within Range of this figure?" (N9, asked at every NPC's target
    step and again for its Ultimate) is then one `&` with the figure's disk of that radius
    (`_Grid.disk`, made once per hex and radius), not a hex distance per end hex in Python
    (issue 23: that loop was the NPC target step's largest own time)."""
    origin = mover.hex
    assert origin is not None
    grid = _grid(w.cells)
    pos = grid.pos(origin)
    if pos is None:
        return None
    return grid, _end_cells(w, grid, mover, pos, max_steps)


def move_mask(w: World, mover: Unit, max_steps: int) -> tuple[_Grid, int] | None:
    """The end hexes of `shared_destinations` but the mover's own space, as a bit mask over
    the map's grid (with the grid); None when the start lies beyond the grid's box (its only
    end hex is then its start, so it has no move).

    *Why:* a Champion's (or a minion's) `move` actions are one per end hex but its own
    space; read off the mask by byte (`_Grid.byte_hexes`) they need no tuple of hexes
    (`hexes_of`, ~4 % of six-seat playouts) and no second pass mapping hexes to actions
    (`player._move_actions`, issue 23)."""
    origin = mover.hex
    assert origin is not None
    grid = _grid(w.cells)
    pos = grid.pos(origin)
    if pos is None:
        return None
    return grid, _end_cells(w, grid, mover, pos, max_steps) & ~(1 << pos)


def roster(w: World) -> dict[Any, Any]:
    """A table for answers that read only which figures stand on the board (alive, with a
    space) and their fixed traits (kind, summoner, side, content): the same object for every
    layout made from the last one while only spaces changed (`_moved_layout`), a new one
    when a figure entered or left the board or the layout was read afresh. Callers key it
    by what else they read and must not change their answers in it.

    *Why:* a summoner's minions were looked up again after every change of layout
    (`player._minions_of`, a pass over every figure; issue 23), though figures seldom enter
    or leave the board."""
    return _layout(w, _grid(w.cells)).roster


def foes_mask(w: World, side: int) -> tuple[_Grid, int] | None:
    """The grid and the spaces of the damageable enemies of `side` (living figures of other
    sides with Hit Points) as a bit mask over it; None when the masks cannot say it: a
    figure beyond the wall (the masks hold cells only), two figures on one hex.

    *Why:* "is an enemy within Range R of this hex?" (a summoner's offered attacks, from its
    space and from each of its minions, asked after every change of layout) is then
    `grid.disk(pos, R) & foes`, read off the layout's record that the minions' move listing
    made already, not hex distances from every origin to every enemy (issue 23)."""
    grid = _grid(w.cells)
    lay = _layout(w, grid)
    occ = lay.occ
    if lay.crowded or len(lay.where) != occ.bit_count():
        return None
    return grid, occ & ~lay.by_side.get(side, 0) & ~lay.nohp


def _ends_key(w: World, grid: _Grid, mover: Unit, pos: int, max_steps: int) -> tuple[int, int, int, int, int]:
    """What the walk of `shared_destinations` reads: the map (its grid's serial), the start,
    the steps, the cells it may not enter and those it may not end on, both cut to the disk
    of the steps."""
    stop, others = _walk_limits(w, grid, mover, pos, max_steps)
    return (grid.serial, pos, max_steps, stop, others)


def _walk_limits(w: World, grid: _Grid, mover: Unit, pos: int, max_steps: int) -> tuple[int, int]:
    """The cells the walk may not enter and those it may not end on (another figure's space),
    both cut to the disk of the steps: all the walk reads of the position."""
    lay = _layout(w, grid)
    disk = grid.disk(pos, max_steps)
    occ = lay.occ & disk
    stop = lay.blocking & disk
    if not mover.is_flying:  # figures of other sides block the way (allies and a flier pass)
        stop |= occ & ~lay.by_side.get(mover.side, 0)
    return stop, occ & ~(1 << pos)


def _ends_mask(grid: _Grid, key: tuple[int, int, int, int, int]) -> int:
    """The walk's end cells for an `_ends_key` (the start included)."""
    _, pos, max_steps, stop, others = key
    return grid.walk(1 << pos, max_steps, stop) & ~others


def _end_cells(w: World, grid: _Grid, mover: Unit, pos: int, max_steps: int) -> int:
    """`_ends_mask(grid, _ends_key(...))` without the key: the walk's end cells (the start
    included) from what the layout's record says near the mover.

    *Why not kept per key:* a walk of a few steps is a few shifts of ints, and the look-up
    of a tuple of big ints in a process-wide table (`_MASKS` until the eighth session) cost
    as much: without it solo playouts measured 0.998x, six seats 1.025x."""
    stop, others = _walk_limits(w, grid, mover, pos, max_steps)
    return grid.walk(1 << pos, max_steps, stop) & ~others


def _stranded(origin: Hex) -> tuple[Hex, ...]:
    """The end hexes of a start with no cell beside it: itself (one tuple per start)."""
    key = ("stranded", origin)
    ends = _ENDS.get(key)
    if ends is None:
        ends = _ENDS[key] = (origin,)
    return ends


#: Answers of the walk over hexes by what it reads (see `shared_destinations`): pure
#: functions of the map, the origin, the steps and the obstacles near the origin, so shared by
#: every state in the process. Their values are never changed (callers copy). Keys and
#: values hold only ints, strings and tuples of them (the map by its grid's serial number,
#: not its frozenset of cells), so the cyclic collector untracks them at its first pass and
#: never walks them again (issue 23: they were most of what it promoted and what its full
#: passes walked).
_GEO_SIZE = 8192
_ENDS: dict[tuple[Any, ...], tuple[Hex, ...]] = {}


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


def move_path(w: World, mover: Unit, max_steps: int, to: Hex) -> tuple[Hex, ...]:
    """`safest(routes_to(w, mover, max_steps, to)).path`: the path of a player's move (or of
    a player's minion's move) to a listed destination.

    *Why not through `routes_to`:* the safest route is the one that enters no harmful tile
    whenever there is one (fewest tiles first), and of those there is exactly one, the
    search's state (destination, no tile), which the plain walk with the harmful cells as
    stops meets by the same path (`_explore`). So a move needs no memo key, no table, no
    check for a shorter route through a tile (what the Pareto set needs and the safest
    route does not) and no `Route`s; `routes_to` decides only when every route enters a
    tile, a start beyond the grid's box, or a destination another figure stands on (issue
    23: a solo player's move cost ~25 us, and hazards lie near 6 of 10 moves)."""
    origin = mover.hex
    assert origin is not None
    grid = _grid(w.cells)
    start = grid.pos(origin)
    goal = start if to == origin else grid.index.get(to)
    if start is not None and goal is not None:
        lay = _layout(w, grid)
        there = lay.ids.get(to)
        if there is None or there == mover.uid:
            stop = lay.blocking
            if not mover.is_flying:
                stop |= lay.occ & ~lay.by_side.get(mover.side, 0)
            for _, cells in _near_hazards(w, grid, mover, grid.disk(start, max_steps)):
                stop |= cells
            path = _mask_path(grid, max_steps, start, goal, stop)
            if path is not None:
                return path
    return safest(routes_to(w, mover, max_steps, to)).path


def _safe_walk(w: World, mover: Unit, max_steps: int) -> tuple[_Grid, int, _Layout, frozenset[int]] | None:
    """What a walk that enters no harmful tile starts from: the grid, the mover's position on
    it, the layout, and the stops (the side's stops and the cells of the tiles that would harm
    it within `max_steps`); None when the start lies beyond the grid's box (scenarios).
    Shared by `nearest_safe` and `safe_routes`, which read the same tile-free states."""
    origin = mover.hex
    assert origin is not None
    grid = _grid(w.cells)
    start = grid.pos(origin)
    if start is None:
        return None
    lay = _layout(w, grid)
    stop = _stops(lay, grid, mover.side, mover.is_flying)
    near = _near_hazards(w, grid, mover, grid.disk(start, max_steps))
    if near:
        cells = 0
        for _, m in near:
            cells |= m
        stop = stop | grid.positions(cells)
    return grid, start, lay, stop


def nearest_safe(w: World, mover: Unit, max_steps: int, to: Hex, reach: int) -> list[tuple[Hex, Route]] | None:
    """N11's safe answer without the Pareto search: the end hexes within `reach` of `to` that
    a route entering no hazard tile reaches in the fewest steps, sorted, each with that route
    (`explore_within(...)` cut to `reach`, then the hexes with a tile-free route of the
    fewest steps); None when there is none (or the start lies beyond the wall), so the
    caller asks the full search.

    *Why:* the states with no tile entered are the plain walk with the harmful tiles' cells
    as stops, met in the same order with the same first paths as in `_explore` (a state
    with no tile is only ever reached from one), and the walk can stop at the first step
    that meets such a hex (issue 23: an NPC's move toward its target was 7 % of solo
    playouts, a Pareto search over every step even when a safe hex was two steps away).

    *Why by masks* (eighth session): the walk is a ring of cells per step on the layout's
    masks (`_Grid.walk`'s shifts), the end hexes the first ring's cells within `reach` of
    `to` that no other figure stands on, and each end's path the one `_mask_path` finds:
    the path the breadth-first walk with parents (`_nearest_safe_plain`, kept as the
    reference) meets it by. The plain walk does not enter cells from which no hex within
    `reach` of `to` can be reached in the steps left; a cell on a shortest path to an end
    never is such a cell, nor is any cell it can be met from at its step, so the first
    step with an end, its ends and their paths are the same without that pruning. The
    plain walk made a set of stops and a parent entry per cell met (~18 us a call in solo
    playouts, 3 % of them)."""
    origin = mover.hex
    assert origin is not None
    grid = _grid(w.cells)
    start = grid.pos(origin)
    goal = grid.pos(to)
    if start is None or goal is None:
        return _nearest_safe_plain(w, mover, max_steps, to, reach)
    lay = _layout(w, grid)
    stop = lay.blocking
    if not mover.is_flying:
        stop |= lay.occ & ~lay.by_side.get(mover.side, 0)
    for _, cells in _near_hazards(w, grid, mover, grid.disk(start, max_steps)):
        stop |= cells
    zone = grid.disk(goal, reach) & ~lay.occ  # the cells an end may be on (no figure there)
    free = grid.inside & ~stop
    a = grid.stride
    b = a - 1
    seen = front = 1 << start
    for step in range(1, max_steps + 1):
        front = (front << a | front >> a | front << 1 | front >> 1 | front << b | front >> b) & free & ~seen
        if not front:
            return None
        ends = front & zone
        if ends:
            hexes = grid.hexes
            out: list[tuple[Hex, Route]] = []
            while ends:  # ascending positions: `(q, r)` order
                low = ends & -ends
                n = low.bit_length() - 1
                ends ^= low
                path = _mask_path(grid, step, start, n, stop)
                assert path is not None  # the ring met it at this step
                out.append((hexes[n], _route(Route, (step, _EMPTY, path))))
            return out
        seen |= front
    return None


def _nearest_safe_plain(w: World, mover: Unit, max_steps: int, to: Hex, reach: int) -> list[tuple[Hex, Route]] | None:
    """`nearest_safe` by the breadth-first walk with parents over positions: the reference
    its masks are tested against, and its answer for a start or a target beyond the grid's
    box (scenarios)."""
    walk = _safe_walk(w, mover, max_steps)
    if walk is None:
        return None
    grid, start, lay, stop = walk
    far = grid.far(to)
    around, hexes, occupied, uid = grid.around, grid.hexes, lay.ids, mover.uid
    parent = {start: start}
    frontier = [start]
    for step in range(1, max_steps + 1):
        nxt = []
        ends = []
        bound = max_steps - step + reach
        for here in frontier:
            for n in around[here]:
                if n in parent or n in stop or far[n] > bound:
                    continue
                parent[n] = here
                nxt.append(n)
                if far[n] <= reach and ((o := occupied.get(hexes[n])) is None or o == uid):
                    ends.append(n)
        if ends:
            out: list[tuple[Hex, Route]] = []
            for n in sorted(ends):  # positions run in `(q, r)` order
                path = [hexes[n]]
                i = parent[n]
                while i != start:
                    path.append(hexes[i])
                    i = parent[i]
                out.append((hexes[n], _route(Route, (step, _EMPTY, tuple(reversed(path))))))
            return out
        frontier = nxt
    return None


def safe_routes(w: World, mover: Unit, max_steps: int) -> dict[Hex, Route] | None:
    """Every end hex of `explore(w, mover, max_steps)` that a route entering no harmful tile
    reaches, with that route: the one tile-free route its table holds there (the fewest
    steps, its first path). None when the start lies beyond the grid's box (scenarios).

    *Why:* the states with no tile entered are the plain walk with the harmful tiles' cells
    as stops, met in the same order with the same first paths as in `_explore` (a state
    with no tile is only ever reached from one, and never pruned), so an answer that reads
    only the safe routes (N14's approach when a safe hex brings the NPC closer) needs no
    Pareto search over the tiles (issue 23: an idle NPC's full search was ~1 % of solo
    playouts)."""
    walk = _safe_walk(w, mover, max_steps)
    if walk is None:
        return None
    grid, start, lay, stop = walk
    hexes, occupied, uid = grid.hexes, lay.ids, mover.uid
    out: dict[Hex, Route] = {}
    for i, path in _plain_search(max_steps, start, stop, grid.around, hexes).items():
        h = hexes[i]
        if i == start or (o := occupied.get(h)) is None or o == uid:  # no end on another's space
            out[h] = _route(Route, (len(path), _EMPTY, path))
    return out


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


def _stops(lay: _Layout, grid: _Grid, side: int, flying: bool) -> frozenset[int]:
    """The cells (grid positions) a mover of `side` may not enter (R-MOV-2/3/5, TB10:
    blocking tiles, and figures of other sides unless it flies; its own space and its allies'
    are passed): the same for every mover of that side and flying in one layout. Callers
    must not change it."""
    found = lay.stops.get((side, flying))
    if found is None:
        mask = lay.blocking if flying else lay.blocking | lay.occ & ~lay.by_side.get(side, 0)
        found = lay.stops[(side, flying)] = grid.positions(mask)
    return found


class _Layout:
    """What the searches read off one layout (`Board.layout`), made once per layout: who
    (unit id) stands where and where each figure stands, and as bit masks over the map's
    cells (`_Grid`) the figures' spaces, each side's, the blocking tiles' hexes; then, as
    searches ask for them, the stops per side and flying (issue 23: each was a memo lookup
    of its own before). Hexes beyond the wall are left out of the masks: no walk enters
    them, and none ends on one but its own start. `crowded`: two figures share a hex (never
    in play; `ids` then names the last). Callers must not change any of it. Made for every
    new layout token (~4 % of six-seat playouts): from the record before when only some
    figures moved since (`_moved_layout`), else in one pass over the figures with each
    cell's bit read from a table and the blocking tiles' cells from each tile's mask
    (`_tile_cells`)."""

    __slots__ = ("blocking", "by_side", "crowded", "ids", "nohp", "occ", "roster", "stops", "where")

    def __init__(self, ids: dict[Hex, str], occ: int, by_side: dict[int, int], blocking: int,
                 where: dict[str, Hex], crowded: bool, nohp: int, roster: dict[Any, Any] | None = None) -> None:
        self.ids = ids
        self.occ = occ
        self.by_side = by_side
        self.blocking = blocking
        self.where = where
        self.crowded = crowded
        self.nohp = nohp  # the spaces of figures with no Hit Points (never damaged: no attack's target)
        self.stops: dict[tuple[int, bool], frozenset[int]] = {}
        #: What callers derive from which figures stand on the board (`roster`): shared by
        #: the records made from this one while no figure enters or leaves the board.
        self.roster: dict[Any, Any] = {} if roster is None else roster

    def __reduce__(self) -> tuple[type[_Layout], tuple[dict[Hex, str], int, dict[int, int], int, dict[str, Hex], bool,
                                                       int, dict[Any, Any]]]:
        """Pickled by its constructor's arguments (the stops are made again on demand).

        *Why:* a layout lives in the layout memo, which a state pickled for the server's
        search workers carries along, and a class compiled by mypyc unpickles through its
        `__init__` called without arguments (README, "Compiled build"); this way it
        round-trips the same in either build."""
        return (_Layout, (self.ids, self.occ, self.by_side, self.blocking, self.where, self.crowded, self.nohp,
                          self.roster))


def _read_layout(w: World, grid: _Grid) -> _Layout:
    """A new `_Layout`: what the searches read off the state's layout."""
    ids: dict[Hex, str] = {}
    where: dict[str, Hex] = {}
    bits = grid.bits
    occ = 0
    nohp = 0
    by_side: dict[int, int] = {}
    crowded = False
    board = w.board
    for o in board.units.values():  # `World.occupied` in one pass (the last on a hex wins there too)
        if o.alive:
            h = o.hex
            if h is not None:
                uid = o.uid
                if h in ids:
                    crowded = True
                ids[h] = uid
                where[uid] = h
                bit = bits.get(h)
                if bit is not None:
                    occ |= bit
                    side = o.side
                    by_side[side] = by_side.get(side, 0) | bit
                    if o.hp is None:
                        nohp |= bit
    if crowded:  # two figures on one hex (never in play): the sides of those that win there
        units = board.units
        by_side = {}
        for h, uid in ids.items():
            bit = bits.get(h)
            if bit is not None:
                side = units[uid].side
                by_side[side] = by_side.get(side, 0) | bit
    blocking = 0
    tiles = board.tiles
    if tiles:  # `World.blocking_tiles`, by tile mask
        env = w.content.environmental
        for t in tiles:
            if env(t.env).blocks_movement:
                entry = _TILE_CELLS.get(id(t))
                if entry is None or entry[0] is not t or entry[1] is not grid or entry[2] != t.hexes:
                    entry = _tile_cells(t, grid)
                blocking |= entry[3]
    return _Layout(ids, occ, by_side, blocking, where, crowded, nohp)


def _moved_layout(w: World, grid: _Grid, base: _Layout, touched: list[str]) -> _Layout | None:
    """`_read_layout` made from `base`, the record of a layout since which only the figures
    `touched` changed their space or life (`Board.touched`): each one's bits taken off its
    old cell and put on its new one. None when that cannot be done exactly (two figures on
    one hex before or after, or a figure that is not on the board's list): the caller reads
    the layout afresh. The same record as `_read_layout`'s (tested), for a sixth of its cost
    when one figure moved: *why:* after nearly every action of six-seat playouts a new
    record was read from every figure (issue 23)."""
    if base.crowded:
        return None
    ids = base.ids.copy()
    where = base.where.copy()
    by_side = base.by_side.copy()
    occ = base.occ
    nohp = base.nohp
    units = w.board.units
    bits = grid.bits
    same = True  # the same figures on the board (only spaces changed): the roster is shared
    for uid in touched:
        u = units.get(uid)
        if u is None:
            return None
        old = where.pop(uid, None)
        if old is not None:
            del ids[old]
            bit = bits.get(old)
            if bit is not None:
                occ &= ~bit
                nohp &= ~bit
                side = u.side
                left = by_side[side] & ~bit
                if left:
                    by_side[side] = left
                else:
                    del by_side[side]
        h = u.hex if u.alive else None
        if old is None or h is None:
            same = False
        if h is not None:
            if h in ids:
                return None
            ids[h] = uid
            where[uid] = h
            bit = bits.get(h)
            if bit is not None:
                occ |= bit
                side = u.side
                by_side[side] = by_side.get(side, 0) | bit
                if u.hp is None:
                    nohp |= bit
    return _Layout(ids, occ, by_side, base.blocking, where, False, nohp, base.roster if same else None)


def _near_hazards(w: World, grid: _Grid, mover: Unit, disk: int) -> list[tuple[str, int]]:
    """`hazard_tiles_at` cut to `disk` (the cells a search of that many steps can enter), by
    tile: each tile that would harm `mover` now and has cells there, with those cells as a
    mask, in the board's order of tiles. Minions and Flying figures: none (R-MIN-9, KW-FLY);
    a tile that hit the mover this turn: left out (R-HAZ-2)."""
    if mover.kind == "minion" or mover.is_flying:
        return []
    out: list[tuple[str, int]] = []
    tiles = w.board.tiles
    if tiles:
        hits = w.board.hazard_hits
        uid = mover.uid
        for t in tiles:
            entry = _TILE_CELLS.get(id(t))
            if entry is None or entry[0] is not t or entry[1] is not grid or entry[2] != t.hexes:
                entry = _tile_cells(t, grid)
            m = entry[3] & disk
            if m and harms(w, t.env, t.owner, mover) and (uid, t.tid) not in hits:
                out.append((t.tid, m))
    return out


def _tile_cells(t: Tile, grid: _Grid) -> tuple[Tile, _Grid, list[Hex], int]:
    """A tile's cells as a mask, kept by the tile object with a copy of its hexes (a tile
    turned or a clone's copy is worked out again): tiles stay put while the figures move, so
    every search in every layout read the same hexes again (issue 23). The mask itself is
    kept per grid and hexes (`_HEX_MASKS`): a turning tile comes back to the same few
    shapes (6 sets of hexes in 100 solo games, 1,218 tiles' masks worked out)."""
    hexes = tuple(t.hexes)
    key = (grid.serial, hexes)
    mask = _HEX_MASKS.get(key)
    if mask is None:
        index = grid.index
        mask = 0
        for h in hexes:
            i = index.get(h)
            if i is not None:
                mask |= 1 << i
        if len(_HEX_MASKS) > 4096:
            _HEX_MASKS.clear()
        _HEX_MASKS[key] = mask
    if len(_TILE_CELLS) > 4096:
        _TILE_CELLS.clear()
    entry = _TILE_CELLS[id(t)] = (t, grid, list(t.hexes), mask)  # the tile kept: its id is not reused while here
    return entry


_TILE_CELLS: dict[int, tuple[Tile, _Grid, list[Hex], int]] = {}
#: (a grid's serial, a tile's hexes) -> their cells as a mask over the grid (ints and tuples
#: only: the collector untracks it, as `_ENDS`)
_HEX_MASKS: dict[tuple[int, tuple[Hex, ...]], int] = {}


def _layout(w: World, grid: _Grid) -> _Layout:
    """The state's `_Layout`, memoised by the layout token (in the memo clones share)."""
    table = w.layout_memo()
    board = w.board
    token = board.layout
    key = ("layout", token)
    found: _Layout | None = table.get(key)
    if found is None:
        touched = board.touched
        if touched:  # only these figures moved since the last record (`Board.moved`)
            base: _Layout | None = table.get(("layout", board.layout_base))
            if base is not None:
                found = _moved_layout(w, grid, base, touched)
        if found is None:
            found = _read_layout(w, grid)
        if len(table) >= _MEMO_SIZE:
            table.clear()
        table[key] = found
        board.layout_base = token
        board.touched = []
    return found


_MEMO_SIZE = 1024
_route = tuple.__new__  # Route(...) without the named tuple's Python-level constructor
_EMPTY: frozenset[str] = frozenset()


class _Grid:
    """A map's hexes numbered once (issue 23: the searches hashed `(q, r)` tuples at every
    step): position `(q - q0) * stride + (r - r0)` over the map's bounding box with a border
    of one hex, so the positions run in `(q, r)` order and a set of hexes is an int with one
    bit per position. On that numbering the six neighbours are the shifts by `stride`, `1`
    and `stride - 1` up and down; a shift never carries a cell's bit onto another cell
    (every wrap lands on the border, which holds no cell). Searches index lists by
    position: each position's neighbours inside the arena (`neighbours` order; a border
    position has its own too, so a start just beyond the wall steps in as before), its hex,
    and per target hex every position's distance to it."""

    __slots__ = ("_bytes", "_disks", "_far", "_pbytes", "around", "beside", "bits", "cells", "hexes", "index", "inside",
                 "nbytes", "q0", "r0", "serial", "shift", "stride", "width")

    def __init__(self, cells: frozenset[Hex]) -> None:
        self.cells = cells
        self.serial = next(_SERIALS)  # names the map in cache keys (an int: see `_ENDS`)
        self.q0 = min(q for q, _ in cells) - 1
        self.r0 = min(r for _, r in cells) - 1
        self.stride = max(r for _, r in cells) - self.r0 + 2
        self.width = max(q for q, _ in cells) - self.q0 + 2
        size = self.width * self.stride
        # the cell objects themselves where there are cells (equal keys found by identity)
        self.hexes: list[Hex] = [(i // self.stride + self.q0, i % self.stride + self.r0) for i in range(size)]
        self.index: dict[Hex, int] = {}
        for h in cells:
            i = (h[0] - self.q0) * self.stride + h[1] - self.r0
            self.hexes[i] = h
            self.index[h] = i
        index = self.index
        self.around: list[tuple[int, ...]] = [
            tuple(index[n] for n in neighbours(h) if n in index) for h in self.hexes]
        self.inside = sum(1 << i for i in index.values())
        self.beside: list[int] = [sum(1 << n for n in a) for a in self.around]  # `around` as masks
        self.bits: dict[Hex, int] = {h: 1 << i for h, i in index.items()}  # each cell's bit
        self.shift = size.bit_length()  # a search's hazard tiles are bits above every position
        # the hexes of each byte of a mask, by byte and value (ascending: `hexes_of`)
        self.nbytes = (size + 7) // 8
        self._bytes: list[list[tuple[Hex, ...]]] = []
        self._pbytes: list[list[tuple[int, ...]]] = []  # the same with the positions
        for j in range(self.nbytes):
            row: list[tuple[Hex, ...]] = [()]
            prow: list[tuple[int, ...]] = [()]
            for v in range(1, 256):
                k = 8 * j + (v & -v).bit_length() - 1
                row.append(((self.hexes[k],) if k < size else ()) + row[v & (v - 1)])
                prow.append(((k,) if k < size else ()) + prow[v & (v - 1)])
            self._bytes.append(row)
            self._pbytes.append(prow)
        self._disks: list[list[int]] = []  # by radius, by position (-1: not made yet)
        self._far: dict[Hex, list[int]] = {}

    def __reduce__(self) -> tuple[type[_Grid], tuple[frozenset[Hex]]]:
        """Pickled as its map's cells, numbered again when unpickled (a grid is only kept in
        this module's caches, but a class compiled by mypyc could not unpickle otherwise: it
        unpickles through its `__init__` called without arguments)."""
        return (_Grid, (self.cells,))

    def pos(self, h: Hex) -> int | None:
        """The position of `h`, or None beyond the box (no cell lies beside it)."""
        qo, ro = h[0] - self.q0, h[1] - self.r0
        if 0 <= qo < self.width and 0 <= ro < self.stride:
            return qo * self.stride + ro
        return None

    def positions(self, mask: int) -> frozenset[int]:
        """The positions of a mask's bits (by byte, as `hexes_of`)."""
        if not mask:
            return frozenset()
        out: list[int] = []
        table = self._pbytes
        j0 = ((mask & -mask).bit_length() - 1) >> 3
        for j, v in enumerate((mask >> (j0 << 3)).to_bytes((mask.bit_length() + 7 >> 3) - j0, "little"), j0):
            if v:
                out += table[j][v]
        return frozenset(out)

    def hexes_of(self, mask: int) -> list[Hex]:
        """The hexes of a mask, sorted (positions run in `(q, r)` order): read by byte from
        the lowest byte with a bit to the highest (a walk's cells lie in a disk, a part of the
        map's bytes)."""
        if not mask:
            return []
        out: list[Hex] = []
        table = self._bytes
        j0 = ((mask & -mask).bit_length() - 1) >> 3
        for j, v in enumerate((mask >> (j0 << 3)).to_bytes((mask.bit_length() + 7 >> 3) - j0, "little"), j0):
            if v:
                out += table[j][v]
        return out

    def byte_hexes(self, j: int, v: int) -> tuple[Hex, ...]:
        """The hexes of the bits `v` (0-255) of a mask's byte `j`, ascending (what
        `hexes_of` reads for that byte)."""
        return self._bytes[j][v]

    def disk(self, pos: int, radius: int) -> int:
        """The cells within `radius` of a position: the part of the obstacles a walk of
        `radius` steps can read is their `&` with it (made once per position and radius,
        kept in a list per radius: no tuple key per call, asked several times a listing)."""
        rows = self._disks
        if 0 <= radius < len(rows):
            found = rows[radius][pos]
            if found >= 0:
                return found
        elif not 0 <= radius <= 64:  # never in play: worked out each time
            return self._disk(pos, radius)
        while len(rows) <= radius:
            rows.append([-1] * (self.width * self.stride))
        found = rows[radius][pos] = self._disk(pos, radius)
        return found

    def _disk(self, pos: int, radius: int) -> int:
        oq, or_ = self.hexes[pos]
        found = 0
        for h, i in self.index.items():
            dq, dr = h[0] - oq, h[1] - or_
            if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= radius:
                found |= 1 << i
        return found

    def walk(self, start: int, max_steps: int, stop: int) -> int:
        """The cells a walk of `max_steps` steps from the mask `start` enters (and `start`),
        never entering `stop`: a ring of new cells per step, as the breadth-first walk
        over hexes finds them (the same set as `_plain_search`'s keys)."""
        free = self.inside & ~stop
        a = self.stride
        b = a - 1
        seen = front = start
        for _ in range(max_steps):
            ring = (front << a | front >> a | front << 1 | front >> 1 | front << b | front >> b) & free & ~seen
            if not ring:
                break
            seen |= ring
            front = ring
        return seen

    def far(self, to: Hex) -> list[int]:
        """Every position's hex distance to `to` (any hex, beyond the wall too), made once
        per map and hex: the searches toward one hex (`routes_to`, `explore_within`) test
        it for every neighbour they meet."""
        found = self._far.get(to)
        if found is None:
            if len(self._far) > 4096:
                self._far.clear()
            tq, tr = to
            found = self._far[to] = [(abs(q - tq) + abs(r - tr) + abs(q - tq + r - tr)) // 2 for q, r in self.hexes]
        return found


_GRIDS: dict[frozenset[Hex], _Grid] = {}
_SERIALS = count()  # one number per grid ever made in the process


def _grid(cells: frozenset[Hex]) -> _Grid:
    """The numbering of a map's cells, made once per map."""
    grid = _GRIDS.get(cells)
    if grid is None:
        if len(_GRIDS) > 16:
            _GRIDS.clear()
        grid = _GRIDS[cells] = _Grid(cells)
    return grid


def _explore(w: World, mover: Unit, max_steps: int, origin: Hex, to: Hex | None = None,
             within: int | None = None) -> dict[Hex, list[Route]]:
    """The search itself: breadth first over (hex, hazard tiles entered), the first path found
    kept per pair, in the same order as the rules' plain reading (see `can_pass`). With `to`,
    only states that can still reach `to` are expanded and only its routes are returned;
    with `within` as well, only states that can still reach a hex within `within` of `to`
    are expanded and the routes of the hexes within `within` of `to` are returned
    (`explore_within`).
    States are numbered by grid position (`_Grid`), and hazard tiles are bits of a mask."""
    pad = 0 if within is None else within
    only = to if within is None else None  # the one end hex asked for, if any
    grid = _grid(w.cells)
    start = grid.pos(origin)
    if start is None:  # farther than a step beyond the wall (scenarios): no step can be taken
        return {origin: [_route(Route, (0, _EMPTY, ()))]} if only is None or only == origin else {}
    lay = _layout(w, grid)
    occupied = lay.ids
    # the hazards on cells within max_steps as the crow flies (a path is never shorter): only
    # those can be entered; with none, the states are the hexes, met in the same order
    near = _near_hazards(w, grid, mover, grid.disk(start, max_steps))
    uid = mover.uid
    if only is not None:  # one hex's route (a move): on the layout's masks when that decides it
        i = start if only == origin else grid.index.get(only)
        if i is None or (i != start and (o := occupied.get(only)) is not None and o != uid):
            return {}
        stop_mask = lay.blocking
        if not mover.is_flying:
            stop_mask |= lay.occ & ~lay.by_side.get(mover.side, 0)
        if not near:
            path = _mask_path(grid, max_steps, start, i, stop_mask)
            return {} if path is None else {only: [_route(Route, (len(path), _EMPTY, path))]}
        # Hazards near: the state (goal, no tile) is met first by the plain walk's path with the
        # harmful cells as stops (a state with no tile is only reached from one). When no route
        # at all is shorter, that route is the whole Pareto set (every other route has as many
        # steps or more and enters a tile); else the search below decides.
        cells = 0
        for _, m in near:
            cells |= m
        path = _mask_path(grid, max_steps, start, i, stop_mask | cells)
        if path is not None and (not path or _mask_path(grid, len(path) - 1, start, i, stop_mask) is None):
            return {only: [_route(Route, (len(path), _EMPTY, path))]}
        if path is None and len(near) == 1:
            # One harmful tile and no route without it (the destination on it, say): every
            # route enters it, so the Pareto set is the shortest route. A state on a hex as
            # many steps away as the plain walk first reaches it is only reached from such
            # states (tiles or none), the first of them on each hex in the plain walk's
            # order and never pruned, so the route is the plain walk's path.
            path = _mask_path(grid, max_steps, start, i, stop_mask)
            return {} if path is None else {only: [_route(Route, (len(path), frozenset((near[0][0],)), path))]}
    stop = _stops(lay, grid, mover.side, mover.is_flying)
    far = grid.far(to) if to is not None else None
    around, hexes = grid.around, grid.hexes
    if not near:
        seen = _plain_search(max_steps, start, stop, around, hexes, far, pad)
        out0: dict[Hex, list[Route]] = {}
        for i, path in seen.items():
            if far is not None and far[i] > pad:
                continue  # `explore_within`: only the end hexes within `within` of `to`
            h = hexes[i]
            if i == start or (o := occupied.get(h)) is None or o == uid:
                out0[h] = [_route(Route, (len(path), _EMPTY, path))]
        return out0
    # Sets of tiles as bit masks (one bit per tile id): the same set algebra, cheaper. A state
    # (position, tiles) is the int `tiles << shift | position`.
    shift = grid.shift
    bits: dict[str, int] = {}
    hazards: dict[int, int] = {}
    for tid, cells in near:
        bit = bits.setdefault(tid, 1 << len(bits)) << shift
        for i in grid.positions(cells):
            hazards[i] = hazards.get(i, 0) | bit
    # A state whose tiles strictly include those of a state on the same hex reached in fewer
    # steps is not expanded: it and everything after it is worse in both steps and tiles than
    # what the better state leads to, so it can never be Pareto-best, and it is never the
    # first to reach a state that is (the answer is the same table as the plain search).
    best: dict[int, tuple[int, tuple[Hex, ...]]] = {start: (0, ())}
    single = len(bits) == 1  # the usual case (a Boss's one signature tile): no subset lists needed
    at: dict[int, list[tuple[int, int]]] = {start: [(0, 0)]}
    frontier: list[tuple[int, int, tuple[Hex, ...]]] = [(start, 0, ())]
    for step in range(1, max_steps + 1):
        nxt: list[tuple[int, int, tuple[Hex, ...]]] = []
        bound = max_steps - step + pad
        for here, got, path in frontier:
            for n in around[here]:
                if n in stop:
                    continue
                if far is not None and far[n] > bound:
                    continue  # cannot reach `to` (or a hex within `pad` of it) any more
                tiles = got | hazards.get(n, 0)  # shifted: `tiles | n` is the state
                key = tiles | n
                if key in best:
                    continue
                if single:  # one tile: the only smaller set is the empty one
                    if tiles:
                        clear = best.get(n)
                        if clear is not None and clear[0] < step:
                            continue
                    p = (*path, hexes[n])
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
                p = (*path, hexes[n])
                best[key] = (step, p)
                nxt.append((n, tiles, p))
        frontier = nxt
    names = sorted(bits, key=bits.__getitem__)
    sets: dict[int, frozenset[str]] = {0: _EMPTY}
    out: dict[Hex, list[Route]] = {}
    low = (1 << shift) - 1
    want = -1 if only is None else grid.pos(only)  # the one position asked for, if any
    for key, (steps, path) in best.items():
        i = key & low
        if want != -1 and i != want:
            continue
        if far is not None and far[i] > pad:
            continue  # `explore_within`: only the end hexes within `within` of `to`
        h = hexes[i]
        mask = key >> shift
        if i != start and (o := occupied.get(h)) is not None and o != uid:
            continue  # may pass, may not end (R-MOV-2, R-MOV-5, KW-FLY)
        entered = sets.get(mask)
        if entered is None:
            entered = sets[mask] = frozenset(t for j, t in enumerate(names) if mask >> j & 1)
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


def _plain_search(max_steps: int, start: int, stop: frozenset[int], around: list[tuple[int, ...]],
                  hexes: list[Hex], far: list[int] | None = None, pad: int = 0) -> dict[int, tuple[Hex, ...]]:
    """Breadth first over grid positions, the first (shortest) path kept per position:
    `_explore`'s answer when no hex within reach holds a hazard for the mover (no route can
    enter a tile, so the states are the hexes, met in the same order). With `far` (every
    position's distance to a hex `to`, `_Grid.far`), hexes from which no hex within `pad`
    of `to` lies within the steps left are not entered."""
    seen: dict[int, tuple[Hex, ...]] = {start: ()}
    frontier: list[tuple[int, tuple[Hex, ...]]] = [(start, ())]
    for step in range(1, max_steps + 1):
        nxt: list[tuple[int, tuple[Hex, ...]]] = []
        bound = max_steps - step + pad
        for here, path in frontier:
            for n in around[here]:
                if n in seen or n in stop:
                    continue
                if far is not None and far[n] > bound:
                    continue
                p = (*path, hexes[n])
                seen[n] = p
                nxt.append((n, p))
        frontier = nxt
    return seen


def _plain_path(max_steps: int, start: int, goal: int, stop: frozenset[int], around: list[tuple[int, ...]],
               hexes: list[Hex], far: list[int]) -> tuple[Hex, ...] | None:
    """`_plain_search(...)[goal]` (`far`: every position's distance to `goal`): the same walk,
    which stops when it meets `goal` (the path it is first met by is the one kept) and keeps
    each position's predecessor instead of its path, so only `goal`'s path is made (issue 23:
    a move's route is one destination's)."""
    if goal == start:
        return ()
    parent = {start: start}
    frontier = [start]
    for step in range(1, max_steps + 1):
        nxt = []
        bound = max_steps - step
        for here in frontier:
            for n in around[here]:
                if n in parent or n in stop or far[n] > bound:
                    continue
                parent[n] = here
                if n == goal:
                    path = [hexes[n]]
                    while here != start:
                        path.append(hexes[here])
                        here = parent[here]
                    return tuple(reversed(path))
                nxt.append(n)
        frontier = nxt
    return None


def _mask_path(grid: _Grid, max_steps: int, start: int, goal: int, stop: int) -> tuple[Hex, ...] | None:
    """`_plain_path` on bit masks (`stop`: the cells the walk may not enter, as a mask), without
    the stops as a set of positions (made per layout and side, and a move's route is asked
    once per layout: issue 23, a third of a route's time). The walk from `goal` makes the
    rings of cells 1, 2, ... steps from it until one lies beside `start`; the path then steps
    from `start` to the first neighbour (`around` order) in the next ring inward. That is the
    path the breadth-first walk from `start` meets `goal` by: it meets each hex first from
    the earliest hex of the step before in its own order, and that order is the order of the
    paths' neighbour indices read as words, so the path kept is the least such word among
    the shortest paths, which the greedy choice of the least index that still reaches `goal`
    in the steps left makes."""
    if goal == start:
        return ()
    free = grid.inside & ~stop
    front = 1 << goal
    if max_steps < 1 or not free & front:
        return None
    beside = grid.beside[start]
    a = grid.stride
    b = a - 1
    rings = [front]
    seen = front
    steps = 1
    while not front & beside:
        if steps >= max_steps:
            return None
        front = (front << a | front >> a | front << 1 | front >> 1 | front << b | front >> b) & free & ~seen
        if not front:
            return None
        seen |= front
        rings.append(front)
        steps += 1
    around, hexes = grid.around, grid.hexes
    path: list[Hex] = []
    here = start
    for k in range(steps - 1, -1, -1):
        ring = rings[k]
        for n in around[here]:
            if ring >> n & 1:
                here = n
                path.append(hexes[n])
                break
    return tuple(path)


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
    now, with what happens there: 'free', 'wall', 'figure' or 'solid' (a collision, R-FM-6).

    Hex distances doubled and inlined, and who stands where and the solid tiles read only
    when a neighbour at the wanted distance lies inside the arena (issue 23: every step of
    every push asks; at most three of the six neighbours are at that distance)."""
    at = subject.hex
    assert at is not None
    oq, or_ = origin
    dq, dr = at[0] - oq, at[1] - or_
    now2 = abs(dq) + abs(dr) + abs(dq + dr)  # twice the distance
    want2 = now2 + 2 if kind in ("push", "throw") else now2 - 2
    if want2 < 0:
        return []
    cells = w.cells
    occupied: dict[Hex, Unit] | None = None
    solid: set[Hex] | None = None
    out: list[tuple[Hex, str]] = []
    for n in neighbours(at):
        dq, dr = n[0] - oq, n[1] - or_
        if abs(dq) + abs(dr) + abs(dq + dr) != want2:
            continue
        if n not in cells:
            out.append((n, "wall"))
            continue
        if occupied is None:
            occupied = w.occupied()
            solid = w.solid_tiles()
        assert solid is not None
        if n in occupied and occupied[n].uid != subject.uid:
            out.append((n, "figure"))
        elif n in solid:
            out.append((n, "solid"))
        else:
            out.append((n, "free"))
    out.sort()
    return out


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
