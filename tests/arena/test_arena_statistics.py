"""The lab's numbers about a match (`ArenaState.statistics`): they are read from the log's data,
so each test checks them against what the final position holds or what a scripted blow dealt."""

from __future__ import annotations

from typing import Any

import pytest
from arena_helpers import pool, scenario

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.games.arena.game import ArenaState
from bloodforge.match import play_match


def greedy_match(players: int, seed: int, **params: Any) -> ArenaState:
    state = bloodforge.load_game("arena", players=players, seed=seed, **params).new_initial_state()
    result = play_match(state, {s: make_agent("greedy", s, seed=s) for s in range(players)})
    assert isinstance(result.state, ArenaState)
    assert result.state.is_terminal()
    return result.state


MATCHES = [
    pytest.param(1, 3, {}, id="solo-malvarra"),
    pytest.param(1, 5, {"boss": "grevvar"}, id="solo-grevvar"),
    pytest.param(3, 1, {}, id="ffa3-malvarra"),
    pytest.param(4, 2, {"mode": "team", "boss": None}, id="team2v2"),
]


@pytest.mark.parametrize(("players", "seed", "params"), MATCHES)
def test_the_statistics_account_for_every_hit_point(players: int, seed: int, params: dict[str, Any]) -> None:
    """Every combatant's final HP is its maximum minus the damage it took plus what it healed;
    the damage dealt by each figure, to itself and by the arena add up to all damage dealt."""
    st = greedy_match(players, seed, **params)
    stats = st.statistics()
    fighters = [u for u in st.board.units.values() if u.is_combatant]
    assert stats["damage"] > 0
    for u in fighters:
        assert u.max_hp is not None
        assert u.hp is not None
        assert u.max_hp - stats[f"damage_taken.{u.uid}"] + stats[f"healed.{u.uid}"] == u.hp, u.uid
    dealt = sum(stats[f"damage_dealt.{u.uid}"] for u in fighters)
    assert dealt + stats["damage_self"] + stats["damage_arena"] == stats["damage"]
    taken = sum(stats[f"damage_taken.{u.uid}"] for u in fighters)
    assert taken <= stats["damage"]  # the rest hit minions
    assert stats["damage_collision"] + stats["damage_hazard"] <= stats["damage"]


@pytest.mark.parametrize(("players", "seed", "params"), MATCHES)
def test_the_statistics_count_the_fallen_and_the_winners_as_the_board_holds_them(
        players: int, seed: int, params: dict[str, Any]) -> None:
    st = greedy_match(players, seed, **params)
    stats = st.statistics()
    b = st.board
    fighters = [u for u in b.units.values() if u.is_combatant]
    assert stats["rounds"] == b.round
    assert stats["knockouts"] == len(b.eliminated)
    assert sum(stats[f"knockouts.{u.uid}"] for u in fighters) <= stats["knockouts"]
    for u in fighters:
        assert stats[f"defeated.{u.uid}"] == (u.uid in b.eliminated) == (not u.alive)
        assert stats[f"won.{u.uid}"] == (u.side in b.winners)
    assert stats["players_won"] == (not st.npc_won())
    assert stats["boss_won"] == any(u.kind == "boss" and u.side in b.winners for u in fighters)
    assert stats["round_limit"] == 0.0
    attacks = sum(stats[f"attacks_{c}"] for c in ("singles", "doubles", "triples"))
    assert attacks == sum(stats.get(f"attacks_{c}.{u.uid}", 0.0) for c in ("singles", "doubles", "triples")
                          for u in fighters)
    assert attacks > 0


def test_the_statistics_count_grevvars_rot_cards_and_risen() -> None:
    """Rot cards dealt match the Rot deck's face-up discards (one reshuffle per 15 cards dealt);
    Risen destroyed never outnumber those raised (they start off the board)."""
    st = greedy_match(1, 5, boss="grevvar")
    stats = st.statistics()
    dealt = stats["rot_cards"]
    assert dealt > 0
    assert dealt == sum(v for k, v in stats.items() if k.startswith("rot_received."))  # Vhrak and the Rival
    assert len(st.board.decks["rot:grevvar"].discards) == (dealt - 1) % 15 + 1
    assert stats["minions_spawned"] > 0
    assert stats["minions_destroyed"] <= stats["minions_spawned"]


def test_the_statistics_say_when_the_round_limit_ended_the_match() -> None:
    st = greedy_match(2, 2, max_rounds=2, boss="terror")
    stats = st.statistics()
    assert stats["round_limit"] == 1.0
    assert stats["rounds"] == 2.0
    assert stats["knockouts"] == 0.0
    assert stats["boss_won"] == 1.0  # the Terror keeps the most HP
    assert stats["players_won"] == 0.0


def test_the_statistics_credit_an_attack_and_its_collision_to_the_pusher() -> None:
    """A49: Vhrak's Unleashed Fury (23) pushes Ulwazi (29 HP) into Lienne (4 HP); one collision
    roll of 6 hurts both and fells both: two knock-outs and 35 damage for Vhrak."""
    params = {"players": 3, "champions": ["vhrak", "ulwazi", "lienne"], "boss": None}
    pos = {"units": [{"id": "vhrak", "hex": "0,0", "pool": pool(5, 5, 5, 4)}, {"id": "ulwazi", "hex": "1,0", "hp": 29},
                     {"id": "lienne", "hex": "2,0", "hp": 4}],
           "order": ["vhrak", "ulwazi", "lienne"], "active": "vhrak", "tiles": []}
    st = scenario(params, pos, {"d6": [6]})
    st.apply("attack unleashed_fury", 0)
    st.apply("target ulwazi", 0)
    st.apply("choose 2,0", 0)
    stats = st.statistics()
    assert stats["attacks_triples"] == stats["attacks_triples.vhrak"] == 1.0
    assert stats["attacks_singles"] == stats["attacks_doubles"] == 0.0
    assert stats["damage_taken.ulwazi"] == 23 + 6
    assert stats["damage_taken.lienne"] == 6
    assert stats["damage_dealt.vhrak"] == 23 + 6 + 6
    assert stats["collisions"] == 1.0
    assert stats["damage_collision"] == 12.0
    assert stats.get("pushes", 0.0) == 0.0  # the only step of the Push was the collision
    assert stats["knockouts"] == stats["knockouts.vhrak"] == 2.0
    assert stats["defeated.ulwazi"] == stats["defeated.lienne"] == 1.0
    assert stats["won.vhrak"] == stats["players_won"] == 1.0
    assert stats["damage_taken.vhrak"] == stats["defeated.vhrak"] == 0.0


def test_the_statistics_count_pacts_and_ultimates_per_champion() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "rivals": ["lienne"]}
    units = [{"id": "vhrak", "hex": "0,0", "energy": 30, "pool": pool(1, 2, 3, 1)}, {"id": "ulwazi", "hex": "1,0"},
             {"id": "lienne", "hex": "-4,4"}]
    st = scenario(params, {"units": units, "order": ["vhrak", "ulwazi", "lienne"], "active": "vhrak",
                           "rolled": True, "tiles": []})
    st.apply("pact blood_frenzy", 0)
    st.apply("invoke 3", 0)
    stats = st.statistics()
    assert stats["pacts"] == stats["pacts.vhrak"] == 1.0
    assert stats["ultimates"] == stats["ultimates.vhrak"] == 1.0
    assert "pacts.ulwazi" not in stats


@pytest.mark.parametrize(("players", "seed", "params"), [MATCHES[2], MATCHES[3]])
def test_the_statistics_facts_are_never_secret(players: int, seed: int, params: dict[str, Any]) -> None:
    """Data is read under the text's visibility (and a masked event's data by everyone), so
    only public events may carry facts: the Initiative picks stay without data."""
    st = greedy_match(players, seed, **params)
    with_data = [e for e in st.events if e.data]
    assert with_data
    assert all(e.visible is None and e.masked is None for e in with_data)
    assert any(e.kind == "pick" and e.masked is not None for e in st.events)
