"""THE BATTLE - The Soldiers & Phantoms: Turns & Acts, Moving, Attacking & Range."""

from __future__ import annotations

import pytest
from witch_helpers import check_invariants, scenario, texts

from bloodforge.core import IllegalAction
from bloodforge.games.witch.model import SOLDIERS, WITCH


def acts(state: object) -> set[str]:
    return {t for t in texts(state) if t.split()[0] in {"move", "attack"}}  # type: ignore[arg-type]


def test_turns_and_acts_up_to_three_acts_per_turn() -> None:
    state = scenario({"swordsman": {"square": "e4"}, "spearman": {"square": "c4"}})
    state.apply("move swordsman e5")
    state.apply("move spearman c5")
    state.apply("move archer b1")
    assert acts(state) == set(), "all 3 Acts are used"
    assert {"end"} <= texts(state)
    with pytest.raises(IllegalAction, match="all Acts of this turn are used"):
        state.apply("move archer a1")
    check_invariants(state)


def test_turns_and_acts_each_soldier_moves_at_most_once() -> None:
    state = scenario({"swordsman": {"square": "e4"}})
    state.apply("move swordsman e5")
    assert not any(t.startswith("move swordsman") for t in texts(state))
    with pytest.raises(IllegalAction, match="already moved"):
        state.apply("move swordsman e4")


def test_turns_and_acts_each_soldier_attacks_at_most_once_but_may_also_move() -> None:
    # The rulebook's example: after attacking with the Bowman he may still move, not attack again.
    state = scenario({"archer": {"square": "e2"}, "minion2": {"square": "e5"}})
    state.apply("attack archer minion2")
    assert state.units["minion2"].blood == state.content.units["minion2"].starting_blood - 1
    assert not any(t.startswith("attack archer") for t in texts(state))
    with pytest.raises(IllegalAction, match="already attacked"):
        state.apply("attack archer minion2")
    assert any(t.startswith("move archer") for t in texts(state))
    state.apply("move archer d2")
    assert state.rec.acts_used == 2


def test_turns_and_acts_move_then_attack_with_the_same_soldier() -> None:
    state = scenario({"swordsman": {"square": "e5"}, "minion2": {"square": "e8"}})
    assert "attack swordsman minion2" not in texts(state)
    state.apply("move swordsman e7")
    assert "attack swordsman minion2" in texts(state)
    state.apply("attack swordsman minion2")
    check_invariants(state)


def test_turns_and_acts_end_passes_the_turn_to_the_witch() -> None:
    state = scenario()
    state.apply("end")
    assert state.current_player == WITCH
    assert state.turn_number == 2
    state.apply("end")
    assert state.current_player == SOLDIERS
    assert state.rec.acts_used == 0
    assert not state.rec.moved


def test_moving_orthogonal_steps_up_to_the_cards_movement() -> None:
    state = scenario({"swordsman": {"square": "e2"}})
    steps = state.content.units["swordsman"].movement
    moves = {t.split()[2] for t in texts(state) if t.startswith("move swordsman")}
    c = state.content
    for name in moves:
        col, row = c.squares_by_name[name]
        assert abs(col - 4) + abs(row - 1) <= steps
    assert "f3" in moves
    assert "e4" in moves
    assert "g4" not in moves  # four steps away


def test_moving_darkened_spaces_cannot_be_moved_on_or_through() -> None:
    # d4 and f4 are darkened; from e5 with 2 steps the spearman may not stand on d4 nor pass it.
    state = scenario({"spearman": {"square": "c4"}})
    moves = {t.split()[2] for t in texts(state) if t.startswith("move spearman")}
    assert "d4" not in moves
    assert "e4" not in moves, "e4 is 2 steps away only through the darkened d4"
    with pytest.raises(IllegalAction, match="orthogonal steps"):
        state.apply("move spearman d4")


def test_moving_units_never_share_a_square_nor_pass_through_units() -> None:
    state = scenario({"spearman": {"square": "e4"}, "minion1": {"square": "e5"}})
    moves = {t.split()[2] for t in texts(state) if t.startswith("move spearman")}
    assert "e5" not in moves, "occupied"
    assert "e6" not in moves, "only reachable through the wolf on e5"


def test_attacking_removes_one_blood_stone_and_may_target_friendly_units() -> None:
    state = scenario({"swordsman": {"square": "e3"}, "spearman": {"square": "e2"}})
    assert "attack swordsman spearman" in texts(state)
    before = state.supply
    state.apply("attack swordsman spearman")
    assert state.units["spearman"].blood == state.content.units["spearman"].starting_blood - 1
    assert state.supply == before + 1
    check_invariants(state)


def test_attack_range_archer_long_straight_lines_stop_at_first_unit_and_not_point_blank() -> None:
    state = scenario(
        {
            "archer": {"square": "c1"},
            "spearman": {"square": "e3"},
            "minion1": {"square": "c2"},  # adjacent: too close for the bow
            "minion2": {"square": "c4"},  # behind minion1: the line stops at c2
            "minion3": {"square": "a1"},  # 2 squares along the row: in range
            "minion4": {"square": "g1"},  # 4 squares along the row: in range
        }
    )
    targets = {t.split()[2] for t in texts(state) if t.startswith("attack archer")}
    assert targets == {"minion3", "minion4"}


def test_attack_range_archer_lines_are_blocked_by_darkened_squares() -> None:
    state = scenario({"archer": {"square": "b2"}, "minion1": {"square": "b5"}})
    assert "attack archer minion1" not in texts(state), "b3 is darkened"


def test_attack_range_spearman_reach_of_two_over_a_unit_in_between() -> None:
    state = scenario(
        {
            "spearman": {"square": "e3"},
            "minion1": {"square": "e4"},
            "minion2": {"square": "e5"},  # two squares up, over the wolf
            "minion3": {"square": "d2"},  # diagonal: not a straight line
        }
    )
    targets = {t.split()[2] for t in texts(state) if t.startswith("attack spearman")}
    assert targets == {"minion1", "minion2"}


def test_attack_range_swordsman_any_of_the_eight_adjacent_squares() -> None:
    state = scenario(
        {
            "swordsman": {"square": "e5"},
            "minion1": {"square": "d5"},
            "minion2": {"square": "e4"},
            "minion3": {"square": "f5"},
            "minion4": {"square": "e7"},  # two away
        }
    )
    targets = {t.split()[2] for t in texts(state) if t.startswith("attack swordsman")}
    assert targets == {"minion1", "minion2", "minion3"}


def test_each_soldier_has_a_distinct_attack_range_type() -> None:
    c = scenario().content
    shapes = {c.units[s].attack for s in c.soldier_ids}
    assert len(shapes) == 3


def test_zombified_soldier_can_never_be_acted_on_by_the_soldier_player() -> None:
    state = scenario(
        {"swordsman": {"square": "e5", "zombified": True}, "minion1": {"square": "e6"}}
    )
    assert not any("swordsman" in t.split()[1:2] for t in texts(state))
    with pytest.raises(IllegalAction, match="zombified"):
        state.apply("move swordsman e4")
    with pytest.raises(IllegalAction, match="zombified"):
        state.apply("attack swordsman minion1")


def test_soldiers_cannot_act_with_the_witchs_units() -> None:
    state = scenario({"minion1": {"square": "e5"}})
    with pytest.raises(IllegalAction, match="only with soldiers"):
        state.apply("move minion1 e4")
