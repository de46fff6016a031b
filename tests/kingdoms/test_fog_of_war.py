# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Fog of war (K57-K60, A32-A36) and hidden information: observations, logs, resampling."""

from __future__ import annotations

import json

from bloodforge.core import Rng

from .helpers import fresh, play, scenario


def kinds_seen(s, seat: int, space: str, faction: str) -> list[str | None]:  # type: ignore[no-untyped-def]
    return sorted((p["kind"] for p in s.observation(seat)["pieces"] if p["at"] == space and p["faction"] == faction),
                  key=str)


def test_K57_A32_pieces_far_from_enemies_show_only_owner_and_count() -> None:
    s = fresh()
    assert kinds_seen(s, 1, "sylvanhold", "elves") == [None, None, None]
    assert kinds_seen(s, 0, "sylvanhold", "elves") == ["cavalry", "infantry", "infantry"]
    assert kinds_seen(s, None, "sylvanhold", "elves") == [None, None, None]  # type: ignore[arg-type]


def test_K58_K60_stacks_next_to_enemy_units_turn_face_up_for_everyone_bridges_included() -> None:
    s = scenario({"active": "elves", "owner": {"amberford": "elves", "northgate": "humans"},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "amberford"},
                             {"faction": "humans", "kind": "infantry", "at": "northgate"}]})
    for seat in (0, 1, 2, 3):
        assert kinds_seen(s, seat, "amberford", "elves") == ["cavalry"]
        assert kinds_seen(s, seat, "northgate", "humans") == ["infantry"]


def test_K59_next_to_an_empty_enemy_territory_nothing_is_revealed() -> None:
    s = scenario({"active": "elves", "owner": {"amberford": "elves", "northgate": "humans"},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "amberford"}]})
    assert kinds_seen(s, 1, "amberford", "elves") == [None]


def test_A36_a_seat_remembers_a_piece_it_saw_face_up() -> None:
    s = scenario({"active": "elves", "phase": "noncombat", "owner": {"amberford": "elves", "northgate": "humans"},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "amberford"},
                             {"faction": "humans", "kind": "infantry", "at": "northgate"}]})
    play(s, "move amberford thornbrake cavalry")
    assert kinds_seen(s, 1, "thornbrake", "elves") == ["cavalry"]


def test_A34_team_mates_see_each_others_pieces() -> None:
    s = fresh(players=4, teams=True)
    assert kinds_seen(s, 2, "sylvanhold", "elves") == ["cavalry", "infantry", "infantry"]
    assert kinds_seen(s, 1, "sylvanhold", "elves") == [None, None, None]
    s = fresh(players=4, teams=True, team_vision=False)
    assert kinds_seen(s, 2, "sylvanhold", "elves") == [None, None, None]


def test_A35_purchases_and_compositions_are_public() -> None:
    s = fresh()
    play(s, "buy cavalry")
    obs = s.observation(2)
    elves = obs["factions"][0]
    assert elves["composition"] == {"infantry": 2, "cavalry": 2}
    assert any(p["at"] == "reserve" and p["kind"] == "cavalry" for p in obs["pieces"])


def test_move_log_lines_hide_the_unit_type_from_other_seats() -> None:
    s = scenario({"active": "elves", "phase": "noncombat"})
    play(s, "move sylvanhold elmwood cavalry")
    assert any("cavalry" in t for t in s.event_log(0))
    assert not any("cavalry" in t and "Elmwood" in t for t in s.event_log(1))
    assert any("move a unit from Sylvanhold to Elmwood" in t for t in s.event_log(1))


def test_K127_K131_cards_in_other_hands_and_the_deck_are_hidden() -> None:
    s = scenario({"active": "elves", "hands": {"humans": ["free_lances"]}})
    assert s.observation(0)["hands"] == {"elves": []}
    assert s.observation(0)["factions"][1]["cards"] == 1
    assert "free_lances" not in json.dumps(s.observation(0))
    assert "free_lances" in json.dumps(s.observation(1))


def test_resample_hidden_keeps_every_observation_and_moves_the_hidden_types() -> None:
    rng = Rng(5)
    s = fresh(seed=3)
    changed = 0
    for step in range(1500):
        if s.is_terminal():
            break
        if step % 50 == 0:
            for seat in range(4):
                obs = s.observation(seat)
                for k in range(3):
                    r = s.resample_hidden(seat, Rng(step * 10 + k))
                    assert r.observation(seat) == obs
                    assert r.legal_actions(seat) == s.legal_actions(seat)
                    if any(p.kind != s.pieces[p.id].kind for p in r.pieces.values()) or r.hands != s.hands:
                        changed += 1
        seat = s.actors()[0]
        s.apply(rng.choice(s.legal_actions(seat)), seat)
    assert changed > 0


def test_resample_respects_air_units_seen_flying() -> None:
    s = scenario({"active": "elves", "phase": "noncombat", "clear_units": True,
                  "pieces": [{"faction": "elves", "kind": "griffin", "at": "elmwood"},
                             {"faction": "elves", "kind": "infantry", "at": "elmwood", "count": 3}]})
    play(s, "move elmwood thornbrake griffin")
    flyer = next(p.id for p in s.pieces.values() if p.kind == "griffin")
    for k in range(20):
        r = s.resample_hidden(1, Rng(k))
        assert r.pieces[flyer].kind == "griffin"


def test_spec_4_3_a_piece_seen_flying_four_spaces_can_only_be_a_dragon() -> None:
    s = scenario({"active": "elves", "phase": "noncombat", "clear_units": True,
                  "owner": {"amberford": "elves"},
                  "pieces": [{"faction": "elves", "kind": "dragon", "at": "elmwood"},
                             {"faction": "elves", "kind": "griffin", "at": "elmwood"},
                             {"faction": "elves", "kind": "infantry", "at": "elmwood", "count": 2}]})
    play(s, "move elmwood amberford dragon")  # elmwood-fernvale-thornbrake-amberford: three spaces
    dragon = next(p.id for p in s.pieces.values() if p.kind == "dragon")
    assert s.flown[dragon] == 3
    for k in range(20):
        kind = s.resample_hidden(1, Rng(k)).pieces[dragon].kind
        assert kind in ("griffin", "dragon")
    s.flown[dragon] = 4  # as if seen covering four spaces
    for k in range(20):
        assert s.resample_hidden(1, Rng(k)).pieces[dragon].kind == "dragon"
