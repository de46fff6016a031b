"""Issue 23 item 1: the arena's shortcuts of the fourth session's last round equal the plain
computation they replace.

*Why:* games must stay identical (every game's golden digests hang on the RNG's numbers, and
an NPC's N14 approach decides where it walks), yet a shortcut that is wrong in a rare case
(a rejected draw, a new bound, a goal that changed on the same layout) would still play a
plausible game. Each test compares the shortcut with the plain computation on sampled
inputs and would fail with the shortcut broken.
"""

from __future__ import annotations

import pytest

import bloodforge
from bloodforge.core import Rng
from bloodforge.core import rng as rng_module
from bloodforge.games.arena import abilities, npc
from bloodforge.games.arena.attack import movement_of
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import Hex, distance
from bloodforge.games.arena.model import Unit
from bloodforge.games.arena.movement import Route, explore, safe_steps, shortest

_MASK = (1 << 64) - 1


def _plain_randbelow(state: int, n: int) -> tuple[int, int]:
    """SplitMix64's draw below `n` as written first (next output, rejection above the largest
    multiple of `n`): (value, new state)."""
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < (1 << 64) - (1 << 64) % n:
            return z % n, state


def test_issue23_randbelow_fast_path_draws_the_plain_numbers() -> None:
    """Core RNG (every game's dice, shuffles, choices): the draw with the bound's limit found
    at once and the first output taken with one test gives the same numbers and leaves the
    same state as the plain SplitMix64 draw, for small and huge bounds (a bound just above
    2**63 rejects about half the outputs, so the rejection path runs), with the limits' table
    emptied midway (a new bound again); a bound of 1 draws nothing and a bound of 0 fails
    leaving the state as it was."""
    rejected = 0
    for seed in (0, 1, 12345, _MASK, 0x9E3779B97F4A7C15):
        r = Rng(seed)
        state = r.state
        for i, n in enumerate([6, 8, 2, 3, 6, 12, 20, 1000, 2**63 + 1, 2**64 - 1, 7, 6] * 25):
            if i == 150:
                rng_module._LIMITS.clear()
            want, after = _plain_randbelow(state, n)
            rejected += after != (state + 0x9E3779B97F4A7C15) & _MASK
            assert r.randbelow(n) == want, (seed, i, n)
            assert r.state == after
            state = after
        assert r.randbelow(1) == 0
        assert r.state == state
        with pytest.raises(ValueError):
            r.randbelow(0)
        assert r.state == state
    assert rejected > 20  # the rejection loop ran


def _plain_approach(w: ArenaState, u: Unit, routes: dict[Hex, list[Route]]) -> list[tuple[Hex, Route]]:
    """N14 destination (TB3) read straight off the rule, no memo, no distance table."""
    g = npc.goal(w, u)
    if g is None or g.hex is None or u.hex is None:
        return []
    to = g.hex
    here = distance(u.hex, to)
    safe = {h: s for h, rs in routes.items() if (s := safe_steps(rs)) is not None}
    if safe:
        d = min(distance(h, to) for h in safe)
        if d < here:
            cands = sorted(h for h in safe if distance(h, to) == d)
            low = min(safe[h] for h in cands)
            return [(h, next(r for r in routes[h] if not r.tiles and r.steps == low)) for h in cands if safe[h] == low]
    near = min(distance(h, to) for h in routes)
    if near >= here:
        return []
    best = {h: shortest(rs) for h, rs in routes.items() if distance(h, to) == near}
    fewest = min((r.steps, len(r.tiles)) for r in best.values())
    return [(h, r) for h, r in sorted(best.items()) if (r.steps, len(r.tiles)) == fewest]


def test_issue23_npc_approach_once_per_layout_equals_the_plain_rule() -> None:
    """N14 (R-TGT-9, TB3): the approach memoised per layout, NPC, goal and routes table
    equals the rule worked out afresh for every NPC (and every Champion as if it idled) in
    positions of random solo and six-seat games: the first answer, the memo's (asked again
    as idle, ask and decide do), a clone's, one for a shorter Movement (another routes table
    on the same layout), and one after the goal's HP changed on the same layout (a new goal,
    so the memo must not answer for the old one)."""
    compared = goal_changed = several = 0
    for players, seed in ((1, 2), (6, 5)):
        state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
        assert isinstance(state, ArenaState)
        rng = Rng(seed)
        ply = 0
        while not state.is_terminal() and ply < 900:
            ply += 1
            if ply % 9 == 0:
                for u in list(state.board.units.values()):
                    if not u.alive or u.hex is None or u.kind == "minion":
                        continue
                    routes = explore(state, u, movement_of(state, u))
                    want = _plain_approach(state, u, routes)
                    assert npc.approach_options(state, u, routes) == want, (players, seed, ply, u.uid)
                    assert npc.approach_options(state, u, routes) == want  # the memo's answer
                    twin = state.clone()
                    assert isinstance(twin, ArenaState)
                    twin_u = twin.unit(u.uid)
                    assert npc.approach_options(twin, twin_u, explore(twin, twin_u, movement_of(twin, twin_u))) == want
                    short = explore(state, u, 1)
                    assert npc.approach_options(state, u, short) == _plain_approach(state, u, short)
                    several += len(want) > 1
                    compared += 1
                    g = npc.goal(state, u)
                    foes = [e for e in npc.foes(state, u) if e is not g and e.hp is not None and e.hp > 1]
                    if g is not None and foes:
                        other = foes[0]
                        old_hp, old_max = other.hp, other.max_hp
                        other.hp = other.max_hp = 10_000  # the new goal, no figure moved
                        if npc.goal(state, u) is other:
                            want2 = _plain_approach(state, u, routes)
                            assert npc.approach_options(state, u, routes) == want2, (players, seed, ply, u.uid)
                            goal_changed += want2 != want
                        other.hp, other.max_hp = old_hp, old_max
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert compared > 100
    assert goal_changed > 5
    assert several > 0


def test_issue23_ability_by_table_equals_the_card_and_pact_search() -> None:
    """R-IMM, R-BON, R-PACT: the ability and the name its effects are queued under, looked up
    once per content and reference, equal `ability_by_ref` and `source_name` (a search over
    the Champion's cards and pacts) for every card's immediate and bonus ability and every
    Blood Pact of every Champion, asked fresh and again; a reference to nothing fails as the
    search does."""
    state = bloodforge.load_game("arena", players=6, seed=0).new_initial_state()
    assert isinstance(state, ArenaState)
    refs: list[str] = []
    for champion in state.content.champions:
        for card in champion.cards:
            refs += [f"card:{champion.id}:{card.id}:{part}" for part, ab in (("immediate", card.immediate),
                                                                             ("bonus", card.bonus)) if ab is not None]
        refs += [f"pact:{champion.id}:{p.id}" for p in champion.pacts]
    assert len(refs) > 40
    abilities._ABILITIES.clear()
    for _ in range(2):  # made, then read off the table
        for ref in refs:
            ab, why = abilities._ability(state, ref)
            assert ab is abilities.ability_by_ref(state, ref), ref
            assert why == abilities.source_name(state, ref), ref
    assert len({abilities._ability(state, ref)[1] for ref in refs}) > 20  # names differ by card
    champion = state.content.champions[0]
    for bad in (f"card:{champion.id}:no-such-card:immediate", "rot:x:y"):
        with pytest.raises((StopIteration, KeyError)):
            abilities.ability_by_ref(state, bad)
        with pytest.raises((StopIteration, KeyError)):
            abilities._ability(state, bad)
