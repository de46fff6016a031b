"""Ending The Game: final battles in order, free captures, end scoring, tie-breaks."""

from __future__ import annotations

from typing import Any

import pytest

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.games.bloodstones.model import Phase
from bloodforge.match import play_match

from .helpers import legal, make, run
from .test_turn import _empty_bag_player


def _ending(**kw: Any):  # type: ignore[no-untyped-def]
    return make(["dragon_riders", "horse_lords", "hill_folk"], phase="construct_villages", **kw)


def test_final_battles_in_order_from_left_of_trigger_then_free_captures_and_scoring() -> None:
    st = _ending(
        units=[
            (27, 0, {"citadel": 1}),
            (22, 1, {"swords": 1}),
            (22, 2, {"swords": 1}),
            (14, 2, {"shields": 1}),
            (29, 1, {"shields": 1}),
            (30, 1, {"shields": 1}),
        ],
        villages=[(14, 0), (29, 0), (19, 2)],
        players=[
            _empty_bag_player(regroups=1),
            {"regroups": 2, "captured_citadels": 1, "hand": {}},
            {"regroups": 2, "hand": {"reivers": 1}},
        ],
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    run(st, "done")
    assert st.end_trigger == 0
    assert st.vp[0] == 2  # the trigger player scored its two villages
    # seat 1 (left of the trigger player) fights first, as attacker, nothing else
    assert st.phase is Phase.FINAL_BATTLES
    assert st.active == 1
    assert legal(st) == {"battle 22 2"}
    run(st, "battle 22 2", "stay", "keep", "keep")
    assert st.is_terminal()
    assert st.hand_size(1) == 7  # drew back to hand size after its battles
    # free captures: seat 1 in 29 takes seat 0's village; seat 2 in 14 takes seat 0's village
    assert st.captured_villages == [0, 1, 1]
    assert 14 not in st.villages
    assert 29 not in st.villages
    # seat 1: 1 VP (battle) + 1 (village) + 5 (citadel); seat 2: 1 (village)
    assert st.vp == [2, 7, 1]
    assert st.returns() == [0.0, 1.0, 0.0]


def test_final_battles_each_player_resolves_its_own_contested_areas() -> None:
    st = _ending(
        units=[
            (27, 0, {"citadel": 1}),
            (22, 2, {"swords": 1}),
            (22, 1, {"swords": 1}),
            (16, 2, {"swords": 1}),
            (16, 1, {"shields": 1}),
        ],
        players=[_empty_bag_player(regroups=1), {"regroups": 2}, {"regroups": 2}],
        attacker_tiles=[2, 2, 3, 2, 2, 3],
        defender_tiles=[5, 5, 4, 5, 5, 4],
    )
    run(st, "done")
    assert st.active == 1
    assert legal(st) == {"battle 16 2", "battle 22 2"}
    run(st, "battle 22 2", "stay", "keep", "keep")  # seat 1 loses at 22
    assert st.active == 1
    assert legal(st) == {"battle 16 2"}
    run(st, "battle 16 2", "stay", "keep", "keep")
    assert st.is_terminal()
    assert st.vp[2] == 2


def test_end_scoring_chaos_horde_two_vp_per_captured_village_free_captures_included() -> None:
    st = make(
        ["chaos_horde", "horse_lords", "hill_folk", "necromancers"],
        units=[(22, 0, {"hordes": 1}), (60, 1, {"citadel": 1})],
        villages=[(22, 1, 2)],
        players=[
            {"regroups": 2, "captured_villages": 1, "vp": 10},
            _empty_bag_player_for("horse_lords", regroups=1),
            {"regroups": 2},
            {"regroups": 2},
        ],
        order=[1, 2, 3, 0],
        active=1,
        phase="construct_villages",
    )
    run(st, "done")
    assert st.is_terminal()
    assert st.captured_villages[0] == 3
    assert st.vp[0] == 10 + 3 * 2


def _empty_bag_player_for(faction: str, **extra: Any) -> dict[str, Any]:
    from bloodforge.games.bloodstones.content import load_factions

    mix = {t.unit: t.count for t in load_factions().faction(faction).tiles if t.count}
    return {"hand": {}, "discard": mix, "bag": {}, **extra}


def test_tie_break_most_villages_on_map_then_capture_vp_then_shared() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(60, 1, {"citadel": 1})],
        villages=[(14, 0), (16, 0), (59, 1)],
        players=[_empty_bag_player(regroups=2), {"regroups": 3, "vp": 2}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.vp == [2, 2]
    assert st.returns() == [1.0, 0.0]
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(60, 1, {"citadel": 1})],
        villages=[(14, 0), (59, 1)],
        players=[_empty_bag_player(regroups=2), {"regroups": 3, "captured_villages": 1}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.vp == [1, 1]
    assert st.returns() == [0.0, 1.0]
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(60, 1, {"citadel": 1})],
        villages=[(14, 0), (59, 1)],
        players=[_empty_bag_player(regroups=2), {"regroups": 3, "vp": 1}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.vp == [1, 1]
    assert st.returns() == [0.5, 0.5]


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 8)])
def test_the_lab_statistics_account_for_every_victory_point(players: int, seed: int) -> None:
    """Ending The Game: a faction's VP are its starting VP, the VP of battles won, of village
    scoring at its regroups and its end-of-game bonus for captures; the statistics the lab
    averages (`State.statistics`) must add up to the final score of every faction."""
    state = bloodforge.load_game("bloodstones", players=players, seed=seed).new_initial_state()
    result = play_match(state, {s: make_agent("greedy", s, seed=s) for s in range(players)})
    st = result.state
    stats = st.statistics()
    assert stats["battles"] == sum(v for k, v in stats.items() if k.startswith("battles_won."))
    for seat in range(players):
        f = st.factions[seat]
        start = st.ruleset.faction_rules(f).faction.starting_vp
        accounted = (start + stats.get(f"vp_battles.{f}", 0) + stats.get(f"vp_regroups.{f}", 0)
                     + st.end_bonus[seat])
        assert stats[f"vp.{f}"] == st.vp[seat] == accounted, f
        assert stats.get(f"villages_captured.{f}", 0) == st.captured_villages[seat]
