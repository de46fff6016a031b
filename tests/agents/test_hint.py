"""Hints (agents/hint.py, issue 21 item 4): the strongest AI's choice for a human seat and its
estimated win chance, from the seat's own observation only."""

from __future__ import annotations

import pytest

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.agents.hint import Hint, action_label, compute_hint
from bloodforge.agents.mcts import MctsAgent
from bloodforge.core import Rng, State

GAME_IDS = [g["id"] for g in bloodforge.list_games()]
#: Small budgets: the machine is shared; determinism does not depend on the size.
BUDGET = {"bloodstones": 6, "witch": 24, "kingdoms": 16, "forts": 16, "arena": 16}


def decision(game_id: str, seed: int, plies: int) -> State:
    """A position after `plies` random plies where the seat to act has a real choice."""
    state = bloodforge.load_game(game_id, players=2, seed=seed).new_initial_state()
    rng = Rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = state.actors()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    while not state.is_terminal() and len([a for a in state.legal_actions(state.actors()[0]) if not a.is_cancel]) < 2:
        seat = state.actors()[0]
        state.apply(state.legal_actions(seat)[0], seat)
    assert not state.is_terminal()
    return state


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_hint_depends_on_the_seats_observation_only(game_id: str) -> None:
    """Swap the hidden truth for a resample with the same observation (other hands, bag order,
    face-down units): the same seed and iteration budget give the same hint, action and chance."""
    state = decision(game_id, seed=3, plies=30)
    seat = state.actors()[0]
    other = state.resample_hidden(seat, Rng(99))
    assert other.observation(seat) == state.observation(seat)
    before = state.position_digest()
    first = compute_hint(state, seat, iterations=BUDGET[game_id], seed=5)
    second = compute_hint(other, seat, iterations=BUDGET[game_id], seed=5)
    assert first == second
    assert state.position_digest() == before, "a hint must not touch the real state"
    assert first.action in state.legal_actions(seat)
    assert 0.0 <= first.win_chance <= 1.0
    assert first.iterations >= 1


def test_hint_is_what_the_search_agent_plays_and_its_root_value_is_the_chance() -> None:
    """The hint is the mcts agent's own choice with the same seed and budget (the strongest AI,
    with the game's tuned search options), and the chance is its chosen root edge's mean."""
    state = decision("witch", seed=1, plies=20)
    seat = state.actors()[0]
    hint = compute_hint(state, seat, iterations=30, seed=2)
    agent = MctsAgent(seat, seed=2, iterations=30, seconds=None)
    assert agent.select_action(state.clone()) == hint.action
    assert agent.last_value is not None
    assert hint.win_chance == pytest.approx(agent.last_value)
    assert hint.iterations == agent.last_iterations == 30


def test_hint_for_a_seat_not_to_act_is_refused() -> None:
    state = decision("witch", seed=1, plies=20)
    idle = 1 - state.actors()[0]
    with pytest.raises(ValueError, match="not to act"):
        compute_hint(state, idle, iterations=5)


def test_hint_sentence_reads_for_players() -> None:
    state = decision("forts", seed=2, plies=10)
    seat = state.actors()[0]
    hint = compute_hint(state, seat, iterations=10, seed=1)
    assert isinstance(hint, Hint)
    assert hint.label == action_label(state, hint.action)
    text = hint.sentence()
    assert text.startswith("The AI would play: ")
    assert text.endswith(f"(estimated win chance {round(hint.win_chance * 100)}%)")
    assert "_" not in hint.label
    assert "{" not in hint.label


def test_a_compound_action_is_named_whole() -> None:
    """Bloodstones' search chooses whole plans (select units, destination, payment): the hint
    names the first step (the button to press now) and then the plan's later steps."""
    state = bloodforge.load_game("bloodstones", players=2, seed=4).new_initial_state()
    agents = {s: make_agent("greedy", seat=s, seed=s) for s in range(2)}
    while True:
        seat = state.actors()[0]
        obs = state.observation(seat)
        if obs["phase"] == "main_actions" and len(state.history) > 150 and obs["pending"] is None \
                and obs["battle"] is None:
            break
        state.apply(agents[seat].select_action(state), seat)
    hint = compute_hint(state, seat, iterations=30, seed=1)
    agent = MctsAgent(seat, seed=1, iterations=30, seconds=None)
    assert agent.select_action(state.clone()) == hint.action
    assert agent.planned_steps, "this position's chosen plan has several steps"
    assert len(hint.then) == len(agent.planned_steps)
    assert hint.then[-1].startswith("Pay with")
    assert ", then " in hint.sentence()
