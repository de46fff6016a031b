"""Issue 23 item 1: an NPC's move toward its target, the turn's roll and the process-wide
caches, made cheaper, give what the plain computations gave.

*Why:* an NPC's move toward its target (N11) now walks the hexes with the harmful tiles as
stops and stops at the first step that meets a hex in Range, instead of the Pareto search over
every step; a walk that kept the wrong first path, or stopped a step early, would still play a
plausible game. Each shortcut is compared here with the computation it replaced, on positions
of random solo and six-seat games, the way `bench_playouts.py` plays them. The golden-game
tests check that whole games stay the same.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator

import bloodforge
from bloodforge.core import Dice, Rng
from bloodforge.games.arena import npc
from bloodforge.games.arena.abilities import roll_and_resolve_d8
from bloodforge.games.arena.dice import die_word, roll_pool
from bloodforge.games.arena.effects import drain
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import distance
from bloodforge.games.arena.model import Die, QItem, Unit
from bloodforge.games.arena.movement import _ENDS, _grid, _near_hazards, explore, nearest_safe, shared_destinations


def positions(players: int, seed: int, every: int) -> Iterator[ArenaState]:
    """Every `every`-th position of a random game (its own copy, so the memos start cold)."""
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
    assert isinstance(state, ArenaState)
    rng = Rng(seed)
    ply = 0
    while not state.is_terminal():
        if ply % every == 0:
            copy = state.clone()
            assert isinstance(copy, ArenaState)
            copy.route_memo = None
            yield copy
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
        ply += 1


def test_issue23_n11_move_toward_by_the_safe_walk_equals_the_pareto_choice() -> None:
    """N11 (TB4): where an NPC moves toward its target, found by the walk that treats the
    harmful tiles' cells as stops and stops at the first step meeting a hex in Range, equals
    `move_options` over the full Pareto table (`explore`), for every NPC, every enemy as the
    target and several Movements and Ranges, with and without hazards near; the walk's own
    answer, when it has one, is the safe branch of that choice (the same hexes, steps and
    paths)."""
    seen: Counter[str] = Counter()
    for players, seed, every in ((1, 3, 9), (6, 5, 25)):
        for state in positions(players, seed, every):
            npcs = [u for u in state.board.units.values()
                    if u.alive and u.hex is not None and u.kind in ("boss", "rival")]
            for u in npcs:
                assert u.hex is not None
                grid = _grid(state.cells)
                for movement, reach in ((2, 1), (4, 1), (3, 2)):
                    pos = grid.pos(u.hex)
                    hazards = pos is not None and bool(_near_hazards(state, grid, u, grid.disk(pos, movement)))
                    for t in npc.foes(state, u):
                        if t.hex is None:
                            continue
                        a = npc.Attrs(movement, reach, 1, False)
                        state.route_memo = None
                        fast = npc.move_toward(state, u, a, t)
                        plain = npc.move_options(u, t, a, explore(state, u, movement))
                        assert fast == plain
                        if distance(u.hex, t.hex) <= reach:
                            seen["in Range"] += 1  # no move, no search
                            continue
                        walk = nearest_safe(state, u, movement, t.hex, reach)
                        if walk is not None:
                            assert walk == plain
                            assert all(not r.tiles and r.steps == len(r.path) for _, r in walk)
                            seen["walk, hazards near" if hazards else "walk, no hazard"] += 1
                        elif plain:
                            seen["Pareto search"] += 1
    # every branch met: the walk with and without hazards near, and the fallback with a choice
    assert seen["walk, hazards near"] > 20, seen
    assert seen["walk, no hazard"] > 20, seen
    assert seen["Pareto search"] > 5, seen


def test_issue23_shared_end_hexes_are_left_alone_by_the_collector_and_equal_the_search() -> None:
    """R-MOV-1 (the end hexes of a move): the process-wide answers of the end-hex walk hold
    only ints, strings and tuples of them, so after one pass of the cyclic collector none of
    them is tracked any more (a list, or the map's frozenset of cells in a key, would be, and
    every full pass would walk thousands of them again); each still equals the end hexes of
    the full route search, and stays the same object for the same obstacles."""
    checked = 0
    for players, seed, every in ((1, 6, 15), (6, 7, 40)):
        for state in positions(players, seed, every):
            for u in state.board.units.values():
                if u.alive and u.hex is not None:
                    ends = shared_destinations(state, u, 3)
                    assert list(ends) == sorted(explore(state, u, 3))
                    assert shared_destinations(state, u, 3) is ends
                    checked += 1
    assert checked > 40
    gc.collect()
    assert _ENDS
    assert not [k for k, v in _ENDS.items() if gc.is_tracked(k) or gc.is_tracked(v)]


def plain_roll_and_resolve(w: ArenaState, u: Unit) -> None:
    """Turn steps 1-2 as read before the one-pass roll: `roll_pool`, the roll line word by word
    (`die_word`), then the Special dice read off the pool again."""
    roll_pool(w, u)
    shown = ", ".join([f"{die_word(w, d.kind)} {d.face}" for d in u.pool])
    w.log(f"{u.name} rolls {shown} ({(u.rolled_category or 'singles').capitalize()})", kind="roll")
    for i, d in enumerate(u.pool):
        if not d.is_special or d.face is None:
            continue
        spec = w.content.special_die(d.kind)
        if spec.timing != "immediate":
            continue
        for e in spec.faces[d.face - 1]:
            w.board.queue.append(QItem(e, u.uid, u.uid, {"why": f"{spec.name} die", "die": i, "face": d.face}))
    drain(w)


def test_issue23_turn_roll_in_one_pass_equals_the_plain_roll_line_and_d8_effects() -> None:
    """R-TURN-1/2, R-D8-1/2 (N2/N3): the turn's roll in one pass leaves the same state as the
    roll, the roll line and the Special dice's effects read one after the other (the dice, the
    RNG, the log, the queue and what it resolved), at every roll of random solo and six-seat
    games, with a Special die added to each pool and with the d6 rolls rigged (a scenario's
    dice, through `World.roll`)."""
    checked = Counter[str]()
    for players, seed, every in ((1, 2, 3), (6, 3, 11)):
        taken = 0
        for state in positions(players, seed, every):
            if taken == 12:
                break
            b = state.board
            active = b.units.get(str(b.active)) if b.active is not None else None
            if active is None or not active.alive or not active.pool:
                continue
            taken += 1
            for variant in ("as played", "special", "rigged"):
                one, two = state.clone(), state.clone()
                assert isinstance(one, ArenaState)
                assert isinstance(two, ArenaState)
                for w in (one, two):
                    u = w.board.units[active.uid]
                    if variant == "special":
                        c = w.content
                        dice = [*(d for ch in c.champions for d in ch.dice), *(d for bo in c.bosses for d in bo.dice)]
                        kind = next(d.id for d in dice if d.timing == "immediate")
                        u.pool.append(Die(kind, 8, None, False, True))
                    elif variant == "rigged":
                        w.board.dice[6] = Dice([6, 6, 1, 6, 2, 3, 4, 5, 6, 1, 2, 3])
                roll_and_resolve_d8(one, one.board.units[active.uid])
                plain_roll_and_resolve(two, two.board.units[active.uid])
                assert one.to_json() == two.to_json()
                assert [str(e) for e in one.events] == [str(e) for e in two.events]
                checked[variant] += 1
    assert min(checked.values()) == 24, checked
