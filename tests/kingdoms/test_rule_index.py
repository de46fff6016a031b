# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Rule ids of the specification that no other test named (issue 20: every rule id has a test
in the traceability table of docs/games/kingdoms.md)."""

from __future__ import annotations

import json

from bloodforge.games.kingdoms.board import supply
from bloodforge.games.kingdoms.content import DATA_DIR
from bloodforge.games.kingdoms.game import GRAMMAR

from .helpers import F, fresh, kinds_at, play, scenario, strikes, texts
from .test_battle import attack


def test_K10_K20_treasuries_are_whole_crowns_and_no_action_moves_crowns_between_factions() -> None:
    s = fresh()
    assert all(isinstance(t, int) for t in s.treasury)
    verbs = {g.kind for g in GRAMMAR}
    assert not verbs & {"give", "lend", "pay", "trade", "transfer"}
    before = list(s.treasury)
    play(s, "buy infantry", "done", "done", "done", "done")  # the elves' whole turn
    assert s.treasury[1:] == before[1:]  # nobody else's crowns moved


def test_K27_phases_1_to_5_may_be_skipped_and_phase_6_always_pays() -> None:
    s = fresh()
    play(s, "done", "done", "done", "done")
    assert s.treasury[F("elves")] == 15 + 15 - 3
    assert s.active == F("humans")


def test_K32_any_number_of_units_may_be_bought_while_crowns_last() -> None:
    s = scenario({"active": "elves", "treasury": {"elves": 40}})
    play(s, "buy infantry", "buy infantry", "buy infantry", "buy cavalry", "buy cavalry")
    assert s.treasury[F("elves")] == 40 - 3 * 4 - 2 * 8
    assert "buy infantry" in texts(s)


def test_K38_K43_combat_moves_into_several_hostile_spaces_then_every_battle_after_all_moves() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 2}]})
    play(s, "move thornbrake amberford cavalry", "move thornbrake starwater cavalry")
    assert not any(t.startswith("fight ") for t in texts(s))  # still the move phase: no battle yet
    assert s.phase == "combat_move"
    play(s, "done")
    assert sorted(texts(s)) == ["fight amberford", "fight starwater"]
    assert not any(t.startswith("move ") for t in texts(s))  # no move between fights


def test_K55_two_factions_cannot_share_a_sea_zone_without_a_battle() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "pieces": [{"faction": "elves", "kind": "ship", "at": "glimmer_bay"},
                             {"faction": "humans", "kind": "ship", "at": "verdant_deep"}]})
    play(s, "move glimmer_bay verdant_deep ship", "done")
    assert texts(s) == ["fight verdant_deep"]


def test_K66_K67_K68_the_attacker_rolls_one_die_per_unit_then_the_defender_strikes_back() -> None:
    s = attack([("cavalry", 1), ("infantry", 2)], [("infantry", 2)], [6, 6, 6, 6, 6, 6, 6, 6, 6, 6])
    dice = strikes(s)
    assert dice[0] == {"side": "attacker", "dice": 3, "hits": 0}
    assert dice[1] == {"side": "defender", "dice": 2, "hits": 0}


def test_K77_K78_the_attacker_picks_its_casualties_and_they_leave_the_board() -> None:
    s = attack([("infantry", 1), ("cavalry", 1)], [("infantry", 2)], [6, 6, 1, 6])
    assert s.battle is not None
    assert texts(s) == ["hit cavalry", "hit infantry"]
    n = len(s.pieces)
    play(s, "hit infantry")
    assert len(s.pieces) == n - 1  # back to the pool: the piece is gone from the board
    assert kinds_at(s, "amberford", "elves") == ["cavalry"]


def test_K91_K116_castles_never_move_or_attack_but_defend_their_territory() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True, "castles": ["amberford"],
                  "owner": {"amberford": "humans"},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake"}]},
                 rig={"dice": [6, 6]})
    assert not any(t.split()[-1] == "castle" for t in texts(s) if t.startswith("move "))
    play(s, "move thornbrake amberford cavalry", "done", "fight amberford")
    dice = strikes(s)
    assert dice[1] == {"side": "defender", "dice": 1, "hits": 0}  # the humans' castle rolls


def test_K105_K106_supply_is_one_per_unit_plus_five_per_card_held() -> None:
    s = scenario({"active": "elves", "hands": {"elves": ["sellswords"]}})
    f = F("elves")
    units = sum(1 for p in s.pieces.values() if p.faction == f and p.kind not in ("castle", "port"))
    assert supply(s, f) == units + 5


def test_K109_units_cannot_be_removed_at_will() -> None:
    s = fresh()
    for _ in range(30):
        assert not any(t.startswith("disband") for t in texts(s))
        play(s, "done" if "done" in texts(s) else texts(s)[0])


def test_K111_to_K117_the_unit_chart_is_the_rulebooks() -> None:
    chart = json.loads((DATA_DIR / "units.json").read_text())["units"]
    # rulebook L259-351: cost, attack, defence, movement
    expected = {"infantry": (4, 1, 2, 1), "cavalry": (8, 3, 3, 1), "griffin": (12, 3, 4, 3),
                "dragon": (14, 4, 3, 4), "ship": (8, 2, 2, 2), "castle": (25, 0, 4, 0), "port": (15, 0, 1, 0)}
    assert {k: (u["cost"], u["attack"], u["defence"], u["move"]) for k, u in chart.items()} == expected


def test_K132_a_played_mercenary_card_goes_back_into_the_deck() -> None:
    s = attack([("cavalry", 1)], [("infantry", 1)], [6, 6, 6, 6, 6, 6],
               extra={"hands": {"elves": ["sellswords"]}})
    pile = s.pile.count("sellswords")
    play(s, "merc sellswords")
    assert s.pile.count("sellswords") == pile + 1
    assert s.hands[F("elves")] == []
