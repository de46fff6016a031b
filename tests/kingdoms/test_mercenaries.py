# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Mercenary cards in the engine (K63-K65, K127-K132, spec 2.5): every designed effect."""

from __future__ import annotations

from typing import Any

from .helpers import F, idx, kinds_at, play, scenario, strikes, texts


def battle(cards: dict[str, list[str]], elves: int, humans: int, dice: list[int], **extra: Any) -> Any:
    pos: dict[str, Any] = {
        "active": "elves", "phase": "combat_move", "clear_units": True, "owner": {"amberford": "humans"},
        "hands": cards,
        "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": elves},
                   {"faction": "humans", "kind": "infantry", "at": "amberford", "count": humans}],
    }
    pos.update(extra)
    s = scenario(pos, rig={"dice": dice})
    for _ in range(elves):
        play(s, "move thornbrake amberford cavalry")
    play(s, "done", "fight amberford")
    return s


def test_battle_mage_hits_before_the_first_strike_and_its_victims_never_strike() -> None:
    s = battle({"elves": ["battle_mage"]}, 1, 3, [1, 2, 6, 6, 6])
    play(s, "merc battle_mage")
    assert any("battle mage of Elves scores 2 hits" in e.text for e in s.events)
    dice = strikes(s)
    assert dice[0] == {"side": "attacker", "dice": 1, "hits": 0}
    assert dice[1] == {"side": "defender", "dice": 1, "hits": 0}  # only the survivor strikes


def test_siege_engineers_silence_an_enemy_castle_for_the_whole_battle() -> None:
    s = battle({"elves": ["siege_engineers"]}, 1, 0, [], castles=["amberford"])
    assert texts(s) == ["merc siege_engineers", "nomerc"]
    play(s, "merc siege_engineers")
    assert s.battle is None
    assert s.owner[idx(s, "amberford")] == F("elves")
    assert not any(e.kind == "dice" for e in s.events)


def test_siege_engineers_are_for_attackers_only() -> None:
    s = battle({"humans": ["siege_engineers"]}, 1, 1, [6, 6, 6, 6])
    assert s.battle is None or s.battle.stage != "merc_def"


def test_shieldbearers_ignore_the_first_hit_of_the_first_round() -> None:
    s = battle({"humans": ["shieldbearers"]}, 1, 1, [1, 6])
    play(s, "merc shieldbearers")
    assert kinds_at(s, "amberford", "humans") == ["infantry"]
    dice = strikes(s)
    assert dice[0] == {"side": "attacker", "dice": 1, "hits": 0}


def test_master_archers_add_one_to_every_value_in_the_first_round_only() -> None:
    s = battle({"elves": ["master_archers"]}, 1, 1, [4, 6, 4, 6])
    play(s, "merc master_archers")
    # round 1: cavalry hits on 4 (3 + 1); the defender's hit infantry strikes back and misses
    assert s.battle is None
    assert s.owner[idx(s, "amberford")] == F("elves")
    s = battle({"elves": ["master_archers"]}, 1, 1, [6, 6, 4, 6, 6, 6])
    play(s, "merc master_archers", "press")
    assert s.battle is not None  # round 2: a 4 misses again for the cavalry (value 3)


def test_free_lances_bring_a_hired_cavalry_that_can_be_taken_as_a_casualty() -> None:
    s = battle({"elves": ["free_lances"]}, 1, 2, [6, 6, 1, 6])
    play(s, "merc free_lances")
    assert s.battle is not None
    assert texts(s) == ["hit cavalry", "hit hired_cavalry"]
    play(s, "hit hired_cavalry")
    assert not any(p.merc for p in s.pieces.values())


def test_K131_spies_reveal_a_space_to_the_buyer_only() -> None:
    s = scenario({"active": "elves"}, rig={"draws": ["spies"]})
    play(s, "hire")
    assert "target frostcrown" in texts(s)
    play(s, "target frostcrown")
    seen = [p["kind"] for p in s.observation(0)["pieces"] if p["at"] == "frostcrown"]
    assert sorted(seen) == ["cavalry", "infantry", "infantry"]
    assert [p["kind"] for p in s.observation(2)["pieces"] if p["at"] == "frostcrown"] == [None] * 3
    assert s.hands[F("elves")] == []  # instant: straight back to the deck


def test_deserters_remove_an_enemy_infantry_next_to_your_units() -> None:
    s = scenario({"active": "elves", "owner": {"amberford": "humans"},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake"},
                             {"faction": "humans", "kind": "infantry", "at": "amberford", "count": 2}]},
                 rig={"draws": ["deserters"]})
    play(s, "hire")
    assert texts(s) == ["target amberford"]
    play(s, "target amberford")
    assert kinds_at(s, "amberford", "humans") == ["infantry"]


def test_K128_mercenaries_cost_15_and_K37_only_in_the_purchase_phase() -> None:
    s = scenario({"active": "elves", "treasury": {"elves": 14}})
    assert "hire" not in texts(s)
