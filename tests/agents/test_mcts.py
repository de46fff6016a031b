"""IS-MCTS (agents/mcts.py): legal in every game, reproducible, blind to the hidden truth."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.agents.mcts import MctsAgent, SearchSettings, cut_off_value
from bloodforge.core import Rng, State, register_game, unregister_game
from bloodforge.match import play_match
from tests.toy_bids import BidsGame

GAME_IDS = [g["id"] for g in bloodforge.list_games()]


@pytest.fixture(autouse=True, scope="module")
def _toy_game_registered() -> Iterator[None]:
    register_game(BidsGame)
    yield
    unregister_game(BidsGame.info.id)


def advanced(game_id: str, seed: int, plies: int, players: int = 2) -> State:
    state = bloodforge.load_game(game_id, players=players, seed=seed).new_initial_state()
    rng = Rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = state.actors()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


@pytest.mark.parametrize("game_id", [*GAME_IDS, "toy_bids"])
def test_mcts_plays_only_legal_actions_in_every_game(game_id: str) -> None:
    """A whole game (the toy game) or a long stretch (the big games) through the checked
    `apply`, the searcher against the random agent in both seats."""
    for mcts_seat in (0, 1):
        state = advanced(game_id, seed=mcts_seat, plies=0)
        agents = {s: make_agent("random", seat=s, seed=s) for s in range(state.num_players)}
        agents[mcts_seat] = make_agent("mcts", seat=mcts_seat, seed=1, iterations=8, rollout_depth=4)
        if game_id == "toy_bids":
            result = play_match(state, agents, checked=True)
            assert result.state.is_terminal()
            continue
        decisions = 0
        while not state.is_terminal() and decisions < 60:
            seat = state.actors()[0]
            action = agents[seat].select_action(state)
            state.apply(action, seat)  # checked: refuses anything illegal
            decisions += seat == mcts_seat


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_mcts_is_deterministic_with_a_seed_and_an_iteration_budget(game_id: str) -> None:
    state = advanced(game_id, seed=2, plies=45)
    seat = state.actors()[0]
    choices = [make_agent("mcts", seat=seat, seed=7, iterations=40).select_action(state) for _ in range(2)]
    assert choices[0] == choices[1]
    before = state.position_digest()
    make_agent("mcts", seat=seat, seed=7, iterations=40).select_action(state)
    assert state.position_digest() == before, "the search must not touch the real state"


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mcts_never_reads_the_hidden_truth(game_id: str, seed: int) -> None:
    """Swap the true state for a resample with the same observation (other hands, other bag
    order, other dice to come): the search makes the same choice with the same statistics."""
    state = advanced(game_id, seed=seed, plies=30 + 25 * seed)
    seat = state.actors()[0]
    other = state.resample_hidden(seat, Rng(1234 + seed))
    assert other.observation(seat) == state.observation(seat)
    hidden = bloodforge.load_game(game_id, players=2).info.hidden_information
    assert other.position_digest() != state.position_digest() or not hidden
    a = MctsAgent(seat, seed=3, iterations=60)
    b = MctsAgent(seat, seed=3, iterations=60)
    assert a.select_action(state) == b.select_action(other)


def test_mcts_acts_first_in_a_simultaneous_commitment() -> None:
    """Sealed Bids: all seats bid at once; whichever seat the searcher plays, its choice is a
    legal bid of its own, never conditioned on another seat's hidden bid."""
    state = bloodforge.load_game("toy_bids", players=3, seed=1).new_initial_state()
    assert state.actors() == [0, 1, 2]
    state.apply("bid 3", 0)
    for seat in (1, 2):
        action = MctsAgent(seat, seed=2, iterations=50).select_action(state)
        assert action in state.legal_actions(seat)


def test_mcts_beats_random_in_blood_stone() -> None:
    wins = 0.0
    for seed in range(2):
        state = advanced("witch", seed=seed, plies=0)
        mcts_seat = seed % 2
        agents = {mcts_seat: make_agent("mcts", seat=mcts_seat, seed=seed, iterations=25),
                  1 - mcts_seat: make_agent("random", seat=1 - mcts_seat, seed=seed)}
        result = play_match(state, agents)
        wins += result.state.returns()[mcts_seat]
    assert wins == 2.0


def test_cut_off_uses_the_game_evaluation_or_an_even_share() -> None:
    state = advanced("witch", seed=4, plies=40)
    value = cut_off_value(state)
    assert value == state.game.evaluate(state)
    assert abs(sum(value) - 1.0) < 1e-9
    toy = advanced("toy_bids", seed=1, plies=2, players=3)
    assert toy.game.evaluate(toy) is None
    assert cut_off_value(toy) == [1 / 3] * 3


@pytest.mark.parametrize(
    ("options", "message"),
    [({"iterations": 0}, "iterations"), ({"seconds": -1}, "seconds"), ({"rollout": "smart"}, "rollout"),
     ({"rollout_depth": -2}, "rollout_depth"), ({"depth": 3}, "unknown mcts option"),
     ({"prior": "oracle"}, "prior"), ({"widening": -1}, "widening"), ({"clock": "sundial"}, "clock")],
)
def test_bad_mcts_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent("mcts", seat=0, **options)


def test_a_time_budget_ends_the_search() -> None:
    state = advanced("witch", seed=1, plies=40)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    agent = MctsAgent(state.actors()[0], seed=1, seconds=0.05)
    start = time.perf_counter()
    agent.select_action(state)
    assert agent.last_iterations >= 1
    assert time.perf_counter() - start < 2.0


def test_a_cpu_time_budget_counts_the_search_process_time_not_the_wall() -> None:
    """`clock=cpu`: a search that sleeps (as a busy machine makes it wait) spends no budget
    while it sleeps, so it still gets its full CPU second; on the wall clock it would not."""
    state = advanced("witch", seed=1, plies=40)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    searched: dict[str, int] = {}
    for clock in ("wall", "cpu"):
        agent = MctsAgent(state.actors()[0], seed=1, seconds=0.2, clock=clock)
        real = agent._iterate

        def slow(*args: object, real: object = real) -> None:
            time.sleep(0.02)
            real(*args)  # type: ignore[operator]

        agent._iterate = slow  # type: ignore[method-assign]
        agent.select_action(state)
        searched[clock] = agent.last_iterations
    assert searched["wall"] <= 11
    assert searched["cpu"] > 2 * searched["wall"]


def test_greedy_rollouts_play_the_games_policy() -> None:
    state = advanced("witch", seed=3, plies=40)
    agent = MctsAgent(state.actors()[0], seed=1, iterations=10, rollout="greedy", rollout_depth=2)
    assert agent.select_action(state) in state.legal_actions(agent.seat)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_policy_prior_is_searched_first(game_id: str) -> None:
    """With one iteration the only root action searched is the policy's own choice."""
    state = advanced(game_id, seed=5, plies=35)
    rng = Rng(2)
    while len(state.legal_actions()) < 2 or any(a.is_cancel for a in state.legal_actions()):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.actors()[0]
    policy = state.game.policy()
    assert policy is not None
    expected = policy.choose(state, seat, Rng(Rng(9).next_u64()))
    assert MctsAgent(seat, seed=9, iterations=1, prior="greedy").select_action(state) == expected
    assert MctsAgent(seat, seed=9, iterations=1).select_action(state) in state.legal_actions(seat)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_games_search_options_are_valid_settings(game_id: str) -> None:
    game = bloodforge.load_game(game_id, players=2 if game_id != "arena" else 1, seed=0)
    SearchSettings(**game.search_options())


def test_the_games_search_options_apply_unless_the_user_gives_others() -> None:
    state = advanced("bloodstones", seed=2, plies=60)
    seat = state.actors()[0]
    tuned = MctsAgent(seat, seed=1, iterations=2)
    assert tuned.plans == "off"  # the game is not known before the first decision
    tuned.select_action(state)
    assert (tuned.plans, tuned.root, tuned.rollout) == ("root", "paired", "greedy")
    assert tuned.iterations == 2
    mine = MctsAgent(seat, seed=1, iterations=2, root="ucb", rollout="random")
    mine.select_action(state)
    assert (mine.plans, mine.root, mine.rollout) == ("root", "ucb", "random")


def test_strength_sets_the_seconds_per_decision_as_the_browser_asks() -> None:
    """The lobby sends a strength 1-10 for every AI seat: 10 is one second per decision."""
    assert MctsAgent(0, strength=10).seconds == pytest.approx(1.0)
    assert MctsAgent(0, strength=3).seconds == pytest.approx(0.3)
    assert MctsAgent(0, strength=3, iterations=50).seconds is None  # an explicit budget wins
    for bad in (0, 11, "strong", True):
        with pytest.raises(ValueError, match="strength"):
            MctsAgent(0, strength=bad)  # type: ignore[arg-type]
