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
   rollout policy (`random`, or `greedy`: the game's own heuristic policy), and
4. *cut off*: a finished game scores `returns()`; an unfinished one `Game.evaluate(state)` (the
   game's own estimate of each seat's return, an optional contract hook) or, for games without
   one, an even share for every seat.

Progressive widening (`widening`) keeps a short search from spreading its few samples over every
action. Optionally (`prior=greedy`) the game policy's own choice is expanded first at the root
and gets a bias that fades with its visits; off by default, because in 16 seat-swapped Blood
Stone games at 0.2 s per decision it scored 0.375 against greedy where the unbiased search
scored 0.50 (same seeds; too few games to tell them apart, so the simpler search is the default).

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
from typing import Any

from bloodforge.core import Action, Policy, Rng, State

from .base import Agent, register_agent

#: Iterations per decision when neither `iterations` nor `seconds` is given.
DEFAULT_ITERATIONS = 200


class _Edge:
    __slots__ = ("action", "avail", "child", "seat", "value", "visits")

    def __init__(self, seat: int, action: Action) -> None:
        self.seat = seat
        self.action = action
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.child = _Node()


class _Node:
    __slots__ = ("edges", "visits")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, Action], _Edge] = {}
        self.visits = 0


class MctsAgent(Agent):
    """IS-MCTS over determinizations; see the module docstring for the algorithm.

    Options: `iterations` (int), `seconds` (float; per decision), `rollout_depth` (decisions
    played by the rollout policy before the cut-off, default 6), `rollout` (`random` or
    `greedy`), `exploration` (UCB constant, default 0.7 for returns in [0, 1]), `policy_options`
    (dict passed to the game's policy), `prior` (`none`, or `greedy`: the policy's own choice at
    the root is tried first and favoured by `prior_bias` / sqrt(visits)), `widening` (progressive
    widening: at most 1 + widening * sqrt(visits) children per node; 0 = all, plain UCT).
    """

    name = "mcts"

    def __init__(
        self,
        seat: int,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout_depth: int = 6,
        rollout: str = "random",
        exploration: float = 0.7,
        policy_options: dict[str, Any] | None = None,
        prior: str = "none",
        prior_bias: float = 0.5,
        widening: float = 1.0,
        **options: Any,
    ) -> None:
        super().__init__(seat, seed, **options)
        if options:
            raise ValueError(f"unknown mcts option(s) {sorted(options)}; known: iterations, seconds, "
                             "rollout_depth, rollout, exploration, policy_options, prior, prior_bias, widening")
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and int(iterations) < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if seconds is not None and float(seconds) <= 0:
            raise ValueError(f"seconds must be positive, got {seconds}")
        if int(rollout_depth) < 0:
            raise ValueError(f"rollout_depth must be 0 or more, got {rollout_depth}")
        if rollout not in ("random", "greedy"):
            raise ValueError(f"rollout must be 'random' or 'greedy', got {rollout!r}")
        if prior not in ("greedy", "none"):
            raise ValueError(f"prior must be 'greedy' or 'none', got {prior!r}")
        self.iterations = None if iterations is None else int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.rollout_depth = int(rollout_depth)
        self.rollout = rollout
        self.exploration = float(exploration)
        self.policy_options = dict(policy_options or {})
        self.prior = prior
        self.prior_bias = float(prior_bias)
        if float(widening) < 0:
            raise ValueError(f"widening must be 0 or more, got {widening}")
        self.widening = float(widening)
        self._root_policy: Policy | None = None
        #: Iterations run for the last decision (for benchmarks and reports).
        self.last_iterations = 0

    # -- the decision ---------------------------------------------------------------------------
    def select_action(self, state: State) -> Action:
        legal = _useful(state.legal_actions(self.seat))
        if not legal:
            raise ValueError(f"no legal action for seat {self.seat}: {state}")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        rng = Rng(self.rng.next_u64())
        root = _Node()
        hint = self._hint(state, rng)
        policies: dict[int, Policy] = {}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        n = 0
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            if deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(state, root, rng, policies, hint)
            n += 1
        self.last_iterations = n
        best: _Edge | None = None
        for action in legal:
            edge = root.edges.get((self.seat, action))
            if edge is not None and (best is None or (edge.visits, edge.value) > (best.visits, best.value)):
                best = edge
        return legal[0] if best is None else best.action

    def _hint(self, state: State, rng: Rng) -> Action | None:
        """The game policy's own choice here (it sees only the seat's observation): searched
        first and favoured by a bias that fades with visits, so a short search starts from the
        heuristic's move and leaves it only for something that does better in the samples."""
        if self.prior != "greedy":
            return None
        if self._root_policy is None:
            self._root_policy = state.game.policy(**self.policy_options)
            if self._root_policy is None:
                self.prior = "none"
                return None
        return self._root_policy.choose(state, self.seat, rng)

    def _iterate(self, real: State, root: _Node, rng: Rng, policies: dict[int, Policy],
                 hint: Action | None = None) -> None:
        state = real.resample_hidden(self.seat, rng)
        node = root
        path: list[_Edge] = []
        expanded = False
        while not expanded and not state.is_terminal():
            seat, legal = self._turn(state)
            if len(legal) == 1:
                state.apply_unchecked(legal[0], seat)
                continue
            untried: list[Action] = []
            available: list[_Edge] = []
            for action in legal:
                edge = node.edges.get((seat, action))
                if edge is None:
                    untried.append(action)
                else:
                    edge.avail += 1
                    available.append(edge)
            node.visits += 1
            if untried and (not available or self._may_widen(node, len(available))):
                if node is root and hint is not None and seat == self.seat and hint in untried:
                    action = hint
                else:
                    action = untried[rng.randbelow(len(untried))]
                edge = node.edges[(seat, action)] = _Edge(seat, action)
                edge.avail += 1
                expanded = True
            else:
                edge = self._ucb(available, hint if node is root else None)
            state.apply_unchecked(edge.action, seat)
            path.append(edge)
            node = edge.child
        value = self._rollout(state, rng, policies)
        for edge in path:
            edge.visits += 1
            edge.value += value[edge.seat]

    def _may_widen(self, node: _Node, children: int) -> bool:
        """Progressive widening: a node tries a new action only while it has fewer than
        1 + widening * sqrt(visits) children available, so a short search compares a few
        actions on several samples each instead of every action on one noisy sample
        (`widening=0` expands every action first, plain UCT)."""
        if self.widening == 0:
            return True
        return children < 1 + self.widening * math.sqrt(node.visits)

    def _turn(self, state: State) -> tuple[int, list[Action]]:
        actors = state.actors()
        seat = self.seat if self.seat in actors else actors[0]
        return seat, _useful(state.legal_actions(seat))

    def _ucb(self, edges: list[_Edge], hint: Action | None = None) -> _Edge:
        c = self.exploration
        best = edges[0]
        best_score = -math.inf
        for e in edges:
            score = e.value / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
            if e.action == hint and e.seat == self.seat:
                score += self.prior_bias / math.sqrt(e.visits)
            if score > best_score:
                best, best_score = e, score
        return best

    # -- rollout and cut-off --------------------------------------------------------------------
    def _rollout(self, state: State, rng: Rng, policies: dict[int, Policy]) -> list[float]:
        decisions = 0
        while not state.is_terminal() and decisions < self.rollout_depth:
            seat = state.actors()[0]
            if self.rollout == "greedy":
                policy = policies.get(seat)
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


def _useful(legal: list[Action]) -> list[Action]:
    useful = [a for a in legal if not a.is_cancel]
    return useful or legal


register_agent("mcts", MctsAgent)
