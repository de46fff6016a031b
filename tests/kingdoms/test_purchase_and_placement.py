# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Phase 1 purchases (K30-K37, A7, A9) and phase 5 placement (K96-K102, A19-A21, T1, T9)."""

from __future__ import annotations

import pytest

from bloodforge.core import IllegalAction

from .helpers import F, economy, fresh, idx, kinds_at, play, scenario, texts


def test_K31_K34_a_purchase_pays_the_unit_chart_cost_and_is_set_aside() -> None:
    s = fresh()
    play(s, "buy cavalry")
    assert s.treasury[F("elves")] == 15 - 8
    assert [p.kind for p in s.pieces.values() if p.at == -1] == ["cavalry"]  # K35


def test_K35_bought_units_cannot_move_before_placement() -> None:
    s = fresh()
    play(s, "buy infantry", "done")
    assert not any("reserve" in t for t in texts(s))


def test_A7_A6_a_purchase_that_would_push_supply_above_income_is_refused() -> None:
    s = scenario({"active": "elves", "treasury": {"elves": 200}})
    for _ in range(12):
        play(s, "buy infantry")
    assert economy(s, "elves")[2] == 15  # 3 + 12 bought units count (A6)
    assert "buy infantry" not in texts(s)
    with pytest.raises(IllegalAction):
        s.apply("buy infantry")
    assert "buy castle" in texts(s)  # castles and ports cost no supply (K105)


def test_K33_a_type_whose_pieces_are_all_in_play_cannot_be_bought() -> None:
    pieces = [{"faction": "elves", "kind": "dragon", "at": "sylvanhold", "count": 4}]
    s = scenario({"active": "elves", "treasury": {"elves": 100}, "pieces": pieces, "clear_units": True})
    assert "buy dragon" not in texts(s)
    assert "buy griffin" in texts(s)


def test_K37_K128_T11_a_mercenary_card_costs_15_and_adds_5_supply_until_played() -> None:
    s = scenario({"active": "elves"}, rig={"draws": ["sellswords"]})
    play(s, "hire")
    assert s.hands[F("elves")] == ["sellswords"]
    assert economy(s, "elves") == (0, 15, 8, 1)
    play(s, "done")
    assert "hire" not in [a.kind for a in s.legal_actions()]  # only in the purchase phase


def test_K129_an_instant_card_resolves_at_once_and_goes_back_to_the_deck() -> None:
    s = scenario({"active": "elves"}, rig={"draws": ["plunder"]})
    before = len(s.pile)
    play(s, "hire")
    assert s.treasury[F("elves")] == 15 - 15 + 10
    assert s.hands[F("elves")] == []
    assert len(s.pile) == before


def test_T1_K36_K101_the_capital_produces_at_most_8_units_the_rest_wait() -> None:
    s = scenario({"active": "elves", "treasury": {"elves": 100}, "clear_units": True})
    for _ in range(9):
        play(s, "buy infantry")
    play(s, "done", "done", "done")
    assert s.phase == "place"
    for _ in range(8):
        play(s, "place infantry sylvanhold")
    assert "place infantry sylvanhold" not in texts(s)
    assert len(kinds_at(s, "sylvanhold", "elves")) == 8
    assert sum(1 for p in s.pieces.values() if p.at == -1) == 1
    play(s, "done")
    for _ in range(3):  # the others' turns
        play(s, "done", "done", "done", "done")
    play(s, "done", "done", "done")
    play(s, "place infantry sylvanhold")  # placed on a later turn (K101)
    assert len(kinds_at(s, "sylvanhold", "elves")) == 9


def test_A19_castles_are_placed_on_territories_held_since_the_turn_began_and_produce_next_turn() -> None:
    s = scenario({"active": "elves", "treasury": {"elves": 100}})
    play(s, "buy castle", "buy infantry", "done", "done", "done")
    assert "place castle elmwood" in texts(s)
    play(s, "place castle elmwood")
    assert s.castle[idx(s, "elmwood")]
    assert "place infantry elmwood" not in texts(s)


def test_A21_K98_ships_come_from_a_port_into_an_adjacent_sea_zone_within_its_value() -> None:
    s = scenario({"active": "elves", "treasury": {"elves": 100}, "ports": ["brightleaf"]})
    play(s, "buy ship", "buy ship", "done", "done", "done")
    assert "place ship glimmer_bay" in texts(s)
    play(s, "place ship glimmer_bay")
    assert "place ship glimmer_bay" not in texts(s)  # brightleaf is worth 1: one unit per turn


def test_K99_land_units_are_never_placed_on_ships_or_at_sea() -> None:
    s = scenario({"active": "elves", "treasury": {"elves": 100}, "ports": ["brightleaf"]})
    play(s, "buy infantry", "done", "done", "done")
    assert all(t.split()[2] not in ("glimmer_bay", "leafsound") for t in texts(s) if t.startswith("place"))


def test_T9_K88_K97_a_castle_captured_this_turn_cannot_produce_until_next_turn() -> None:
    s = scenario({
        "active": "elves", "phase": "purchase", "treasury": {"elves": 100},
        "owner": {"amberford": "humans"}, "castles": ["amberford"],
        "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 2}],
    }, rig={"dice": [1, 1, 6]})
    play(s, "buy infantry", "done", "move thornbrake amberford cavalry", "move thornbrake amberford cavalry", "done")
    # an enemy territory with only a castle: the castle defends alone (A31), silenced when hit (A23)
    play(s, "fight amberford")
    assert s.dice == []
    assert s.owner[idx(s, "amberford")] == F("elves")
    while s.phase != "place":
        play(s, "done")
    assert not any(t.endswith("amberford") for t in texts(s))
    play(s, "done")
    for _ in range(3):
        play(s, "done", "done", "done", "done")
    play(s, "done", "done", "done")
    assert "place infantry amberford" in texts(s)
