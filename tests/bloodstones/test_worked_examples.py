"""The rulebook's worked examples, each replayed exactly as printed."""

from __future__ import annotations

from pathlib import Path

import bloodforge
from bloodforge.games.bloodstones.game import BloodstonesState

from .helpers import legal, legal_of, make, run, to_targets

EXAMPLE = (
    Path(bloodforge.__file__).parent
    / "games"
    / "bloodstones"
    / "scenarios"
    / "worked_example_battle.yaml"
)


def _battle_example() -> BloodstonesState:
    st = bloodforge.load_scenario(EXAMPLE)
    assert isinstance(st, BloodstonesState)
    return st


def test_example_battle_horse_lords_cannot_withdraw_with_fewer_cavalry() -> None:
    st = _battle_example()
    run(st, "battle 27 1")
    # no withdraw step: straight to substitution, the attacker deciding first
    assert st.battle is not None
    assert st.battle.step == "substitute"
    assert st.current_player == 0
    assert "withdraw" not in {a.kind for a in st.legal_actions()}


def test_example_battle_dragon_riders_draw_four_horse_lords_three() -> None:
    st = _battle_example()
    run(st, "battle 27 1")
    assert st.battle is not None
    assert st.battle.tiles == [[4, 3, 3, 2], [5, 3, 2]]


def test_example_battle_sixteen_to_fourteen_two_vp_shields_lost_swords_retreat() -> None:
    st = _battle_example()
    run(st, "battle 27 1", "substitute resources", "substitute ship")
    b = st.battle
    assert b is not None
    assert b.totals == [16, 14]  # (5+4+3)+4 against (5+4+3)+2
    assert st.vp == [2, 0]  # two Horse Lords units beaten
    # substitutes are discarded
    assert st.discards[0] == {"resources": 1}
    assert st.discards[1] == {"ship": 1}
    assert legal(st) == {"casualty shields", "casualty swords"}
    run(st, "casualty shields")
    assert st.discards[1] == {"ship": 1, "shields": 1}
    # green ticks: 26 (empty plains) and 28 (a Horse Lords village); not the seas 8/25/35,
    # not 18 (only Dragon Rider pieces)
    assert legal(st) == {"retreat 26", "retreat 28"}
    run(st, "retreat 28")
    assert st.units_at(28, 1) == {"swords": 1}
    assert st.units_at(27, 1) == {}
    assert st.battle is None
    assert st.units_at(27, 0) == {"cavalry": 1, "lizardmen": 2, "leader": 1}
    assert "done" in legal(st)


def _movement_example() -> BloodstonesState:
    st = bloodforge.load_scenario(Path(__file__).parent / "scenarios" / "movement_example.yaml")
    assert isinstance(st, BloodstonesState)
    return st


def test_example_movement_six_pips_forest_then_plains_castle_and_cavalry_pay() -> None:
    # Dragon Riders leader, swords and lizardmen in forest 7 move via forest 6 to plains 15:
    # the leader carries one unit free, so two units pay: 2x2 (forest) + 2x1 (plains) = 6.
    st = _movement_example()
    run(st, "move 7 leader", "move 7 swords", "move 7 lizardmen")
    assert 15 in to_targets(st)
    clone = st.clone()
    run(clone, "to 6")
    assert clone.pending is not None
    assert clone.pending.cost == 4  # forest: 2 paying units x 2
    run(st, "to 15")
    assert st.pending is not None
    assert st.pending.cost == 6
    run(st, "pay castle")
    assert st.pending is not None  # 4 of 6 pips
    run(st, "pay cavalry")  # 7 pips: the left-over pip is lost
    assert st.pending is None
    assert st.units_at(15, 0) == {"leader": 1, "swords": 1, "lizardmen": 1}
    assert st.units_at(7, 0) == {}
    assert st.hands[0] == {"skirmishers": 1}
    assert st.discards[0] == {"castle": 1, "cavalry": 1}


def test_example_movement_swords_one_pip_into_plains() -> None:
    st = _movement_example()
    run(st, "move 16 swords", "to 22")
    assert st.pending is not None
    assert st.pending.cost == 1
    run(st, "pay skirmishers")
    assert st.units_at(22, 0) == {"swords": 1}
    assert st.hands[0] == {"castle": 1, "cavalry": 1}


def test_example_construction_five_pips_hill_folk() -> None:
    # Hill Folk citadel in plains 18, a ship in sea 8, units in plains 20 and hills 30.
    # Two villages in plains 28 next to the citadel (1+1), forest 9 via the ship (1), hills 38
    # along the chain 18-20-30 (2): five pips from one five-pip tile.
    st = make(
        ["hill_folk", "horse_lords"],
        units=[
            (18, 0, {"citadel": 1}),
            (8, 0, {"ship": 1}),
            (20, 0, {"reivers": 1}),
            (30, 0, {"swords": 1}),
            (60, 1, {"citadel": 1}),
        ],
        hands=[{"resources": 1, "skirmishers": 1}, {}],
        phase="construct_villages",
    )
    options = legal_of(st, "village")
    assert {"village 28", "village 9", "village 38"} <= options
    assert "village 18" not in options  # never in the citadel's own area
    assert "village 13" not in options  # hills 13 touches no part of the network
    run(st, "village 28", "village 28")
    assert "village 28" not in legal_of(st, "village")  # two per plains area
    run(st, "village 9", "village 38")
    assert st.pending is not None
    assert st.pending.cost == 5
    assert legal_of(st, "pay") == {"pay resources"}  # one tile must cover all five pips
    run(st, "pay resources")
    assert st.villages[28] == (0, 2)
    assert st.villages[9] == (0, 1)
    assert st.villages[38] == (0, 1)
    assert st.village_supply[0] == 16
    assert st.active == 1  # the draw phase ended the turn


def test_example_construction_needs_the_ship_and_the_hill_unit() -> None:
    st = make(
        ["hill_folk", "horse_lords"],
        units=[(18, 0, {"citadel": 1}), (20, 0, {"reivers": 1}), (60, 1, {"citadel": 1})],
        hands=[{"resources": 1}, {}],
        phase="construct_villages",
    )
    options = legal_of(st, "village")
    assert "village 9" not in options  # no ship in sea 8
    assert "village 38" not in options  # no unit in hills 30
    assert "village 30" in options  # next to the unit in 20


def test_example_capture_five_pips_two_plains_forest_and_hills() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[
            (14, 0, {"swords": 1}),
            (15, 0, {"lizardmen": 1}),
            (5, 0, {"skirmishers": 1}),
            (13, 0, {"cavalry": 1}),
            (60, 1, {"citadel": 1}),
        ],
        villages=[(14, 1), (15, 1), (5, 1), (13, 1), (22, 1)],
        hands=[{"resources": 1, "shields": 1}, {}],
        phase="start_of_turn",
    )
    assert st.phase.value == "capture_villages"
    assert legal_of(st, "capture") == {"capture 5", "capture 13", "capture 14", "capture 15"}
    run(st, "capture 14", "capture 15", "capture 5")
    assert st.pending is not None
    assert st.pending.cost == 3
    run(st, "capture 13")
    assert st.pending is not None
    assert st.pending.cost == 5
    assert legal_of(st, "pay") == {"pay resources"}
    run(st, "pay resources")
    assert st.captured_villages[0] == 4
    assert not any(a in st.villages for a in (5, 13, 14, 15))
    assert st.villages[22] == (1, 1)
    assert st.phase.value == "main_actions"


def test_example_dragon_riders_three_units_draw_four_against_necromancers_two() -> None:
    st = make(
        ["dragon_riders", "necromancers"],
        units=[(22, 0, {"swords": 2, "shields": 1}), (22, 1, {"goblins": 1, "swords": 1})],
        hands=[{"skirmishers": 1}, {"skirmishers": 1}],
        attacker_tiles=[5, 4, 3, 2],
        defender_tiles=[5, 4, 3],
    )
    run(st, "battle 22 1")
    if st.battle is not None and st.battle.step == "withdraw":
        run(st, "stay")
    assert st.battle is not None
    assert [len(t) for t in st.battle.tiles] == [4, 3]


def test_example_horse_lords_build_castle_two_tiles_ship_one_tile() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        villages=[(26, 0)],
        hands=[{"castle": 1, "ship": 2, "skirmishers": 1, "shields": 1, "swords": 1}, {}],
    )
    assert "build castle 26" in legal(st)
    run(st, "build castle 26", "pay ship")
    assert st.pending is not None  # two blocks: two tiles
    run(st, "pay skirmishers")
    assert st.units_at(26, 0) == {"castle": 1}
    assert st.discards[0] == {"ship": 1, "skirmishers": 1}
    # a ship in a sea next to the citadel (27 borders seas 8, 25 and 35; 26 borders 25 and 35)
    assert legal_of(st, "build") >= {"build ship 8", "build ship 25", "build ship 35"}
    run(st, "build ship 8", "pay shields")
    assert st.units_at(8, 0) == {"ship": 1}
    assert st.hands[0] == {"swords": 1}
    assert st.discards[0] == {"ship": 1, "skirmishers": 1, "shields": 1}
