"""Issue 21 item 1, the search's speed in Kingdoms of Blood: more iterations per CPU second with
the same choices at a fixed iteration budget.

*Why:* the search's strength at one CPU second a decision depends on how many rollouts it
plays, and its rollouts are the greedy policy's decisions (policy.py, policy_view.py) through
the engine. The speed work (2026-11-27: the policy's view built in one pass, its distance and
sea look-ups memoised, ...) must not change a single choice: the recorded values below were
taken from the code before it (commit 4f9f5a9) and are compared exactly — the chosen action,
the chosen plan's later steps and the chosen option's mean value to the last bit (which any
change in a rollout's moves, dice or cut-off judgement would move), at decision points of real
greedy games, with the game's default settings and with `rollout_turns=2` (the setting the
lab's current run measures). A greedy self-play game's digest checks the policy alone.
"""

from __future__ import annotations

from functools import cache

import pytest

import bloodforge
from bloodforge.agents.mcts import MctsAgent
from bloodforge.core import Rng, State
from bloodforge.core.policy import shares_from_values
from bloodforge.games.kingdoms.evaluation import KingdomsJudge
from bloodforge.games.kingdoms.policy import KingdomsPolicy

#: (seed, ply) of greedy-vs-greedy two-player games -> per `rollout_turns` (1 is the game's
#: default): the chosen action, the plan's later steps, the mean value, iterations played.
#: Recorded with `MctsAgent(seat, seed=5, iterations=40)` at commit 4f9f5a9.
RECORDED: dict[tuple[int, int], dict[int, tuple[str, tuple[str, ...], float, int]]] = {
    (1, 428): {  # combat move, round 8: the policy's attack on Boulderreach
        1: ("move greyford boulderreach cavalry",
            ("move greyford boulderreach infantry", "move greyford boulderreach cavalry",
             "move greyford boulderreach cavalry", "move greyford boulderreach cavalry",
             "move greyford boulderreach infantry", "move greyford boulderreach infantry",
             "move greyford boulderreach infantry", "move frostcrown wintermere infantry",
             "move frostcrown wintermere cavalry", "move frostcrown wintermere cavalry",
             "move snowfold sleetwick cavalry", "done"), 0.7402830273491168, 40),
        2: ("move greyford boulderreach cavalry",
            ("move greyford boulderreach infantry", "move greyford boulderreach cavalry",
             "move greyford boulderreach cavalry", "move greyford boulderreach cavalry",
             "move greyford boulderreach infantry", "move greyford boulderreach infantry",
             "move greyford boulderreach infantry", "move frostcrown wintermere infantry",
             "move frostcrown wintermere cavalry", "move frostcrown wintermere cavalry",
             "move snowfold sleetwick cavalry", "done"), 0.7831860531446707, 40),
    },
    (1, 970): {  # combat move, round 14
        1: ("move amberford starwater infantry", ("move hoarfield greyford infantry", "done"), 0.8517425229835388, 42),
        2: ("move amberford starwater infantry", ("move hoarfield greyford infantry", "done"), 0.889544034886231, 42),
    },
    (2, 342): {  # non-combat move (phase 4), round 6
        1: ("move greyford boulderreach cavalry",
            ("move frostcrown snowfold cavalry", "move greyford boulderreach cavalry", "done"),
            0.24047726962567434, 40),
        2: ("move greyford boulderreach cavalry",
            ("move frostcrown snowfold cavalry", "move greyford boulderreach cavalry", "done"),
            0.2544546704156586, 40),
    },
    (2, 650): {  # a battle, round 10: press on or retreat (the two settings disagree)
        1: ("press", (), 0.2171087246883466, 40),
        2: ("retreat ashgrove", (), 0.12594750884568043, 40),
    },
}

#: greedy self-play, two players, seed 3 (seat 0 with `finish`), at 4f9f5a9: plies and digest
GREEDY_GAME = (2612, "2693ac41602f9f7a753954c622f6560b11941a129ef4a713f0e32adb49e7b4f2")


@cache
def _greedy_states(seed: int) -> dict[int, State]:
    """The states at the recorded plies of the greedy game of `seed` (played once per seed)."""
    plies = {ply for s, ply in RECORDED if s == seed}
    state = bloodforge.load_game("kingdoms", players=2, seed=seed).new_initial_state()
    policy = KingdomsPolicy()
    rng = Rng(seed)
    out: dict[int, State] = {}
    while len(state.history) <= max(plies):
        if len(state.history) in plies:
            out[len(state.history)] = state.clone()
        seat = state.actors()[0]
        state.apply_unchecked(policy.choose(state, seat, rng), seat)
    return out


@pytest.mark.parametrize("point", sorted(RECORDED))
def test_issue21_search_choices_at_fixed_iterations_are_those_before_the_speed_work(point: tuple[int, int]) -> None:
    seed, ply = point
    state = _greedy_states(seed)[ply]
    before = state.position_digest()
    for turns, (action, steps, value, iterations) in RECORDED[point].items():
        agent = MctsAgent(state.actors()[0], seed=5, iterations=40, rollout_turns=turns)
        assert str(agent.select_action(state)) == action, turns
        assert agent.planned_steps == steps, turns
        assert agent.last_value == value, turns  # exact: every rollout and cut-off the same
        assert agent.last_iterations == iterations, turns
    assert state.position_digest() == before  # the real state is never played on


def test_issue21_greedy_self_play_is_the_game_before_the_speed_work() -> None:
    state = bloodforge.load_game("kingdoms", players=2, seed=3).new_initial_state()
    policies = [KingdomsPolicy(finish=True), KingdomsPolicy()]
    rng = Rng(3)
    while not state.is_terminal():
        seat = state.actors()[0]
        state.apply_unchecked(policies[seat].choose(state, seat, rng), seat)
    assert (len(state.history), state.digest()) == GREEDY_GAME


def test_issue21_land_regions_say_what_the_land_distances_say() -> None:
    # the policy asks "is t reachable by land from a territory of ours?" by region (one set
    # look-up) instead of a distance row per territory: the two must agree for every pair
    state = _greedy_states(1)[428]
    policy = KingdomsPolicy()
    policy.choose(state, state.actors()[0], Rng(0))
    land = sorted(policy._dist)
    assert len(set(policy._region.values())) > 1  # the map has land out of reach (islands)
    for a in land:
        for b in land:
            assert (b in policy._dist[a]) == (policy._region[a] == policy._region[b]), (a, b)


def test_issue21_evaluation_judges_equal_views_once_and_gets_the_plain_answer() -> None:
    # the cut-off computes the sides' values once when both seats' views show the same kinds
    # (every unit face up, usual in rollouts); with face-down units each seat's own view counts
    early = bloodforge.load_game("kingdoms", players=2, seed=1).new_initial_state()
    policy, rng = KingdomsPolicy(), Rng(1)
    while len(early.history) < 200:  # some starting units still face down to the other side
        seat = early.actors()[0]
        early.apply_unchecked(policy.choose(early, seat, rng), seat)
    judge = KingdomsJudge(early.game.static_info())
    for state, face_down in ((early, True), (_greedy_states(1)[970], False)):
        views = [state.policy_observation(seat) for seat in (0, 1)]
        hidden = [sum(p["kind"] is None for p in view["pieces"]) for view in views]
        assert (min(hidden) > 0) == face_down  # both cases are exercised
        assert (max(hidden) == 0) != face_down
        plain = shares_from_values([judge.seat_value(view, seat) for seat, view in enumerate(views)], 1.0)
        assert state.game.evaluate(state) == plain
