# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Common units (K12, K23, K87, K121-K126), sea combat (K50, K84, K90, K92) and phase rules
(K27, K44, K61, K100, K130)."""

from __future__ import annotations

from .helpers import F, idx, kinds_at, play, scenario, strikes, texts


def test_K23_a_printed_capital_can_never_be_destroyed() -> None:
    s = scenario({"active": "elves", "castles": ["elmwood"], "ports": ["brightleaf"]})
    assert "raze sylvanhold castle" not in texts(s)
    assert {"raze elmwood castle", "raze brightleaf port"} <= set(texts(s))


def test_K123_A22_own_castles_may_be_destroyed_only_before_combat() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "castles": ["elmwood"]})
    play(s, "raze elmwood castle")
    assert not s.castle[idx(s, "elmwood")]
    s = scenario({"active": "elves", "phase": "noncombat", "castles": ["elmwood"]})
    assert not any(t.startswith("raze") for t in texts(s))


def test_K124_A20_one_castle_and_one_port_at_most_per_territory() -> None:
    s = scenario({"active": "elves", "phase": "place", "castles": ["brightleaf"],
                  "pieces": [{"faction": "elves", "kind": "castle", "at": "reserve"},
                             {"faction": "elves", "kind": "port", "at": "reserve"}]})
    assert "place castle brightleaf" not in texts(s)
    assert "place port brightleaf" in texts(s)
    assert "place port elmwood" not in texts(s)  # ports only on the coast (K125)


def test_K12_K87_K122_a_captured_castle_changes_owner_with_its_territory() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "owner": {"amberford": "humans"}, "castles": ["amberford"], "ports": ["amberford"],
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 3}]},
                 rig={"dice": [1, 1, 6, 6, 6]})
    for _ in range(3):
        play(s, "move thornbrake amberford cavalry")
    play(s, "done", "fight amberford")
    assert s.owner[idx(s, "amberford")] == F("elves")
    assert s.castle[idx(s, "amberford")]
    assert s.port[idx(s, "amberford")]
    assert "raze amberford castle" not in texts(s)  # only before combat, and it is phase 4 now


def test_K50_K90_K92_cargo_and_air_units_fight_at_sea_K84_ships_take_no_land() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "pieces": [{"faction": "elves", "kind": "ship", "at": "glimmer_bay"},
                             {"faction": "elves", "kind": "infantry", "at": "glimmer_bay", "count": 2,
                              "aboard": True},
                             {"faction": "elves", "kind": "dragon", "at": "brightleaf"},
                             {"faction": "humans", "kind": "ship", "at": "verdant_deep"}]},
                 rig={"dice": [6, 6, 6, 6, 1]})
    play(s, "move glimmer_bay verdant_deep ship", "move brightleaf verdant_deep dragon", "done",
         "fight verdant_deep")
    dice = strikes(s)
    assert dice[0] == {"side": "attacker", "dice": 4, "hits": 0}  # ship + 2 cargo + dragon
    assert "retreat pale_deep" in texts(s)  # a defending ship may retreat to a free sea zone (A24)
    play(s, "stand")
    assert s.battle is not None
    assert s.battle.stage == "att_hits"
    assert texts(s) == ["hit dragon", "hit infantry", "hit ship"]
    play(s, "hit ship")  # the ship goes down with its cargo (A14)
    assert kinds_at(s, "verdant_deep", "elves") == ["dragon"]


def test_K61_K44_every_battle_is_fought_and_nothing_moves_once_combat_began() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "owner": {"amberford": "humans", "starwater": "humans"},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 2},
                             {"faction": "elves", "kind": "infantry", "at": "fernvale"},
                             {"faction": "humans", "kind": "infantry", "at": "amberford"},
                             {"faction": "humans", "kind": "infantry", "at": "starwater"}]})
    play(s, "move thornbrake amberford cavalry", "move thornbrake starwater cavalry", "done")
    assert {a.kind for a in s.legal_actions()} == {"fight"}  # no `done`, no `move` (K27, K44)


def test_K100_ships_are_never_placed_in_hostile_sea_zones() -> None:
    s = scenario({"active": "elves", "phase": "place", "clear_units": True, "ports": ["brightleaf"],
                  "pieces": [{"faction": "elves", "kind": "ship", "at": "reserve"},
                             {"faction": "humans", "kind": "ship", "at": "glimmer_bay"}]})
    assert "place ship glimmer_bay" not in texts(s)


def test_K130_mercenary_cards_are_never_disbanded_for_supply() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "owner": {"amberford": "humans"},
                  "hands": {"humans": ["sellswords"]},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 2},
                             {"faction": "humans", "kind": "infantry", "at": "amberford"},
                             {"faction": "humans", "kind": "infantry", "at": "frostcrown", "count": 12}]},
                 rig={"dice": [1, 6, 6]})
    play(s, "move thornbrake amberford cavalry", "move thornbrake amberford cavalry", "done",
         "fight amberford", "nomerc")
    assert s.owner[idx(s, "amberford")] == F("elves")
    assert s.actors() == [1]
    assert all(t.startswith("disband frostcrown") for t in texts(s))
    assert s.hands[F("humans")] == ["sellswords"]
