
"""Exact battle odds (spec section 6): closed forms, engine Monte-Carlo agreement, the CLI."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from typer.testing import CliRunner

import bloodforge
from bloodforge.cli.main import app
from bloodforge.core import ParameterError, Rng
from bloodforge.games.kingdoms import KingdomsState
from bloodforge.games.kingdoms.content import load_content
from bloodforge.games.kingdoms.queries.odds import battle_odds, loss_order, parse_force

from .helpers import scenario

UNITS = load_content(None, None, None).units.units
CARDS = load_content(None, None, None).cards


def test_one_infantry_against_one_infantry_matches_the_closed_form() -> None:
    r = battle_odds(UNITS, ["infantry"], ["infantry"])
    # per round: attacker hits 1/6, defender 2/6; no-hit rounds are divided out
    assert r["win"] == pytest.approx((1 / 6 * 4 / 6) / (1 - 5 / 6 * 4 / 6))
    assert r["lose"] == pytest.approx((5 / 6 * 2 / 6) / (1 - 5 / 6 * 4 / 6))
    assert r["draw"] == pytest.approx((1 / 6 * 2 / 6) / (1 - 5 / 6 * 4 / 6))
    assert r["win"] + r["lose"] + r["draw"] == pytest.approx(1.0)


def test_distributions_sum_to_one_and_hits_beyond_the_units_present_are_wasted() -> None:
    r = battle_odds(UNITS, ["dragon"] * 4 + ["cavalry"] * 6, ["infantry"] * 2 + ["castle"])
    assert sum(r["attacker_survivors"]) == pytest.approx(1.0)
    assert sum(r["defender_survivors"]) == pytest.approx(1.0)
    assert r["capture"] == pytest.approx(r["win"])  # a land unit is always kept to the last


def test_air_only_attackers_win_but_never_capture() -> None:
    r = battle_odds(UNITS, ["griffin", "dragon"], ["infantry"])
    assert r["win"] > 0.5
    assert r["capture"] == 0.0


def test_twenty_against_twenty_is_exact_and_symmetric_enough() -> None:
    r = battle_odds(UNITS, ["cavalry"] * 20, ["cavalry"] * 20)
    assert r["win"] + r["lose"] + r["draw"] == pytest.approx(1.0)
    assert abs(r["win"] - r["lose"]) < 1e-9  # same values both ways: attacker and defender mirror


def test_mercenary_options_move_the_odds_the_right_way() -> None:
    base = battle_odds(UNITS, ["cavalry"] * 2, ["infantry"] * 3)["win"]
    for card in ("sellswords", "free_lances", "master_archers", "battle_mage"):
        assert battle_odds(UNITS, ["cavalry"] * 2, ["infantry"] * 3, att_card=CARDS[card])["win"] > base
    assert battle_odds(UNITS, ["cavalry"] * 2, ["infantry"] * 3, def_card=CARDS["shieldbearers"])["win"] < base
    fort = battle_odds(UNITS, ["cavalry"] * 3, ["castle"])["win"]
    assert battle_odds(UNITS, ["cavalry"] * 3, ["castle"], att_card=CARDS["siege_engineers"])["win"] == 1.0 > fort


def test_force_parsing_names_the_bad_word() -> None:
    assert parse_force("3 infantry, 2 knight, griffan") == ["infantry"] * 3 + ["cavalry"] * 2 + ["griffin"]
    with pytest.raises(ParameterError, match="wizard"):
        parse_force("2 wizard")


def _engine_battle(base: KingdomsState, seed: int) -> tuple[int, int]:
    """One battle fought by the real engine; both sides take casualties in the calculator's order."""
    s = base.clone()
    s.rng = Rng(seed)
    s.apply("fight amberford", 0)
    while s.battle is not None:
        seat = s.actors()[0]
        legal = [str(a) for a in s.legal_actions(seat)]
        if legal[0].startswith("hit"):
            side = 0 if s.battle.stage in ("att_hits", "mage_att") else 1
            f = s.battle.att if side == 0 else s.battle.dfn
            force = [p.kind for p in s.pieces.values() if p.at == s.battle.space and p.faction == f]
            if side == 1:
                force += [w for w in ("castle",) if f"hit {w}" in legal]
            order = loss_order(UNITS, force, side, keep_land=side == 0)
            s.apply(next(f"hit {k}" for k in order if f"hit {k}" in legal), seat)
        elif "press" in legal:
            s.apply("press", seat)
        else:
            s.apply("stand", seat)
    i = amberford = s.content.index["amberford"]
    att = sum(1 for p in s.pieces.values() if p.at == i and p.faction == 0)
    dfn = sum(1 for p in s.pieces.values() if p.at == amberford and p.faction == 1)
    dfn += int(s.castle[i] and s.owner[i] == 1 and att == 0)
    return att, dfn


def test_exact_odds_agree_with_the_engine_monte_carlo_within_three_standard_errors() -> None:
    attacker = [("cavalry", 2), ("infantry", 2)]
    defender = [("infantry", 3)]
    pieces: list[dict[str, Any]] = [{"faction": "elves", "kind": k, "at": "amberford", "count": n} for k, n in attacker]
    pieces += [{"faction": "humans", "kind": k, "at": "amberford", "count": n} for k, n in defender]
    base = scenario({"active": "elves", "phase": "combat", "clear_units": True, "owner": {"amberford": "humans"},
                     "pieces": pieces})
    exact = battle_odds(UNITS, ["cavalry"] * 2 + ["infantry"] * 2, ["infantry"] * 3)
    n = 6000
    wins = 0
    survivors = [0] * 5
    for k in range(n):
        att, dfn = _engine_battle(base, k)
        wins += att > 0 and dfn == 0
        survivors[att] += 1
    p = exact["win"]
    se = math.sqrt(p * (1 - p) / n)
    assert abs(wins / n - p) < 3 * se
    for m in range(5):
        q = exact["attacker_survivors"][m]
        assert abs(survivors[m] / n - q) < 3 * math.sqrt(q * (1 - q) / n) + 1e-9


def test_cli_odds_prints_json_and_a_table() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["odds", "kingdoms", "--attacker", "3 infantry,2 knight", "--defender",
                              "2 infantry,castle", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert {"win", "lose", "draw", "capture", "attacker_survivors", "defender_survivors"} <= set(data)
    res = runner.invoke(app, ["odds", "kingdoms", "--attacker", "1 dragon", "--defender", "1 ship",
                              "--option", "sea=1", "--option", "attacker_card=master_archers"])
    assert res.exit_code == 0
    assert "attacker wins" in res.output
    res = runner.invoke(app, ["odds", "kingdoms", "--attacker", "1 dragon", "--defender", "1 ship",
                              "--option", "weather=rain"])
    assert res.exit_code != 0
    assert "weather" in res.output


def test_game_battle_odds_hook() -> None:
    game = bloodforge.load_game("kingdoms", players=4)
    r = game.battle_odds("2 cavalry", "1 infantry", {})
    assert r is not None
    assert 0 < r["win"] < 1
    assert "attacker wins" in game.render_odds(r)
