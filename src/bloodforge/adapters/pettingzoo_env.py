"""A PettingZoo AEC environment for every bloodforge game (`pettingzoo.test.api_test` passes).

Agents are `seat_0`, `seat_1`, ...; `agent_selection` is the first of `state.actors()` (during
secret simultaneous commitments the others follow one by one, each seeing only its own
observation). The observation of an agent is a dict:

* `observation`: the seat's JSON observation as UTF-8 bytes, zero-padded (uint8 array of
  `max_observation_bytes`; `decode_observation` gives the dict back), and
* `action_mask`: 1 for each numbered legal action (see `bloodforge.adapters`), all 0 for a seat
  that may not act now.

Rewards are 0 until the game ends, then each seat's return (1 shared among the winners).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]

import bloodforge
from bloodforge.core import State

from .encoding import MAX_ACTIONS, MAX_OBSERVATION_BYTES, encode_observation, numbered_actions


class BloodforgeAECEnv(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi"], "name": "bloodforge_v0", "is_parallelizable": False}  # noqa: RUF012 (PettingZoo reads it from the class)

    def __init__(
        self,
        game: str,
        *,
        render_mode: str | None = None,
        max_actions: int = MAX_ACTIONS,
        max_observation_bytes: int = MAX_OBSERVATION_BYTES,
        **params: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.game_id = game
        self.params = dict(params)
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.max_observation_bytes = max_observation_bytes
        probe = bloodforge.load_game(game, **params)
        self.metadata = {**self.metadata, "name": f"bloodforge_{game}_v{probe.info.version}"}
        self.possible_agents = [f"seat_{i}" for i in range(probe.num_players)]
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 255, shape=(max_observation_bytes,), dtype=np.uint8),
            "action_mask": gymnasium.spaces.Box(0, 1, shape=(max_actions,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: gymnasium.spaces.Discrete(max_actions) for a in self.possible_agents}
        self.state_: State = probe.new_initial_state()
        self._seed = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC cycle --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        del options
        if seed is not None:
            self._seed = int(seed)
        else:
            self._seed += 1
        self.state_ = bloodforge.load_game(self.game_id, seed=self._seed, **self.params).new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._selected()

    def _selected(self) -> str:
        actors = self.state_.actors()
        return f"seat_{actors[0]}" if actors else self.agents[0]

    @staticmethod
    def _seat(agent: str) -> int:
        return int(agent.split("_")[1])

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat(agent)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if seat in self.state_.actors():
            mask[: len(numbered_actions(self.state_, seat, self.max_actions))] = 1
        data = encode_observation(self.state_.observation(seat), self.max_observation_bytes)
        return {"observation": np.frombuffer(data, dtype=np.uint8).copy(), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        legal = numbered_actions(self.state_, seat, self.max_actions)
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"{agent}: action {action!r} is not one of the {len(legal)} legal actions")
        self._cumulative_rewards[agent] = 0.0
        self.state_.apply(legal[int(action)], seat)
        if self.state_.is_terminal():
            returns = self.state_.returns()
            self.rewards = {a: float(returns[self._seat(a)]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        self._accumulate_rewards()
        self.agent_selection = self._selected()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.state_.game.render_text(self.state_.observation(None))

    def close(self) -> None:
        pass


def env(game: str, **kwargs: Any) -> BloodforgeAECEnv:
    """The AEC environment of `game` (keyword arguments: game parameters, `render_mode`,
    `max_actions`, `max_observation_bytes`)."""
    return BloodforgeAECEnv(game, **kwargs)
