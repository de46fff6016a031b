# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Retreats (K72-K74, K81 = L177-179, A24-A26): where each side may go."""

from __future__ import annotations

from typing import Any

from bloodforge.games.kingdoms.battle import attacker_retreats

from .helpers import F, idx, kinds_at, play, scenario, texts


def land_attack(movers: list[tuple[str, str]], dice: list[int], owner: dict[str, str]) -> Any:
    """Elves move each (kind, from) into humans-held amberford, defended by one infantry."""
    pieces: list[dict[str, Any]] = [{"faction": "elves", "kind": k, "at": frm} for k, frm in movers]
    pieces.append({"faction": "humans", "kind": "infantry", "at": "amberford"})
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "owner": {"amberford": "humans", **owner}, "pieces": pieces}, rig={"dice": dice})
    for k, frm in movers:
        play(s, f"move {frm} amberford {k}")
    play(s, "done", "fight amberford")
    return s


def test_K81_the_attacker_retreats_only_to_a_space_an_attacking_unit_moved_from() -> None:
    # northgate is an adjacent Elves territory, but no attacker came from it: not offered
    s = land_attack([("cavalry", "thornbrake")], [6, 6], {"thornbrake": "elves", "northgate": "elves"})
    assert s.battle is not None
    assert s.battle.stage == "att_choice"
    assert texts(s) == ["press", "retreat thornbrake"]
    play(s, "retreat thornbrake")
    assert kinds_at(s, "thornbrake", "elves") == ["cavalry"]
    assert kinds_at(s, "northgate", "elves") == []


def test_K81_every_space_an_attacker_came_from_is_open_and_all_retreat_together() -> None:
    s = land_attack([("cavalry", "thornbrake"), ("infantry", "northgate")], [6, 6, 6],
                    {"thornbrake": "elves", "northgate": "elves"})
    assert sorted(texts(s)) == ["press", "retreat northgate", "retreat thornbrake"]
    play(s, "retreat northgate")
    assert kinds_at(s, "northgate", "elves") == ["cavalry", "infantry"]


def test_K81_an_origin_lost_meanwhile_is_no_longer_friendly() -> None:
    s = land_attack([("cavalry", "thornbrake")], [6, 6], {"thornbrake": "elves"})
    assert s.battle is not None
    s.owner[idx(s, "thornbrake")] = F("humans")  # as if taken from under the attacker
    assert attacker_retreats(s, s.battle) == []


def sea_attack(dice: list[int]) -> Any:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "pieces": [{"faction": "elves", "kind": "ship", "at": "glimmer_bay"},
                             {"faction": "humans", "kind": "ship", "at": "verdant_deep"}]},
                 rig={"dice": dice})
    play(s, "move glimmer_bay verdant_deep ship", "done", "fight verdant_deep")
    return s


def test_K81_attacking_ships_retreat_only_to_the_sea_zone_they_came_from() -> None:
    s = sea_attack([6, 6])
    assert "stand" in texts(s)  # the defending ship may retreat anywhere free (A24)
    assert "retreat pale_deep" in texts(s)
    play(s, "stand")
    assert s.battle is not None
    assert s.battle.stage == "att_choice"
    # pale_deep, leafsound, the central seas ... are free and adjacent, but the ship came from glimmer_bay
    assert texts(s) == ["press", "retreat glimmer_bay"]
    play(s, "retreat glimmer_bay")
    assert kinds_at(s, "glimmer_bay", "elves") == ["ship"]


def test_K81_the_sea_zone_must_have_been_friendly_at_the_start_of_the_turn() -> None:
    s = sea_attack([6, 6])
    play(s, "stand")
    assert s.battle is not None
    assert idx(s, "glimmer_bay") in s.start_seas
    assert attacker_retreats(s, s.battle) == [idx(s, "glimmer_bay")]
    # the engine's own moves cannot leave from a zone hostile at the start of the turn (a ship
    # stops on entering one), so the record is edited to check the clause itself
    s.start_seas.remove(idx(s, "glimmer_bay"))
    assert attacker_retreats(s, s.battle) == []


def test_K81_a_ship_that_moved_two_zones_retreats_to_a_zone_on_its_way() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "pieces": [{"faction": "elves", "kind": "ship", "at": "glimmer_bay"},
                             {"faction": "humans", "kind": "ship", "at": "pale_deep"}]},
                 rig={"dice": [6, 6]})
    play(s, "move glimmer_bay pale_deep ship", "done", "fight pale_deep", "stand")
    # glimmer_bay -> verdant_deep -> pale_deep is the only two-zone way
    assert texts(s) == ["press", "retreat verdant_deep"]


def test_K81_A26_land_units_that_came_from_the_sea_cannot_retreat() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "owner": {"amberford": "humans", "thornbrake": "elves"},
                  "pieces": [{"faction": "elves", "kind": "ship", "at": "leafsound"},
                             {"faction": "elves", "kind": "cavalry", "at": "leafsound", "aboard": True},
                             {"faction": "humans", "kind": "infantry", "at": "amberford"}]},
                 rig={"dice": [6, 6, 1]})
    play(s, "move leafsound amberford cavalry", "done", "fight amberford")
    # round 1 misses on both sides; no space to retreat to, so round 2 follows by itself and wins
    assert s.battle is None
    assert not any(e.kind == "retreat" for e in s.events)
    assert s.owner[idx(s, "amberford")] == F("elves")


def test_K81_A26_air_units_stay_when_the_attack_breaks_off_and_land_in_phase_4() -> None:
    s = land_attack([("cavalry", "thornbrake"), ("griffin", "thornbrake")], [6, 6, 6],
                    {"thornbrake": "elves"})
    assert texts(s) == ["press", "retreat thornbrake"]
    play(s, "retreat thornbrake")
    assert kinds_at(s, "amberford", "elves") == ["griffin"]
    assert s.phase == "noncombat"
    assert "move amberford thornbrake griffin" in texts(s)


def test_K81_A26_attacking_air_units_alone_withdraw_anywhere_they_can_land() -> None:
    s = land_attack([("griffin", "thornbrake")], [6, 6], {"thornbrake": "elves"})
    assert texts(s) == ["press", "withdraw"]
    play(s, "withdraw")
    assert s.phase == "noncombat"
    assert "move amberford thornbrake griffin" in texts(s)


def test_A24_a_defender_retreats_to_any_adjacent_own_territory_free_of_others() -> None:
    s = land_attack([("cavalry", "thornbrake")], [6], {"thornbrake": "elves", "northgate": "humans",
                                                       "starwater": "humans"})
    assert s.battle is not None
    assert s.battle.stage == "def_choice"
    assert sorted(texts(s)) == ["retreat northgate", "retreat starwater", "stand"]
