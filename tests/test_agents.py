"""Agents: reproducible, legal, and the greedy one clearly better than chance."""

from __future__ import annotations

import pytest

import bloodforge
from bloodforge.agents import agent_names, make_agent
from bloodforge.agents.greedy import GreedyAgent
from bloodforge.lab.selfplay import expand_agent_names, play_game


def test_builtin_agents_are_registered() -> None:
    assert {"random", "greedy", "heuristic"} <= set(agent_names())


def test_unknown_agent_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="random"):
        make_agent("alphazero", seat=0)


def test_strength_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="strength"):
        make_agent("greedy", seat=0, strength=0)


@pytest.mark.parametrize("blunder", [-0.1, 1.5, "often"])
def test_a_blunder_share_outside_0_to_1_is_refused(blunder: object) -> None:
    with pytest.raises(ValueError, match="blunder"):
        make_agent("greedy", seat=0, blunder=blunder)


def test_blunder_sets_the_share_of_random_moves_and_overrides_strength() -> None:
    """The levels ladder's bridge rung: blunder=1 plays exactly like the random agent's choice
    among non-cancel actions, blunder=0 exactly like greedy 10, whatever `strength` says."""
    game = bloodforge.load_game("bloodstones", players=2, seed=4)
    greedy10, _ = play_game(game, ["greedy"], agent_seed=2)
    never, _ = play_game(game, ["greedy"], agent_seed=2, agent_options={"strength": 1, "blunder": 0})
    assert never.moves == greedy10.moves
    always, _ = play_game(game, ["greedy"], agent_seed=2, agent_options={"blunder": "1"})
    assert always.moves != greedy10.moves
    weak = make_agent("greedy", seat=0, strength=1)
    assert isinstance(weak, GreedyAgent)
    assert weak.blunder == 0.5


def test_agent_names_expand_to_seats() -> None:
    assert expand_agent_names(["greedy"], 3) == ["greedy"] * 3
    assert expand_agent_names(["greedy,random"], 2) == ["greedy", "random"]
    with pytest.raises(ValueError, match="one agent per seat"):
        expand_agent_names(["greedy,random"], 3)


@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_agents_are_reproducible(agent: str) -> None:
    game = bloodforge.load_game("bloodstones", players=2, seed=5)
    a, _ = play_game(game, [agent], agent_seed=3)
    b, _ = play_game(game, [agent], agent_seed=3)
    assert a.digest == b.digest
    assert a.moves == b.moves


def test_greedy_beats_random_in_bloodstones() -> None:
    wins = 0.0
    games = 6
    for seed in range(games):
        game = bloodforge.load_game("bloodstones", players=2, seed=seed)
        seats = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        record, _ = play_game(game, seats, checked=True)
        wins += record.returns[seats.index("greedy")]
    assert wins >= games - 1


def test_weak_greedy_still_finishes_games() -> None:
    game = bloodforge.load_game("bloodstones", players=3, seed=8)
    record, state = play_game(game, ["greedy"], agent_options={"strength": 2}, checked=True)
    assert state.is_terminal()
    assert record.plies > 50
