"""Action: Move Units — terrain costs, leaders, dragons, ship passage, enemy units, Undead."""

from __future__ import annotations

import pytest

from .helpers import legal, legal_of, make, move_cost, run, to_targets

RICH = {"resources": 2, "swords": 2, "shields": 2}  # 22 pips for the Dragon Riders


def _dr(units: list[tuple[int, int, dict[str, int]]], **kw: object):  # type: ignore[no-untyped-def]
    return make(
        ["dragon_riders", "horse_lords"],
        units=[*units, (60, 1, {"citadel": 1})],
        hands=[RICH, {}],
        **kw,
    )


@pytest.mark.parametrize(
    ("src", "dest", "cost"),
    [
        (19, 18, 1),  # plains
        (19, 10, 2),  # forest
        (19, 12, 3),  # hills
        (62, 71, 1),  # desert
    ],
)
def test_move_terrain_costs_standard_factions(src: int, dest: int, cost: int) -> None:
    st = _dr([(src, 0, {"swords": 1})])
    assert move_cost(st, src, {"swords": 1}, dest) == cost


def test_move_mountains_closed_to_standard_factions() -> None:
    st = _dr([(22, 0, {"swords": 1, "cavalry": 1})])
    assert move_cost(st, 22, {"swords": 1}, 23) is None
    assert move_cost(st, 22, {"cavalry": 1}, 23) is None


def test_hill_folk_move_hills_two_pips_mountains_three() -> None:
    st = make(
        ["hill_folk", "horse_lords"],
        units=[(22, 0, {"swords": 1}), (60, 1, {"citadel": 1})],
        hands=[{"resources": 2}, {}],
    )
    assert move_cost(st, 22, {"swords": 1}, 30) == 2
    assert move_cost(st, 22, {"swords": 1}, 23) == 3
    assert move_cost(st, 22, {"swords": 1}, 16) == 1


def test_move_leader_takes_one_unit_free() -> None:
    st = _dr([(19, 0, {"leader": 1, "swords": 2})])
    assert move_cost(st, 19, {"leader": 1}, 18) == 1
    assert move_cost(st, 19, {"leader": 1, "swords": 1}, 18) == 1
    assert move_cost(st, 19, {"leader": 1, "swords": 2}, 18) == 2
    assert move_cost(st, 19, {"leader": 1, "swords": 2}, 12) == 6  # hills: two pay 3 each


def test_horse_lords_leader_chain_moves_three_for_the_cost_of_one() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(19, 0, {"leader": 2, "swords": 2}), (60, 1, {"citadel": 1})],
        hands=[RICH, {}],
    )
    assert move_cost(st, 19, {"leader": 2}, 10) == 2  # one leader carries the other
    assert move_cost(st, 19, {"leader": 2, "swords": 1}, 10) == 2  # chain: leader-leader-swords
    assert move_cost(st, 19, {"leader": 2, "swords": 2}, 10) == 4


def test_move_dragons_pay_one_pip_into_any_terrain() -> None:
    st = _dr([(22, 0, {"dragon": 1})])
    assert move_cost(st, 22, {"dragon": 1}, 23) == 1  # mountains
    assert move_cost(st, 22, {"dragon": 1}, 30) == 1  # hills
    assert move_cost(st, 22, {"dragon": 1}, 24) == 2  # via the mountains, 1 + 1
    st = _dr([(26, 0, {"dragon": 1})])
    assert move_cost(st, 26, {"dragon": 1}, 25) == 1  # sea, and it may stay there
    assert move_cost(st, 26, {"dragon": 1}, 34) == 2


def test_move_mixed_group_leader_carries_the_dearest_unit() -> None:
    st = _dr([(22, 0, {"leader": 1, "dragon": 1, "swords": 1})])
    # leader (3) + dragon (1); the swords rides free
    assert move_cost(st, 22, {"leader": 1, "dragon": 1, "swords": 1}, 30) == 4
    assert move_cost(st, 22, {"leader": 1, "dragon": 1}, 30) == 3  # the dragon rides free
    assert move_cost(st, 22, {"dragon": 1, "swords": 1}, 30) == 4  # no leader: 1 + 3
    # a group with land units cannot fly over mountains or stay at sea
    assert move_cost(st, 22, {"dragon": 1, "swords": 1}, 23) is None


def test_move_ship_passage_free_along_chain_pay_final_area() -> None:
    st = _dr([(9, 0, {"swords": 1}), (8, 0, {"ship": 1}), (25, 0, {"ship": 1})])
    assert move_cost(st, 9, {"swords": 1}, 34) == 1  # 9 -> ship 8 -> ship 25 -> plains 34
    assert move_cost(st, 9, {"swords": 1}, 27) == 1
    assert 8 not in to_targets(run(st.clone(), "move 9 swords"))  # land units end on land
    # without the second ship, 34 (reachable only by sea) is out of reach
    st = _dr([(9, 0, {"swords": 1}), (8, 0, {"ship": 1})])
    assert move_cost(st, 9, {"swords": 1}, 34) is None


def test_move_no_passage_through_contested_sea() -> None:
    st = _dr(
        [(9, 0, {"swords": 1}), (8, 0, {"ship": 1}), (25, 0, {"ship": 1}), (25, 1, {"ship": 1})]
    )
    assert move_cost(st, 9, {"swords": 1}, 34) is None
    assert move_cost(st, 9, {"swords": 1}, 27) == 1  # the uncontested ship 8 still carries


def test_move_ship_passage_for_dragons_still_pays_the_final_area() -> None:
    # "A unit can move along a chain of contiguous ships at no cost, however, you still pay the
    # cost of moving into the final area" - for a dragon that is one pip, sea or not.
    st = _dr([(26, 0, {"dragon": 1}), (25, 0, {"ship": 1})])
    assert move_cost(st, 26, {"dragon": 1}, 34) == 1  # free along ship 25, pays for 34
    assert move_cost(st, 26, {"dragon": 1}, 25) == 1  # ending on the ship's sea is not free
    assert move_cost(st, 26, {"dragon": 1}, 8) == 1


def test_move_ships_sail_sea_to_sea_one_pip_each_no_passage() -> None:
    st = _dr([(35, 0, {"ship": 1}), (25, 0, {"ship": 1})])
    assert to_targets(run(st.clone(), "move 35 ship")) <= set(st.game.board.sea_areas)
    assert move_cost(st, 35, {"ship": 1}, 25) == 1
    assert move_cost(st, 35, {"ship": 1}, 8) == 2  # ships never use ship passage
    assert move_cost(st, 35, {"ship": 1}, 45) == 1


def test_move_cannot_leave_an_area_holding_enemy_units() -> None:
    st = _dr([(22, 0, {"swords": 1}), (22, 1, {"shields": 1}), (16, 0, {"swords": 1})])
    moves = legal_of(st, "move")
    assert "move 16 swords" in moves
    assert not any(m.startswith("move 22 ") for m in moves)


def test_move_enemy_units_stop_movement_villages_do_not() -> None:
    st = _dr([(26, 0, {"swords": 1}), (27, 1, {"shields": 1})])
    assert move_cost(st, 26, {"swords": 1}, 27) == 1  # may enter...
    assert move_cost(st, 26, {"swords": 1}, 28) is None  # ...but not move on
    st = _dr([(26, 0, {"swords": 1})], villages=[(27, 1)])
    assert move_cost(st, 26, {"swords": 1}, 28) == 2  # enemy villages alone do not stop


def test_move_castles_citadels_and_undead_do_not_move() -> None:
    st = make(
        ["necromancers", "horse_lords"],
        units=[
            (27, 0, {"citadel": 1, "castle": 1, "undead": 1, "swords": 1}),
            (60, 1, {"citadel": 1}),
        ],
        hands=[{"goblins": 2}, {}],
    )
    assert legal_of(st, "move") == {"move 27 swords"}
    run(st, "move 27 swords")
    assert "move 27 undead" not in legal(st)


def test_move_legs_paid_together_leftover_pips_carry_over() -> None:
    st = _dr([(16, 0, {"swords": 1}), (19, 0, {"shields": 1})])
    st.hands[0] = {"shields": 1}  # 3 pips; shields tile is out of the bag already
    st.own_bag(0).remove("shields")
    run(st, "move 16 swords", "to 22", "move 19 shields", "to 10")
    assert st.pending is not None
    assert st.pending.cost == 3
    assert legal(st) == {"pay shields", "cancel"}
    run(st, "pay shields")
    assert st.units_at(22, 0) == {"swords": 1}
    assert st.units_at(10, 0) == {"shields": 1}


def test_move_targets_limited_by_pips_in_hand() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(19, 0, {"swords": 1}), (60, 1, {"citadel": 1})],
        hands=[{"lizardmen": 1}, {}],
    )  # two pips
    targets = to_targets(run(st, "move 19 swords"))
    assert 10 in targets
    assert 18 in targets
    assert 12 not in targets  # hills: 3 pips


def test_move_units_may_move_again_in_a_later_action() -> None:
    st = _dr([(16, 0, {"swords": 1})])
    run(st, "move 16 swords", "to 22", "pay shields")
    run(st, "move 22 swords", "to 21", "pay shields")
    assert st.units_at(21, 0) == {"swords": 1}
