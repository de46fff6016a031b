"""Action: Build Unit — where units may be built, what they cost, Chaos Horde building."""

from __future__ import annotations

import pytest

from .helpers import legal, legal_of, make, run

HAND = {"swords": 1, "castle": 1, "ship": 1, "skirmishers": 1, "shields": 1}


def test_build_only_in_areas_with_own_village_or_citadel() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(27, 0, {"citadel": 1}), (22, 0, {"swords": 1}), (60, 1, {"citadel": 1})],
        villages=[(14, 0)],
        hands=[HAND, {}],
    )
    land = {int(a.split()[2]) for a in legal_of(st, "build") if a.split()[1] != "ship"}
    assert land == {14, 27}  # not 22 (units only)
    ships = {int(a.split()[2]) for a in legal_of(st, "build") if a.split()[1] == "ship"}
    assert ships == {8, 25, 35}  # seas next to the citadel; 14 is inland


def test_build_cost_paid_by_discarding_any_tiles_free_units_just_placed() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        hands=[{"skirmishers": 1, "castle": 1, "resources": 1}, {}],
    )
    run(st, "build skirmishers 27")
    assert st.pending is None
    assert st.units_at(27, 0) == {"citadel": 1, "skirmishers": 1}
    assert "build castle 27" not in legal(st)  # two blocks, only one other tile left
    assert st.discards[0] == {}


def test_build_into_contested_area_with_own_village_and_ship_into_contested_sea() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[
            (27, 0, {"citadel": 1}),
            (26, 1, {"swords": 1}),
            (35, 1, {"ship": 1}),
            (60, 1, {"citadel": 1}),
        ],
        villages=[(26, 0)],
        hands=[HAND, {}],
    )
    assert {"build swords 26", "build ship 35"} <= legal(st)
    run(st, "build swords 26", "pay skirmishers")
    assert "done" not in legal(st)  # the battle must now be fought
    assert "battle 26 1" in legal(st)
    run(st, "build castle 26", "pay shields")
    assert st.pending is not None
    run(st, "pay ship")
    assert st.units_at(26, 0) == {"swords": 1, "castle": 1}


def test_hill_folk_castles_cost_one_tile() -> None:
    st = make(
        ["hill_folk", "horse_lords"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        hands=[{"castle": 1, "reivers": 1}, {}],
    )
    run(st, "build castle 27", "pay reivers")
    assert st.units_at(27, 0) == {"citadel": 1, "castle": 1}
    assert st.hands[0] == {}


def test_chaos_horde_cavalry_cost_one_tile() -> None:
    st = make(
        ["chaos_horde", "horse_lords", "hill_folk", "necromancers"],
        units=[(22, 0, {"hordes": 1})],
        hands=[{"cavalry": 1, "hordes": 1}, {}, {}, {}],
    )
    run(st, "build cavalry 22", "pay hordes")
    assert st.units_at(22, 0) == {"hordes": 1, "cavalry": 1}


@pytest.fixture
def horde():  # type: ignore[no-untyped-def]
    # Horde land units in 27 (plains, coast of 8/25/35) and 22 (contested); a ship in sea 45.
    return make(
        ["chaos_horde", "horse_lords", "hill_folk", "necromancers"],
        units=[
            (27, 0, {"hordes": 1}),
            (22, 0, {"hordes": 1}),
            (22, 1, {"swords": 1}),
            (45, 0, {"ship": 1}),
            (46, 1, {"swords": 1}),
        ],
        hands=[{"hordes": 2, "ship": 1, "cavalry": 1}, {}, {}, {}],
    )


def test_chaos_horde_builds_where_it_has_units_and_ships_next_to_them(horde) -> None:  # type: ignore[no-untyped-def]
    land = {int(a.split()[2]) for a in legal_of(horde, "build") if a.split()[1] == "hordes"}
    # own areas 27 and 22 (contested too), land next to the ship in 45 without enemy units
    # (44, 52, 53, 54; not 46 with Horse Lords swords, not sea 35)
    assert land == {22, 27, 44, 52, 53, 54}
    ships = {int(a.split()[2]) for a in legal_of(horde, "build") if a.split()[1] == "ship"}
    assert ships == {8, 25, 35, 45}  # seas next to land units, and where its ship is


def test_chaos_horde_has_no_construct_phase_and_no_villages(horde) -> None:  # type: ignore[no-untyped-def]
    assert not any(a.kind == "village" for a in horde.legal_actions())
    assert horde.village_supply[0] == 0


def test_cutiecorn_built_for_two_discards_like_a_land_unit() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        hands=[{"skirmishers": 1, "swords": 1}, {}],
        cutiecorn=True,
    )
    assert "build cutiecorn 27" in legal(st)
    assert "build cutiecorn 8" not in legal(st)
    run(st, "build cutiecorn 27", "pay skirmishers", "pay swords")
    assert st.units_at(27, 0) == {"citadel": 1, "cutiecorn": 1}
    assert not st.cutiecorn_free
    assert st.discards[0] == {"skirmishers": 1, "swords": 1}
