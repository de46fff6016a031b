# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""The board and the public tracks: K3, K5-K7, K9, K24, K41, K104, K137."""

from __future__ import annotations

import bloodforge

from .helpers import F, economy, fresh, idx, play, scenario, texts


def test_K3_units_move_only_between_adjacent_spaces() -> None:
    s = scenario({"active": "elves", "phase": "noncombat"})
    dest = {t.split()[2] for t in texts(s) if t.startswith("move sylvanhold ") and t.endswith(" infantry")}
    adj = {s.content.ids[n] for n in s.content.adj[idx(s, "sylvanhold")]}
    assert dest
    assert dest <= adj


def test_K6_capitals_lie_in_their_corners_and_are_worth_8() -> None:
    info = bloodforge.load_game("kingdoms", players=4).static_info()
    areas = {a["id"]: a for a in info["board"]["areas"]}
    corners = {"elves": (False, False), "humans": (True, False), "dwarves": (True, True), "undead": (False, True)}
    for faction, cap in info["capitals"].items():
        a = areas[cap]
        assert (a["x"] > 0.5, a["y"] > 0.5) == corners[faction]
        assert a["value"] == 8
        assert a["capital"]
        assert a["gem"]
    assert all("x" in a and "y" in a for a in info["board"]["areas"])


def test_K7_territories_outside_the_home_regions_start_neutral() -> None:
    s = fresh()
    c = s.content
    homes = {t for h in c.home for t in h}
    for t in range(len(c.ids)):
        if not c.is_sea[t] and t not in homes:
            assert s.owner[t] == -1


def test_K9_K24_the_tracks_are_public_to_every_seat_and_the_spectator() -> None:
    s = fresh()
    play(s, "buy infantry")
    views = [s.observation(seat)["factions"] for seat in (None, 0, 1, 2, 3)]
    assert all(v == views[0] for v in views)
    assert views[0][0]["treasury"] == 11
    assert views[0][0]["supply"] == 4


def test_K5_K104_K137_a_capture_moves_income_and_gems_of_both_sides() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "owner": {"starwater": "humans"},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake"}]})
    before_e, before_h = economy(s, "elves"), economy(s, "humans")
    play(s, "move thornbrake starwater cavalry", "done", "fight starwater")
    after_e, after_h = economy(s, "elves"), economy(s, "humans")
    assert after_e[1] - before_e[1] == 4
    assert before_h[1] - after_h[1] == 4
    assert after_e[3] - before_e[3] == 1
    assert before_h[3] - after_h[3] == 1
    assert s.owner[idx(s, "starwater")] == F("elves")


def test_K41_units_from_several_spaces_may_converge_on_one_target() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake"},
                             {"faction": "elves", "kind": "infantry", "at": "brightleaf"}]})
    play(s, "move thornbrake starwater cavalry", "move brightleaf starwater infantry")
    assert sorted(p.kind for p in s.pieces.values() if p.at == idx(s, "starwater")) == ["cavalry", "infantry"]
