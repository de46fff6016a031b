"""Information-set Monte Carlo tree search (single-observer IS-MCTS) for every game.

Why single-observer: one tree of the searching seat's information set (Cowling, Powley and
Whitehouse 2012, "SO-ISMCTS") needs nothing from a game but the contract, and the games here
hide little from the seat that matters for its own next decision (hands, bag order, face-down
units). Each iteration:

1. *Determinize*: `state.resample_hidden(seat, rng)` gives a state consistent with what the
   searching seat observed; the true hidden state is never looked at (the real state is only
   ever the argument of `resample_hidden`, and the agent's choice is the same for any state with
   the same observation and the same resampling; the tests check this).
2. *Select* down the tree by UCB1 with availability counts (an edge's exploration term counts
   the iterations in which it was legal, not the parent's visits: in another determinization
   other actions may be legal). Edges are (seat, action); whoever acts in the determinization
   chooses, maximising its own share of the returns (the max^n rule for several players).
3. *Expand* one untried legal action, then *roll out* at most `rollout_depth` decisions with the
   rollout policy (`random`; `light`: the game's cheap weighted-random `rollout_policy()`, random
   where it has none; or `greedy`: the game's own heuristic policy), and
4. *cut off*: a finished game scores `returns()`; an unfinished one `Game.evaluate(state)` (the
   game's own estimate of each seat's return, an optional contract hook) or, for games without
   one, an even share for every seat.

Progressive widening (`widening`) keeps a short search from spreading its few samples over every
action. Optionally (`prior=greedy`) the game policy's own choice is expanded first at the root
and gets a bias that fades with its visits; off by default, because in 16 seat-swapped Blood
Stone games at 0.2 s per decision it scored 0.375 against greedy where the unbiased search
scored 0.50 (same seeds; too few games to tell them apart, so the simpler search is the default).

Plans (`plans=root` or `tree`): where the game's policy is a `PlanningPolicy`, a node's
options are the policy's candidate plans (compound actions: select units, destination, pay)
instead of single actions, applied whole; the chosen plan's later steps are then played without
a new search, as the policy itself would. A search over single steps in such a game spends its
budget on half-built plans that the heuristic rollout cancels; over plans it compares what the
heuristic compares, by sampled outcomes instead of the heuristic's static score. Rollouts then
use a fresh `fork()` of the policy per iteration, so no turn counter leaks between samples.

Forced decisions (one legal action) are applied without a tree level. `cancel` is never
searched while anything else is legal: it only loops back to an earlier decision.

Game mechanics handled generically: the game takes its own steps inside `apply` (chance, reveals,
bosses), so the tree is "open loop" over chance: after an action, every chance outcome leads to
the same child, as in SO-ISMCTS. During secret simultaneous commitments (several `actors()`),
the searching seat commits first in the tree whenever it is among the actors, so its own choice
never depends on a commitment it could not see; other seats that commit after it in the tree
are chosen as if they had seen it (a cautious, pessimistic bias, documented in docs/lab.md).

Budget: `iterations` (reproducible: same seed, same choices) and/or `seconds` per decision
(whichever ends first). The real state is never modified.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bloodforge.core import Action, PlanningPolicy, Policy, Rng, State, WeightingPolicy

from .base import Agent, register_agent, settings_from_options

#: Iterations per decision when neither `iterations` nor `seconds` is given.
DEFAULT_ITERATIONS = 200

#: What a `seconds` budget counts (option `clock`).
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}

#: Seconds per decision for each step of `strength` (the browser's 1-10): 10 is one second.
STRENGTH_SECONDS = 0.1


class SearchSettings(BaseModel):
    """Every option of the search, validated (see `MctsAgent`); a game's `search_options()`
    fills in what the user did not give."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    iterations: int | None = Field(default=None, ge=1)
    seconds: float | None = Field(default=None, gt=0)
    rollout_depth: int = Field(default=6, ge=0)
    rollout: Literal["random", "light", "greedy"] = "random"
    exploration: float = Field(default=0.7, ge=0)
    policy_options: dict[str, Any] = Field(default_factory=dict)
    opponent_policy_options: dict[str, Any] | None = None
    portfolio: list[dict[str, Any]] = Field(default_factory=list)
    prior: Literal["none", "greedy"] = "none"
    prior_bias: float = 0.5
    widening: float = Field(default=1.0, ge=0)
    plans: Literal["off", "root", "tree"] = "off"
    root: Literal["ucb", "paired"] = "ucb"
    rollout_turns: int = Field(default=0, ge=0)
    margin: float = 0.0
    z: float = Field(default=0.0, ge=0)
    clock: Literal["wall", "cpu"] = "wall"
    expand: Literal["random", "light"] = "random"


def _settings(options: dict[str, Any]) -> SearchSettings:
    return settings_from_options(SearchSettings, options, "mcts", ("strength",))


#: An option at a node: the first action, and the texts of the plan's later steps.
_Option = tuple[Action, tuple[str, ...]]
#: How an edge is found at its node: the action (a single step) or the plan's texts.
_Key = Action | tuple[str, ...]


class _Edge:
    __slots__ = ("action", "avail", "child", "seat", "steps", "value", "visits")

    def __init__(self, seat: int, action: Action, steps: tuple[str, ...] = ()) -> None:
        self.seat = seat
        self.action = action
        self.steps = steps
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.child = _Node()


class _Node:
    __slots__ = ("edges", "visits")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, _Key], _Edge] = {}
        self.visits = 0


class MctsAgent(Agent):
    """IS-MCTS over determinizations; see the module docstring for the algorithm.

    Options: `iterations` (int), `seconds` (float; per decision), `rollout_depth` (decisions
    played by the rollout policy before the cut-off, default 6), `rollout` (`random`, `light` or
    `greedy`), `exploration` (UCB constant, default 0.7 for returns in [0, 1]), `policy_options`
    (dict passed to the game's policy), `opponent_policy_options` (greedy rollouts: the other
    seats play the game's policy with these options instead, a model of an opponent unlike
    ours; default the same policy), `portfolio` (`root=paired`: a list of policy options, each
    one more root option: that policy's own choice here, with the searching seat's rollout
    played on by that policy, so a way of playing several turns long is weighed against the
    others, not only a first action), `prior` (`none`, or `greedy`: the policy's own choice at
    the root is tried first and favoured by `prior_bias` / sqrt(visits)), `widening` (progressive
    widening: at most 1 + widening * sqrt(visits) children per node; 0 = all, plain UCT),
    `plans` (`off`: single actions; `root`: the policy's candidate plans at the root, where it
    offers them; `tree`: at every node, costly when the policy's plans are), `root` (`ucb`: the
    tree search; `paired`: every root option on the same samples, see `_paired`), `margin`
    (`paired`: how much better on average another option must do to replace the policy's own),
    `z` (`paired`: and by this many standard errors of its paired gain; 0 = the mean decides),
    `rollout_turns` (also end a rollout when this many new turns have begun, by the game's
    `turn_marker`; 0 = by `rollout_depth` only, which stays the cap), `clock` (`wall`: `seconds`
    of wall time, what a player waits; `cpu`: of this process's CPU time, so a lab run on a
    busy machine searches as much as on an idle one).
    """

    name = "mcts"

    def __init__(self, seat: int, seed: int = 0, strength: int | None = None, **options: Any) -> None:
        super().__init__(seat, seed)
        if strength is not None:
            if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= 10:
                raise ValueError(f"mcts option strength must be an integer 1..10, got {strength!r}")
            if "seconds" not in options and "iterations" not in options:
                options["seconds"] = STRENGTH_SECONDS * strength
        #: the options given here; they override the game's own `search_options()`
        self.given = dict(options)
        self._use(_settings(self.given))
        self._tuned_for: str | None = None
        self._root_policy: Policy | None = None
        self._root_policy_made = False
        self._light_policy: Policy | None = None
        self._light_made = False
        #: the chosen plan's steps still to play, and where in the history the plan stands
        self._plan: list[str] = []
        self._plan_from = -1
        self._plan_done = 0
        #: Iterations run for the last decision (for benchmarks and reports).
        self.last_iterations = 0
        #: The chosen root option's mean return for this seat in the last search (its estimated
        #: win chance, for hints); None when nothing was searched (a forced move, a plan's step).
        self.last_value: float | None = None

    def _use(self, settings: SearchSettings) -> None:
        self.settings = settings
        self.iterations = settings.iterations
        if settings.iterations is None and settings.seconds is None:
            self.iterations = DEFAULT_ITERATIONS
        self.seconds = settings.seconds
        self.rollout_depth = settings.rollout_depth
        self.rollout = settings.rollout
        self.exploration = settings.exploration
        self.policy_options = dict(settings.policy_options)
        self.opponent_policy_options = settings.opponent_policy_options
        self.portfolio = [dict(style) for style in settings.portfolio]
        self.prior = settings.prior
        self.prior_bias = settings.prior_bias
        self.widening = settings.widening
        self.plans = settings.plans
        self.root = settings.root
        self.rollout_turns = settings.rollout_turns
        self.margin = settings.margin
        self.z = settings.z
        #: what `seconds` counts: wall time (what a player waits) or this process's CPU time
        #: (the same search on a busy machine as on an idle one: lab measurements)
        self.clock = CLOCKS[settings.clock]
        self.expand = settings.expand

    # -- the decision ---------------------------------------------------------------------------
    def select_action(self, state: State) -> Action:
        if self._tuned_for != state.game.id:
            self._use(_settings({**state.game.search_options(), **self.given}))
            self._tuned_for = state.game.id
        self.last_value = None
        planned = self._continue_plan(state)
        if planned is not None:
            return planned
        legal = _useful(state.legal_actions(self.seat))
        if not legal:
            raise ValueError(f"no legal action for seat {self.seat}: {state}")
        rng = Rng(self.rng.next_u64())
        root_options = self._options(state, self.seat, self._policy(state), rng)
        if len(root_options) == 1:
            self.last_iterations = 0
            return self._commit(state, root_options[0])
        if self.root == "paired":
            styles: list[dict[str, Any] | None] = [None] * len(root_options)
            for style in self.portfolio:
                made = state.game.policy(**style)
                if made is not None:
                    root_options.append((made.choose(state, self.seat, rng), ()))
                    styles.append(style)
            return self._commit(state, self._paired(state, root_options, rng, styles))
        root = _Node()
        hint = root_options[0] if self.prior == "greedy" and self._policy(state) is not None else None
        if hint is None and self.prior == "greedy":
            hinted = self._hint(state, rng)
            hint = None if hinted is None else (hinted, ())
        policies: dict[int, Policy] = {}
        deadline = None if self.seconds is None else self.clock() + self.seconds
        n = 0
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            if deadline is not None and n > 0 and self.clock() >= deadline:
                break
            self._iterate(state, root, rng, policies, root_options, hint)
            n += 1
        self.last_iterations = n
        best: _Edge | None = None
        for option in root_options:
            edge = root.edges.get((self.seat, _key(option)))
            if edge is not None and (best is None or (edge.visits, edge.value) > (best.visits, best.value)):
                best = edge
        if best is not None and best.visits:
            self.last_value = best.value / best.visits
        return self._commit(state, root_options[0] if best is None else (best.action, best.steps))

    def _paired(self, state: State, options: list[_Option], rng: Rng,
                styles: Sequence[dict[str, Any] | None] = ()) -> _Option:
        """Every option on the same samples: one determinization and one rollout seed per
        sample, shared by all options (common random numbers), so the options are compared
        on the same tile draws, dice and hidden hands; the policy's own choice (first) is kept
        unless another beats it by `margin` on average, plus `z` standard errors of the gain
        (the best of several noisy means is optimistic; the guard keeps a short search from
        trading the policy's move for one that was only lucky on a few samples)."""
        planner = self._policy(state)
        deadline = None if self.seconds is None else self.clock() + self.seconds
        totals = [0.0] * len(options)
        squares = [0.0] * len(options)  # of each option's gain over the policy's own, per sample
        shared: dict[int, Policy] = {}  # without plans the rollout policies keep no plan state
        n = 0
        while True:
            if self.iterations is not None and n * len(options) >= self.iterations:
                break
            if deadline is not None and n > 0 and self.clock() >= deadline:
                break
            sample = state.resample_hidden(self.seat, rng)
            seed = rng.next_u64()
            values = []
            for i, option in enumerate(options):
                t = sample.clone()
                _apply(t, self.seat, option)
                style = styles[i] if i < len(styles) else None
                own = None if style is None else state.game.policy(**style)
                values.append(self._rollout(t, Rng(seed), shared, planner, own)[self.seat])
            for i, v in enumerate(values):
                totals[i] += v
                squares[i] += (v - values[0]) ** 2
            n += 1
        self.last_iterations = n * len(options)
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        if n == 0 or best == 0:
            self.last_value = totals[0] / n if n else None
            return options[0]
        gain = (totals[best] - totals[0]) / n
        spread = math.sqrt(max(0.0, squares[best] / n - gain * gain) / max(1, n - 1))
        # a standard error needs two samples: after one, a guard (z > 0) is not met
        guarded = self.z > 0 and n < 2
        chosen = best if not guarded and gain > self.margin + self.z * spread else 0
        self.last_value = totals[chosen] / n
        return options[chosen]

    # -- plans --------------------------------------------------------------------------------
    def _policy(self, state: State) -> PlanningPolicy | None:
        """The game's policy if it offers plans and plans are on (made once per agent)."""
        if self.plans == "off":
            return None
        if not self._root_policy_made:
            self._root_policy = state.game.policy(**self.policy_options)
            self._root_policy_made = True
        policy = self._root_policy
        return policy if isinstance(policy, PlanningPolicy) else None

    def _commit(self, state: State, option: _Option) -> Action:
        action, steps = option
        self._plan = list(steps)
        self._plan_from = len(state.history)
        self._plan_done = 0
        return action

    @property
    def planned_steps(self) -> tuple[str, ...]:
        """The later steps (texts) of the plan the last decision chose, which this agent plays
        next without a new search while nobody else acts (a hint names them too)."""
        return tuple(self._plan)

    def _continue_plan(self, state: State) -> Action | None:
        """The next step of the plan chosen earlier, if nobody else has acted since (only this
        seat and the game's own steps in the history) and the step is still legal."""
        if not self._plan:
            return None
        since = state.history_seats[self._plan_from:]
        mine = sum(1 for s in since if s == self.seat)
        if any(s is not None and s != self.seat for s in since) or mine != self._plan_done + 1:
            self._plan = []
            return None
        by_text = {str(a): a for a in state.legal_actions(self.seat)}
        action = by_text.get(self._plan[0])
        if action is None:
            self._plan = []
            return None
        self._plan.pop(0)
        self._plan_done += 1
        self.last_iterations = 0
        return action

    def _options(self, state: State, seat: int, planner: PlanningPolicy | None, rng: Rng) -> list[_Option]:
        """What `seat` may choose here: the policy's plans when it offers them, else the legal
        actions (never `cancel` while anything else is legal)."""
        legal = _useful(state.legal_actions(seat))
        if planner is not None and len(legal) > 1:
            plans = planner.plans(state, seat, rng)
            if plans:
                by_text = {str(a): a for a in legal}
                options: list[_Option] = []
                seen: set[tuple[str, ...]] = set()
                for plan in plans:
                    key = tuple(plan)
                    if plan and plan[0] in by_text and key not in seen:
                        seen.add(key)
                        options.append((by_text[plan[0]], key[1:]))
                if options:
                    return options
        return [(a, ()) for a in legal]

    def _hint(self, state: State, rng: Rng) -> Action | None:
        """The game policy's own choice here (it sees only the seat's observation): searched
        first and favoured by a bias that fades with visits, so a short search starts from the
        heuristic's move and leaves it only for something that does better in the samples."""
        if self.prior != "greedy":
            return None
        if self._root_policy is None:
            self._root_policy = state.game.policy(**self.policy_options)
            self._root_policy_made = True
            if self._root_policy is None:
                self.prior = "none"
                return None
        return self._root_policy.choose(state, self.seat, rng)

    def _iterate(self, real: State, root: _Node, rng: Rng, policies: dict[int, Policy],
                 root_options: list[_Option], hint: _Option | None = None) -> None:
        state = real.resample_hidden(self.seat, rng)
        planner = self._policy(real)
        node = root
        path: list[_Edge] = []
        expanded = False
        while not expanded and not state.is_terminal():
            seat = self._turn(state)
            if node is root and seat == self.seat and not path:
                options = root_options
            else:
                options = self._options(state, seat, planner if self.plans == "tree" else None, rng)
            if len(options) == 1:
                _apply(state, seat, options[0])
                continue
            untried: list[_Option] = []
            available: list[_Edge] = []
            for option in options:
                edge = node.edges.get((seat, _key(option)))
                if edge is None:
                    untried.append(option)
                else:
                    edge.avail += 1
                    available.append(edge)
            node.visits += 1
            if untried and (not available or self._may_widen(node, len(available))):
                if node is root and hint is not None and seat == self.seat and hint in untried:
                    option = hint
                else:
                    option = self._next_child(state, seat, untried, rng)
                edge = node.edges[(seat, _key(option))] = _Edge(seat, *option)
                edge.avail += 1
                expanded = True
            else:
                edge = self._ucb(available, _key(hint) if node is root and hint is not None else None)
            _apply(state, seat, (edge.action, edge.steps))
            path.append(edge)
            node = edge.child
        value = self._rollout(state, rng, policies, planner)
        for edge in path:
            edge.visits += 1
            edge.value += value[edge.seat]

    def _next_child(self, state: State, seat: int, untried: list[_Option], rng: Rng) -> _Option:
        """The untried option to expand: at random, or (`expand=light`, where the game's light
        policy weighs actions) the one it likes best, ties at random, so a slowly widening
        node holds the sensible actions first."""
        light = self._light(state) if self.expand == "light" else None
        if isinstance(light, WeightingPolicy) and len(untried) > 1:
            weights = light.weights(state, seat, [action for action, _ in untried])
            top = max(weights)
            untried = [o for o, w in zip(untried, weights, strict=True) if w == top]
        return untried[rng.randbelow(len(untried))]

    def _light(self, state: State) -> Policy | None:
        """The game's light rollout policy (made once per agent), or None: random rollouts."""
        if not self._light_made:
            self._light_policy = state.game.rollout_policy()
            self._light_made = True
        return self._light_policy

    def _may_widen(self, node: _Node, children: int) -> bool:
        """Progressive widening: a node tries a new action only while it has fewer than
        1 + widening * sqrt(visits) children available, so a short search compares a few
        actions on several samples each instead of every action on one noisy sample
        (`widening=0` expands every action first, plain UCT)."""
        if self.widening == 0:
            return True
        return children < 1 + self.widening * math.sqrt(node.visits)

    def _turn(self, state: State) -> int:
        actors = state.actors()
        return self.seat if self.seat in actors else actors[0]

    def _ucb(self, edges: list[_Edge], hint: _Key | None = None) -> _Edge:
        c = self.exploration
        best = edges[0]
        best_score = -math.inf
        for e in edges:
            score = e.value / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
            if hint is not None and e.seat == self.seat and _key((e.action, e.steps)) == hint:
                score += self.prior_bias / math.sqrt(e.visits)
            if score > best_score:
                best, best_score = e, score
        return best

    # -- rollout and cut-off --------------------------------------------------------------------
    def sample_value(self, state: State, rng: Rng) -> list[float]:
        """Every seat's return from `state` after one rollout of this search (its rollout policy
        and cut-off, tuned for the game): one sample of what the search would expect here, for
        estimates outside a search (a hint's forced move). `state` is played on."""
        if self._tuned_for != state.game.id:
            self._use(_settings({**state.game.search_options(), **self.given}))
            self._tuned_for = state.game.id
        return self._rollout(state, rng, {}, self._policy(state))

    def _rollout(self, state: State, rng: Rng, policies: dict[int, Policy],
                 planner: PlanningPolicy | None = None, own: Policy | None = None) -> list[float]:
        decisions = 0
        turns = 0
        marker = state.turn_marker() if self.rollout_turns else None
        if planner is not None and self.rollout == "greedy":
            # fresh policies per sample: a policy's plan in progress or turn counters must not
            # carry over from one determinization into the next
            policies = {}
        if own is not None:  # a portfolio option: the searching seat plays on in its own way
            policies = {**policies, self.seat: own}
        # `light` falls back to uniformly random play where the game has no light policy
        light = self._light(state) if self.rollout == "light" else None
        while not state.is_terminal() and decisions < self.rollout_depth:
            seat = state.actors()[0]
            if light is not None:
                action = light.choose(state, seat, rng)
            elif self.rollout == "greedy":
                policy = policies.get(seat)
                if policy is None and seat != self.seat and self.opponent_policy_options is not None:
                    made = state.game.policy(**self.opponent_policy_options)
                    if made is None:
                        raise ValueError(f"{state.game.info.name} has no heuristic policy for greedy rollouts")
                    policy = policies[seat] = made
                if policy is None and planner is not None:
                    policy = policies[seat] = planner.fork()
                if policy is None:
                    made = state.game.policy(**self.policy_options)
                    if made is None:
                        raise ValueError(f"{state.game.info.name} has no heuristic policy for greedy rollouts")
                    policy = policies[seat] = made
                action = policy.choose(state, seat, rng)
            else:
                legal = _useful(state.legal_actions(seat))
                action = legal[rng.randbelow(len(legal))]
            state.apply_unchecked(action, seat)
            decisions += 1
            if marker is not None:
                now = state.turn_marker()
                if now != marker:
                    marker, turns = now, turns + 1
                    if turns >= self.rollout_turns:
                        break
        return cut_off_value(state)


def cut_off_value(state: State) -> list[float]:
    """Each seat's return: exact when the game is over, else the game's own estimate
    (`Game.evaluate`), else an even share (a game without an evaluation gives no preference)."""
    if state.is_terminal():
        return state.returns()
    estimate = state.game.evaluate(state)
    if estimate is not None:
        return list(estimate)
    n = state.num_players
    return [1.0 / n] * n


def _key(option: _Option) -> _Key:
    action, steps = option
    return (str(action), *steps) if steps else action


def _apply(state: State, seat: int, option: _Option) -> None:
    """Play an option: its first action, then the plan's later steps while they stay legal for
    the same seat (a determinization may end a plan early; the rollout carries on from there)."""
    action, steps = option
    state.apply_unchecked(action, seat)
    for text in steps:
        if state.is_terminal() or seat not in state.actors():
            return
        step = next((a for a in state.legal_actions(seat) if str(a) == text), None)
        if step is None:
            return
        state.apply_unchecked(step, seat)


def _useful(legal: list[Action]) -> list[Action]:
    useful = [a for a in legal if not a.is_cancel]
    return useful or legal


register_agent("mcts", MctsAgent)
