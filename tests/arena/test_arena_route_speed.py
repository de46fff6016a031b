"""Issue 23 (arena speed): the route searches and end hexes on numbered cells (`movement._Grid`)
equal the plain computations over `(q, r)` tuples they replace, on many sampled shapes, starts,
obstacles and positions of random games. Each plain version here is the reading of the rule
(R-MOV-1..5: steps to neighbours inside the arena, not through blocking tiles or enemies)."""

from __future__ import annotations

from collections.abc import Iterable

from tests.arena.test_arena_identical_games import reference_explore

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import Hex, distance, hexagon, neighbours
from bloodforge.games.arena.model import Tile, Unit
from bloodforge.games.arena.movement import (
    _Grid,
    _grid,
    _layout,
    _near_hazards,
    _plain_path,
    _plain_search,
    _stops,
    destinations,
    explore,
    explore_within,
    hazard_tiles_at,
    routes_to,
    shared_destinations,
)
from bloodforge.games.arena.world import World


def _shapes() -> list[frozenset[Hex]]:
    """Maps of several shapes: hexagons of radius 1 to 7 (the shipped arenas are hexagons with
    pillars), the same with holes, and a ragged blob off the origin."""
    rng = Rng(23)
    out = [frozenset(hexagon(r)) for r in (1, 3, 6, 7)]
    for r in (4, 6):
        full = hexagon(r)
        out.append(frozenset(h for h in full if rng.randbelow(6) != 0 or h == (0, 0)))
    blob = {(5, -9)}
    for _ in range(60):
        h = sorted(blob)[rng.randbelow(len(blob))]
        blob.add(neighbours(h)[rng.randbelow(6)])
    out.append(frozenset(blob))
    return out


def _plain_walk(cells: frozenset[Hex], origin: Hex, steps: int, stop: set[Hex]) -> set[Hex]:
    """Breadth first over hexes: neighbours inside the arena and not in `stop`."""
    seen = {origin}
    frontier: Iterable[Hex] = [origin]
    for _ in range(steps):
        ring = {n for h in frontier for n in neighbours(h) if n in cells and n not in stop and n not in seen}
        seen |= ring
        frontier = ring
    return seen


def _box(cells: frozenset[Hex]) -> list[Hex]:
    """The cells' bounding box with two hexes around it (the border and beyond)."""
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    return [(q, r) for q in range(min(qs) - 2, max(qs) + 3) for r in range(min(rs) - 2, max(rs) + 3)]


def test_issue23_numbered_cells_keep_the_hexes_their_order_and_their_neighbours() -> None:
    """R-MOV-1 (a step goes to one of six neighbours inside the arena): every cell has a
    position, positions run in `(q, r)` order, each position's neighbour list is `neighbours`
    order cut to the arena, and shifting a cell's bit by the three strides gives exactly its
    neighbours inside the arena (nothing wraps onto another cell)."""
    for cells in _shapes():
        grid = _Grid(cells)
        assert sorted(grid.index) == sorted(cells)
        assert [grid.hexes[i] for i in sorted(grid.index.values())] == sorted(cells)
        assert all(grid.hexes[i] is h for h, i in grid.index.items())  # the cell objects themselves
        a = grid.stride
        for h in _box(cells):
            pos = grid.pos(h)
            if pos is None:
                assert not any(n in cells for n in neighbours(h))  # nothing beside it to step on
                continue
            assert grid.hexes[pos] == h
            want = [n for n in neighbours(h) if n in cells]
            assert [grid.hexes[i] for i in grid.around[pos]] == want
            bit = 1 << pos
            shifted = (bit << a | bit >> a | bit << 1 | bit >> 1 | bit << a - 1 | bit >> a - 1) & grid.inside
            assert grid.hexes_of(shifted) == sorted(want)
        rng = Rng(len(cells))
        for share in (1, 2, 5, 40):  # masks of all, half, a fifth, a few of the cells
            picked = [h for h in sorted(cells) if rng.randbelow(share) == 0]
            mask = sum(1 << grid.index[h] for h in picked)
            assert grid.hexes_of(mask) == picked
            assert grid.positions(mask) == {grid.index[h] for h in picked}


def test_issue23_the_walk_on_bits_equals_the_walk_over_hexes() -> None:
    """R-MOV-1..3: the end-hex walk on bit masks enters exactly the hexes the breadth-first
    walk over hexes enters, for starts inside the arena and just beyond its wall, 0 to 7
    steps and random obstacles (a sixth to a half of the cells)."""
    rng = Rng(5)
    compared = 0
    for cells in _shapes():
        grid = _Grid(cells)
        ordered = sorted(cells)
        border = [h for h in _box(cells) if grid.pos(h) is not None and h not in cells]
        starts = [*ordered[:: max(1, len(ordered) // 6)], *border[::7]]
        for origin in starts:
            pos = grid.pos(origin)
            assert pos is not None
            for steps in range(8):
                share = 2 + rng.randbelow(5)
                stop = {h for h in ordered if rng.randbelow(share) == 0 and h != origin}
                mask = sum(1 << grid.index[h] for h in stop)
                got = grid.hexes_of(grid.walk(1 << pos, steps, mask))
                assert got == sorted(_plain_walk(cells, origin, steps, stop)), (origin, steps)
                compared += 1
    assert compared > 300


def test_issue23_the_walk_to_one_hex_keeps_the_path_the_full_walk_keeps() -> None:
    """R-MOV-1..3: the walk toward one hex (stopping when it meets it, predecessors instead of
    paths) gives exactly the path the full breadth-first walk keeps for that hex, or none
    when that walk does not reach it, for every goal, random obstacles and 0 to 6 steps."""
    rng = Rng(11)
    compared = 0
    for cells in _shapes()[2:6]:
        grid = _Grid(cells)
        ordered = sorted(cells)
        for origin in ordered[:: max(1, len(ordered) // 4)]:
            start = grid.index[origin]
            for steps in range(7):
                stop = frozenset(grid.index[h] for h in ordered if rng.randbelow(4) == 0 and h != origin)
                seen = _plain_search(steps, start, stop, grid.around, grid.hexes)
                for goal in ordered:
                    i = grid.index[goal]
                    got = _plain_path(steps, start, i, stop, grid.around, grid.hexes, grid.far(goal))
                    assert got == seen.get(i), (origin, steps, goal)
                    compared += got is not None
    assert compared > 500


def test_issue23_disks_and_distance_tables_equal_the_hex_distance() -> None:
    """R-MOV-1: the cells an end-hex key reads (every cell within the steps of the start) and
    the distances a search toward one hex prunes by (for every position, to hexes inside the
    arena and beyond its wall) are the hex distances."""
    for cells in _shapes():
        grid = _Grid(cells)
        box = _box(cells)
        for origin in box[::5]:
            pos = grid.pos(origin)
            if pos is not None:
                for radius in range(7):
                    want = sorted(h for h in cells if distance(h, origin) <= radius)
                    assert grid.hexes_of(grid.disk(pos, radius)) == want
            far = grid.far(origin)
            assert far == [distance(h, origin) for h in grid.hexes]


def _positions(players: int, seed: int, every: int, plies: int) -> Iterable[ArenaState]:
    """Positions of a random game (the same state object, played on between yields)."""
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
    assert isinstance(state, ArenaState)
    rng = Rng(seed)
    for ply in range(plies):
        if state.is_terminal():
            return
        if ply % every == 0:
            yield state
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)


def _played(players: int, seed: int, plies: int) -> ArenaState:
    """A random game's position after `plies` plies."""
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
    assert isinstance(state, ArenaState)
    rng = Rng(seed)
    for _ in range(plies):
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    return state


def _blocked(w: World, mover: Unit) -> set[Hex]:
    """R-MOV-2/3/5, TB10 as read before: blocking tiles, and the figures (other than the
    mover) of other sides unless the mover flies."""
    stop = set(w.blocking_tiles())
    if not mover.is_flying:
        stop |= {h for h, o in w.occupied().items() if o.uid != mover.uid and o.side != mover.side}
    return stop


def test_issue23_the_layouts_bit_masks_equal_who_stands_where() -> None:
    """R-MOV-2/3/5, TB10, KW-FLY: the occupancy as bit masks (every figure's space, each
    side's, the blocking tiles) and the cells a mover may not enter equal the figures on the
    board and the plain rule, for every figure, flying or not, in random six-seat and solo
    positions."""
    compared = 0
    for players, seed in ((6, 2), (1, 9)):
        for state in _positions(players, seed, 30, 600):
            grid = _grid(state.cells)
            lay = _layout(state, grid)
            occ, by_side, blocking = lay.occ, lay.by_side, lay.blocking
            assert lay.ids == {h: u.uid for h, u in state.occupied().items()}
            occupied = {h: u for h, u in state.occupied().items() if h in state.cells}
            assert grid.hexes_of(occ) == sorted(occupied)
            for side, mask in by_side.items():
                assert grid.hexes_of(mask) == sorted(h for h, u in occupied.items() if u.side == side)
            assert grid.hexes_of(blocking) == sorted(h for h in state.blocking_tiles() if h in state.cells)
            for u in state.board.units.values():
                if u.alive and u.hex is not None:
                    flying = u.flying
                    for u.flying in (flying, True):
                        state.board.moved()
                        stops = _stops(_layout(state, grid), grid, u.side, u.is_flying)
                        assert sorted(grid.hexes[i] for i in stops) == sorted(
                            h for h in _blocked(state, u) if h in state.cells), (seed, u.uid)
                        compared += 1
                    u.flying = flying
    assert compared > 100


def test_issue23_two_figures_on_one_hex_read_as_who_stands_there_last() -> None:
    """R-MOV-2 as `World.occupied` reads the board (the last figure on a hex stands for it):
    with two figures of different sides put on one hex (never in play, possible in a scenario's
    setup) the layout's masks and stops follow the one that wins there, in either order."""
    state = _played(4, 3, 60)
    figures = [u for u in state.board.units.values() if u.alive and u.hex is not None]
    first = figures[0]
    other = next(u for u in figures if u.side != first.side)
    grid = _grid(state.cells)
    for a, b in ((first, other), (other, first)):
        w = state.clone()
        w.board.units[b.uid].hex = w.board.units[a.uid].hex
        w.board.moved()
        lay = _layout(w, grid)
        occupied = {h: u for h, u in w.occupied().items() if h in w.cells}
        for side in {u.side for u in figures}:
            assert grid.hexes_of(lay.by_side.get(side, 0)) == sorted(h for h, u in occupied.items() if u.side == side)
            for mover in (u for u in w.board.units.values() if u.side == side and u.alive and u.hex is not None):
                stops = _stops(lay, grid, side, mover.is_flying)
                assert sorted(grid.hexes[i] for i in stops) == sorted(h for h in _blocked(w, mover) if h in w.cells)


def test_issue23_the_hazards_a_search_reads_are_the_plain_rules_near_the_start() -> None:
    """R-HAZ-1/2, A44, A45, R-MIN-9, KW-FLY: the hazard tiles a search reads (by tile, the cells
    within its steps) are `hazard_tiles_at` cut to those cells, for every figure at 0 to 6
    steps, with many overlapping Spike Traps, some tiles already hit this turn, and after a
    tile's hexes are changed in place or replaced (the kept cells follow)."""
    state = _played(4, 5, 40)
    rng = Rng(6)
    grid = _grid(state.cells)
    compared = 0
    for trial in range(5):
        w = state.clone()
        free = [h for h in sorted(state.cells) if w.occupant(h) is None]
        w.board.tiles = [Tile(f"t{trial}_{i}", "spike_traps", h,
                              [h, *(n for n in neighbours(h) if rng.randbelow(3) == 0)], None)
                         for i, h in enumerate(free) if rng.randbelow(5) == 0]
        movers = [u for u in w.board.units.values() if u.alive and u.hex is not None]
        w.board.hazard_hits = {(movers[0].uid, t.tid) for t in w.board.tiles[::3]}
        for change in range(3):
            if change == 1:  # changed in place
                w.board.tiles[0].hexes.append(free[-1 - trial])
            elif change == 2:  # replaced (as a turn replaces them)
                w.board.tiles[1].hexes = [free[trial]]
            for u in movers:
                assert u.hex is not None
                pos = grid.pos(u.hex)
                assert pos is not None
                for steps in (0, 2, 6):
                    near = _near_hazards(w, grid, u, grid.disk(pos, steps))
                    got: dict[Hex, set[str]] = {}
                    for tid, cells in near:
                        for h in grid.hexes_of(cells):
                            got.setdefault(h, set()).add(tid)
                    want = {h: set(t) for h, t in hazard_tiles_at(w, u).items()
                            if h in w.cells and distance(h, u.hex) <= steps}
                    assert got == want, (trial, change, u.uid, steps)
                    compared += len(want)
    assert compared > 200


def test_issue23_searches_from_beyond_the_wall_equal_the_plain_search() -> None:
    """R-MOV-1 (scenarios may start a figure off the floor): from a hex just beyond the wall
    the search steps onto the cells beside it, from one farther out it stays put; the end
    hexes, the routes to each and the whole table equal the plain search, and the end-hex
    list is the same object when asked again."""
    state = next(iter(_positions(4, 7, 1, 1)))
    u = next(x for x in state.board.units.values() if x.kind == "champion")
    ring = sorted(h for h in {n for c in state.cells for n in neighbours(c)} if h not in state.cells)
    for origin in (*ring[::5], (40, -3), (-30, 30)):
        u.hex = origin
        state.board.moved()
        for steps in (0, 1, 3):
            want = reference_explore(state, u, steps)
            state.route_memo = None
            assert destinations(state, u, steps) == sorted(want), (origin, steps)
            assert shared_destinations(state, u, steps) is shared_destinations(state, u, steps)
            for h in want:
                state.route_memo = None
                assert routes_to(state, u, steps, h) == want[h]
            state.route_memo = None
            assert explore(state, u, steps) == want
            assert list(explore(state, u, steps)) == list(want)


def test_issue23_searches_toward_a_hex_equal_the_plain_search_cut_to_that_hex() -> None:
    """N11 (an NPC moves toward its target): the search toward a hex keeps, for every end
    hex within the given reach of it, the plain search's routes, whether or not the target
    stands inside the arena; random solo and six-seat positions (hazard tiles included)."""
    compared = 0
    for players, seed in ((1, 4), (6, 8)):
        for state in _positions(players, seed, 40, 500):
            movers = [u for u in state.board.units.values() if u.alive and u.hex is not None]
            for u in movers[:4]:
                assert u.hex is not None
                for steps in (2, 4):
                    want = reference_explore(state, u, steps)
                    for target, reach in ((movers[-1].hex, 1), ((u.hex[0] + 9, u.hex[1]), 6)):
                        assert target is not None
                        state.route_memo = None
                        got = explore_within(state, u, steps, target, reach)
                        near = {h: r for h, r in want.items() if distance(h, target) <= reach}
                        assert {h: r for h, r in got.items() if distance(h, target) <= reach} == near
                        compared += 1
    assert compared > 50
