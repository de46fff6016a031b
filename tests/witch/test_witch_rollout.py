"""The light playout policy the search plays its rollouts with (games/witch/rollout.py): legal,
never a blow against its own side ("Attacking can be done to any unit (including friendly
units)": legal, but no player's choice), attacks preferred, sure casts paid in full."""

from __future__ import annotations

from collections import Counter

import pytest
from witch_helpers import scenario

import bloodforge
from bloodforge.agents.mcts import MctsAgent
from bloodforge.core import Rng
from bloodforge.games.witch.game import WitchState
from bloodforge.games.witch.model import SOLDIERS, WITCH
from bloodforge.games.witch.rollout import LightRollout


def side_of(state: WitchState, uid: str) -> int:
    u = state.units[uid]
    return SOLDIERS if state.content.units[uid].kind == "soldier" and not u.zombified else WITCH


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_light_playouts_are_legal_and_never_attack_their_own_side(seed: int) -> None:
    state = bloodforge.load_game("witch", players=2, seed=seed).new_initial_state()
    assert isinstance(state, WitchState)
    light, rng = LightRollout(), Rng(seed)
    friendly_fire_was_legal = 0
    plies = 0
    while not state.is_terminal() and plies < 400:
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        if any(a.kind == "attack" and side_of(state, a.args[1]) == side_of(state, a.args[0]) for a in legal):
            friendly_fire_was_legal += 1
        for _ in range(5):
            action = light.choose(state, seat, rng)
            assert action in legal
            if action.kind == "attack":
                assert side_of(state, action.args[1]) != side_of(state, action.args[0]), action
        state.apply(light.choose(state, seat, rng), seat)
        plies += 1
    assert friendly_fire_was_legal > 0, "the test never met a position where friendly fire was legal"


def test_light_playouts_prefer_hitting_the_witch_to_ending_the_turn() -> None:
    """The Swordsman stands next to the Witch with all three Acts left."""
    state = scenario(units={"witch": {"square": "e5"}, "swordsman": {"square": "e4"}})
    assert isinstance(state, WitchState)
    light, rng = LightRollout(), Rng(4)
    picks = Counter(str(light.choose(state, SOLDIERS, rng)) for _ in range(300))
    assert picks["attack swordsman witch"] > picks["end"] * 5


def test_light_playouts_pay_the_full_price_for_a_sure_cast() -> None:
    state = scenario(side="witch", hands={"witch": ["manipulate"]})
    assert isinstance(state, WitchState)
    state.apply("cast manipulate")
    light, rng = LightRollout(), Rng(5)
    picks = Counter(str(light.choose(state, WITCH, rng)) for _ in range(300))
    assert picks.most_common(1)[0][0] == "pay 4"


def test_light_rollouts_fall_back_to_random_in_a_game_without_a_light_policy() -> None:
    state = bloodforge.load_game("kingdoms", players=2, seed=1).new_initial_state()
    assert state.game.rollout_policy() is None
    agent = MctsAgent(state.actors()[0], seed=1, iterations=20, rollout="light")
    assert agent.select_action(state) in state.legal_actions(agent.seat)


def test_a_search_expanding_by_the_light_weights_tries_the_blow_on_the_witch_first() -> None:
    """`expand=light`: a slowly widening tree adds the action the light policy likes best
    first; with one iteration that is the only child, so it is the choice."""
    state = scenario(units={"witch": {"square": "e5"}, "swordsman": {"square": "e4"}})
    liked = MctsAgent(SOLDIERS, seed=3, iterations=1, rollout="light", expand="light").select_action(state)
    assert str(liked) == "attack swordsman witch"
    picks = {str(MctsAgent(SOLDIERS, seed=s, iterations=1, rollout="light", expand="random").select_action(state))
             for s in range(8)}
    assert len(picks) > 1  # in random order the first child varies
