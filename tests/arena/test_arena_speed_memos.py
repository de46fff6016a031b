"""Issue 23 speed memos: what legal actions and NPC steps reuse must never leak between a
state, its clones and the callers (spec §1 contract: clones are independent)."""

from __future__ import annotations

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.arena import attack, npc, player
from bloodforge.games.arena.attack import movement_of, range_of, targets_of
from bloodforge.games.arena.environment import _footprint, _turned, run_line
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import distance, neighbours, parse_hex, rotate
from bloodforge.games.arena.model import Unit
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


def test_issue23_turned_tiles_equal_the_rotation_and_are_owned_by_their_tile() -> None:
    """R-EACT-2 / E3: a rotating Environmental's hexes after a turn, memoised per (shape,
    anchor, turns so far, amount, map), equal the footprint turned about the pivot and kept
    inside the arena; the tile gets a list of its own, so a tile changed in one position (a
    clone's turn) never changes what the next turn reads elsewhere."""
    state = bloodforge.load_game("arena", players=2, seed=3).new_initial_state()
    assert isinstance(state, ArenaState)
    rotating = [e for e in state.content.environmentals if any(line.op == "rotate" for line in e.lines)]
    assert rotating
    for env in rotating:
        off = parse_hex(env.pivot)
        assert off is not None
        for anchor in sorted(state.cells)[::7]:
            pivot = (anchor[0] + off[0], anchor[1] + off[1])
            for turns in range(6):
                for amount in (1, 2, -1):
                    footprint = _footprint(state, env.id, anchor, turns)
                    want = sorted(h for h in (rotate(x, pivot, amount) for x in footprint) if h in state.cells)
                    assert list(_turned(state, env.id, anchor, turns, amount)) == want
    # a turn in a clone leaves the original's tile alone, and each tile's list is its own
    spray = [{"env": "hellfire_spray", "anchor": "0,0", "owner": "malvarra"}]
    units = [{"id": "vhrak", "hex": "-4,0"}, {"id": "ulwazi", "hex": "0,3"}, {"id": "maere", "hex": "-3,3"},
             {"id": "malvarra", "hex": "-5,0"}]
    params = {"players": 3, "champions": ["vhrak", "ulwazi", "maere"], "boss": "malvarra"}
    pos = {"units": units, "order": ["env:hellfire_spray", "vhrak", "ulwazi", "maere", "malvarra"],
           "active": "vhrak", "tiles": spray}
    first = state.game.load_scenario({"game": "arena", "params": params, "seed": 0, "position": pos})
    second = first.clone()
    assert isinstance(first, ArenaState)
    assert isinstance(second, ArenaState)
    before = list(first.board.tiles[0].hexes)
    run_line(second, "hellfire_spray", "rotate", 1)
    turned = list(second.board.tiles[0].hexes)
    assert turned != before
    assert first.board.tiles[0].hexes == before
    second.board.tiles[0].hexes.clear()  # a caller changing its tile's list
    third = first.clone()
    assert isinstance(third, ArenaState)
    run_line(third, "hellfire_spray", "rotate", 1)
    assert third.board.tiles[0].hexes == turned


def test_issue23_an_npcs_attack_and_card_by_table_equal_the_search_over_the_content() -> None:
    """N7 (TB6, R-RIV-3): the attack an NPC uses, looked up once per content, figure,
    category and card side, is the first the plain search over the content finds, for every
    Boss and every Champion as a Rival, with and without a Skirmish card revealed; N8: the
    attributes from one lookup equal Movement, Range and Targets asked one by one."""
    state = bloodforge.load_game("arena", players=1, seed=4).new_initial_state()
    assert isinstance(state, ArenaState)
    content = state.content
    for letter in sorted({c.letter for c in content.skirmish}):
        assert npc.skirmish_card(state, letter) is next(c for c in content.skirmish if c.letter == letter)
    checked = 0
    for kind, ids in (("boss", [b.id for b in content.bosses]), ("rival", [c.id for c in content.champions])):
        for cid in ids:
            u = Unit(f"probe_{cid}", kind, cid, cid, 9)
            u.mods = {"movement": 1, "range": -1, "targets": 1}
            for card in (None, *sorted({c.letter for c in content.skirmish})[:4]):
                state.board.revealed.pop(u.uid, None)
                if card is not None:
                    state.board.revealed[u.uid] = card
                for category in ("singles", "doubles", None):
                    u.rolled_category = category
                    for invoked in (False, True):
                        cat = "triples" if invoked else (category or "singles")
                        if kind == "boss":
                            want = next(a for a in content.boss(cid).attacks if a.category == cat)
                        else:
                            side = "left" if card is None else next(
                                c for c in content.skirmish if c.letter == card).side
                            want = next(a for a in content.champion(cid).attacks
                                        if a.category == cat and (cat == "triples" or a.side == side))
                        atk = npc.chosen_attack(state, u, invoked)
                        assert atk is want, (kind, cid, card, category, invoked)
                        a = npc.attributes(state, u, atk)
                        assert a.range == range_of(state, u, atk)
                        assert a.targets == targets_of(state, u, atk)
                        assert a.movement == (0 if atk.origin != "self" else movement_of(state, u))
                        checked += 1
    assert checked > 100


def test_issue23_foes_in_one_pass_equal_the_living_damageable_enemies() -> None:
    """TB1 / N12: the damageable enemies on the board, read in one pass over the figures,
    equal the living enemies with HP, in board order, for every figure of positions from a
    random six-seat game; a one-target attack adds no extra targets."""
    state = bloodforge.load_game("arena", players=6, seed=8).new_initial_state()
    assert isinstance(state, ArenaState)
    rng = Rng(8)
    compared = 0
    for ply in range(300):
        if state.is_terminal():
            break
        if ply % 10 == 0:
            for u in state.board.units.values():
                want = [e for e in state.living() if state.enemies(u, e) and state.damageable(e)]
                assert npc.foes(state, u) == want
                compared += 1
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert compared > 50
    boss = next(u for u in state.board.units.values() if u.kind == "boss")
    atk = npc.chosen_attack(state, boss)
    first = next(iter(npc.foes(state, boss)), boss)
    assert npc.extra_targets(state, boss, atk, npc.Attrs(3, 99, 1, False), first) == []


def test_issue23_offered_attacks_by_nearest_enemy_per_origin_equal_the_range_search() -> None:
    """R-ATT-6..8, R-ATT-12 (issue 18 defect 2): the attacks a player is offered, decided by
    the nearest enemy per origin (its own space, each kind of minion it attacks from), are
    those with an enemy in Range by the plain search, or the first option when none has, for
    every Champion in positions of random six-seat games (Maere and Calvio attack from minions)."""
    compared = 0
    minion_origins = 0
    for seed in (2, 9):
        state = bloodforge.load_game("arena", players=6, seed=seed).new_initial_state()
        assert isinstance(state, ArenaState)
        rng = Rng(seed)
        for ply in range(500):
            if state.is_terminal():
                break
            if ply % 7 == 0:
                for u in state.board.units.values():
                    if u.kind != "champion" or not u.alive or u.hex is None:
                        continue
                    options = attack.attack_options(state, u)
                    want = [a for a in options if attack._in_range(state, u, a, attack.range_of(state, u, a))]
                    state.route_memo = None  # decided afresh, not read off the memo
                    assert attack.offered_attacks(state, u) == (want or options[:1]), (seed, ply, u.uid)
                    compared += 1
                    minion_origins += any(a.origin != "self" for a in options)
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert compared > 100
    assert minion_origins > 10


def test_issue23_end_hexes_from_the_occupancy_near_the_start_equal_the_route_search() -> None:
    """R-MOV-1..5, TB10, KW-FLY: the end hexes, keyed and walked by the obstacles within the
    disk of the Movement only (blocking tiles, figures of other sides unless the mover flies,
    nobody ending on another figure's space), equal the keys of the full route search for
    every figure on the board, flying or not, in positions of random six-seat games."""
    compared = 0
    for seed in (4, 12):
        state = bloodforge.load_game("arena", players=6, seed=seed).new_initial_state()
        assert isinstance(state, ArenaState)
        rng = Rng(seed)
        for ply in range(400):
            if state.is_terminal():
                break
            if ply % 25 == 0:
                for u in state.board.units.values():
                    if not u.alive or u.hex is None:
                        continue
                    for steps in (2, 4):
                        flying = u.flying
                        for u.flying in (flying, True):
                            state.board.moved()  # a fresh layout: nothing read off the memo
                            assert destinations(state, u, steps) == sorted(explore(state, u, steps)), (seed, ply, u.uid)
                            compared += 1
                        u.flying = flying
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert compared > 200


def test_issue23_attack_options_by_table_equal_the_printed_attacks_and_are_the_callers_own() -> None:
    """R-ATT-4: the attacks of the available category or a lower one, from a table made once
    per content, figure and rank, are the printed attacks filtered by rank, in printed order,
    for every Champion and Boss and every rank; a caller changing its list changes no other."""
    state = bloodforge.load_game("arena", players=1, seed=6).new_initial_state()
    assert isinstance(state, ArenaState)
    content = state.content
    ranks = {"singles": 1, "doubles": 2, "triples": 3}
    for kind, ids in (("champion", [c.id for c in content.champions]), ("boss", [b.id for b in content.bosses])):
        for cid in ids:
            u = Unit(f"probe_{cid}", kind, cid, cid, 9)
            printed = content.champion(cid).attacks if kind == "champion" else content.boss(cid).attacks
            for category, invoked in (("singles", False), ("doubles", False), ("triples", False), (None, True)):
                u.rolled_category, u.invoked = category, invoked
                rank = 3 if invoked else ranks[category or "singles"]
                want = [a for a in printed if ranks[a.category] <= rank]
                got = attack.attack_options(state, u)
                assert got == want
                got.clear()
                assert attack.attack_options(state, u) == want
