"""Issue 23 item 1: the players' legal actions listed the fast way equal the plain listing.

*Why:* the act stage's actions (R-ACT, R-BE, R-MOV, R-ATT, R-BON, R-PACT, R-ULT, R-MIN-5) are
listed at nearly every ply, so `player.turn_actions` reads the pool in one pass, takes its
actions from tables, lists move actions with `map` over a per-hex table and finds a
summoner's minions once per layout. A table keyed by too little, a die skipped in the one
pass or a list in another order would still play a plausible game; here every act-stage
position of random solo and six-seat games (as `bench_playouts.py` plays them) is compared
with `plain_turn_actions`, the listing of before with each rule's own pass and no memo.
"""

from __future__ import annotations

from collections import Counter

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.arena import effects, player
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import hex_id
from bloodforge.games.arena.movement import destinations


def _compare_game(players: int, seed: int, seen: Counter[str]) -> int:
    """Plays a random game; at every act-stage position compares the fast listing (first
    asked: memo miss; asked again: memo hit; on a clone) with the plain one. Returns how
    many positions were compared and counts the kinds of action met."""
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
    assert isinstance(state, ArenaState)
    rng = Rng(seed)
    compared = 0
    while not state.is_terminal():
        b = state.board
        if b.pending is None and b.phase == "turns" and b.stage == "act" and b.active in b.units:
            u = state.unit(str(b.active))
            if u.kind == "champion":
                plain = player.plain_turn_actions(state, u)
                fast = player.turn_actions(state, u)
                assert fast == plain, (players, seed, b.round)
                assert player.turn_actions(state, u) == plain  # served by the memos
                twin = state.clone()
                assert isinstance(twin, ArenaState)
                assert player.turn_actions(twin, twin.unit(u.uid)) == plain
                seen.update(a.kind for a in plain)
                compared += 1
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    return compared


def test_issue23_turn_actions_equal_the_plain_listing_in_random_games() -> None:
    """Every act-stage position of 2 solo and 2 six-seat random games: the same actions in
    the same order, and every kind of act-stage action met (so no branch goes untested)."""
    seen: Counter[str] = Counter()
    compared = sum(_compare_game(players, seed, seen) for players, seed in ((1, 0), (1, 3), (6, 0), (6, 3)))
    assert compared > 500
    for kind in ("energy", "move", "minion", "attack", "bonus", "spell", "pact", "invoke", "end"):
        assert seen[kind] > 0, (kind, seen)


def test_issue23_move_actions_drop_only_the_movers_own_space_in_destinations_order() -> None:
    """R-MOV: `_move_actions` lists a move to every end hex of `destinations` but the
    mover's own space, in that order, for a Champion and (as `minion <id> <hex>`) for a
    minion, and the same list again when the end hexes are shared by another position."""
    state = bloodforge.load_game("arena", players=6, seed=2).new_initial_state()
    assert isinstance(state, ArenaState)
    rng = Rng(2)
    checked: Counter[str] = Counter()
    ply = 0
    while not state.is_terminal():
        ply += 1
        if ply % 10 == 0:  # positions all through the game
            for u in state.board.units.values():
                if not (u.alive and u.hex is not None and u.kind in ("champion", "minion")):
                    continue
                for steps in (1, 3):
                    want = [h for h in destinations(state, u, steps) if h != u.hex]
                    got = player._move_actions(state, u, steps)
                    kind = "minion" if u.kind == "minion" else "move"
                    assert [a.kind for a in got] == [kind] * len(want)
                    assert [a.args[-1] for a in got] == [hex_id(h) for h in want]
                    assert all(a.args[0] == u.uid for a in got) if kind == "minion" else True
                    assert player._move_actions(state, u, steps) == got  # memo hit
                    checked[kind] += 1
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert checked["move"] >= 200, checked
    assert checked["minion"] >= 100, checked


def _position_with(kind: str, players: int, seed: int) -> ArenaState:
    """The first act-stage position of a random game where the active Champion has an
    action of `kind` (`minion`: a minion that may move; `spell`: a Special die to cast)."""
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
    assert isinstance(state, ArenaState)
    rng = Rng(seed)
    while not state.is_terminal():
        seat = rng.choice(state.actors())
        actions = state.legal_actions(seat)
        b = state.board
        if b.stage == "act" and b.pending is None and any(a.kind == kind for a in actions):
            return state
        state.apply_unchecked(rng.choice(actions), seat)
    raise AssertionError(f"no {kind} action in this game")


def test_issue23_a_summoners_minions_follow_their_fall_and_their_space() -> None:
    """R-MIN-5: a minion moves only while alive and on the board; the minions found once
    per layout follow one destroyed (A47) or taken off the board, and a minion that moved
    already is not listed (its `minion:<id>` in the bonus actions used)."""
    start = _position_with("minion", 6, 0)
    u = start.unit(str(start.board.active))
    mine = [m.uid for m in start.board.units.values() if m.kind == "minion" and m.summoner == u.uid]
    assert mine
    assert player.turn_actions(start, u) == player.plain_turn_actions(start, u)
    for uid in mine:
        for change in ("destroyed", "off the board", "moved already"):
            w = start.clone()
            assert isinstance(w, ArenaState)
            me, m = w.unit(u.uid), w.unit(uid)
            assert player.turn_actions(w, me) == player.plain_turn_actions(w, me)  # memo filled
            if change == "destroyed":
                effects.eliminate(w, m, "a test")
            elif change == "off the board":
                m.hex = None
                w.board.moved()
            else:
                me.bonus_used.append(f"minion:{uid}")
            fast = player.turn_actions(w, me)
            assert fast == player.plain_turn_actions(w, me), change
            assert not any(a.kind == "minion" and a.args[0] == uid for a in fast), change


def test_issue23_the_one_pass_over_the_pool_reads_each_dies_state() -> None:
    """R-BE-2 (A23: a BE die gives energy once rolled this turn, not fresh, not used), the
    spells of Special dice (rolled, not fresh, not used, not cast yet) and R-ULT-1 (the BE
    dice to keep): every die of a pool set in turn to each state, compared with the plain
    listing."""
    checked: Counter[str] = Counter()
    for kind, seed in (("spell", 0), ("spell", 1), ("energy", 2)):
        state = _position_with(kind, 6, seed)
        u = state.unit(str(state.board.active))
        for i in range(len(u.pool)):
            for face, fresh, used, cast, energy in ((3, False, False, False, 0), (None, False, False, False, 0),
                                                    (3, True, False, False, 0), (3, False, True, False, 20),
                                                    (3, False, False, True, 9)):
                w = state.clone()
                assert isinstance(w, ArenaState)
                me = w.unit(u.uid)
                d = me.pool[i]
                d.face, d.fresh, d.used = face, fresh, used
                if cast:
                    me.bonus_used.append(f"spell{i}")
                me.energy += energy
                fast = player.turn_actions(w, me)
                assert fast == player.plain_turn_actions(w, me), (seed, i, d.kind, face, fresh, used, cast)
                checked.update(a.kind for a in fast if a.kind in ("energy", "spell", "invoke"))
    assert all(checked[k] > 0 for k in ("energy", "spell", "invoke")), checked
