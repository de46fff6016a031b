"""The search's hooks in Five Forts (issue 21): the evaluation (`FortsGame.evaluate`), the
search settings (`search_options`), the policy's plans and the turn marker.

The evaluation must judge each seat from what it observes (a resample of the hidden cards gives
the same numbers), give shares that sum to 1 and favour the side clearly ahead, and agree with
the returns once the game is over. Positions come from the scenario helper and a few seeded
greedy plies, so every test here takes well under a second.
"""

from __future__ import annotations

import pytest
from forts_helpers import army, scenario

import bloodforge
from bloodforge.agents.mcts import MctsAgent, _settings
from bloodforge.core import PlanningPolicy, Rng
from bloodforge.core.policy import shares_from_values
from bloodforge.games.forts.evaluation import HOLD, seat_value
from bloodforge.games.forts.game import FortsGame, FortsState
from bloodforge.games.forts.policy import FortsPolicy, MapFacts


def _greedy_plies(seed: int, plies: int, players: int = 2) -> FortsState:
    """A position `plies` greedy decisions into a seeded game (hands are bought by then)."""
    state = bloodforge.load_game("forts", players=players, seed=seed).new_initial_state()
    assert isinstance(state, FortsState)
    policy = state.game.policy()
    rng = Rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = state.actors()[0]
        state.apply_unchecked(policy.choose(state, seat, rng), seat)
    return state


@pytest.fixture(scope="module")
def midgame() -> FortsState:
    state = _greedy_plies(7, 45)
    assert not state.is_terminal()
    assert any(state.m.hands), "the position should hold hidden hero cards"
    return state


def _ahead() -> FortsState:
    """Red holds four forts with a large army; Green only its home with two infantry."""
    return scenario({
        "redhall": army(0, 1, 0), "ironkeep": army(0, 1, 2), "ashgate": army(0, 1, 1),
        "thornwall": army(0, 2, 1), "greymere": army(0, 1, 0), "greenhall": army(1, 2, 0),
    }, currency=[3, 0])


def test_evaluation_reads_only_each_seats_observation_a_resample_gives_the_same_shares(midgame: FortsState) -> None:
    game = midgame.game
    shares = game.evaluate(midgame)
    changed = False
    for seat in range(midgame.num_players):
        for k in range(3):
            resampled = midgame.resample_hidden(seat, Rng(100 + k))
            changed |= resampled.m.hands != midgame.m.hands
            assert game.evaluate(resampled) == shares
    assert changed, "some resample should have dealt other hidden hands"
    # each seat's value is the one it computes from its own observation
    facts = MapFacts(game.static_info())
    own = [seat_value(midgame.observation(s), s, facts) for s in range(midgame.num_players)]
    assert shares == shares_from_values(own, 1.0)


def test_evaluation_shares_sum_to_one_and_favour_the_side_clearly_ahead() -> None:
    state = _ahead()
    shares = state.game.evaluate(state)
    assert sum(shares) == pytest.approx(1.0)
    assert shares[0] > 0.9 > 0.1 > shares[1]
    # the same position seen with the seats' fortunes swapped favours Green as clearly
    swapped = scenario({
        "greenhall": army(1, 1, 0), "wolfkeep": army(1, 1, 2), "oakgate": army(1, 1, 1),
        "fernwall": army(1, 2, 1), "greenmere": army(1, 1, 0), "redhall": army(0, 2, 0),
    }, currency=[0, 3])
    assert swapped.game.evaluate(swapped) == pytest.approx(shares[::-1])


def test_evaluation_a_running_five_fort_hold_is_all_but_a_win() -> None:
    forts = {"redhall": army(0, 1), "ironkeep": army(0, 1), "ashgate": army(0, 1), "thornwall": army(0, 1),
             "sandgate": army(0, 1), "greenhall": army(1, 2, 2), "wolfkeep": army(1, 0, 3),
             "oakgate": army(1, 1, 2), "fernwall": army(1, 1, 2)}
    held = scenario(forts, turn_seat=1, held_since=[0, None])
    not_yet = scenario(forts, turn_seat=1, held_since=[None, None])
    assert held.game.evaluate(held)[0] > 0.99
    assert not_yet.game.evaluate(not_yet)[0] < 0.9
    facts = MapFacts(held.game.static_info())
    gap = seat_value(held.observation(0), 0, facts) - seat_value(not_yet.observation(0), 0, facts)
    assert gap == pytest.approx(HOLD)


def test_evaluation_of_a_finished_game_is_its_returns() -> None:
    state = _greedy_plies(3, 10_000)
    assert state.is_terminal()
    assert state.game.evaluate(state) == state.returns()
    assert sorted(state.returns()) == [0.0, 1.0]


def test_evaluation_four_players_shares_sum_to_one(midgame: FortsState) -> None:
    state = _greedy_plies(5, 60, players=4)
    shares = state.game.evaluate(state)
    assert len(shares) == 4
    assert sum(shares) == pytest.approx(1.0)
    assert all(0.0 < s < 1.0 for s in shares)


def test_search_options_are_valid_settings_and_the_search_plays_a_legal_action(midgame: FortsState) -> None:
    game = midgame.game
    assert isinstance(game, FortsGame)
    options = game.search_options()
    settings = _settings(options)  # a wrong name or value raises
    assert settings.rollout in ("light", "greedy")
    if settings.plans != "off":
        assert isinstance(game.policy(), PlanningPolicy)
    if settings.rollout_turns:
        assert midgame.turn_marker() is not None
    seat = midgame.actors()[0]
    agent = MctsAgent(seat, seed=1, iterations=12)
    action = agent.select_action(midgame.clone())
    assert action in midgame.legal_actions(seat)


def test_plans_offer_the_policys_own_choice_first_then_distinct_legal_actions(midgame: FortsState) -> None:
    policy = FortsPolicy(plan_width=4)
    assert isinstance(policy, PlanningPolicy)
    state = _greedy_plies(11, 12)
    seat = state.actors()[0]
    plans = policy.plans(state, seat, Rng(9))
    assert plans is not None
    assert plans[0] == [str(policy.choose(state, seat, Rng(9)))]
    legal = {str(a) for a in state.legal_actions(seat)}
    texts = [p[0] for p in plans]
    assert all(len(p) == 1 for p in plans)
    assert set(texts) <= legal
    assert len(set(texts)) == len(texts)
    assert len(plans) == min(4, len(legal))
    fork = policy.fork()
    assert fork is not policy
    assert fork.plan_width == 4
    assert fork.choose(state, seat, Rng(9)) == policy.choose(state, seat, Rng(9))


def test_turn_marker_changes_exactly_when_a_new_turn_begins() -> None:
    state = _greedy_plies(2, 0)
    policy = state.game.policy()
    rng = Rng(2)
    marker = state.turn_marker()
    changes = 0
    for _ in range(60):
        seat = state.actors()[0]
        before = (state.m.turn_seat, state.m.turn_number)
        state.apply_unchecked(policy.choose(state, seat, rng), seat)
        began = (state.m.turn_seat, state.m.turn_number) != before
        assert (state.turn_marker() != marker) == began
        if began:
            changes += 1
        marker = state.turn_marker()
    assert changes >= 2


def test_evaluation_buying_a_hero_card_does_not_lower_the_buyers_share() -> None:
    """Greedy always buys, so the fitted weights could not see a card's worth; judged without
    it, a search never bought one (it saw 3 currency lost and nothing gained)."""
    state = scenario({"redhall": army(0, 2, 1), "greenhall": army(1, 2, 1)}, currency=[3, 3])
    before = state.game.evaluate(state)[0]
    state.apply("buy", 0)
    assert state.m.hands[0]
    assert state.game.evaluate(state)[0] >= before


def test_the_paired_guard_keeps_the_policys_action_after_a_single_sample() -> None:
    """`z=1` asks another action to beat the policy's by a standard error of the paired gain;
    after one sample there is no standard error, so the policy's action stays (the spread of
    one sample used to come out 0, and the guard let any single lucky sample through: here
    one sample puts a move above recruiting)."""
    state = _greedy_plies(7, 22)
    seat = state.actors()[0]
    own = state.game.policy().choose(state, seat, Rng(Rng(6).next_u64()))
    assert own.kind == "recruit"
    bold = MctsAgent(seat, seed=6, iterations=1, z=0.0).select_action(state.clone())
    assert bold != own
    assert MctsAgent(seat, seed=6, iterations=1).select_action(state.clone()) == own


def test_search_rollouts_play_through_the_searchers_next_turn_to_the_rivals_next_turn() -> None:
    """A move pays off in the attack it allows a turn later: cut at the start of the searcher's
    next turn, the search saw a move's risk but not its reward and chose `end` over advancing.
    Each sample now plays the rival's reply and the searcher's whole next turn, and stops as
    the rival's next turn begins (three turn starts), well inside the depth cap."""
    state = _greedy_plies(11, 30)
    seat = state.actors()[0]
    assert state.m.turn_seat == seat
    start = state.m.turn_number
    for k in range(3):
        played = state.clone()
        MctsAgent(seat, seed=1, iterations=4).sample_value(played, Rng(k))
        assert not played.is_terminal()
        assert played.m.turn_number == start + 3
        assert played.m.turn_seat != seat


def test_policy_observation_is_the_observation_without_the_pages_fields(midgame: FortsState) -> None:
    """The policy and the evaluation read the lean observation (the board, log and battle
    records were 60% of a rollout's time); every field it has must be the full one's, under
    the same visibility, so the policy plays exactly as on the full observation."""
    for seat in range(midgame.num_players):
        full = midgame.observation(seat)
        lean = midgame.policy_observation(seat)
        assert lean == {k: full[k] for k in lean}
        assert {"territories", "forts", "units", "quota", "currency", "homes", "battle", "hand",
                "hand_sizes", "held_since", "eliminated", "players"} <= set(lean)
        assert not {"board", "log", "battles", "bribes", "status"} & set(lean)
    policy = FortsPolicy()
    seat = midgame.actors()[0]
    assert policy.choose(midgame, seat, Rng(5)) in midgame.legal_actions(seat)
