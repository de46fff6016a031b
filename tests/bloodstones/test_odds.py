"""Exact battle odds (`bloodforge odds bloodstones`, `Game.battle_odds`) against the rules.

Action: Battle: three or four Battle tiles drawn from 2,2,3,3,4,4,5,5, the top three plus
modifiers, a tie fought again unless defending Shields win it. The calculator reads the same
exported queries the rules use; a seeded Monte-Carlo of the rules themselves (whole battles
played by the engine) must agree within three standard errors.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from typer.testing import CliRunner

import bloodforge
from bloodforge.cli.main import app
from bloodforge.core import ParameterError, Rng
from bloodforge.games.bloodstones.game import BloodstonesGame, BloodstonesState
from bloodforge.games.bloodstones.queries import attack_win_probability, fight_odds, top_sum_distribution

from .helpers import make

AREA_BY_TERRAIN = {"plains": 22, "hills": 12, "forest": 1}


def _game() -> BloodstonesGame:
    game = bloodforge.load_game("bloodstones", players=4)
    assert isinstance(game, BloodstonesGame)
    return game


def _force(faction: str, units: dict[str, int]) -> str:
    return f"{faction}: " + ", ".join(f"{n} {u}" for u, n in units.items())


def _monte_carlo(factions: list[str], att: dict[str, int], dfn: dict[str, int], terrain: str,
                 battles: int) -> float:
    """Share of whole battles (the engine's rules, fresh tiles each time) the attacker wins."""
    area = AREA_BY_TERRAIN[terrain]
    base = make(factions, units=[(area, 0, att), (area, 1, dfn)], hands=[{}, {}])
    wins = 0
    for i in range(battles):
        st = base.clone()
        st.rng = Rng(10_000 + i)
        st.apply(f"battle {area} 1")
        while st.battle is not None and st.battle.winner is None:
            st.apply("stay" if st.battle.step == "withdraw" else "keep")
        wins += _attacker_won(st)
    return wins / battles


def _attacker_won(st: BloodstonesState) -> int:
    return int(st.vp[0] > st.vp[1])


CASES = [
    # horse lords' cavalry on the plains (+1 each) against defending shields (who win ties)
    (["horse_lords", "dragon_riders"], {"cavalry": 2, "swords": 1}, {"shields": 1, "swords": 1}, "plains"),
    # even forces without shields: ties are fought again
    (["hill_folk", "necromancers"], {"swords": 2}, {"swords": 1, "skirmishers": 1}, "hills"),
    # a giant draws four tiles; skirmishers count in the forest
    (["hill_folk", "horse_lords"], {"giant": 1}, {"skirmishers": 2, "swords": 1}, "forest"),
]


@pytest.mark.parametrize(("factions", "att", "dfn", "terrain"), CASES)
def test_action_battle_odds_agree_with_seeded_monte_carlo(
    factions: list[str], att: dict[str, int], dfn: dict[str, int], terrain: str
) -> None:
    odds = _game().battle_odds(_force(factions[0], att), _force(factions[1], dfn), {"terrain": terrain})
    n = 2500
    seen = _monte_carlo(factions, att, dfn, terrain, n)
    se = math.sqrt(odds["win"] * (1 - odds["win"]) / n)
    assert abs(seen - odds["win"]) <= 3 * se, (seen, odds["win"], se)
    assert odds["win"] + odds["lose"] + odds["draw"] == pytest.approx(1.0)


def test_action_battle_even_forces_are_even_exactly() -> None:
    """Same tiles drawn, no modifiers, ties fought again: one half, exactly."""
    odds = _game().battle_odds("hill_folk: 2 resources", "horse_lords: 2 resources", {})
    assert odds["win_exact"] == "1/2"
    assert odds["attacker"]["tiles"] == odds["defender"]["tiles"] == 3
    assert odds["defender"]["wins_ties"] is False


def test_action_battle_three_tile_totals_pinned() -> None:
    """Three tiles from 2,2,3,3,4,4,5,5: 56 draws; the best total, 14, needs both 5s and one of
    the two 4s (2 of 56), the least, 7, both 2s and one of the two 3s (2 of 56)."""
    dist = top_sum_distribution((2, 2, 3, 3, 4, 4, 5, 5), 3, 3)
    assert sum(dist.values()) == 1
    assert dist[14] * 56 == 2
    assert dist[7] * 56 == 2
    assert max(dist) == 14


def test_action_battle_four_tiles_beat_three_more_often() -> None:
    """The larger force draws four tiles and keeps the best three."""
    odds = _game().battle_odds("hill_folk: 3 resources", "horse_lords: 2 resources", {})
    assert odds["attacker"]["tiles"] == 4
    assert odds["defender"]["tiles"] == 3
    assert odds["win"] > 0.5


def test_action_battle_defending_shields_win_ties() -> None:
    odds = _game().battle_odds("hill_folk: resources", "horse_lords: shields", {})
    win, lose, tie = fight_odds((2, 2, 3, 3, 4, 4, 5, 5), 3, 3, 0, 3, 1)
    assert odds["defender"]["wins_ties"] is True
    assert odds["win"] == pytest.approx(float(win))
    assert odds["lose"] == pytest.approx(float(lose + tie))


def test_action_battle_substitute_raises_the_odds_in_the_first_fight_only() -> None:
    game = _game()
    plain = game.battle_odds("hill_folk: 2 swords", "horse_lords: 2 swords", {})
    sub = game.battle_odds("hill_folk: 2 swords", "horse_lords: 2 swords", {"attacker_substitute": "5"})
    assert sub["first_fight"]["win"] > plain["first_fight"]["win"]
    assert sub["win"] > plain["win"]


def test_action_battle_odds_match_the_policy_query() -> None:
    """The heuristic's odds and the calculator's are one computation."""
    game = _game()
    facts = game.static_info()
    att, dfn = {"cavalry": 2, "swords": 1}, {"shields": 1, "swords": 1}
    odds = game.battle_odds(_force("horse_lords", att), _force("dragon_riders", dfn), {"terrain": "plains"})
    policy_view = attack_win_probability(facts, "horse_lords", att, "dragon_riders", dfn, "plains")
    assert odds["win"] == pytest.approx(policy_view)


@pytest.mark.parametrize(
    ("attacker", "defender", "options", "message"),
    [
        ("elves: 2 swords", "hill_folk: swords", {}, "unknown faction 'elves'"),
        ("hill_folk 2 swords", "hill_folk: swords", {}, "expected 'FACTION: UNITS'"),
        ("hill_folk: 2 dragons", "hill_folk: swords", {}, "hill_folk has no unit 'dragons'"),
        ("hill_folk: 0 swords", "hill_folk: swords", {}, "count of at least 1"),
        ("hill_folk: two swords", "hill_folk: swords", {}, "is not '[COUNT] UNIT'"),
        ("hill_folk: ", "hill_folk: swords", {}, "at least one unit"),
        ("hill_folk: swords", "hill_folk: swords", {"terrain": "swamp"}, "terrain='swamp'"),
        ("hill_folk: swords", "hill_folk: swords", {"weather": "rain"}, "unknown option(s) ['weather']"),
        ("hill_folk: swords", "hill_folk: swords", {"attacker_substitute": "x"}, "pips of a hand tile"),
    ],
)
def test_odds_bad_input_names_the_problem(attacker: str, defender: str, options: dict[str, str], message: str) -> None:
    with pytest.raises(ParameterError) as err:
        _game().battle_odds(attacker, defender, options)
    assert message in str(err.value)


def test_cli_odds_bloodstones_json_and_table() -> None:
    runner = CliRunner()
    args = ["odds", "bloodstones", "--attacker", "horse_lords: 2 cavalry, swords",
            "--defender", "dragon_riders: shields, swords", "--option", "terrain=plains"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    assert data["attacker"]["modifier"] == 3  # two cavalry on the plains, one swords
    assert data["defender"]["modifier"] == 2  # shields defending, swords
    assert 0 < data["win"] < 1
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "attacker wins" in table.output
    bad = runner.invoke(app, ["odds", "bloodstones", "--attacker", "elves: swords", "--defender", "hill_folk: swords"])
    assert bad.exit_code != 0
    assert "unknown faction" in bad.output
