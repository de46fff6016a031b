"""The lab's statistics of a game (`State.statistics`): they must agree with the final state
and the actions taken, and the log data they read must not reveal a hidden mercenary card."""

from __future__ import annotations

import pytest

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.games.kingdoms import KingdomsState
from bloodforge.games.kingdoms.board import gems
from bloodforge.games.kingdoms.content import FACTIONS
from bloodforge.match import play_match

from .helpers import F, idx, play, scenario, texts


def _total(stats: dict[str, float], prefix: str) -> float:
    return sum(v for k, v in stats.items() if k.startswith(prefix + "."))


def _count(st: KingdomsState, word: str) -> int:
    return sum(1 for a in st.history if a.split()[0] == word)


# seeds chosen so that between them a card is played, Plunder drawn, units disbanded, a
# faction wiped out, both sides retreat and the game ends by a 7-gem hold and a 9-gem team total
@pytest.mark.parametrize(("players", "seed"), [(4, 6), (4, 0), (2, 5)])
def test_statistics_of_a_greedy_game_agree_with_the_final_state_and_the_actions_taken(players: int, seed: int) -> None:
    state = bloodforge.load_game("kingdoms", players=players, seed=seed).new_initial_state()
    st = play_match(state, {s: make_agent("greedy", s, seed=s) for s in range(players)}).state
    assert isinstance(st, KingdomsState)
    stats = st.statistics()
    c = st.content
    assert stats["rounds"] == st.round
    assert stats["factions_eliminated"] == sum(st.out)
    assert [k for k, v in stats.items() if k.startswith("ended_by.") and v] in (
        ["ended_by.gems_held"], ["ended_by.team_gems"], ["ended_by.last_standing"], ["ended_by.round_cap"])
    # crowns: the starting 15, plus what was earned, minus what was spent, is what is left
    for f, faction in enumerate(FACTIONS):
        assert c.units.start.crowns + stats[f"crowns_earned.{faction}"] - stats[f"crowns_spent.{faction}"] \
            == st.treasury[f], faction
        assert stats[f"gems.{faction}"] == gems(st, f)
    # purchases: one per `buy` action, by type and by faction; every piece ever made is a
    # starting unit, a purchase or a unit a mercenary card brought into a battle
    assert _total(stats, "bought") == _total(stats, "units_bought") == _count(st, "buy") > 0
    for kind in c.units.units:
        assert stats.get(f"bought.{kind}", 0) == sum(1 for a in st.history if a == f"buy {kind}")
    hired_units = sum(n * (c.cards[card].add_infantry + c.cards[card].add_cavalry)
                      for card, n in ((k.split(".")[1], v) for k, v in stats.items() if k.startswith("cards_played.")))
    assert st.next_id - 1 == 4 * sum(c.units.start.units.values()) + _total(stats, "bought") + hired_units
    # mercenary cards: each one hired is still in a hand or was played (instant ones when drawn)
    assert _total(stats, "cards_hired") == _count(st, "hire") == sum(map(len, st.hands)) + _total(stats, "cards_played")
    # battles: every `fight` is a battle with dice or a capture without; each battle with dice
    # is won by one side or destroys both
    assert stats["battles"] + stats["unopposed_captures"] == _count(st, "fight")
    assert stats["battles"] > 0
    assert _total(stats, "battles_won") + stats["battles_both_destroyed"] == stats["battles"]
    assert stats["attacker_wins"] <= _total(stats, "battles_won")
    assert stats["battle_rounds"] >= stats["battles"]
    assert stats["attacker_retreats"] + stats["defender_retreats"] == _count(st, "retreat") + _count(st, "withdraw")
    assert _total(stats, "territories_taken") >= stats["unopposed_captures"]
    assert stats["units_disbanded"] == _count(st, "disband")


def test_statistics_count_mercenary_hires_plays_and_plunder_but_the_log_data_hides_a_held_card() -> None:
    s = scenario({"active": "elves", "phase": "purchase", "clear_units": True, "owner": {"amberford": "humans"},
                  "treasury": {"elves": 30},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 1},
                             {"faction": "humans", "kind": "infantry", "at": "amberford", "count": 1}]},
                 rig={"draws": ["sellswords", "plunder"], "dice": [1, 6, 6, 6]})
    play(s, "hire", "hire")
    humans = s.seat_factions.index([F("humans")])
    hire = [v for v in s.events.views_for(humans) if v.get("kind") == "merc"]
    # the held card's hire reaches the Humans as its masked face, without data (core.log)
    assert hire[0] == {"text": "Elves buy a mercenary card", "kind": "merc"}
    assert hire[1]["data"]["card"] == "plunder"  # Plunder is instant and public
    play(s, "done", "move thornbrake amberford cavalry", "done", "fight amberford")
    assert not any("sellswords" in str(v) for v in s.events.views_for(humans))
    assert texts(s) == ["merc sellswords", "nomerc"]
    play(s, "merc sellswords")
    # two hired infantry and the cavalry roll 1, 6, 6: one hit; the defender misses with a 6
    assert s.battle is None
    assert s.owner[idx(s, "amberford")] == F("elves")
    stats = s.statistics()
    assert stats["cards_hired.elves"] == 2
    assert stats["crowns_spent.elves"] == 30
    assert stats["crowns_earned.elves"] == 10
    assert stats["cards_played.sellswords"] == stats["cards_played.plunder"] == 1
    assert stats["battles"] == stats["attacker_wins"] == stats["battles_won.elves"] == stats["battle_rounds"] == 1
    assert stats["territories_taken.elves"] == 1
    assert stats["unopposed_captures"] == 0
    assert s.treasury[F("elves")] == 30 - 30 + 10
