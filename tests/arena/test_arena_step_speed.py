"""Issue 23 item 1: the game's own steps made cheaper give what the plain computations gave.

*Why:* the NPCs' steps, the effects queue and the attack were made cheaper (tables, one pass
instead of several, the usual case first); a table keyed by too little, or a pass that drops a
die, would still play a plausible game. Each shortcut is compared here with the computation
it replaced, on positions of random solo and six-seat games, the way `bench_playouts.py`
plays them. The golden-game tests check that whole games stay the same.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import product

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.arena import effects, npc, turns
from bloodforge.games.arena.attack import movement_of, range_of, targets_of
from bloodforge.games.arena.dice import base_damage, category_of
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import Hex, distance
from bloodforge.games.arena.model import ATTACK, Unit
from bloodforge.games.arena.movement import Route, explore, safe_steps, shortest
from bloodforge.games.arena.world import World


def own_steps(players: int, seed: int) -> Iterator[tuple[ArenaState, str]]:
    """(position before the game's own step, the step's text) for every own step of a random
    game, replayed entry by entry (`step_entry`) so that each step is a position of its own."""
    game = bloodforge.load_game("arena", players=players, seed=seed)
    played = game.new_initial_state()
    rng = Rng(seed)
    while not played.is_terminal():
        seat = rng.choice(played.actors())
        played.apply_unchecked(rng.choice(played.legal_actions(seat)), seat)
    replay = game.new_initial_state(advance=False)
    assert isinstance(replay, ArenaState)
    for who, text in played.moves():
        if who is None and not text.startswith("timeout"):
            yield replay, text
        replay.step_entry(who, text)


def test_issue23_n8_attributes_without_modifiers_by_table_equal_the_plain_sums() -> None:
    """N8 (TB9): an NPC's Movement, Range and Targets for an attack, shared by every figure
    of its kind while it has no turn modifiers, equal the sums asked one by one, for every
    Boss and Champion (as a Rival), every category; a figure with modifiers is never served
    the shared answer, and one without is not served a modified one."""
    state = bloodforge.load_game("arena", players=1, seed=4).new_initial_state()
    assert isinstance(state, ArenaState)
    content = state.content
    checked = 0
    for kind, ids in (("boss", [b.id for b in content.bosses]), ("rival", [c.id for c in content.champions])):
        for cid in ids:
            u = Unit(f"probe_{cid}", kind, cid, cid, 9)
            for category, invoked, mods in product(("singles", "doubles"), (False, True),
                                                   ({}, {"range": 2, "targets": 1, "movement": -1}, {})):
                u.rolled_category = category
                u.mods = dict(mods)
                atk = npc.chosen_attack(state, u, invoked)
                a = npc.attributes(state, u, atk)
                assert (a.movement, a.range, a.targets, a.from_minion) == (
                    0 if atk.origin != "self" else movement_of(state, u), range_of(state, u, atk),
                    targets_of(state, u, atk), atk.origin != "self"), (kind, cid, category, invoked, mods)
                checked += 1
    assert checked > 100


def test_issue23_dice_category_in_one_pass_equals_counting_every_face() -> None:
    """R-ATT-3 with A15: Triples for a face three or more times, Doubles twice, else Singles,
    for every pool of up to six d6 faces (and none at all)."""
    for n in range(7):
        for faces in product(range(1, 7), repeat=n):
            top = max(Counter(faces).values(), default=0)
            want = "triples" if top >= 3 else "doubles" if top == 2 else "singles"
            assert category_of(list(faces)) == want, faces


def plain_chooser(w: World, forcer: Unit | None, subject: Unit) -> tuple[int | None, bool]:
    """R-FM-3 / TB-FMC as `chooser_of` read before the shortcut (the lists of every human)."""
    if forcer is not None and forcer.kind == "champion" and forcer.seat is not None:
        return forcer.seat, False
    if forcer is not None and forcer.kind == "minion" and forcer.summoner is not None:
        owner = w.board.units[forcer.summoner]
        if owner.kind == "champion" and owner.seat is not None:
            return owner.seat, False
    chooser = w.fastest_human_opponent(subject) if forcer is not None else w.fastest_human()
    return (chooser.seat if chooser is not None else None), True


def test_issue23_forced_movement_chooser_without_lists_equals_the_fastest_human_opponent() -> None:
    """R-FM-3 / TB-FMC / F1 / F8: who paths a forced movement, found with one pass over this
    round's order, equals the first human opponent of `World.humans_in_order`, for every
    forcer (and none) and subject in positions of random solo and six-seat games, also after
    the forcer's side or the subject's seat is changed and when no human is left in order."""
    checked = 0
    for players, seed in ((1, 3), (6, 2)):
        for i, (state, _) in enumerate(own_steps(players, seed)):
            if i % 15:
                continue
            units = list(state.board.units.values())
            for subject in units:
                for forcer in (None, *units):
                    assert effects.chooser_of(state, forcer, subject) == plain_chooser(state, forcer, subject)
                    checked += 1
            probe = state.clone()
            probe.board.order = [x for x in probe.board.order if probe.board.units.get(x) is None
                                 or probe.board.units[x].seat is None]  # no human in order
            for subject in probe.board.units.values():
                for forcer in probe.board.units.values():
                    assert effects.chooser_of(probe, forcer, subject) == plain_chooser(probe, forcer, subject)
    assert checked > 500


def test_issue23_attack_damage_in_one_pass_over_the_pool_equals_the_plain_sums() -> None:
    """R-DMG-1..3 / A17: every NPC attack of random games (solo and six seats) logs a damage
    of its attack dice's faces (`base_damage`) plus its listed modifiers, the attack dice as
    rolled (core as "Attack", Temporary ones), and each Special die that adds to an attack."""
    checked = 0
    for players, seed in ((1, 7), (6, 3)):
        for state, text in own_steps(players, seed):
            words = text.split()
            if words[0] != "npc" or words[2] != "attack":
                continue
            u = state.board.units[words[1]]
            rolled = [d for d in u.pool if d.face is not None and not d.fresh]
            want_dice = [["Attack" if d.kind == ATTACK else "Temporary", d.face] for d in rolled if d.is_attack]
            specials = [(state.content.special_die(d.kind).name, d.face) for d in rolled if d.is_special
                        and state.content.special_die(d.kind).timing == "attack"]
            base = base_damage(u)
            after = state.clone()
            turns.apply_auto(after, turns.act(*words))
            event = next(e for e in reversed(list(after.events)) if e.kind == "attack" and e.data
                         and e.data.get("unit") == u.uid)
            assert event.data is not None
            parts = event.data["parts"]
            assert event.data["damage"] == base + sum(n for _, n in parts)
            assert event.data["dice"] == want_dice
            assert [(why.removesuffix(" die"), n) for why, n in parts if why.endswith(" die")] == specials
            checked += 1
    assert checked > 20


def plain_approach(w: World, u: Unit, routes: dict[Hex, list[Route]]) -> list[tuple[Hex, Route]]:
    """N14 destination (TB3) as `approach_options` read before distances were kept once."""
    g = npc.goal(w, u)
    if g is None or g.hex is None or u.hex is None:
        return []
    here = distance(u.hex, g.hex)
    safe = {h: s for h, rs in routes.items() if (s := safe_steps(rs)) is not None}
    if safe:
        d = min(distance(h, g.hex) for h in safe)
        if d < here:
            cands = [h for h in safe if distance(h, g.hex) == d]
            low = min(safe[h] for h in cands)
            return [(h, next(r for r in routes[h] if not r.tiles and r.steps == low))
                    for h in sorted(cands) if safe[h] == low]
    near = min(distance(h, g.hex) for h in routes)
    if near >= here:
        return []
    best = {h: shortest(rs) for h, rs in routes.items() if distance(h, g.hex) == near}
    fewest = min((r.steps, len(r.tiles)) for r in best.values())
    return [(h, r) for h, r in sorted(best.items()) if (r.steps, len(r.tiles)) == fewest]


def test_issue23_n14_approach_with_each_distance_once_equals_the_plain_choice() -> None:
    """N14 (R-TGT-9, TB3, TB13): where an NPC that reaches nobody advances, with each end
    hex's distance to its goal worked out once, equals the choice asking it every time, for
    every NPC in positions of random solo and six-seat games."""
    checked = 0
    for players, seed in ((1, 8), (6, 4)):
        for i, (state, _) in enumerate(own_steps(players, seed)):
            if i % 10:
                continue
            for u in state.board.units.values():
                if u.alive and u.hex is not None and u.kind in ("boss", "rival"):
                    routes = explore(state, u, movement_of(state, u))
                    assert npc.approach_options(state, u, routes) == plain_approach(state, u, routes)
                    checked += 1
    assert checked > 40


def plain_best_tier(w: World, u: Unit, cands: list[Unit], rule: str) -> list[Unit]:
    """R-MIN-10 / TB2 / N10 as `best_tier` read before its one-candidate shortcut."""
    pool = [e for e in cands if e.kind != "minion"] or [e for e in cands if e.kind == "minion"]
    if not pool:
        return []
    keys = {e.uid: npc.preference(w, u, e, rule) for e in pool}
    best = min(keys.values())
    return sorted((e for e in pool if keys[e.uid] == best), key=lambda e: e.uid)


def test_issue23_n10_targeting_rule_by_table_and_best_tier_equal_the_plain_search() -> None:
    """R-TGT-8: a Boss Action card (and so its targeting rule), looked up once per content
    and Boss, is the one the search over the Boss's cards finds, for every Boss and card; N10
    (R-TGT-2/3, TB7, R-MIN-10): the best tier of every NPC's foes (and of each single foe),
    under every rule, equals the plain ranking in positions of random solo and six-seat games."""
    state = bloodforge.load_game("arena", players=1, seed=4).new_initial_state()
    assert isinstance(state, ArenaState)
    for boss in state.content.bosses:
        u = Unit(f"probe_{boss.id}", "boss", boss.id, boss.name, 9)
        for card in boss.actions:
            state.board.revealed[u.uid] = card.id
            assert npc.target_rule(state, u) == card.target
            assert npc._boss_card(state.content, boss.id, card.id) is next(
                c for c in boss.actions if c.id == card.id)
        state.board.revealed.pop(u.uid)
        assert npc.target_rule(state, u) == "most_hp"
    checked = 0
    for players, seed in ((1, 9), (6, 5)):
        for i, (position, _) in enumerate(own_steps(players, seed)):
            if i % 12:
                continue
            for u in position.board.units.values():
                if not (u.alive and u.hex is not None and u.kind in ("boss", "rival")):
                    continue
                found = npc.foes(position, u)
                for rule in ("most_hp", "least_hp", "nearest"):
                    for cands in (found, *([e] for e in found), []):
                        assert npc.best_tier(position, u, cands, rule) == plain_best_tier(position, u, cands, rule)
                        checked += 1
    assert checked > 200


def plain_actors(w: World) -> list[int]:
    """Who may act, as `turns.actors` read before its usual case came first."""
    b = w.board
    if b.phase == "over":
        return []
    if b.pending is not None:
        return [b.pending.seat]
    if b.phase == "pick":
        return sorted(u.seat for u in w.combatants() if u.seat is not None and u.seat not in b.picks)
    if b.phase == "place":
        u = turns.next_to_place(w)
        return [u.seat] if u is not None and u.seat is not None else []
    if b.phase == "turns" and b.active is not None and b.stage in ("act", "target"):
        u = w.unit(b.active)
        return [u.seat] if u.seat is not None else []
    return []


def plain_still_on(w: World) -> bool:
    """R-WIN-1/3/4, A48: the match goes on while two sides stand and a human is left."""
    standing = {u.side for u in w.board.units.values() if u.alive and u.kind != "minion"}
    return len(standing) > 1 and any(u.alive and u.kind != "minion" and u.seat is not None
                                     for u in w.board.units.values())


def test_issue23_actors_and_end_check_with_the_usual_case_first_equal_the_plain_rules() -> None:
    """Who may act (every phase) and whether the match ends (R-WIN-1/3/4), with the usual
    case decided first or the loop left early, equal the plain rules at every position of
    random solo and six-seat games, also with figures felled by hand in a copy."""
    checked = ended = 0
    for players, seed in ((1, 11), (6, 7)):
        for i, (state, _) in enumerate(own_steps(players, seed)):
            assert turns.actors(state) == plain_actors(state)
            if i % 6:
                continue
            units = list(state.board.units)
            # the first k figures felled, the last k, and every figure but one side's
            cuts = [units[:k] for k in range(len(units) + 1)] + [units[-k:] for k in range(1, len(units))]
            cuts += [[x for x in units if state.board.units[x].side != side]
                     for side in {u.side for u in state.board.units.values()}]
            for fell in cuts:
                probe = state.clone()
                for x in fell:
                    probe.board.units[x].alive = False
                on = plain_still_on(probe)
                before = probe.board.phase
                effects.check_end(probe)
                assert (probe.board.phase == "over") == (before == "over" or not on), (players, i, fell)
                ended += probe.board.phase == "over" and before != "over"
                checked += 1
    assert checked > 100
    assert ended > 20  # matches ended by the check, a human's side alone among them
