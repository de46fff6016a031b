# ruff: noqa: N802  (test names carry the rule ids, K72, K133, in capitals)
"""Issue 21 item 1: the search's hooks for Kingdoms of Blood — the evaluation at the rollouts'
cut-off (evaluation.py), the policy's plans (one phase of a faction's turn each) and the
game's search settings."""

from __future__ import annotations

from functools import cache

from bloodforge.agents.mcts import MctsAgent, SearchSettings
from bloodforge.core import Rng
from bloodforge.games.kingdoms import KingdomsState
from bloodforge.games.kingdoms.evaluation import GEM_WORTH, NEAR_WIN_WORTH, KingdomsJudge
from bloodforge.games.kingdoms.policy import KingdomsPolicy

from .helpers import F, fresh, play, scenario


@cache
def _midgame() -> KingdomsState:
    """A two-player game after 200 plies of greedy play: armies on the board, some face down."""
    s = fresh(players=2, seed=3)
    policy = KingdomsPolicy()
    rng = Rng(1)
    for _ in range(200):
        seat = s.actors()[0]
        s.apply(policy.choose(s, seat, rng), seat)
    assert not s.is_terminal()
    return s


def _at_phase(phase: str) -> KingdomsState:
    """The mid-game played on greedily until a faction's turn reaches `phase` with a choice."""
    s = _midgame().clone()
    policy = KingdomsPolicy()
    rng = Rng(2)
    while not (s.phase == phase and s.battle is None and len(s.legal_actions(s.actors()[0])) > 1):
        seat = s.actors()[0]
        s.apply(policy.choose(s, seat, rng), seat)
    return s


def _judge(s: KingdomsState) -> KingdomsJudge:
    return KingdomsJudge(s.game.static_info())


def test_evaluation_reads_only_the_seats_observation() -> None:
    s = _midgame()
    judge = _judge(s)
    hidden = sum(1 for p in s.policy_observation(0)["pieces"] if p["kind"] is None)
    assert hidden > 0  # the test means something only with face-down enemy units
    for seat in (0, 1):
        value = judge.seat_value(s.policy_observation(seat), seat)
        for k in range(3):
            other = s.resample_hidden(seat, Rng(k))
            assert judge.seat_value(other.policy_observation(seat), seat) == value


def test_evaluation_shares_sum_to_one_and_favour_the_side_clearly_ahead() -> None:
    s = _midgame().clone()
    shares = s.game.evaluate(s)
    assert abs(sum(shares) - 1) < 1e-9
    assert all(0 < x < 1 for x in shares)
    # seat 0 (Elves and Dwarves) takes every gem territory but one: far ahead of seat 1
    gem_areas = [i for i, g in enumerate(s.content.gem) if g and not s.content.is_sea[i]]
    for i in gem_areas[:-1]:
        s.owner[i] = F("elves")
    ahead = s.game.evaluate(s)
    assert abs(sum(ahead) - 1) < 1e-9
    assert ahead[0] > 0.95 > 0.05 > ahead[1]
    for i in gem_areas[:-1]:
        s.owner[i] = F("humans")
    behind = s.game.evaluate(s)
    assert behind[1] > 0.95


def test_evaluation_of_a_finished_game_is_its_returns() -> None:
    s = _midgame().clone()
    s.over, s.winners = True, [F("humans"), F("undead")]
    assert s.game.evaluate(s) == s.returns() == [0.0, 1.0]


def test_plans_are_whole_phases_of_legal_steps_whose_first_is_the_policys_own() -> None:
    for phase in ("combat_move",):
        s = _at_phase(phase)
        seat = s.actors()[0]
        policy = KingdomsPolicy()
        plans = policy.plans(s, seat, Rng(4))
        assert plans is not None
        assert len(plans) >= 2
        assert ["done"] in plans
        for plan in plans:
            # replayed step by step on the real state, every step is legal, and the plan ends
            # the phase (or the faction's decisions in it)
            t = s.clone()
            for text in plan:
                assert text in [str(a) for a in t.legal_actions(seat)], (phase, plan, text)
                t.apply(text, seat)
            assert t.phase != phase or t.is_terminal() or t.battle is not None or t.actors() != [seat]
        # the policy's own plan: the steps its `choose` takes one at a time, a whole phase
        own = plans[0]
        t = s.clone()
        for text in own:
            assert str(policy.choose(t, seat, Rng(0))).split()[0] == text.split()[0]
            t.apply(text, seat)


def test_plans_depend_only_on_the_seats_observation() -> None:
    s = _at_phase("combat_move")
    seat = s.actors()[0]
    policy = KingdomsPolicy()
    plans = policy.plans(s, seat, Rng(5))
    for k in range(2):
        assert policy.plans(s.resample_hidden(seat, Rng(k)), seat, Rng(5)) == plans


def test_the_search_plays_the_policys_own_purchase_and_phase_4() -> None:
    for phase in ("purchase", "noncombat"):
        s = _at_phase(phase)
        seat = s.actors()[0]
        policy = KingdomsPolicy()
        plans = policy.plans(s, seat, Rng(6))
        assert plans is not None
        assert len(plans) == 1  # the only option: no search
        assert plans[0] == [str(policy.choose(s, seat, Rng(6)))]


def test_K72_the_search_weighs_stand_or_retreat_the_policys_choice_first() -> None:
    s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                  "owner": {"amberford": "humans", "northgate": "humans", "thornbrake": "elves"},
                  "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 3},
                             {"faction": "humans", "kind": "infantry", "at": "amberford", "count": 1}]},
                 rig={"dice": [6] * 30})
    play(s, *["move thornbrake amberford cavalry"] * 3, "done", "fight amberford")
    seat = s.actors()[0]
    legal = [str(a) for a in s.legal_actions(seat)]
    assert "stand" in legal
    assert any(t.startswith("retreat") for t in legal)
    policy = KingdomsPolicy()
    plans = policy.plans(s, seat, Rng(7))
    assert plans is not None
    assert plans[0] == [str(policy.choose(s, seat, Rng(7)))]
    assert sorted(p[0] for p in plans) == sorted(legal)


def test_fork_plays_as_the_policy() -> None:
    s = _at_phase("purchase")
    seat = s.actors()[0]
    policy = KingdomsPolicy()
    fork = policy.fork()
    assert fork.choose(s, seat, Rng(3)) == policy.choose(s, seat, Rng(3))


def test_search_options_are_valid_settings_and_a_plan_is_played_without_a_new_search() -> None:
    s = _at_phase("combat_move").clone()
    settings = SearchSettings(**s.game.search_options())
    assert settings.plans == "root"
    assert settings.rollout == "greedy"
    assert settings.rollout_turns >= 1
    seat = s.actors()[0]
    agent = MctsAgent(seat, seed=1, iterations=12)
    action = agent.select_action(s)
    assert agent.last_iterations > 0
    s.apply(action, seat)
    if agent.planned_steps:
        nxt = agent.planned_steps[0]
        assert str(agent.select_action(s)) == nxt
        assert agent.last_iterations == 0


def test_K133_K136_a_gem_short_of_the_win_is_worth_more_alone_and_in_a_team() -> None:
    judge = _judge(fresh(players=4))

    def worth(gems: list[int], teams: list[int]) -> float:
        obs = {"factions": [{"faction": f, "team": t, "treasury": 0, "gems": g}
                            for f, t, g in zip(("elves", "humans", "dwarves", "undead"), teams, gems, strict=True)],
               "owner": {}, "pieces": []}
        return judge.side_values(obs)[teams[0]]

    alone = [0, 1, 2, 3]
    assert worth([5, 3, 3, 3], alone) - worth([4, 3, 3, 3], alone) == GEM_WORTH
    assert worth([6, 3, 3, 3], alone) - worth([5, 3, 3, 3], alone) == GEM_WORTH + NEAR_WIN_WORTH  # 7 wins
    team = [0, 1, 0, 1]
    assert worth([4, 3, 3, 3], team) - worth([3, 3, 3, 3], team) == GEM_WORTH
    assert worth([5, 3, 3, 3], team) - worth([4, 3, 3, 3], team) == GEM_WORTH + NEAR_WIN_WORTH  # 9 wins
