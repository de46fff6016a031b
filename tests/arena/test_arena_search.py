"""The arena's search hooks (issue 21 item 1): `ArenaGame.evaluate` (evaluation.py), the search
settings (`search_options`), the turn marker and the policy's plans.

R-WIN-1 / R-MODE-1 / R-MODE-4: the last side standing wins; Rulings 2: when a Boss wins, every
seat's return is 0. The evaluation estimates exactly those returns."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import ClassVar

import pytest
from arena_helpers import game, scenario

from bloodforge.agents.mcts import MctsAgent, _settings
from bloodforge.core import Action, Rng, State
from bloodforge.games.arena.evaluation import estimates, side_chances
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.policy import ArenaPolicy
from bloodforge.games.arena.queries import distance, parse_hex

FFA3 = {"players": 3, "boss": None}
SOLO = {"players": 1, "boss": "malvarra"}
COOP = {"players": 2, "mode": "team", "teams": [0, 0], "boss": "grevvar"}


def _greedy(state: ArenaState, decisions: int, seed: int = 0) -> ArenaState:
    """`state` played on by the greedy policy for `decisions` seat decisions (or to the end)."""
    policy, rng = ArenaPolicy(), Rng(seed)
    n = 0
    while not state.is_terminal() and n < decisions:
        seat = state.actors()[0]
        state.apply(policy.choose(state, seat, rng), seat)
        n += 1
    return state


@functools.cache
def _midgame(params: tuple[tuple[str, object], ...], decisions: int = 120) -> ArenaState:
    state = game(**dict(params)).new_initial_state()
    assert isinstance(state, ArenaState)
    return _greedy(state, decisions)


def _mid(params: Mapping[str, object], decisions: int = 120) -> ArenaState:
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
    return _midgame(key, decisions).clone()


@pytest.mark.parametrize("params", [FFA3, SOLO, COOP])
def test_evaluation_reads_only_each_seats_observation(params: Mapping[str, object]) -> None:
    """The estimate of every seat is the same for any hidden state consistent with what the
    seats see: a resample of the hidden truth (hands, picks, deck order) changes nothing."""
    state = _mid(params)
    assert not state.is_terminal()
    expected = state.game.evaluate(state)
    for seat in range(state.num_players):
        for k in range(2):
            other = state.resample_hidden(seat, Rng(17 + k))
            assert other.observation_facts(seat) == state.observation_facts(seat)
            assert other.game.evaluate(other)[seat] == pytest.approx(expected[seat])
    assert expected == estimates([state.observation_facts(s) for s in range(state.num_players)])


def test_r_mode_1_ffa_shares_sum_to_one_without_npcs() -> None:
    state = _mid(FFA3)
    values = state.game.evaluate(state)
    assert len(values) == 3
    assert all(0 <= v <= 1 for v in values)
    assert sum(values) == pytest.approx(1.0)


def test_r_win_3_an_npc_sides_chance_is_nobodys_return() -> None:
    """Solo against a Boss and a Rival: the seat's estimate plus the NPC sides' chances is 1,
    and the seat's estimate is its own side's chance (below 1 while the Boss stands)."""
    state = _mid(SOLO, 60)
    obs = state.observation_facts(0)
    chances = side_chances(obs)
    assert sum(chances.values()) == pytest.approx(1.0)
    mine = next(u["side"] for u in obs["units"] if u["seat"] == 0)
    (value,) = state.game.evaluate(state)
    assert value == pytest.approx(chances[mine])
    assert 0 < value < 1


def test_r_mode_4_coop_every_champion_gets_the_teams_estimate() -> None:
    """Both seats on one team against the Boss: the same value for each, the team's chance
    shared as a team win's return is (1/2 each), so the two sum to the team's chance."""
    state = _mid(COOP, 60)
    a, b = state.game.evaluate(state)
    assert a == pytest.approx(b)
    chances = side_chances(state.observation_facts(0))
    assert a + b == pytest.approx(chances[0])
    assert 0 < a + b < 1


def test_a_clearly_winning_position_is_favoured() -> None:
    """Vhrak at full health against an Ulwazi with 15 HP (no Boss): Vhrak is the favourite by
    far; swap the health and the estimate swaps."""
    params = {"players": 2, "boss": None}
    units = [{"id": "vhrak", "hex": "0,0", "hp": 175}, {"id": "ulwazi", "hex": "3,0", "hp": 15}]
    state = scenario(params, {"units": units, "order": ["vhrak", "ulwazi"], "active": "vhrak", "tiles": []})
    vhrak, ulwazi = state.game.evaluate(state)
    assert vhrak > 0.95
    assert vhrak + ulwazi == pytest.approx(1.0)
    units = [{"id": "vhrak", "hex": "0,0", "hp": 15}, {"id": "ulwazi", "hex": "3,0", "hp": 175}]
    state = scenario(params, {"units": units, "order": ["vhrak", "ulwazi"], "active": "vhrak", "tiles": []})
    assert state.game.evaluate(state)[1] > 0.95


@pytest.mark.parametrize("params", [FFA3, SOLO, COOP])
def test_r_win_1_terminal_estimate_is_the_returns(params: Mapping[str, object]) -> None:
    state = _greedy(_mid(params), 100_000)
    assert state.is_terminal()
    assert state.game.evaluate(state) == pytest.approx(state.returns())


def test_search_options_are_valid_settings_and_plans_are_on() -> None:
    g = game(players=2)
    options = g.search_options()
    settings = _settings(options)  # raises on a wrong name or value
    assert settings.plans == "root"
    assert settings.rollout == "greedy"
    assert settings.rollout_turns > 0


@pytest.mark.parametrize(("params", "shy"), [
    ({"players": 2}, True),
    ({"players": 3}, True),
    ({"players": 1}, False),
    ({"players": 2, "mode": "team"}, False),
    ({"players": 4, "mode": "team"}, False),
])
def test_ffa_between_players_weighs_shy_play_and_expects_it_solo_and_team_do_not(
        params: dict[str, object], shy: bool) -> None:
    """Free-For-All between players' Champions: the policy's `shy` play is a root option and
    the model of the other Champions (the Boss hits whoever it can reach with the most
    Health); solo and team play search as before."""
    settings = _settings(game(**params).search_options())
    assert (settings.portfolio == [{"shy": True}]) is shy
    assert (settings.opponent_policy_options == {"shy": True}) is shy
    assert settings.plans == "root"
    assert settings.root == "paired"


def test_the_games_search_options_are_a_fresh_copy_each_time() -> None:
    """A caller that edits the options it was given (the hint, a level) must not change the
    next table's search."""
    g = game(players=2)
    options = g.search_options()
    options["portfolio"].append({"plan_width": 1})
    options["opponent_policy_options"]["shy"] = False
    assert g.search_options()["portfolio"] == [{"shy": True}]
    assert g.search_options()["opponent_policy_options"] == {"shy": True}


def test_turn_marker_changes_once_per_finished_turn() -> None:
    state = _mid(FFA3, 40)
    before = state.turn_marker()
    done = len(state.board.done)
    _greedy(state, 1)
    assert (state.turn_marker() == before) == (len(state.board.done) == done and state.board.round == before[0])


def test_plans_start_with_the_policys_own_choice_and_skip_clear_cut_ones() -> None:
    state = _mid(FFA3, 40)
    policy = ArenaPolicy()
    checked = clear_cut = 0
    while checked < 25 and not state.is_terminal():
        seat = state.actors()[0]
        choice = policy.choose(state, seat, Rng(0))
        plans = policy.plans(state, seat, Rng(0))
        if plans is not None:
            assert plans[0] == [str(choice)]
            assert len(plans) <= policy.plan_width
            assert len({p[0] for p in plans}) == len(plans)
            if choice.kind == "energy":
                assert plans == [[str(choice)]]
                clear_cut += 1
            checked += 1
        state.apply(choice, seat)
    assert checked == 25
    assert clear_cut > 0
    assert policy.fork().plan_width == policy.plan_width


def test_the_search_weighs_only_the_policys_plans_with_the_games_settings() -> None:
    """`mcts` with the arena's own settings: a clear-cut decision (taking Blood Energy) is
    played at once, without a sample; elsewhere the choice is one of the policy's plans."""
    state = _mid(FFA3, 40)
    policy = ArenaPolicy()
    searched = energy = 0
    while (searched < 2 or energy < 1) and not state.is_terminal():
        seat = state.actors()[0]
        plans = policy.plans(state, seat, Rng(0))
        agent = MctsAgent(seat, seed=3, iterations=8, rollout_turns=1)  # cheap; the rest as the game sets
        action = agent.select_action(state)
        if plans is not None and len(plans) == 1 and plans[0][0].startswith("energy"):
            assert agent.last_iterations == 0
            assert str(action) == plans[0][0]
            energy += 1
        elif plans is not None and len([p for p in plans if p != ["cancel"]]) > 1:  # never searched
            assert agent.last_iterations > 0
            assert [str(action)] in plans
            searched += 1
        state.apply(action, seat)
    assert searched >= 2
    assert energy >= 1


def _npc_reaches(state: ArenaState, seat: int) -> list[tuple[tuple[int, int], int]]:
    """Every enemy Boss or Rival standing, with its Movement + Range (turn mods too)."""
    info = state.game.static_info()
    stats = {c["id"]: c for c in (*info["bosses"], *info["champions"])}
    obs = state.observation_facts(seat)
    me = next(u for u in obs["units"] if u["seat"] == seat)
    found = []
    for u in obs["units"]:
        if u["seat"] is None and u["kind"] in ("boss", "rival") and u["alive"] and u["hex"] and u["side"] != me["side"]:
            base = stats[u["id"]]
            at = parse_hex(u["hex"])
            assert at is not None
            found.append((at, base["movement"] + u["mods"].get("movement", 0) + base["range"]
                          + u["mods"].get("range", 0)))
    return found


def _safe_moves(state: ArenaState, seat: int) -> list[str]:
    """The seat's moves to a hex out of every enemy NPC's reach."""
    reaches = _npc_reaches(state, seat)
    safe = []
    for a in state.legal_actions(seat):
        if a.kind == "move":
            h = parse_hex(a.args[0])
            assert h is not None
            if all(distance(h, at) > reach for at, reach in reaches):
                safe.append(str(a))
    return safe


def _room(state: ArenaState, seat: int, hex_text: str) -> int:
    """How far `hex_text` lies beyond the nearest enemy NPC's reach (negative: inside it)."""
    h = parse_hex(hex_text)
    assert h is not None
    return min(distance(h, at) - reach for at, reach in _npc_reaches(state, seat))


def test_option_shy_only_moves_away_from_the_enemy_npcs() -> None:
    """`shy` (a model of an opponent who leaves the Boss to others): while an enemy NPC
    stands, every move it chooses puts more room between it and the nearest one."""
    shy = ArenaPolicy(shy=True)
    state = _mid({"players": 2}, 0)
    moves = 0
    while not state.is_terminal() and state.board.round <= 12:
        seat = state.actors()[0]
        action = shy.choose(state, seat, Rng(0))
        if action.kind == "move" and _npc_reaches(state, seat):
            me = next(u for u in state.observation_facts(seat)["units"] if u["seat"] == seat)
            assert _room(state, seat, action.args[0]) > _room(state, seat, me["hex"])
            moves += 1
        state.apply(action, seat)
    assert moves >= 3


class _SpyPolicy(ArenaPolicy):
    """The arena policy, noting which options chose for which seat (a test's window on the
    rollouts)."""

    calls: ClassVar[list[tuple[str, int]]] = []

    def choose(self, state: State, seat: int, rng: Rng) -> Action:
        _SpyPolicy.calls.append((json.dumps(self.options, sort_keys=True), seat))
        return super().choose(state, seat, rng)

    def fork(self) -> _SpyPolicy:
        new = _SpyPolicy(**self.options)
        new._info = self._info
        return new


def _move_decision(params: Mapping[str, object]) -> ArenaState:
    """A greedy 2-player game up to a decision of several plans where `shy` would play
    something none of them is."""
    state = _mid(params, 0)
    plain, shy = ArenaPolicy(), ArenaPolicy(shy=True)
    while not state.is_terminal():
        seat = state.actors()[0]
        plans = plain.plans(state, seat, Rng(0))
        if plans and len(plans) > 1 and [str(shy.choose(state, seat, Rng(0)))] not in plans:
            return state
        state.apply(plain.choose(state, seat, Rng(0)), seat)
    raise AssertionError("no such decision")


def test_a_portfolio_style_is_one_more_root_option_and_plays_the_searching_seats_rollouts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """mcts `portfolio` and `opponent_policy_options`: the style's own choice joins the paired
    root's options; its samples play the searching seat on with the style, every other
    option's with our policy; the other seats play the opponent model throughout."""
    state = _move_decision({"players": 2})
    seat = state.actors()[0]
    plans = ArenaPolicy().plans(state, seat, Rng(0))
    assert plans is not None
    monkeypatch.setattr(state.game, "policy", lambda **options: _SpyPolicy(**options))
    _SpyPolicy.calls = []
    samples = 3
    agent = MctsAgent(seat, seed=4, iterations=samples * (len(plans) + 1), portfolio=[{"shy": True}],
                      opponent_policy_options={"plan_width": 2})
    action = agent.select_action(state)
    assert agent.last_iterations == samples * (len(plans) + 1)
    shy_choice = str(ArenaPolicy(shy=True).choose(state, seat, Rng(0)))
    assert str(action) in [p[0] for p in plans] + [shy_choice]
    by_options: dict[str, set[int]] = {}
    for options, who in _SpyPolicy.calls:
        by_options.setdefault(options, set()).add(who)
    assert by_options['{"shy": true}'] == {seat}  # the style: the searching seat only
    # its root choice once, then its samples' rollouts: the seat decides in each
    assert sum(1 for options, _ in _SpyPolicy.calls if options == '{"shy": true}') > 1 + samples
    assert by_options['{"plan_width": 2}'] == {1 - seat}  # the model: the others only
    assert by_options["{}"] == {seat}  # our own policy: the searching seat's other samples
    # without the options (the game's own FFA settings have them), our policy plays every
    # seat and nothing is added
    _SpyPolicy.calls = []
    plain = MctsAgent(seat, seed=4, iterations=samples * len(plans), portfolio=[], opponent_policy_options=None)
    plain.select_action(state)
    assert plain.last_iterations == samples * len(plans)
    assert {options for options, _ in _SpyPolicy.calls} == {"{}"}
    assert {who for _, who in _SpyPolicy.calls} == {0, 1}
