"""Action: Battle — the five steps, modifiers, ties, VP, casualties, withdrawal and retreat."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bloodforge.games.bloodstones.game import BloodstonesState

from .helpers import legal, legal_of, make, run, start_battle

DR_HL = ["dragon_riders", "horse_lords"]
HANDS = [{"skirmishers": 1, "resources": 1}, {"skirmishers": 1, "resources": 1}]


def _battle(
    att: dict[str, int],
    dfn: dict[str, int],
    *,
    area: int = 22,
    factions: list[str] | None = None,
    extra: tuple[Any, ...] = (),
    **kw: Any,
) -> BloodstonesState:
    kw.setdefault("hands", HANDS)
    return make(factions or DR_HL, units=[(area, 0, att), (area, 1, dfn), *extra], **kw)


def _first_totals(st: BloodstonesState) -> list[int]:
    line = next(x for x in st.event_log(None) if x.startswith("Battle tiles revealed"))
    return [int(t) for t in re.findall(r"= (-?\d+)", line)]


# -- Step One: withdrawal ---------------------------------------------------------------------
def test_action_battle_step_one_defender_withdraws_with_equal_cavalry() -> None:
    st = _battle({"cavalry": 1, "swords": 2}, {"cavalry": 1})
    run(st, "battle 22 1")
    assert st.battle is not None
    assert st.battle.step == "withdraw"
    assert st.current_player == 1
    assert legal(st) == {
        "withdraw 14",
        "withdraw 15",
        "withdraw 16",
        "withdraw 21",
        "withdraw 30",
        "stay",
    }
    run(st, "withdraw 15")
    assert st.battle is None
    assert st.units_at(15, 1) == {"cavalry": 1}
    assert st.vp == [0, 0]  # no battle, no VP
    assert st.current_player == 0


def test_action_battle_step_one_no_withdrawal_with_fewer_cavalry() -> None:
    st = _battle({"cavalry": 2}, {"cavalry": 1, "swords": 3})
    run(st, "battle 22 1")
    assert st.battle is not None
    assert st.battle.step == "substitute"


def test_action_battle_step_one_no_cavalry_on_either_side_may_withdraw() -> None:
    st = _battle({"swords": 1}, {"swords": 1})
    run(st, "battle 22 1")
    assert st.battle is not None
    assert st.battle.step == "withdraw"


def test_action_battle_step_one_defending_dragons_always_withdraw() -> None:
    st = _battle(
        {"cavalry": 3}, {"dragon": 1, "swords": 1}, factions=["horse_lords", "dragon_riders"]
    )
    run(st, "battle 22 1")
    assert st.battle is not None
    assert st.battle.step == "withdraw"
    assert "withdraw 23" in legal(st)  # mountains: the dragon may go, the swords may not
    run(st, "withdraw 23")
    assert st.units_at(23, 1) == {"dragon": 1}
    assert st.discards[1] == {"swords": 1}  # eliminated by the terrain


def test_action_battle_step_one_nobody_withdraws_from_attacking_dragons() -> None:
    st = _battle({"dragon": 1}, {"cavalry": 2})
    run(st, "battle 22 1")
    assert st.battle is not None
    assert st.battle.step == "substitute"


def test_action_battle_step_one_castle_or_citadel_pins_defenders_even_with_dragons() -> None:
    st = _battle(
        {"swords": 1},
        {"castle": 1, "cavalry": 2, "dragon": 1},
        factions=["horse_lords", "dragon_riders"],
    )
    run(st, "battle 22 1")
    assert st.battle is not None
    assert st.battle.step == "substitute"
    st = _battle({"swords": 1}, {"citadel": 1, "cavalry": 2}, area=27)
    run(st, "battle 27 1")
    assert st.battle is not None
    assert st.battle.step == "substitute"


def test_action_battle_withdraw_only_to_empty_or_own_areas() -> None:
    # 22 borders 14, 15, 16, 21, 23 (mountains), 30. 14: a Horse Lords village (own piece),
    # 15: a Dragon Rider village only, 16: Dragon Rider units, 21: Dragon Rider units and a
    # Horse Lords unit (own piece there), 30: empty.
    st = _battle(
        {"swords": 1},
        {"swords": 1},
        extra=((16, 0, {"shields": 1}), (21, 0, {"shields": 1}), (21, 1, {"shields": 1})),
        villages=[(14, 1), (15, 0)],
    )
    run(st, "battle 22 1")
    assert legal_of(st, "withdraw") == {"withdraw 14", "withdraw 21", "withdraw 30"}


# -- Step Two: Battle tiles -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("att", "dfn", "counts"),
    [
        ({"swords": 2}, {"swords": 1}, [4, 3]),
        ({"swords": 1}, {"swords": 2}, [3, 4]),
        ({"swords": 2}, {"swords": 2}, [3, 3]),
    ],
)
def test_action_battle_step_two_larger_force_draws_four(
    att: dict[str, int], dfn: dict[str, int], counts: list[int]
) -> None:
    st = start_battle(_battle(att, dfn), 22, 1)
    assert st.battle is not None
    assert [len(t) for t in st.battle.tiles] == counts


def test_hill_folk_giants_always_draw_four_battle_tiles() -> None:
    st = start_battle(
        _battle({"swords": 3}, {"giant": 1}, factions=["horse_lords", "hill_folk"]), 22, 1
    )
    assert st.battle is not None
    assert [len(t) for t in st.battle.tiles] == [4, 4]  # both draw four


def test_action_battle_citadel_counts_as_a_unit_for_tile_count_and_vp() -> None:
    st = _battle(
        {"swords": 2},
        {"citadel": 1, "shields": 1},
        area=27,
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 27, 1)
    assert st.battle is not None
    assert [len(t) for t in st.battle.tiles] == [3, 3]
    run(st, "keep", "keep")
    assert st.vp[0] == 2


# -- Step Three: substitution -------------------------------------------------------------------
def test_action_battle_step_three_attacker_then_defender_substitute_one_tile() -> None:
    st = start_battle(
        _battle({"swords": 1}, {"swords": 1}, attacker_tiles=[2, 2, 3], defender_tiles=[5, 4, 4]),
        22,
        1,
    )
    assert st.current_player == 0
    run(st, "substitute resources")
    assert st.current_player == 1
    assert st.battle is not None
    assert st.battle.subs == ["resources", None]
    run(st, "keep")
    assert _first_totals(st) == [3 + 5 + 2 + 1, 13 + 1]  # the lowest 2 replaced by the 5-pip tile
    assert st.hands[0] == {"skirmishers": 1}  # no replacement drawn


def test_action_battle_step_four_only_top_three_count() -> None:
    st = start_battle(
        _battle(
            {"swords": 2}, {"swords": 1}, attacker_tiles=[5, 5, 4, 4], defender_tiles=[2, 2, 3]
        ),
        22,
        1,
    )
    run(st, "substitute resources", "keep")
    assert _first_totals(st)[0] == 5 + 5 + 5 + 2  # 15 at most from tiles, plus two swords


# -- Step Four: modifiers ---------------------------------------------------------------------
# (faction of the tested side, its units, area, tested side attacks?, expected modifier)
MODIFIERS = [
    ("horse_lords", {"swords": 1}, 22, True, 1),
    ("horse_lords", {"swords": 1}, 22, False, 1),
    ("horse_lords", {"shields": 1}, 22, True, 0),
    ("horse_lords", {"shields": 1}, 22, False, 1),
    ("horse_lords", {"skirmishers": 1}, 29, True, 1),  # forest
    ("horse_lords", {"skirmishers": 1}, 22, True, 0),
    ("horse_lords", {"cavalry": 1}, 22, False, 1),  # plains
    ("horse_lords", {"cavalry": 1}, 29, False, 0),
    ("horse_lords", {"castle": 1, "swords": 1}, 22, False, 4),
    ("horse_lords", {"castle": 1, "swords": 1}, 22, True, 1),  # no +3 when attacking
    ("horse_lords", {"siege_engine": 1}, 22, True, 0),
    ("horse_lords", {"leader": 1}, 29, True, 1),
    ("hill_folk", {"giant": 1}, 30, False, 2),
    ("hill_folk", {"reivers": 1}, 30, True, 1),
    ("hill_folk", {"reivers": 1}, 30, False, 0),
    ("dragon_riders", {"dragon": 1}, 30, True, 4),
    ("dragon_riders", {"lizardmen": 2}, 22, True, 2),
    ("dragon_riders", {"lizardmen": 1}, 22, False, 0),
    ("necromancers", {"necromancer": 1}, 29, False, 1),
    ("necromancers", {"undead": 1}, 29, True, 1),
    ("necromancers", {"goblins": 1}, 29, True, 1),
    ("necromancers", {"goblins": 1}, 29, False, 0),
    ("chaos_horde", {"hordes": 1}, 22, True, 1),
    ("chaos_horde", {"cavalry": 1}, 22, True, 1),
    ("corsairs", {"axes": 1}, 22, True, 1),
]


@pytest.mark.parametrize(("faction", "units", "area", "attacking", "expected"), MODIFIERS)
def test_action_battle_step_four_modifier_by_terrain_and_role(
    faction: str, units: dict[str, int], area: int, attacking: bool, expected: int
) -> None:
    other = "dragon_riders" if faction != "dragon_riders" else "horse_lords"
    if attacking:
        factions, att, dfn = [faction, other], units, {"swords": 1}
    else:
        factions, att, dfn = [other, faction], {"swords": 1}, units
    st = make(
        factions,
        units=[(area, 0, att), (area, 1, dfn)],
        hands=[{}, {}],
        attacker_tiles=[4, 4, 3, 3],
        defender_tiles=[4, 4, 3, 3],
        allow_unrecommended=True,
    )
    start_battle(st, area, 1)
    run(st, "keep", "keep")
    assert _first_totals(st)[0 if attacking else 1] == 11 + expected


def test_action_battle_siege_engine_plus_two_against_castle_or_citadel() -> None:
    for fort in ("castle", "citadel"):
        st = _battle(
            {"siege_engine": 1},
            {fort: 1},
            area=27,
            factions=["horse_lords", "dragon_riders"],
            attacker_tiles=[4, 4, 3],
            defender_tiles=[4, 4, 3],
        )
        start_battle(st, 27, 1)
        run(st, "keep", "keep")
        first = _first_totals(st)
        assert first[0] == 11 + 2
        assert first[1] == 11 + (3 if fort == "castle" else 5)


def test_corsairs_plus_one_in_sea_battles_once_per_battle() -> None:
    st = make(
        ["corsairs", "horse_lords", "hill_folk"],
        units=[(35, 0, {"ship": 2}), (35, 1, {"ship": 1})],
        hands=[{}, {}, {}],
        attacker_tiles=[4, 4, 3, 3],
        defender_tiles=[4, 4, 3],
    )
    start_battle(st, 35, 1)
    run(st, "keep", "keep")  # the Horse Lords decide first, then the Corsairs
    assert _first_totals(st) == [11 + 2 + 1, 11 + 1]


def test_cutiecorn_plus_one_in_plains() -> None:
    st = make(
        DR_HL,
        units=[(22, 0, {"swords": 1, "cutiecorn": 1}), (22, 1, {"swords": 2})],
        hands=[{}, {}],
        attacker_tiles=[4, 4, 3],
        defender_tiles=[4, 4, 3],
        cutiecorn=True,
    )
    start_battle(st, 22, 1)
    run(st, "keep", "keep")
    assert _first_totals(st) == [11 + 1 + 1, 11 + 2]


# -- Step Five: winner, ties, re-fights ---------------------------------------------------------
def test_action_battle_step_five_tie_defending_shields_win() -> None:
    st = start_battle(
        _battle({"swords": 1}, {"shields": 1}, attacker_tiles=[4, 4, 3], defender_tiles=[4, 4, 3]),
        22,
        1,
    )
    run(st, "keep", "keep")  # 12 against 12: the shields win
    assert st.vp == [0, 1]
    assert st.units_at(22, 0) == {}
    assert st.discards[0] == {"swords": 1}


def test_action_battle_step_five_tie_without_shields_refight_redraws_and_discards_substitutes() -> (
    None
):
    st = start_battle(
        _battle(
            {"swords": 1},
            {"swords": 1},
            attacker_tiles=[3, 3, 2, 5, 5, 4],
            defender_tiles=[3, 3, 2, 2, 2, 3],
        ),
        22,
        1,
    )
    run(st, "keep", "substitute skirmishers")  # 8+1 against 8+1: tie
    b = st.battle
    assert b is not None
    assert b.fights == 1
    assert b.step == "substitute"
    assert b.tiles == [[5, 5, 4], [3, 2, 2]]  # redrawn
    assert st.discards[1] == {"skirmishers": 1}  # substitute spent in the first fight
    assert "withdraw" not in {a.kind for a in st.legal_actions()}
    assert st.current_player == 0  # attacker decides first again
    assert "substitute skirmishers" in legal(st)  # may substitute again, with another tile
    run(st, "keep", "keep")
    assert st.vp == [1, 0]


def test_action_battle_victor_scores_units_in_opposing_force_before_casualties() -> None:
    st = start_battle(
        _battle(
            {"swords": 3},
            {"swords": 1, "shields": 1, "cavalry": 1},
            attacker_tiles=[5, 5, 4],
            defender_tiles=[2, 2, 3],
        ),
        22,
        1,
    )
    run(st, "keep", "keep")
    assert st.vp == [3, 0]


# -- casualties and retreat ---------------------------------------------------------------------
def test_action_battle_loser_chooses_casualty_and_retreats_rest_together() -> None:
    st = start_battle(
        _battle(
            {"swords": 3},
            {"swords": 1, "shields": 1},
            attacker_tiles=[5, 5, 4],
            defender_tiles=[2, 2, 3],
        ),
        22,
        1,
    )
    run(st, "keep", "keep")
    assert legal(st) == {"casualty shields", "casualty swords"}
    assert st.current_player == 1
    run(st, "casualty swords")
    assert st.current_player == 1
    # 23 is mountains (no Horse Lords unit may go), 14, 15, 16, 21, 30 are empty
    assert legal(st) == {"retreat 14", "retreat 15", "retreat 16", "retreat 21", "retreat 30"}
    run(st, "retreat 30")
    assert st.units_at(30, 1) == {"shields": 1}
    assert st.discards[1] == {"swords": 1}


def test_action_battle_single_unit_kind_casualty_taken_automatically() -> None:
    st = start_battle(
        _battle({"swords": 3}, {"shields": 2}, attacker_tiles=[5, 5, 4], defender_tiles=[2, 2, 3]),
        22,
        1,
    )
    run(st, "keep", "keep")
    assert st.discards[1] == {"shields": 1}
    assert {a.kind for a in st.legal_actions()} == {"retreat"}


def test_action_battle_no_legal_retreat_eliminates_the_force() -> None:
    # Plains 26 borders seas 25 and 35 and plains 27, which holds only Dragon Rider pieces.
    st = make(
        DR_HL,
        units=[
            (26, 0, {"swords": 3}),
            (26, 1, {"shields": 2, "swords": 1}),
            (27, 0, {"skirmishers": 1}),
        ],
        hands=HANDS,
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 26, 1)
    run(st, "keep", "keep", "casualty swords")
    assert st.units_at(26, 1) == {}
    assert st.discards[1] == {"swords": 1, "shields": 2}
    assert st.battle is None


def test_action_battle_retreat_not_to_areas_with_only_enemy_villages() -> None:
    st = make(
        DR_HL,
        units=[(26, 0, {"swords": 3}), (26, 1, {"shields": 2})],
        villages=[(27, 0)],
        hands=HANDS,
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 26, 1)
    run(st, "keep", "keep")
    assert st.units_at(26, 1) == {}
    assert st.discards[1] == {"shields": 2}


def test_action_battle_retreat_by_sea_along_chain_of_own_ships() -> None:
    st = make(
        DR_HL,
        units=[
            (26, 0, {"swords": 3}),
            (26, 1, {"shields": 2}),
            (25, 1, {"ship": 1}),
            (8, 1, {"ship": 1}),
            (27, 0, {"skirmishers": 1}),
        ],
        hands=HANDS,
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 26, 1)
    run(st, "keep", "keep")
    # along ships 25 and 8: 34 (via 25) and 9, 10, 1, 18 (via 8); 27 holds only enemy units,
    # the sea 35 holds no ship
    assert legal_of(st, "retreat") == {
        "retreat 1",
        "retreat 9",
        "retreat 10",
        "retreat 18",
        "retreat 34",
    }
    run(st, "retreat 10")
    assert st.units_at(10, 1) == {"shields": 1}


def test_action_battle_no_retreat_through_contested_sea() -> None:
    st = make(
        DR_HL,
        units=[
            (26, 0, {"swords": 3}),
            (26, 1, {"shields": 2}),
            (25, 1, {"ship": 1}),
            (25, 0, {"ship": 1}),
            (27, 0, {"skirmishers": 1}),
        ],
        hands=HANDS,
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 26, 1)
    run(st, "keep", "keep")
    assert st.units_at(26, 1) == {}
    assert st.discards[1] == {"shields": 2}


def test_action_battle_no_return_to_an_area_withdrawn_from_this_turn() -> None:
    # The Horse Lords withdraw from 22 to 21; attacked again in 21 they may not go back to 22.
    st = make(
        DR_HL,
        units=[(22, 0, {"swords": 1}), (22, 1, {"swords": 1}), (20, 0, {"swords": 1})],
        hands=HANDS,
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    run(st, "battle 22 1", "withdraw 21")
    run(st, "move 20 swords", "to 21", "pay skirmishers")
    run(st, "battle 21 1")
    assert "withdraw 22" not in legal(st)
    assert "withdraw 14" in legal(st)
    run(st, "stay", "keep", "keep")
    assert "retreat 22" not in legal(st)
    # the restriction lasts for this player's turn only
    assert st.withdrawn_from[1] == [22]


def test_action_battle_castle_and_citadel_eliminated_as_casualty_citadel_captured() -> None:
    st = make(
        DR_HL,
        units=[
            (27, 0, {"swords": 3, "siege_engine": 1}),
            (27, 1, {"citadel": 1, "castle": 1, "shields": 1}),
        ],
        hands=HANDS,
        attacker_tiles=[5, 5, 4, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 27, 1)
    run(st, "keep", "keep")  # 14+3+2 = 19 against 7+5+3+1 = 16
    assert st.vp[0] == 3
    run(st, "retreat 26")
    assert st.captured_citadels == [1, 0]
    assert st.citadel_area(1) is None
    assert st.discards[1] == {"castle": 1}  # the castle is the casualty; the shields retreat
    assert st.units_at(27, 1) == {}
    assert st.units_at(26, 1) == {"shields": 1}


def test_dragons_discarded_after_successful_attack_not_after_defence() -> None:
    st = start_battle(
        _battle(
            {"dragon": 1, "swords": 1},
            {"swords": 1},
            attacker_tiles=[5, 5, 4, 4],
            defender_tiles=[2, 2, 3],
        ),
        22,
        1,
    )
    run(st, "keep", "keep")
    assert st.units_at(22, 0) == {"swords": 1}
    assert st.discards[0] == {"dragon": 1}
    st = start_battle(
        _battle(
            {"swords": 1},
            {"dragon": 1},
            factions=["horse_lords", "dragon_riders"],
            attacker_tiles=[2, 2, 3],
            defender_tiles=[5, 5, 4],
        ),
        22,
        1,
    )
    run(st, "keep", "keep")
    assert st.units_at(22, 1) == {"dragon": 1}


def test_action_battle_attacker_loses_and_retreats() -> None:
    st = start_battle(
        _battle(
            {"swords": 2}, {"swords": 1}, attacker_tiles=[2, 2, 3, 3], defender_tiles=[5, 5, 4]
        ),
        22,
        1,
    )
    run(st, "keep", "keep")
    assert st.vp == [0, 2]
    assert st.discards[0] == {"swords": 1}
    assert st.current_player == 0
    assert {a.kind for a in st.legal_actions()} == {"retreat"}


def test_action_battle_all_battles_resolved_before_main_actions_end() -> None:
    st = _battle({"swords": 1}, {"swords": 1})
    assert "done" not in legal(st)
    with pytest.raises(Exception, match="battles must be resolved"):
        st.apply("done")
