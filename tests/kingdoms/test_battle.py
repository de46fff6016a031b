# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Phase 3: battles (K61-K92, A23-A31, T3, T4, T7, T8, T10, T12, T13, T16)."""

from __future__ import annotations

from typing import Any

from .helpers import F, economy, idx, kinds_at, play, scenario, texts


def attack(elves: list[tuple[str, int]], humans: list[tuple[str, int]], dice: list[int],
           extra: dict[str, Any] | None = None) -> Any:
    """Elves in thornbrake attack humans in amberford (a humans territory) with all their units."""
    pieces = [{"faction": "elves", "kind": k, "at": "thornbrake", "count": n} for k, n in elves]
    pieces += [{"faction": "humans", "kind": k, "at": "amberford", "count": n} for k, n in humans]
    pos: dict[str, Any] = {"active": "elves", "phase": "combat_move", "clear_units": True,
                           "owner": {"amberford": "humans"}, "pieces": pieces}
    pos.update(extra or {})
    s = scenario(pos, rig={"dice": dice})
    for k, n in elves:
        for _ in range(n):
            play(s, f"move thornbrake amberford {k}")
    play(s, "done", "fight amberford")
    return s


def test_T3_K69_dice_are_rolled_lowest_value_first_then_by_piece() -> None:
    s = attack([("cavalry", 1), ("infantry", 2)], [("infantry", 3)], [1, 2, 3, 6, 6, 6])
    # infantry (A1): 1 hit, 2 miss; cavalry (A3): 3 hit -> 2 hits (cavalry first would give 1)
    strikes = [e.data for e in s.events if e.kind == "dice"]
    assert strikes[0] == {"side": "attacker", "dice": 3, "hits": 2, "faces": [1, 2, 3], "values": [1, 1, 3],
                          "round": 1}
    # the two hit infantry roll too
    assert strikes[1] == {"side": "defender", "dice": 3, "hits": 0, "faces": [6, 6, 6], "values": [2, 2, 2],
                          "round": 1}
    assert kinds_at(s, "amberford", "humans") == ["infantry"]


def test_T4_K70_K76_a_unit_hits_on_its_value_or_less() -> None:
    s = attack([("cavalry", 1)], [("infantry", 1)], [3, 3])  # 3 <= 3 hits; infantry defends 2: 3 misses
    assert s.owner[idx(s, "amberford")] == F("elves")
    s = attack([("cavalry", 1)], [("infantry", 1)], [4, 2])  # 4 misses; 2 <= 2 hits
    assert s.owner[idx(s, "amberford")] == F("humans")
    assert kinds_at(s, "thornbrake", "elves") == []


def test_T4_K22_a_castle_defends_with_4_and_hits_on_4() -> None:
    s = attack([("cavalry", 2)], [], [6, 6, 4], extra={"castles": ["amberford"]})
    assert (s.battle is not None and s.battle.stage == "att_choice") or s.battle is None
    assert kinds_at(s, "amberford", "elves") == ["cavalry"]


def test_T7_K83_when_both_sides_are_destroyed_the_defender_keeps_the_territory() -> None:
    s = attack([("cavalry", 1)], [("infantry", 1)], [1, 1])
    assert s.battle is None
    assert kinds_at(s, "amberford") == []
    assert s.owner[idx(s, "amberford")] == F("humans")


def test_K71_K75_units_hit_by_the_attacker_still_strike_back() -> None:
    s = attack([("cavalry", 1)], [("cavalry", 1)], [1, 3])
    assert kinds_at(s, "amberford") == []  # the defending cavalry was hit, yet its 3 killed the attacker


def test_T8_K85_air_survivors_alone_cannot_occupy_and_must_land_in_phase_4() -> None:
    s = attack([("infantry", 1), ("griffin", 1)], [("infantry", 1)], [6, 1, 1])
    assert s.battle is not None
    assert s.battle.stage == "att_hits"
    assert texts(s) == ["hit griffin", "hit infantry"]  # K77: the attacker picks its own casualty
    play(s, "hit infantry")
    assert s.battle is None
    assert s.owner[idx(s, "amberford")] == F("humans")
    assert kinds_at(s, "amberford", "elves") == ["griffin"]
    assert s.phase == "noncombat"
    assert "move amberford thornbrake griffin" in texts(s)


def test_K81_A26_the_attacker_may_retreat_after_a_round_and_the_defender_keeps_the_space() -> None:
    s = attack([("cavalry", 2)], [("infantry", 3)], [6, 6, 6, 6, 6])
    assert s.battle is not None
    assert s.battle.stage == "att_choice"
    assert texts(s) == ["press", "retreat thornbrake"]
    play(s, "retreat thornbrake")
    assert kinds_at(s, "thornbrake", "elves") == ["cavalry", "cavalry"]
    assert s.owner[idx(s, "amberford")] == F("humans")
    assert s.phase == "noncombat"
    assert "move thornbrake fernvale cavalry" not in texts(s)  # they fought (K93)


def test_T12_K72_K73_K74_a_retreating_defender_suffers_an_attack_of_opportunity_and_does_not_strike() -> None:
    s = attack([("cavalry", 2)], [("infantry", 2)], [6, 6, 1, 6], extra={"owner": {"amberford": "humans",
                                                                                 "northgate": "humans"}})
    assert s.battle is not None
    assert s.battle.stage == "def_choice"
    assert s.current_player == 1
    assert texts(s) == ["stand", "retreat northgate"]
    play(s, "retreat northgate")
    assert s.battle is None
    assert kinds_at(s, "northgate", "humans") == ["infantry"]  # one lost to the attack of opportunity
    assert s.owner[idx(s, "amberford")] == F("elves")
    assert kinds_at(s, "thornbrake", "elves") == []
    assert kinds_at(s, "amberford", "elves") == ["cavalry"] * 2
    assert not any("Humans roll" in e.text for e in s.events)


def test_T13_K11_every_unit_rolls_its_own_die() -> None:
    s = attack([("infantry", 7)], [("cavalry", 3)], [6] * 10)
    assert s.dice == []
    assert any("roll 7 dice" in e.text for e in s.events)
    assert any("roll 3 dice" in e.text for e in s.events)


def test_K79_K80_rounds_repeat_until_one_side_is_gone() -> None:
    s = attack([("cavalry", 1)], [("infantry", 1)], [6, 6, 1, 6])
    assert s.battle is not None
    assert texts(s) == ["press", "retreat thornbrake"]
    play(s, "press")
    assert s.battle is None
    assert s.owner[idx(s, "amberford")] == F("elves")


def test_T16_K89_ships_never_enter_or_join_land_battles() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "owner": {"amberford": "humans"},
                  "pieces": [{"faction": "elves", "kind": "ship", "at": "leafsound"},
                             {"faction": "humans", "kind": "infantry", "at": "amberford"}]})
    assert not any(t.startswith("move leafsound amberford") for t in texts(s))


def test_T10_K108_A8_losing_income_below_supply_makes_the_loser_disband_at_once() -> None:
    s = attack([("cavalry", 2)], [("infantry", 1)], [1, 6, 6],
               extra={"pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 2},
                                 {"faction": "humans", "kind": "infantry", "at": "amberford"},
                                 {"faction": "humans", "kind": "infantry", "at": "frostcrown", "count": 17}]})
    assert s.owner[idx(s, "amberford")] == F("elves")
    assert economy(s, "humans")[1:3] == (15, 17)
    assert s.actors() == [1]
    assert texts(s) == ["disband frostcrown infantry"]
    play(s, "disband frostcrown infantry", "disband frostcrown infantry")
    assert economy(s, "humans")[1:3] == (15, 15)
    assert s.actors() == [0]
    assert s.phase == "noncombat"


def test_K64_K65_A27_mercenary_cards_are_committed_hidden_then_revealed_together() -> None:
    s = attack([("cavalry", 1)], [("infantry", 1)], [6, 6, 6, 6, 6, 6, 6, 6],
               extra={"hands": {"elves": ["sellswords"], "humans": ["shieldbearers"]}})
    assert s.battle is not None
    assert s.battle.stage == "merc_att"
    assert texts(s) == ["merc sellswords", "nomerc"]
    play(s, "merc sellswords")
    assert s.current_player == 1
    obs = s.observation(1)
    assert obs["battle"]["my_card"] == [None, None]
    assert "sellswords" not in str(obs["hands"])
    assert "Elves decide about mercenaries" in s.event_log(1)
    assert not any("Sellswords" in t for t in s.event_log(1))
    play(s, "merc shieldbearers")
    assert any("Elves play Sellswords" in t for t in s.event_log(1))
    assert kinds_at(s, "amberford", "elves") == ["cavalry", "infantry", "infantry"]
    assert economy(s, "elves")[2] == 1  # T11: played, the card no longer costs supply; hired units none
    play(s, "retreat thornbrake")
    assert kinds_at(s, "thornbrake", "elves") == ["cavalry"]  # hired units disband
    assert not any(p.merc for p in s.pieces.values())


def test_K63_a_card_serves_one_battle_only_and_returns_to_the_deck() -> None:
    s = attack([("cavalry", 1)], [("infantry", 1)], [1, 6], extra={"hands": {"elves": ["master_archers"]}})
    deck = len(s.pile)
    play(s, "merc master_archers")
    assert s.hands[F("elves")] == []
    assert len(s.pile) == deck + 1


def test_A23_a_castle_taken_as_a_casualty_is_silenced_not_destroyed() -> None:
    s = attack([("cavalry", 2)], [("infantry", 1)], [1, 6, 6, 6], extra={"castles": ["amberford"]})
    assert s.battle is not None
    assert s.battle.stage == "def_hits"
    assert texts(s) == ["hit castle", "hit infantry"]
    play(s, "hit castle")  # no retreat open: the defender stands at once
    assert s.battle is not None
    assert s.battle.stage == "att_choice"
    assert s.castle[idx(s, "amberford")]
    assert s.battle.silenced == ["castle"]


def test_K62_the_attacker_chooses_the_order_of_battles() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "owner": {"amberford": "humans", "starwater": "humans"},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 2},
                             {"faction": "humans", "kind": "infantry", "at": "amberford"},
                             {"faction": "humans", "kind": "infantry", "at": "starwater"}]})
    play(s, "move thornbrake amberford cavalry", "move thornbrake starwater cavalry", "done")
    assert texts(s) == ["fight amberford", "fight starwater"]
