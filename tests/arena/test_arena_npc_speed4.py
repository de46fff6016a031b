"""Issue 23 item 1 (ninth session): the NPC's decision steps' shortcuts against the plain
computations, at every step of random games where they are used.

*Why:* each shortcut keeps or skips work the rules did before (the target step's reach test
answered by the safe route toward the foe, kept for the move step that follows); the
golden-game tests catch a changed game only when the random games happen to reach the
difference, so here every use is compared with what the plain computation says on the same
position.
"""

from __future__ import annotations

from typing import Any

import pytest
from arena_helpers import positions_before_steps, put_spike_traps, without_memos

from bloodforge.games.arena import npc, turns
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.queries import distance

# setting name -> game parameters (solo first: the cell this work is for)
SETTINGS: dict[str, dict[str, Any]] = {
    "solo": {"players": 1},
    "solo_grevvar": {"players": 1, "champions": ["calvio"], "rivals": ["lienne"], "boss": "grevvar"},
    "ffa_3_two_bosses": {"players": 3, "bosses": ["malvarra", "grevvar"]},
    "six": {"players": 6},
}


def _positions(params: dict[str, Any], seed: int, stages: tuple[str, ...]) -> list[ArenaState]:
    """Copies of the positions before every NPC step at one of `stages` of a random game
    (the seats' actions chosen as `bench_playouts` chooses them)."""
    return list(positions_before_steps(
        seed, lambda state, step: step.kind == "npc" and state.board.stage in stages, **params))


def _opts(found: list[Any]) -> list[tuple[Any, ...]]:
    return [(h, r.steps, r.tiles, r.path) for h, r in found]


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_target_step_safe_route_kept_equals_the_plain_move_toward(setting: str) -> None:
    """N9/N11 (R-TGT-1, TB4): at every NPC target step, the target tier found with the safe
    route toward an open foe (`npc._safe_toward`) equals `best_tier` of every reachable foe
    on a copy with no memo, every route answer it left in the layout memo equals the plain
    `move_toward` for that foe on a copy with no memo, and the move step that follows is the
    same whether it reads that answer or works it out afresh."""
    kept = 0
    for seed in (7, 8):
        for p in _positions(SETTINGS[setting], seed, ("target",)):
            s = without_memos(p)
            u = s.board.units[str(s.board.active)]
            atk = npc.chosen_attack(s, u)
            a = npc.attributes(s, u, atk)
            rule = npc.target_rule(s, u)
            got = [e.uid for e in npc.target_tier(s, u, atk, a, rule)]
            plain = without_memos(p)
            pu = plain.board.units[u.uid]
            want = npc.best_tier(plain, pu, npc.reachable_foes(plain, pu, atk, a), rule)
            assert got == [e.uid for e in want]
            memo = s.route_memo[1] if s.route_memo is not None else {}
            for key, found in list(memo.items()):
                if key[0] != "toward":
                    continue
                kept += 1
                ref = without_memos(p)
                ru = ref.board.units[u.uid]
                assert _opts(found) == _opts(npc.move_toward(ref, ru, a, ref.board.units[key[1]]))
            # the target step and the move step after it, with the kept answer and without
            with_memo = p.clone()
            first = turns.auto_step(with_memo)
            assert first is not None
            turns.apply_auto(with_memo, first)
            without = without_memos(p)
            turns.apply_auto(without, first)
            without.route_memo = None
            assert with_memo.board.stage == without.board.stage
            if with_memo.board.stage == "move" and with_memo.board.pending is None:
                step = turns.auto_step(with_memo)
                assert step == turns.auto_step(without)
                assert step is not None
                turns.apply_auto(with_memo, step)
                turns.apply_auto(without, step)
                assert with_memo.board.to_json() == without.board.to_json()
                assert [e.text for e in with_memo.events] == [e.text for e in without.events]
    if setting != "six":
        assert kept > 0


@pytest.mark.parametrize("setting", ["solo", "solo_grevvar", "ffa_3_two_bosses"])
def test_safe_route_toward_a_foe_answers_reach_only_when_reachable(setting: str) -> None:
    """N9 (R-TGT-1, A35): for every NPC at a target step, every foe out of its Range and every
    Movement 1-4 and Range 1-2 (the board as it is, and with Spike Traps on a third of the
    free hexes, some spent), `npc._safe_toward` says yes only for a foe some reachable end
    hex puts in Range (`reachable_foes` on a copy with no memo), and then what it kept is
    `move_toward`'s plain answer."""
    yes = no = 0
    for p in _positions(SETTINGS[setting], 9, ("target",))[:12]:
        for traps in (False, True):
            base = p.clone()
            if traps:
                put_spike_traps(base, 3, 1, 4)
            u0 = base.board.units[str(base.board.active)]
            assert u0.hex is not None
            atk = npc.chosen_attack(base, u0)
            for movement in (1, 2, 3, 4):
                for reach in (1, 2):
                    a = npc.Attrs(movement, reach, 1, False)
                    plain = without_memos(base)
                    pu = plain.board.units[u0.uid]
                    reachable = {e.uid for e in npc.reachable_foes(plain, pu, atk, a)}
                    for e in npc.foes(base, u0):
                        assert e.hex is not None
                        if distance(u0.hex, e.hex) <= reach:
                            continue  # in Range of the start: never asked
                        s = without_memos(base)
                        su = s.board.units[u0.uid]
                        got = npc._safe_toward(s, su, a, s.board.units[e.uid])
                        if got:
                            yes += 1
                            assert e.uid in reachable
                            assert s.route_memo is not None
                            kept = s.route_memo[1][npc._toward_key(s, su, a, s.board.units[e.uid])]
                            ref = without_memos(base)
                            want = npc.move_toward(ref, ref.board.units[u0.uid], a, ref.board.units[e.uid])
                            assert _opts(kept) == _opts(want)
                        else:
                            no += 1
    assert yes > 0
    assert no > 0
