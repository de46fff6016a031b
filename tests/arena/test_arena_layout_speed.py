"""Issue 23 (arena speed), the fifth pass over `movement.py`: a move's route on the layout's bit
masks (`_mask_path`) equals the path the plain breadth-first walk keeps, on many map shapes,
starts (beyond the wall too), obstacles and step counts, and `routes_to` on positions of random
games equals the full search's table. The plain walk is the reading of R-MOV-1..3 (steps to
neighbours inside the arena, never into a stop), in `neighbours` order."""

from __future__ import annotations

from tests.arena.test_arena_identical_games import reference_explore
from tests.arena.test_arena_route_speed import _shapes

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import Hex, neighbours
from bloodforge.games.arena.model import Tile
from bloodforge.games.arena.movement import _Grid, _grid, _layout, _mask_path, routes_to


def _first_paths(cells: frozenset[Hex], origin: Hex, steps: int, stop: set[Hex]) -> dict[Hex, tuple[Hex, ...]]:
    """Breadth first over `(q, r)` hexes, the first path kept per hex (R-MOV-1..3)."""
    seen: dict[Hex, tuple[Hex, ...]] = {origin: ()}
    frontier = [origin]
    for _ in range(steps):
        nxt = []
        for h in frontier:
            for n in neighbours(h):
                if n in cells and n not in stop and n not in seen:
                    seen[n] = (*seen[h], n)
                    nxt.append(n)
        frontier = nxt
    return seen


def test_issue23_the_route_on_masks_is_the_path_the_plain_walk_keeps() -> None:
    """R-MOV-1..3: for every goal cell, random obstacles (never the start; the goal may be
    one) and 0 to 7 steps, `_mask_path` gives the plain walk's first path to the goal, or none
    when the walk does not reach it; starts beyond the wall step in as the plain walk does."""
    rng = Rng(5)
    compared = 0
    for cells in _shapes():
        grid = _Grid(cells)
        ordered = sorted(cells)
        starts = ordered[:: max(1, len(ordered) // 5)]
        outside = sorted({n for c in ordered for n in neighbours(c)} - cells)[:: 7]
        for origin in starts + outside:
            start = grid.pos(origin)
            assert start is not None
            for steps in range(8):
                share = 2 + rng.randbelow(4)
                stop = {h for h in ordered if rng.randbelow(share) == 0 and h != origin}
                mask = sum(1 << grid.index[h] for h in stop)
                want = _first_paths(cells, origin, steps, stop)
                for goal in ordered:
                    got = _mask_path(grid, steps, start, grid.index[goal], mask)
                    assert got == want.get(goal), (sorted(cells)[0], origin, steps, goal)
                    compared += got is not None
    assert compared > 2000


def _positions(players: int, seed: int) -> list[ArenaState]:
    """Every twentieth position of a random game (clones)."""
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
    assert isinstance(state, ArenaState)
    rng = Rng(seed)
    out: list[ArenaState] = []
    ply = 0
    while not state.is_terminal() and ply < 600:
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
        ply += 1
        if ply % 20 == 0:
            clone = state.clone()
            assert isinstance(clone, ArenaState)
            out.append(clone)
    return out


def test_issue23_a_moves_route_in_play_equals_the_full_search() -> None:
    """R-MOV-1..5, TB10 and the hazards (R-HAZ-1): on positions of random solo and six-seat
    games, with no memo, `routes_to` each end hex of every figure on the board (fliers,
    minions and figures near hazard tiles among them) equals the plain search's table."""
    compared = 0
    for players, seed in ((1, 3), (6, 4)):
        for state in _positions(players, seed):
            for u in list(state.board.units.values()):
                if not u.alive or u.hex is None:
                    continue
                for steps in (2, 4):
                    want = reference_explore(state, u, steps)
                    for h in want:
                        state.route_memo = None
                        assert routes_to(state, u, steps, h) == want[h], (players, u.uid, steps, h)
                        compared += 1
    assert compared > 1000


def test_issue23_the_layout_record_equals_who_stands_where_and_the_blocking_tiles() -> None:
    """R-MOV-2/3, TB10, A31: the layout record (each cell's bit from a table, the blocking
    tiles by tile mask) equals `World.occupied` and `World.blocking_tiles` cut to the arena,
    on positions of a six-seat game with Bloodshard Columns (blocking) and Spike Traps (not)
    put on random hexes, some beyond the wall, their hexes then changed in place, and a
    figure moved, for each new layout token."""
    rng = Rng(8)
    compared = 0
    for state in _positions(6, 2)[:8]:
        grid = _grid(state.cells)
        ordered = sorted(state.cells)
        for trial in range(4):
            w = state.clone()
            assert isinstance(w, ArenaState)
            tiles = []
            for k in range(1 + rng.randbelow(4)):
                h = ordered[rng.randbelow(len(ordered))]
                hexes = [h, *(n for n in neighbours(h) if rng.randbelow(3) == 0)]
                env = "bloodshard_columns" if rng.randbelow(3) else "spike_traps"
                tiles.append(Tile(f"x{trial}_{k}", env, h, hexes, None))
            w.board.tiles = tiles
            for step in range(3):
                w.board.moved()
                lay = _layout(w, grid)
                assert lay.ids == {h: u.uid for h, u in w.occupied().items()}
                occupied = {h: u for h, u in w.occupied().items() if h in w.cells}
                assert grid.hexes_of(lay.occ) == sorted(occupied)
                for side in {u.side for u in occupied.values()} | {0, 99}:
                    want = sorted(h for h, u in occupied.items() if u.side == side)
                    assert grid.hexes_of(lay.by_side.get(side, 0)) == want, (trial, step, side)
                assert grid.hexes_of(lay.blocking) == sorted(h for h in w.blocking_tiles() if h in w.cells)
                compared += 1
                t = tiles[rng.randbelow(len(tiles))]
                t.hexes.append(neighbours(t.hexes[-1])[rng.randbelow(6)])  # changed in place (may leave the arena)
                if step == 1:
                    t.hexes[:] = list(neighbours(t.hexes[0])[:2])
                figures = [u for u in w.board.units.values() if u.alive and u.hex is not None]
                free = [h for h in ordered if w.occupant(h) is None]
                figures[rng.randbelow(len(figures))].hex = free[rng.randbelow(len(free))]
    assert compared > 80


def test_issue23_a_masks_hexes_read_from_its_lowest_to_its_highest_byte_are_all_its_bits() -> None:
    """The hexes and positions of a mask (read by byte over the bytes that hold bits only) are
    its bits in position order, for empty masks, single bits at both ends of the map and
    random masks of every density, on every map shape."""
    rng = Rng(12)
    for cells in _shapes():
        grid = _Grid(cells)
        size = len(grid.hexes)
        masks = [0, 1, 1 << (size - 1), (1 << size) - 1]
        for _ in range(60):
            share = 1 + rng.randbelow(12)
            masks.append(sum(1 << i for i in range(size) if rng.randbelow(share) == 0))
            lo = rng.randbelow(size)
            masks.append(sum(1 << i for i in range(lo, min(size, lo + 1 + rng.randbelow(20)))))
        for mask in masks:
            want = [i for i in range(size) if mask >> i & 1]
            assert grid.hexes_of(mask) == [grid.hexes[i] for i in want], (size, mask)
            assert grid.positions(mask) == frozenset(want), (size, mask)


def test_issue23_a_moves_route_among_one_or_more_hazard_tiles_equals_the_full_search() -> None:
    """R-HAZ-1/2, R-MOV-1..5: with one to three Spike Traps put on random hexes (the routes
    toward a hex on a tile, past one, through where two overlap), `routes_to` each end hex
    of every figure at 2 to 5 steps, with no memo, equals the plain search's table (one
    tile and no way around it: the shortest route alone; more tiles: the Pareto search)."""
    rng = Rng(31)
    compared = 0
    for state in _positions(6, 4)[::4]:
        ordered = sorted(state.cells)
        for trial in range(3):
            w = state.clone()
            assert isinstance(w, ArenaState)
            tiles = []
            for k in range(1 + trial):
                h = ordered[rng.randbelow(len(ordered))]
                hexes = [h, *(n for n in neighbours(h) if rng.randbelow(2) == 0)]
                tiles.append(Tile(f"s{trial}_{k}", "spike_traps", h, hexes, None))
            w.board.tiles = tiles
            w.board.moved()
            for u in list(w.board.units.values()):
                if not u.alive or u.hex is None:
                    continue
                steps = 2 + rng.randbelow(4)
                want = reference_explore(w, u, steps)
                for h in want:
                    w.route_memo = None
                    assert routes_to(w, u, steps, h) == want[h], (trial, u.uid, steps, h)
                    compared += len(want[h][0].tiles) > 0
    assert compared > 100
