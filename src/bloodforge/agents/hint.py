"""A hint for a human seat: what the strongest AI would play now, and its estimated win chance.

*Why the search agent itself:* a hint that came from another, weaker or peeking, computation
would mislead. The hint is the IS-MCTS agent (`mcts.py`) with the game's own tuned search
options (`Game.search_options()`, what a player choosing the strongest AI gets), deciding for
the seat: it searches over determinizations from `state.resample_hidden(seat, rng)` only, so
the hint depends on the seat's observation alone (the same for any hidden truth consistent with
it; tests/agents/test_hint.py swaps the truth for a resample and gets the same hint).

*Why a budget in iterations, not seconds:* the same position, seed and budget give the same
hint on a busy and on an idle machine (and in a test); the server bounds the wait separately.

The win chance is the chosen root option's mean return for the seat over the search's samples
(returns are in [0, 1]: 1 a win, shares in multi-player games). Where the seat has only one
sensible option no tree is searched; the chance is then the mean return of that option over
`FORCED_SAMPLES` sampled continuations, by the same rollouts and cut-off the search uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from bloodforge.core import Action, Rng, State

from .mcts import MctsAgent

#: Iterations of a hint's search unless the caller gives another budget.
HINT_ITERATIONS = 200

#: Sampled continuations that estimate the win chance of a forced move.
FORCED_SAMPLES = 16


@dataclass(frozen=True, slots=True)
class Hint:
    """The AI's choice for the seat, in words, and its estimated win chance (0..1)."""

    action: Action
    label: str
    win_chance: float
    iterations: int
    #: the labels of the plan's later steps, where the AI chose a compound action (a move:
    #: select the units, the destination, the payment), which it would play next
    then: tuple[str, ...] = ()

    def sentence(self) -> str:
        """What a player reads: "The AI would play: Move ... (estimated win chance 62%)"."""
        what = ", then ".join((self.label, *self.then))
        return f"The AI would play: {what} (estimated win chance {round(self.win_chance * 100)}%)"

    def as_json(self) -> dict[str, object]:
        return {"action": str(self.action), "label": self.label, "then": list(self.then),
                "win_chance": self.win_chance, "iterations": self.iterations}


def action_label(state: State, action: Action) -> str:
    """The action in players' words: the grammar's label template filled with its arguments
    (the same template the browser's action buttons use), else the action's text."""
    spec = state.game.grammar().get(action.kind)
    if spec is None or not spec.label:
        return str(action)
    values = dict(zip(spec.args, action.args, strict=False))
    try:
        filled = spec.label.format(**values)
    except (KeyError, IndexError, ValueError):
        return str(action)
    return " ".join(filled.split()) or str(action)


def compute_hint(state: State, seat: int, *, iterations: int = HINT_ITERATIONS, seed: int = 0) -> Hint:
    """The strongest AI's choice for `seat` in `state`, from the seat's observation only.

    `state` is not modified. Refused (ValueError) when the seat may not act now or the game is
    over: there is nothing to hint."""
    if state.is_terminal():
        raise ValueError("the game is over: there is nothing to hint")
    if seat not in state.actors():
        raise ValueError(f"seat {seat} is not to act now: a hint is for your own decision")
    if iterations < 1:
        raise ValueError(f"a hint needs at least one iteration, got {iterations}")
    # `seconds: None` drops a game's time budget: the hint is bounded by iterations alone.
    agent = MctsAgent(seat, seed=seed, iterations=iterations, seconds=None)
    action = agent.select_action(state.clone())
    value = agent.last_value
    used = agent.last_iterations
    if value is None:
        value = _forced_value(state, seat, action, Rng(seed))
        used = FORCED_SAMPLES
    then = tuple(_step_label(state, text) for text in agent.planned_steps)
    return Hint(action=action, label=action_label(state, action), win_chance=min(1.0, max(0.0, value)),
                iterations=used, then=then)


def _step_label(state: State, text: str) -> str:
    """A later step of a plan (its text) in players' words."""
    kind, *args = text.split()
    return action_label(state, Action(kind, tuple(args)))


def _forced_value(state: State, seat: int, action: Action, rng: Rng) -> float:
    """The seat's mean return after `action` over sampled continuations (determinized from the
    seat's observation, played on by the rollout policy of the game's search, cut off by the
    game's evaluation)."""
    total = 0.0
    for _ in range(FORCED_SAMPLES):
        sample = state.resample_hidden(seat, rng)
        sample.apply_unchecked(action, seat)
        probe = MctsAgent(seat, seed=rng.next_u64(), iterations=1, seconds=None)
        total += probe.sample_value(sample, rng)[seat]
    return total / FORCED_SAMPLES


__all__ = ["FORCED_SAMPLES", "HINT_ITERATIONS", "Hint", "action_label", "compute_hint"]
