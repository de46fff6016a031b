# ruff: noqa: N802  (test names carry the rule ids, K72, K133, in capitals)
"""Issue 21 item 1: the search's hooks for Kingdoms of Blood — the evaluation at the rollouts'
cut-off (evaluation.py), the policy's plans (one phase of a faction's turn each) and the
game's search settings."""

from __future__ import annotations

from functools import cache
from typing import Any

from bloodforge.agents.mcts import MctsAgent, SearchSettings
from bloodforge.core import Rng
from bloodforge.games.kingdoms import KingdomsState
from bloodforge.games.kingdoms.evaluation import INCOME, KingdomsJudge
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
    assert ahead[0] > 0.85 > 0.15 > ahead[1]
    for i in gem_areas[:-1]:
        s.owner[i] = F("humans")
    behind = s.game.evaluate(s)
    assert behind[1] > 0.85


def test_evaluation_of_a_finished_game_is_its_returns() -> None:
    s = _midgame().clone()
    s.over, s.winners = True, [F("humans"), F("undead")]
    assert s.game.evaluate(s) == s.returns() == [0.0, 1.0]


def test_plans_are_whole_phases_of_legal_steps_whose_first_is_the_policys_own() -> None:
    for phase in ("combat_move", "noncombat"):
        s = _at_phase(phase)
        seat = s.actors()[0]
        policy = KingdomsPolicy()
        plans = policy.plans(s, seat, Rng(4))
        assert plans is not None
        assert len(plans) >= 2
        assert (["done"] in plans) == (phase == "combat_move")  # phase 4 must land air units
        # no two plans make the same moves in another order (that would only split the samples)
        assert len({tuple(sorted(p)) for p in plans}) == len(plans)
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


def test_the_search_plays_the_policys_own_purchase() -> None:
    for phase in ("purchase",):
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


def test_K133_K136_a_gem_territory_is_worth_its_income_and_a_won_game_its_returns() -> None:
    """Victory gems have no weight of their own (fitted: the income and threats carry them, and
    a win in a rollout is exact), alone or in a team."""
    judge = _judge(fresh(players=4))

    def worth(gems: list[int], teams: list[int]) -> float:
        obs = {"factions": [{"faction": f, "team": t, "treasury": 0, "gems": g}
                            for f, t, g in zip(("elves", "humans", "dwarves", "undead"), teams, gems, strict=True)],
               "owner": {}, "pieces": [], "active": "humans", "castles": [], "ports": []}
        return judge.side_values(obs)[teams[0]]

    assert worth([5, 3, 3, 3], [0, 1, 2, 3]) == worth([4, 3, 3, 3], [0, 1, 2, 3])
    assert worth([4, 4, 3, 3], [0, 1, 0, 1]) == worth([3, 4, 3, 3], [0, 1, 0, 1])
    gem = next(a for a, g in judge.gem.items() if g)
    held = {"factions": [{"faction": f, "team": t, "treasury": 0, "gems": 3}
                         for f, t in zip(("elves", "humans", "dwarves", "undead"), (0, 1, 0, 1), strict=True)],
            "owner": {gem: "elves"}, "pieces": [], "active": "humans", "castles": [], "ports": []}
    assert judge.side_values(held)[0] == INCOME * judge.value[gem]


def test_evaluation_sees_a_gem_exposed_to_an_enemy_army_next_door() -> None:
    """The same armies and land: an enemy army next to our gem territory is worth more to the
    enemy (gem threat) than the same army far away."""
    s = fresh(players=2)
    judge = _judge(s)
    static = s.game.static_info()
    areas = {a["id"]: a for a in static["board"]["areas"] if a["kind"] == "land"}
    gem = next(a for a, d in areas.items() if d.get("gem") and not d.get("capital"))
    near = next(n for n in judge.adjacency[gem] if n in areas and not areas[n].get("gem"))
    far = next(a for a in areas if a != gem and a != near and a not in judge.adjacency[gem]
               and not any(n == gem for n in judge.adjacency[a]))

    def side(at: str) -> dict[int, float]:
        obs = {"factions": [{"faction": f, "team": t, "treasury": 0, "gems": 3}
                            for f, t in zip(("elves", "humans", "dwarves", "undead"), (0, 1, 0, 1), strict=True)],
               "owner": {gem: "elves", near: "humans", far: "humans"}, "active": "elves",
               "castles": [], "ports": [],
               "pieces": [{"faction": "elves", "kind": "infantry", "at": gem, "aboard": -1, "merc": False}]
               + [{"faction": "humans", "kind": "cavalry", "at": at, "aboard": -1, "merc": False}] * 4}
        return judge.side_values(obs)

    near_lead = side(near)[1] - side(near)[0]
    far_lead = side(far)[1] - side(far)[0]
    assert side(near)[1] > side(far)[1] + 0.2  # four cavalry take one infantry's gem almost surely
    assert near_lead > far_lead + 0.2


def test_evaluation_fitted_to_outcomes_values_an_army_above_land_and_gems() -> None:
    """The weights fitted to greedy games' winners (evaluation.py): a cavalry (8 crowns) is
    worth more than a victory gem (nothing of its own) or a territory of value 3, and an
    unspent crown less than a crown of army. The hand-set weights before them valued a gem at 25 crowns and a territory
    at three turns of income, so the search traded armies for land."""
    judge = _judge(fresh(players=2))
    factions: list[dict[str, Any]] = [{"faction": f, "team": t, "treasury": 0, "gems": 3} for f, t in
                                      zip(("elves", "humans", "dwarves", "undead"), (0, 1, 0, 1), strict=True)]
    base: dict[str, Any] = {"factions": factions, "owner": {}, "active": "humans", "castles": [], "ports": [],
                            "pieces": []}
    far = "sylvanhold"  # a capital; no unit anywhere, so no threats either way
    cavalry = {**base, "pieces": [{"faction": "elves", "kind": "cavalry", "at": "reserve", "aboard": -1,
                                   "merc": False}]}
    gem = {**base, "factions": [{**f, "gems": 4 if f["faction"] == "elves" else 3} for f in factions]}
    land = {**base, "owner": {far: "elves"}}
    crowns = {**base, "factions": [{**f, "treasury": 8 if f["faction"] == "elves" else 0} for f in factions]}
    worth = {k: judge.side_values(o)[0] for k, o in
             (("cavalry", cavalry), ("gem", gem), ("land", land), ("crowns", crowns), ("none", base))}
    value = judge.value[far]
    assert worth["cavalry"] > worth["gem"] == worth["none"]
    assert worth["cavalry"] - worth["none"] > (worth["land"] - worth["none"]) * 3 / value
    assert worth["none"] < worth["crowns"] < worth["cavalry"]


def test_a_variant_that_sends_enough_keeps_the_other_units_home() -> None:
    """`enough` (a plan variant): the policy sends every cavalry that can reach a defended
    target; with enough=0.9 it stops once the units there capture it nine times in ten."""
    def moved(**options: float) -> int:
        s = scenario({"active": "elves", "phase": "combat_move", "clear_units": True,
                      "owner": {"amberford": "humans", "northgate": "humans", "thornbrake": "elves"},
                      "pieces": [{"faction": "elves", "kind": "cavalry", "at": "thornbrake", "count": 8},
                                 {"faction": "humans", "kind": "infantry", "at": "amberford", "count": 2}]})
        policy = KingdomsPolicy(**options)
        seat = s.actors()[0]
        count = 0
        for _ in range(20):
            action = policy.choose(s, seat, Rng(1))
            if action.kind != "move":
                break
            count += action.args[1] == "amberford"
            s.apply(action, seat)
        return count

    own, enough = moved(), moved(enough=0.9)
    assert own >= 7
    assert 1 <= enough < own


def test_phase_4_variants_march_on_the_other_side_and_guard_a_threatened_gem() -> None:
    s = _midgame()
    seat = s.actors()[0]
    policy = KingdomsPolicy()
    static = policy._prepare(s)
    areas = {a["id"]: a for a in static["board"]["areas"]}
    obs = s.policy_observation(seat)
    team = {f["faction"]: f["team"] for f in obs["factions"]}
    ours = team[obs["active"]]
    policy.march = "enemy"
    front = policy._march_front(obs, areas)
    assert front
    assert all(obs["owner"][t] is None or team[obs["owner"][t]] != ours for t in front)
    # an enemy cavalry next to one of our gem territories: `guard` marches there instead
    gem = next(t for t, o in obs["owner"].items() if o is not None and team[o] == ours and areas[t].get("gem"))
    enemy = next(f for f, t in team.items() if t != ours)
    nxt = next(n for n in policy._adj[gem] if n in obs["owner"])
    obs = {**obs, "pieces": [*obs["pieces"], {"id": 999, "faction": enemy, "kind": "cavalry", "at": nxt,
                                              "aboard": -1, "merc": False}]}
    policy.march = "guard"
    guarded = policy._march_front(obs, areas)
    assert gem in guarded
    assert all(obs["owner"][t] is not None and team[obs["owner"][t]] == ours and areas[t].get("gem")
               for t in guarded)
