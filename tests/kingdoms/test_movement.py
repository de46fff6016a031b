# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Phases 2 and 4: movement (K38-K56, K93-K95, A10-A17, T2, T14, T15)."""

from __future__ import annotations

import pytest

from bloodforge.core import IllegalAction

from .helpers import F, idx, kinds_at, play, scenario, texts


def _moves(s, frm: str, kind: str) -> set[str]:  # type: ignore[no-untyped-def]
    return {t.split()[2] for t in texts(s) if t.startswith(f"move {frm} ") and t.endswith(f" {kind}")}


def test_K45_K39_K40_land_units_move_one_space_and_only_into_hostile_spaces_in_phase_2() -> None:
    s = scenario({"active": "elves", "phase": "combat_move"})
    assert _moves(s, "sylvanhold", "infantry") == set()  # all neighbours are its own: no combat move
    s = scenario({"active": "elves", "phase": "combat_move",
                  "pieces": [{"faction": "elves", "kind": "infantry", "at": "thornbrake"}]})
    assert _moves(s, "thornbrake", "infantry") == {"amberford", "starwater"}


def test_K95_noncombat_moves_never_enter_hostile_or_neutral_spaces() -> None:
    s = scenario({"active": "elves", "phase": "noncombat",
                  "pieces": [{"faction": "elves", "kind": "infantry", "at": "thornbrake"}]})
    assert _moves(s, "thornbrake", "infantry") == {"fernvale", "brightleaf"}


def test_K47_T2_K46_an_air_unit_may_go_through_friendly_spaces_then_stop_in_a_hostile_one() -> None:
    s = scenario({
        "active": "elves", "phase": "combat_move", "clear_units": True,
        "owner": {"amberford": "humans", "northgate": "humans"},
        "pieces": [{"faction": "elves", "kind": "griffin", "at": "fernvale"},
                   {"faction": "humans", "kind": "infantry", "at": "amberford"},
                   {"faction": "humans", "kind": "infantry", "at": "northgate"}],
    })
    dest = _moves(s, "fernvale", "griffin")
    assert "amberford" in dest  # fernvale -> thornbrake (friendly) -> amberford (hostile): 2 spaces
    assert "northgate" not in dest  # only through the hostile amberford: illegal (K46, A10)


def test_K52_A17_an_air_unit_attacks_only_if_it_can_return_to_an_own_territory() -> None:
    s = scenario({
        "active": "elves", "phase": "combat_move", "clear_units": True,
        "owner": {"amberford": "humans", "starwater": "humans"},
        "pieces": [{"faction": "elves", "kind": "griffin", "at": "elmwood"},
                   {"faction": "humans", "kind": "infantry", "at": "amberford"}],
    })
    # elmwood -> fernvale -> thornbrake -> amberford uses all 3 moves: no way back
    assert "amberford" not in _moves(s, "elmwood", "griffin")


def test_T14_K53_an_air_unit_may_not_land_where_it_attacked_even_after_a_win() -> None:
    s = scenario({
        "active": "elves", "phase": "combat_move", "clear_units": True,
        "owner": {"amberford": "humans"},
        "pieces": [{"faction": "elves", "kind": "dragon", "at": "thornbrake"},
                   {"faction": "elves", "kind": "cavalry", "at": "thornbrake"},
                   {"faction": "humans", "kind": "infantry", "at": "amberford"}],
    }, rig={"dice": [1, 1, 6]})
    play(s, "move thornbrake amberford dragon", "move thornbrake amberford cavalry", "done", "fight amberford")
    assert s.owner[idx(s, "amberford")] == F("elves")
    assert s.phase == "noncombat"
    dest = _moves(s, "amberford", "dragon")
    assert "amberford" not in dest
    assert "thornbrake" in dest
    with pytest.raises(IllegalAction):
        s.apply("move amberford amberford dragon")


def test_A17_air_units_that_do_not_land_are_lost_at_the_end_of_phase_4() -> None:
    s = scenario({
        "active": "elves", "phase": "combat_move", "clear_units": True,
        "owner": {"amberford": "humans"},
        "pieces": [{"faction": "elves", "kind": "dragon", "at": "thornbrake"},
                   {"faction": "humans", "kind": "infantry", "at": "amberford"}],
    }, rig={"dice": [1, 6]})
    play(s, "move thornbrake amberford dragon", "done", "fight amberford", "done")
    assert kinds_at(s, "amberford", "elves") == []
    assert not any(p.kind == "dragon" for p in s.pieces.values())


def test_K93_units_that_moved_in_phase_2_do_not_move_in_phase_4() -> None:
    s = scenario({"active": "elves", "phase": "combat_move",
                  "pieces": [{"faction": "elves", "kind": "infantry", "at": "thornbrake", "count": 2}]})
    play(s, "move thornbrake amberford infantry", "done", "fight amberford")
    assert s.owner[idx(s, "amberford")] == F("elves")  # neutral and empty: taken without dice (A11)
    assert _moves(s, "amberford", "infantry") == set()
    assert _moves(s, "thornbrake", "infantry") == {"fernvale", "brightleaf", "amberford"}


def test_T15_K42_a_territory_left_empty_stays_its_owners() -> None:
    s = scenario({"active": "elves", "phase": "noncombat"})
    play(s, "move sylvanhold elmwood infantry", "move sylvanhold elmwood infantry", "move sylvanhold elmwood cavalry")
    assert kinds_at(s, "sylvanhold") == []
    assert s.owner[idx(s, "sylvanhold")] == F("elves")


def test_K48_K49_A13_land_units_cross_water_only_aboard_a_ship_and_attack_from_it() -> None:
    s = scenario({
        "active": "elves", "phase": "combat_move", "clear_units": True, "ports": ["brightleaf"],
        "pieces": [{"faction": "elves", "kind": "infantry", "at": "brightleaf", "count": 3},
                   {"faction": "elves", "kind": "ship", "at": "glimmer_bay"}],
    })
    assert "glimmer_bay" in _moves(s, "brightleaf", "infantry")
    play(s, "move brightleaf glimmer_bay infantry", "move brightleaf glimmer_bay infantry")
    assert "glimmer_bay" not in _moves(s, "brightleaf", "infantry")  # capacity 2 (A12)
    play(s, "move glimmer_bay verdant_deep ship")
    assert kinds_at(s, "verdant_deep", "elves") == ["infantry", "infantry", "ship"]
    assert "crown_isle" in _moves(s, "verdant_deep", "infantry")
    play(s, "move verdant_deep crown_isle infantry", "done", "fight crown_isle")
    assert s.owner[idx(s, "crown_isle")] == F("elves")


def test_K56_K54_a_ship_stops_in_a_sea_zone_with_enemy_ships() -> None:
    s = scenario({
        "active": "elves", "phase": "combat_move", "clear_units": True,
        "pieces": [{"faction": "elves", "kind": "ship", "at": "glimmer_bay"},
                   {"faction": "humans", "kind": "ship", "at": "verdant_deep"}],
    })
    dest = _moves(s, "glimmer_bay", "ship")
    assert "verdant_deep" in dest
    assert "pale_deep" not in dest
    assert "maelstrom_north" not in dest


def test_K51_air_units_never_board_ships() -> None:
    s = scenario({
        "active": "elves", "phase": "noncombat", "clear_units": True,
        "pieces": [{"faction": "elves", "kind": "griffin", "at": "brightleaf"},
                   {"faction": "elves", "kind": "ship", "at": "glimmer_bay"}],
    })
    assert all(t.split()[2] not in ("glimmer_bay",) for t in texts(s) if t.endswith("griffin"))


def test_A13_cargo_of_a_ship_in_a_hostile_sea_zone_cannot_land_and_fights_at_sea() -> None:
    s = scenario({
        "active": "elves", "phase": "combat_move", "clear_units": True,
        "pieces": [{"faction": "elves", "kind": "ship", "at": "glimmer_bay"},
                   {"faction": "elves", "kind": "infantry", "at": "glimmer_bay", "count": 2, "aboard": True},
                   {"faction": "humans", "kind": "ship", "at": "verdant_deep"}],
    })
    play(s, "move glimmer_bay verdant_deep ship")
    assert not any(t.startswith("move verdant_deep") for t in texts(s))
    assert kinds_at(s, "verdant_deep", "elves") == ["infantry", "infantry", "ship"]


def test_A13_a_unit_that_walked_may_not_board_and_a_boarded_unit_lands_only_on_own_land_in_phase_4() -> None:
    s = scenario({
        "active": "elves", "phase": "noncombat", "clear_units": True,
        "pieces": [{"faction": "elves", "kind": "infantry", "at": "willowmere", "count": 2},
                   {"faction": "elves", "kind": "ship", "at": "glimmer_bay"}],
    })
    play(s, "move willowmere brightleaf infantry")
    assert "move brightleaf glimmer_bay infantry" not in texts(s)
    play(s, "move willowmere glimmer_bay infantry")
    assert {t for t in texts(s) if t.startswith("move glimmer_bay") and t.endswith("infantry")} == {
        "move glimmer_bay brightleaf infantry", "move glimmer_bay willowmere infantry"}
