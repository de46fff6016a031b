"""The one loop that runs agents on a game: used by `play`, `selfplay`, the lab and the server.

Each decision goes to a seat from `state.actors()` (the first one while secret simultaneous
commitments are open: each seat sees only its own observation, so the order tells nothing),
its agent picks an action and the engine applies it; the game's own steps follow inside
`apply`. A driver may also play the host: with `timeout_rate` > 0 it lets a seat's rules clock
run out (seeded), so the lab can study what a timeout causes without a real clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bloodforge.agents import Agent
from bloodforge.core import Action, Rng, State

from .record import Record


class PlyLimitExceededError(RuntimeError):
    """A game ran past the safety cap on decisions without ending: a bug in the rules or an agent."""


@dataclass
class MatchResult:
    record: Record
    state: State
    seconds: float
    plies: int


OnAction = Callable[[State, int | None, Action], None]


class Driver:
    """Asks the right agent for each decision of a game."""

    def __init__(
        self,
        agents: Mapping[int, Agent],
        *,
        checked: bool = False,
        timeout_rate: float = 0.0,
        host_rng: Rng | None = None,
    ) -> None:
        self.agents = dict(agents)
        self.checked = checked
        self.timeout_rate = timeout_rate
        self.host_rng = host_rng or Rng(0)

    def next_seat(self, state: State) -> int:
        actors = state.actors()
        if not actors:
            raise ValueError(f"nobody may act: {state}")
        return actors[0]

    def decide(self, state: State, seat: int) -> Action:
        agent = self.agents.get(seat)
        if agent is None:
            raise ValueError(f"no agent plays seat {seat}")
        return agent.select_action(state)

    def host_timeout(self, state: State, seat: int) -> bool:
        """Should the host let `seat`'s rules clock run out now (lab studies of clock rules)?"""
        return (
            self.timeout_rate > 0
            and state.rule_clock(seat) is not None
            and self.host_rng.random() < self.timeout_rate
        )

    def step(self, state: State, on_action: OnAction | None = None) -> None:
        """One decision (or one host timeout) on `state`."""
        seat = self.next_seat(state)
        if self.host_timeout(state, seat):
            state.apply_timeout(seat)
            if on_action is not None:
                on_action(state, None, Action("timeout", (str(seat),)))
            return
        action = self.decide(state, seat)
        if self.checked:
            state.apply(action, seat)
        else:
            state.apply_unchecked(action, seat)
        if on_action is not None:
            on_action(state, seat, action)


def play_match(
    state: State,
    agents: Mapping[int, Agent],
    *,
    agent_names: list[str] | None = None,
    max_plies: int = 200_000,
    checked: bool = False,
    timeout_rate: float = 0.0,
    host_seed: int = 0,
    on_action: OnAction | None = None,
) -> MatchResult:
    """Play `state` to the end with one agent per seat; the state is played in place."""
    driver = Driver(agents, checked=checked, timeout_rate=timeout_rate, host_rng=Rng(host_seed))
    start = time.perf_counter()
    plies = 0
    while not state.is_terminal():
        driver.step(state, on_action)
        plies += 1
        if plies > max_plies:
            raise PlyLimitExceededError(f"{state.game.id} seed {state.game.seed}: no end after {max_plies} plies")
    seconds = time.perf_counter() - start
    return MatchResult(Record.of(state, agents=agent_names, seconds=seconds), state, seconds, plies)
