"""OpenSpiel's IS-MCTS bot as an agent (agents/openspiel_ismcts.py) and the adapter's resampling
(adapters/openspiel_game.py): legal in every game, reproducible, blind to the hidden truth."""

from __future__ import annotations

import importlib
import pickle
import time
from collections.abc import Iterator
from typing import Any

import pyspiel
import pytest

import bloodforge
from bloodforge.adapters.openspiel_game import BloodforgeSpielState, register_openspiel_games, short_name
from bloodforge.agents import agent_names, make_agent
from bloodforge.agents import openspiel_ismcts as module
from bloodforge.agents.openspiel_ismcts import OpenSpielIsmctsAgent
from bloodforge.core import Rng, State, register_game, unregister_game
from bloodforge.lab.jobs import AgentSpec
from bloodforge.server.aiwork import SEARCH_AGENTS, decide_packed, pack
from tests.toy_bids import BidsGame

GAME_IDS = [g["id"] for g in bloodforge.list_games()]
_STATES: dict[tuple[str, int], State] = {}
#: Random decisions left in the game at the positions searched here (see `advanced`).
LEFT = 40


def advanced(game_id: str, seed: int) -> State:
    """A position `LEFT` decisions before the end of a random two-player game (made once, then
    cloned): the bot's rollouts are random games to the end (thousands of decisions in
    Kingdoms from the start), so positions near the end keep these tests cheap."""
    key = (game_id, seed)
    if key not in _STATES:
        start = bloodforge.load_game(game_id, players=2, seed=seed).new_initial_state()
        actions: list[tuple[str, int]] = []
        state, rng = start.clone(), Rng(seed)
        while not state.is_terminal():
            seat = state.actors()[0]
            action = rng.choice(state.legal_actions(seat))
            actions.append((action, seat))
            state.apply(action, seat)
        state = start
        for action, seat in actions[: len(actions) - LEFT]:
            state.apply(action, seat)
        while len(state.legal_actions(state.actors()[0])) < 2:  # a real choice to search
            seat = state.actors()[0]
            state.apply(state.legal_actions(seat)[0], seat)
        assert not state.is_terminal()
        _STATES[key] = state
    return _STATES[key].clone()


def test_the_agent_is_registered_by_name_and_the_lab_builds_it_from_its_spec() -> None:
    """The lab's workers make agents from `name:key=value` specs (lab/jobs.py): the command
    line's `openspiel-ismcts:seconds=1` is one CPU second a decision."""
    assert "openspiel-ismcts" in agent_names()
    assert isinstance(make_agent("openspiel-ismcts", seat=1, seed=2, simulations=5), OpenSpielIsmctsAgent)
    agent = AgentSpec.parse("openspiel-ismcts:seconds=1:uct_c=1.5").make(seat=1, seed=9)
    assert isinstance(agent, OpenSpielIsmctsAgent)
    s = agent.settings
    assert (s.seconds, s.clock, s.uct_c, agent.simulations) == (1.0, "cpu", 1.5, None)


# -- the adapter: resample_from_infostate is the engine's resample_hidden ----------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_adapter_resample_agrees_with_the_seats_information_and_never_copies_the_truth(game_id: str) -> None:
    register_openspiel_games()
    game = pyspiel.load_game(short_name(game_id), {"players": 2})
    truth = advanced(game_id, seed=1)
    seat = truth.actors()[0]
    real = BloodforgeSpielState(game, truth.clone())
    sample = real.resample_from_infostate(seat, Rng(5))
    assert isinstance(sample, BloodforgeSpielState)
    assert sample.information_state_string(seat) == real.information_state_string(seat)
    assert sample.observation_string(seat) == real.observation_string(seat)
    assert sample.information_state_string() == real.information_state_string()  # the mover's, by default
    assert sample.legal_actions() == real.legal_actions()
    assert real.inner.position_digest() == truth.position_digest(), "resampling must not touch the state"
    # another hidden truth the seat cannot tell apart gives the very same resample: only the
    # seat's view and the generator are used
    other = BloodforgeSpielState(game, truth.resample_hidden(seat, Rng(77)))
    assert other.inner.position_digest() != truth.position_digest()
    again = other.resample_from_infostate(seat, Rng(5))
    assert again.inner.position_digest() == sample.inner.position_digest()
    # pyspiel's own samplers work too (what ISMCTSBot passes when no resampler is set)
    drawn = real.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    assert drawn.information_state_string(seat) == real.information_state_string(seat)


@pytest.fixture
def _toy_game_registered() -> Iterator[None]:
    register_game(BidsGame)
    yield
    unregister_game(BidsGame.info.id)


@pytest.mark.usefixtures("_toy_game_registered")
def test_adapter_asks_the_first_seat_first_in_a_simultaneous_commitment() -> None:
    register_openspiel_games()
    game = pyspiel.load_game(short_name("toy_bids"), {"players": 3})
    state = BloodforgeSpielState(game, bloodforge.load_game("toy_bids", players=3, seed=1).new_initial_state())
    assert state.current_player() == 0
    state.first = 2
    assert state.current_player() == 2
    state.apply_action(0)
    assert state.inner.actors() == [0, 1], "the action was seat 2's bid"
    assert state.current_player() == 0
    assert state.clone().first == 2


# -- the agent ------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_ismcts_plays_only_legal_actions_in_every_game(game_id: str) -> None:
    """A few decisions through the checked `apply`, the bot in one seat and random in the other."""
    state = advanced(game_id, seed=1)
    bot_seat = state.actors()[0]
    agents = {s: make_agent("random", seat=s, seed=s) for s in range(state.num_players)}
    agents[bot_seat] = make_agent("openspiel-ismcts", seat=bot_seat, seed=1, simulations=2)
    decisions = 0
    while not state.is_terminal() and decisions < 3:
        seat = state.actors()[0]
        state.apply(agents[seat].select_action(state), seat)  # checked: refuses anything illegal
        decisions += seat == bot_seat
    assert decisions == 3


@pytest.mark.usefixtures("_toy_game_registered")
def test_openspiel_ismcts_commits_its_own_bid_in_a_simultaneous_commitment() -> None:
    """Sealed Bids: seat 0 has bid in secret; seats 1 and 2 still bid. The bot, for either,
    chooses a legal bid of its own (the adapter asks the searching seat first)."""
    state = bloodforge.load_game("toy_bids", players=3, seed=1).new_initial_state()
    state.apply("bid 3", 0)
    for seat in (1, 2):
        agent = OpenSpielIsmctsAgent(seat, seed=2, simulations=20)
        assert agent.select_action(state) in state.legal_actions(seat)
        assert agent.last_simulations == 20


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_ismcts_is_reproducible_and_never_reads_the_hidden_truth(game_id: str) -> None:
    """Same seed and simulations, same choice; and swapping the true state for a resample with
    the same observation (other hands, other bag order, other dice to come) changes nothing:
    the bot's determinizations come from the seat's view and the agent's generator only."""
    state = advanced(game_id, seed=1)
    seat = state.actors()[0]
    before = state.position_digest()
    other = state.resample_hidden(seat, Rng(1234))
    assert other.observation(seat) == state.observation(seat)
    assert other.position_digest() != state.position_digest()
    a, b, c = (OpenSpielIsmctsAgent(seat, seed=3, simulations=3) for _ in range(3))
    choice = a.select_action(state)
    assert b.select_action(state) == choice
    assert c.select_action(other) == choice
    assert a.last_simulations == c.last_simulations == 3
    assert state.position_digest() == before, "the search must not touch the real state"


def test_the_agent_pickles_and_chooses_on_as_the_same_seed() -> None:
    """The server and the lab's process pool ship agents to workers: a pickled agent makes the
    same next choice as the one it was copied from."""
    state = advanced("witch", seed=1)
    seat = state.actors()[0]
    agent = OpenSpielIsmctsAgent(seat, seed=4, simulations=3)
    agent.select_action(state)
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.select_action(state) == agent.select_action(state)
    assert OpenSpielIsmctsAgent(seat, strength=3).settings.seconds == pytest.approx(0.3)


def test_a_cpu_time_budget_ends_the_search() -> None:
    state = advanced("witch", seed=1)
    seat = state.actors()[0]
    agent = OpenSpielIsmctsAgent(seat, seed=1, seconds=0.1)
    start = time.process_time()
    assert agent.select_action(state) in state.legal_actions(seat)
    spent = time.process_time() - start
    assert agent.last_simulations >= 2
    assert spent < 0.1 + 1.0, "one simulation past the budget at most (a random game takes well under 1 s)"
    capped = OpenSpielIsmctsAgent(seat, seed=1, seconds=60, simulations=4)
    capped.select_action(state)
    assert capped.last_simulations == 4, "whichever budget ends first"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"simulations": 1}, "simulations"),
        ({"seconds": 0}, "seconds"),
        ({"final_policy": "best"}, "final_policy"),
        ({"child_selection": "random"}, "child_selection"),
        ({"clock": "sun"}, "clock"),
        ({"rollouts": 0}, "rollouts"),
        ({"uct": 2}, "unknown openspiel-ismcts option 'uct'"),
        ({"strength": 11}, "strength must be an integer 1..10"),
    ],
)
def test_bad_options_are_refused_with_a_clear_error(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent("openspiel-ismcts", seat=0, **options)


def test_without_open_spiel_the_agent_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = importlib.import_module

    def no_pyspiel(name: str, package: str | None = None) -> Any:
        if name == "pyspiel":
            raise ModuleNotFoundError("No module named 'pyspiel'")
        return real_import(name, package)

    module._openspiel.cache_clear()
    monkeypatch.setattr(module.importlib, "import_module", no_pyspiel)
    try:
        with pytest.raises(ImportError, match=r"needs open-spiel .*pip install"):
            OpenSpielIsmctsAgent(0, simulations=5)
    finally:
        monkeypatch.undo()
        module._openspiel.cache_clear()


def test_a_server_table_seating_it_searches_in_the_worker_processes() -> None:
    """A table made through the API may seat the anchor (the lobby does not offer it): its
    search goes to the server's worker processes like `mcts` (a thread would stall the event
    loop), so the agent and the position must survive the trip there and back."""
    assert "openspiel-ismcts" in SEARCH_AGENTS
    state = advanced("witch", 3)
    seat = state.actors()[0]
    action, kept = decide_packed(*pack(state), seat, "openspiel-ismcts", 7, 1, None)
    assert action in state.legal_actions(seat)
    assert isinstance(kept, bytes)
