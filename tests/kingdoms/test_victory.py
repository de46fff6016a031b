# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Victory (K29, K133-K137, T17, A37-A40) and the house round limit."""

from __future__ import annotations

from typing import Any

from .helpers import F, economy, fresh, play, scenario

SEVEN = ["starwater", "dawnreach", "crown_isle", "sunspire", "moonspire", "silverkeep"]


def full_round(s: Any) -> None:
    for _ in range(4):
        play(s, "done", "done", "done", "done")


def test_T17_K133_A37_seven_gems_win_only_after_being_held_for_an_entire_round() -> None:
    s = scenario({"active": "elves", "owner": dict.fromkeys(SEVEN, "elves")})
    assert economy(s, "elves")[3] == 7
    play(s, "done", "done", "done", "done")
    assert not s.is_terminal()  # not before the round is over
    for _ in range(3):
        play(s, "done", "done", "done", "done")
    assert not s.is_terminal()
    play(s, "done", "done", "done", "done")
    assert s.is_terminal()
    assert s.returns() == [1.0, 0.0, 0.0, 0.0]
    assert s.outcome() is not None
    assert s.outcome().winners == [0]


def test_T17_A37_losing_a_gem_in_between_breaks_the_hold() -> None:
    s = scenario({"active": "elves", "owner": dict.fromkeys(SEVEN, "elves"),
                  "pieces": [{"faction": "humans", "kind": "cavalry", "at": "coldharbour"}]})
    play(s, "done", "done", "done", "done")
    play(s, "done", "move coldharbour silverkeep cavalry", "done", "fight silverkeep")
    assert economy(s, "elves")[3] == 6
    play(s, "done", "done")
    play(s, "done", "done", "done", "done")
    play(s, "done", "done", "done", "done")
    assert s.active == F("elves")
    play(s, "done", "done", "done", "done")
    assert not s.is_terminal()


def test_K134_K136_A38_a_team_wins_at_once_with_nine_gems_combined() -> None:
    owner = dict.fromkeys(SEVEN[:4], "elves") | dict.fromkeys(["moonspire", "silverkeep"], "dwarves")
    s = scenario({"active": "elves", "owner": owner}, players=2)
    assert economy(s, "elves")[3] + economy(s, "dwarves")[3] == 8
    play(s, "done", "done", "done", "done")
    assert not s.is_terminal()
    s = scenario({"active": "elves", "owner": owner | {"stormwatch": "dwarves"}}, players=2)
    play(s, "done", "done", "done", "done")
    assert s.is_terminal()
    assert s.returns() == [1.0, 0.0]


def test_K135_three_players_the_double_faction_player_faces_a_team_of_two() -> None:
    owner = dict.fromkeys(["starwater", "dawnreach", "crown_isle", "sunspire", "moonspire", "silverkeep"], "humans")
    s = scenario({"active": "humans", "owner": owner | {"stormwatch": "undead"}}, players=3)
    play(s, "done", "done", "done", "done")
    assert s.is_terminal()
    assert s.returns() == [0.0, 0.5, 0.5]


def test_A40_round_limit_most_gems_then_income_wins() -> None:
    s = fresh(max_rounds=1)
    s.owner[s.content.index["crown_isle"]] = F("dwarves")
    full_round(s)
    assert s.is_terminal()
    assert s.returns() == [0.0, 0.0, 1.0, 0.0]


def test_A40_round_limit_ties_are_shared() -> None:
    s = fresh(max_rounds=1)
    full_round(s)
    assert s.returns() == [0.25] * 4
