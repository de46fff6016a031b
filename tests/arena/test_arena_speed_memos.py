"""Issue 23 speed memos: what legal actions and NPC steps reuse must never leak between a
state, its clones and the callers (spec §1 contract: clones are independent)."""

from __future__ import annotations

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.arena import npc, player
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import distance, neighbours
from bloodforge.games.arena.movement import destinations, explore


def _turn_state() -> ArenaState:
    """A four-seat FFA position where a Champion may still move (random play, seed 11)."""
    state = bloodforge.load_game("arena", players=4, seed=11).new_initial_state()
    assert isinstance(state, ArenaState)
    rng = Rng(11)
    for _ in range(400):
        seat = rng.choice(state.actors())
        b = state.board
        if b.phase == "turns" and b.stage == "act" and b.pending is None and b.active is not None:
            u = state.board.units[b.active]
            if u.seat == seat and not u.moved and len(destinations(state, u, 2)) > 3:
                return state
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    raise AssertionError("no Champion turn with room to move in 400 plies")


def test_issue23_memoised_move_actions_are_copied_for_every_caller() -> None:
    """R-MOV-1: the `move` actions are memoised per layout; a caller emptying its list, and a
    clone that moves, leave the original's legal actions as a state rebuilt from JSON sees them."""
    state = _turn_state()
    seat = state.actors()[0]
    before = [str(a) for a in player.legal(state, seat)]
    assert any(t.startswith("move ") for t in before)
    player.legal(state, seat).clear()  # a caller changing its list
    clone = state.clone()
    move = next(a for a in clone.legal_actions(seat) if a.kind == "move")
    clone.apply(move, seat)
    assert [str(a) for a in player.legal(state, seat)] == before
    fresh = state.game.state_from_json(state.to_json())
    assert [str(a) for a in fresh.legal_actions(seat)] == before


def test_issue23_destinations_follow_an_obstacle_placed_beside_the_mover_in_a_clone() -> None:
    """R-MOV-2 / R-MOV-5: the end hexes are shared by positions with the same obstacles near
    the mover; an enemy put beside it in a clone changes the clone's answer (no end on it),
    never the original's, and both equal the full route search's end hexes."""
    state = _turn_state()
    u = state.board.units[str(state.board.active)]
    assert u.hex is not None
    before = destinations(state, u, 3)
    clone = state.clone()
    cu = clone.board.units[u.uid]
    enemy = next(e for e in clone.board.units.values()
                 if e.alive and e.hex is not None and e.side != cu.side and e.kind != "minion")
    spot = next(n for n in neighbours(u.hex)
                if n in clone.cells and clone.occupant(n) is None and n in before and n not in clone.blocking_tiles())
    far = [h for h in before if distance(h, u.hex) == 3]
    enemy.hex = spot
    clone.board.moved()
    after = destinations(clone, cu, 3)
    assert spot not in after
    assert after == sorted(explore(clone, cu, 3))
    assert destinations(state, u, 3) == before == sorted(explore(state, u, 3))
    assert far  # the original still reaches its farthest hexes


def test_issue23_n9_reachable_foes_equal_the_search_over_every_end_hex() -> None:
    """N9 (R-TGT-1): the enemies an NPC can reach, decided by hex distance where it settles
    the question and by the reachable end hexes otherwise, equal `accessible` over every end
    hex, for every NPC and attack category in positions of random games (solo and six seats)."""
    compared = 0
    for players, seed in ((1, 5), (6, 6)):
        state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
        assert isinstance(state, ArenaState)
        rng = Rng(seed)
        ply = 0
        while not state.is_terminal() and ply < 400:
            if ply % 9 == 0:
                for u in state.board.units.values():
                    if u.alive and u.hex is not None and u.kind in ("boss", "rival"):
                        for invoked in (False, True):
                            atk = npc.chosen_attack(state, u, invoked)
                            a = npc.attributes(state, u, atk)
                            want = [e.uid for e in npc.accessible(state, u, atk, a, destinations(state, u, a.movement))]
                            state.route_memo = None  # decided afresh, not read off the memo
                            assert [e.uid for e in npc.reachable_foes(state, u, atk, a)] == want, (players, ply, u.uid)
                            compared += 1
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
            ply += 1
    assert compared > 40
