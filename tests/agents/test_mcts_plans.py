"""IS-MCTS over the policy's plans (agents/mcts.py `plans=root|tree`, core `PlanningPolicy`)."""

from __future__ import annotations

import pytest

import bloodforge
from bloodforge.agents.mcts import MctsAgent
from bloodforge.core import PlanningPolicy, Rng, State

PLANNING_GAMES = ["bloodstones", "witch"]


def decision_with_plans(game_id: str, seed: int) -> tuple[State, int, list[list[str]]]:
    """Play random actions until the game's policy offers at least two plans."""
    state = bloodforge.load_game(game_id, players=2, seed=seed).new_initial_state()
    rng = Rng(seed)
    policy = state.game.policy()
    assert isinstance(policy, PlanningPolicy)
    for _ in range(400):
        seat = state.actors()[0]
        plans = policy.plans(state, seat, Rng(1))
        if plans and len(plans) >= 2:
            return state, seat, plans
        legal = [a for a in state.legal_actions(seat) if not a.is_cancel] or state.legal_actions(seat)
        state.apply(rng.choice(legal), seat)
    raise AssertionError("no decision with plans in 400 random plies")


@pytest.mark.parametrize("game_id", PLANNING_GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_offered_plan_plays_out_legally(game_id: str, seed: int) -> None:
    """Each plan's steps are legal one after another on a copy (the checked `apply`)."""
    state, seat, plans = decision_with_plans(game_id, seed)
    assert len({tuple(p) for p in plans}) == len(plans), "plans are offered once each"
    for plan in plans:
        copy = state.clone()
        for text in plan:
            copy.apply(text, seat)


@pytest.mark.parametrize("game_id", PLANNING_GAMES)
def test_the_policy_offers_nothing_where_it_decides_step_by_step(game_id: str) -> None:
    """Set-up placements are single steps: the searcher uses the legal actions there."""
    state = bloodforge.load_game(game_id, players=2, seed=4).new_initial_state()
    policy = state.game.policy()
    assert isinstance(policy, PlanningPolicy)
    assert policy.plans(state, state.actors()[0], Rng(1)) is None


def test_bloodstones_first_plan_is_the_greedy_choice() -> None:
    state, seat, plans = decision_with_plans("bloodstones", 5)
    policy = state.game.policy()
    assert policy is not None
    steps = []
    copy = state.clone()
    for _ in plans[0]:
        action = policy.choose(copy, seat, Rng(3))
        steps.append(str(action))
        copy.apply(action, seat)
    assert steps == plans[0]


@pytest.mark.parametrize("game_id", PLANNING_GAMES)
def test_a_fork_forgets_the_plan_in_progress_but_keeps_the_static_facts(game_id: str) -> None:
    state, seat, _ = decision_with_plans(game_id, 6)
    policy = state.game.policy()
    assert isinstance(policy, PlanningPolicy)
    policy.choose(state, seat, Rng(2))
    fork = policy.fork()
    assert fork is not policy
    memory = fork.__dict__.get("plan", fork.__dict__.get("_plan"))
    assert memory == []
    if game_id == "bloodstones":
        assert fork.__dict__["model"] is policy.__dict__["model"]


@pytest.mark.parametrize("game_id", PLANNING_GAMES)
@pytest.mark.parametrize(("root", "plans_at"), [("ucb", "root"), ("ucb", "tree"), ("paired", "root")])
def test_the_searcher_commits_to_a_plan_and_plays_it_without_searching_again(
        game_id: str, root: str, plans_at: str) -> None:
    state, seat, plans = decision_with_plans(game_id, 7)
    agent = MctsAgent(seat, seed=3, iterations=12, rollout="greedy", rollout_depth=4, root=root, plans=plans_at)
    first = agent.select_action(state)
    chosen = [p for p in plans if p[0] == str(first)]
    assert chosen, f"{first} starts none of the offered plans {plans}"
    state.apply(first, seat)
    rest = agent._plan[:]
    assert any(p[1:] == rest for p in chosen)
    for text in rest:
        if state.is_terminal() or seat not in state.actors():
            break
        action = agent.select_action(state)
        assert agent.last_iterations == 0, "a step of the committed plan is not searched again"
        assert str(action) == text
        state.apply(action, seat)


def test_a_plan_is_dropped_when_another_seat_acts_in_between() -> None:
    state, seat, _ = decision_with_plans("bloodstones", 8)
    agent = MctsAgent(seat, seed=3, iterations=6, rollout="greedy", rollout_depth=2, plans="root")
    agent._plan, agent._plan_from, agent._plan_done = ["done"], len(state.history), 0
    state.history_seats.append(1 - seat)  # as if the other seat had acted since
    state.history.append("done")
    assert agent._continue_plan(state) is None
    assert agent._plan == []


@pytest.mark.parametrize("game_id", PLANNING_GAMES)
def test_paired_search_is_reproducible_with_an_iteration_budget(game_id: str) -> None:
    state, seat, _ = decision_with_plans(game_id, 9)
    picks = {str(MctsAgent(seat, seed=4, iterations=10, rollout="greedy", rollout_depth=3,
                           root="paired", plans="root").select_action(state)) for _ in range(2)}
    assert len(picks) == 1


@pytest.mark.parametrize("root", ["ucb", "paired"])
def test_with_plans_off_the_searcher_sees_single_actions(root: str) -> None:
    state, seat, _ = decision_with_plans("bloodstones", 10)
    agent = MctsAgent(seat, seed=3, iterations=12, root=root, plans="off")
    assert agent.select_action(state) in state.legal_actions(seat)
    assert agent._plan == []


@pytest.mark.parametrize(("options", "message"), [({"plans": "maybe"}, "plans"), ({"root": "gumbel"}, "root")])
def test_bad_plan_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MctsAgent(0, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", PLANNING_GAMES)
@pytest.mark.parametrize("root", ["ucb", "paired"])
def test_plan_search_never_reads_the_hidden_truth(game_id: str, root: str) -> None:
    """Swap the true state for a resample with the same observation: the plans offered and the
    choice made are the same (the policy's plans see only the seat's observation)."""
    state, seat, plans = decision_with_plans(game_id, 12)
    other = state.resample_hidden(seat, Rng(77))
    assert other.observation(seat) == state.observation(seat)
    policy = state.game.policy()
    assert isinstance(policy, PlanningPolicy)
    assert policy.plans(other, seat, Rng(1)) == plans
    options = {"iterations": 16, "rollout": "greedy", "rollout_depth": 30, "rollout_turns": 1,
               "root": root, "plans": "root"}
    a = MctsAgent(seat, seed=5, **options)  # type: ignore[arg-type]
    b = MctsAgent(seat, seed=5, **options)  # type: ignore[arg-type]
    assert a.select_action(state) == b.select_action(other)
    assert a._plan == b._plan


@pytest.mark.parametrize("game_id", PLANNING_GAMES)
def test_rollouts_end_when_the_turns_have_changed(game_id: str) -> None:
    """`rollout_turns=1`: the rollout stops as soon as the game's turn marker changes."""
    state, seat, _ = decision_with_plans(game_id, 13)
    agent = MctsAgent(seat, seed=1, iterations=1, rollout="greedy", rollout_depth=10_000, rollout_turns=1)
    start = state.turn_marker()
    assert start is not None
    copy = state.clone()
    agent._rollout(copy, Rng(2), {})
    assert copy.is_terminal() or copy.turn_marker() != start
    # and not a step beyond: undo the last action by replaying the history minus one entry
    before = state.clone()
    for text, who in zip(copy.history[len(state.history):-1], copy.history_seats[len(state.history):-1], strict=True):
        if who is not None:
            before.apply(text, who)
    assert before.turn_marker() == start


@pytest.mark.parametrize("game_id", PLANNING_GAMES)
def test_paired_search_keeps_the_policys_plan_unless_the_gain_is_significant(game_id: str) -> None:
    """With an impossible guard (a gain of a billion standard errors) the paired search plays
    the policy's own plan; with none it may play any offered plan."""
    state, seat, plans = decision_with_plans(game_id, 14)
    options = {"iterations": 24, "rollout": "greedy", "rollout_depth": 20, "root": "paired", "plans": "root"}
    cautious = MctsAgent(seat, seed=2, z=1e9, **options)  # type: ignore[arg-type]
    first = cautious.select_action(state)
    assert [str(first), *cautious._plan] == plans[0]
    bold = MctsAgent(seat, seed=2, margin=-1.0, **options)  # type: ignore[arg-type]
    first = bold.select_action(state)
    assert [str(first), *bold._plan] in plans
    with pytest.raises(ValueError, match="mcts option z"):
        MctsAgent(seat, z=-1)
