"""OpenSpiel's own IS-MCTS bot as an agent: an outside anchor for our search (issue 21).

Why: `mcts` is measured against `greedy`, which is ours too; a search written by others, playing
through our OpenSpiel adapter (`bloodforge.adapters.openspiel_game`), tells whether ours is any
good as a search. The bot is `open_spiel.python.algorithms.ismcts.ISMCTSBot` (Cowling, Powley
and Whitehouse's IS-MCTS, one tree keyed by the mover's information-state string) with
OpenSpiel's `RandomRolloutEvaluator` (uniformly random play to the end of the game), unchanged
except for two things the lab needs:

* a budget of `seconds` per decision (CPU time of this process by default, `clock=cpu`, as
  `mcts:clock=cpu`), as well as or instead of its `max_simulations` (`simulations`): the
  subclass below runs the bot's own `run_simulation` until either ends;
* determinizations come from the agent's seeded `Rng` through the adapter's
  `resample_from_infostate`, i.e. the engine's `resample_hidden(seat, rng)`: the bot sees only
  the seat's information, and a given seed and simulation budget is reproducible.

The real state is never searched: the bot's root is itself a resample from the seat's view,
and the chosen action id is mapped back to our action through the seat's legal actions.
When several seats commit at once, the searching seat commits first in the bot's tree (the
adapter's `first`), as in `mcts`.

Options (defaults as OpenSpiel's own examples): `simulations` (default 1000 when no budget is
given, as `open_spiel/python/examples/mcts.py`), `seconds`, `clock` (`cpu` or `wall`),
`uct_c` (2.0), `rollouts` (random rollouts per evaluation, 1), `final_policy`
(`max_visit_count`, the bot's default; `normalized_visit_count`; `max_value`),
`child_selection` (`uct` or `puct`). pyspiel is imported only when such an agent is made, so
the rest of bloodforge runs without open-spiel installed.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bloodforge.core import Action, State

from .base import Agent, register_agent, settings_from_options
from .mcts import CLOCKS, STRENGTH_SECONDS

#: Simulations per decision when neither `simulations` nor `seconds` is given.
DEFAULT_SIMULATIONS = 1000

#: Fewest simulations a search runs whatever the time budget: the first only evaluates the
#: root, so the bot's final policy needs a second to have a visited child.
MIN_SIMULATIONS = 2

_FINAL_POLICIES = {"normalized_visit_count": "NORMALIZED_VISITED_COUNT", "max_visit_count": "MAX_VISIT_COUNT",
                   "max_value": "MAX_VALUE"}


class IsmctsSettings(BaseModel):
    """The agent's options, validated (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    simulations: int | None = Field(default=None, ge=MIN_SIMULATIONS)
    seconds: float | None = Field(default=None, gt=0)
    clock: Literal["cpu", "wall"] = "cpu"
    uct_c: float = Field(default=2.0, ge=0)
    rollouts: int = Field(default=1, ge=1)
    final_policy: Literal["max_visit_count", "normalized_visit_count", "max_value"] = "max_visit_count"
    child_selection: Literal["uct", "puct"] = "uct"


def _settings(options: dict[str, Any]) -> IsmctsSettings:
    return settings_from_options(IsmctsSettings, options, "openspiel-ismcts")


@cache
def _openspiel() -> tuple[Any, Any, Any, Any, type[Any]]:
    """pyspiel, the ismcts and mcts modules, the adapter module and the budgeted bot class,
    imported on first use (open-spiel is an optional extra)."""
    try:
        pyspiel = importlib.import_module("pyspiel")
        ismcts = importlib.import_module("open_spiel.python.algorithms.ismcts")
        mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
        adapter = importlib.import_module("bloodforge.adapters.openspiel_game")
    except ImportError as err:
        raise ImportError(
            f"the openspiel-ismcts agent needs open-spiel ({err}); install it with pip install -e '.[research]'"
        ) from err

    class BudgetedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc, name-defined]
        """ISMCTSBot whose search runs its own simulations until a simulation count or a clock
        budget ends (its `run_search` counts `max_simulations` only)."""

        def __init__(self, *args: Any, seconds: float | None, clock: str, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.seconds = seconds
            self.clock = CLOCKS[clock]
            self.last_simulations = 0

        def run_search(self, state: Any) -> list[tuple[int, float]]:
            # as ISMCTSBot.run_search (OpenSpiel 2.0.2) with a clock; its assertions that the
            # game is imperfect-information are left out (a perfect-information game is the
            # special case in which every resample is the state itself)
            self.reset()
            legal_actions = state.legal_actions()
            if len(legal_actions) == 1:
                self.last_simulations = 0
                return [(legal_actions[0], 1.0)]
            self._root_node = self.create_new_node(state)
            root_key = self.get_state_key(state)
            deadline = None if self.seconds is None else self.clock() + self.seconds
            limit = self._max_simulations
            n = 0
            while (limit is None or n < limit) and (
                    deadline is None or n < MIN_SIMULATIONS or self.clock() < deadline):
                sampled = self.sample_root_state(state)
                if self.get_state_key(sampled) != root_key:
                    raise RuntimeError("a resample changed the searching seat's information state")
                self.run_simulation(sampled)
                n += 1
            self.last_simulations = n
            return list(self.get_final_policy(state, self._root_node))

    return pyspiel, ismcts, mcts, adapter, BudgetedISMCTSBot


@cache
def _spiel_game(game_id: str, players: int) -> Any:
    """The adapter's pyspiel game for a bloodforge game and player count (made once per
    process: it only wraps states, which carry their own game and parameters)."""
    pyspiel, _, _, adapter, _ = _openspiel()
    adapter.register_openspiel_games()
    return pyspiel.load_game(adapter.short_name(game_id), {"players": players})


class OpenSpielIsmctsAgent(Agent):
    """OpenSpiel's ISMCTSBot choosing for one seat through the adapter; see the module docstring."""

    name = "openspiel-ismcts"

    def __init__(self, seat: int, seed: int = 0, strength: int | None = None, **options: Any) -> None:
        super().__init__(seat, seed)
        if strength is not None:  # the lobby's 1-10, as `mcts`: 10 is one second a decision
            if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= 10:
                raise ValueError(f"openspiel-ismcts option strength must be an integer 1..10, got {strength!r}")
            if "seconds" not in options and "simulations" not in options:
                options["seconds"] = STRENGTH_SECONDS * strength
        self.settings = _settings(options)
        self.simulations = self.settings.simulations
        if self.simulations is None and self.settings.seconds is None:
            self.simulations = DEFAULT_SIMULATIONS
        mcts = _openspiel()[2]
        np_random = importlib.import_module("numpy").random
        # two numpy generators seeded from the agent's seed: the bot's own (tree ties, final
        # choice) and the rollouts'; determinizations draw from `self.rng`
        self._bot_random = np_random.RandomState(self.rng.next_u64() % 2**32)
        self._rollout_random = np_random.RandomState(self.rng.next_u64() % 2**32)
        self._evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.settings.rollouts,
                                                      random_state=self._rollout_random)
        self._bots: dict[tuple[str, int], Any] = {}
        #: Simulations run for the last decision (0 when it was forced).
        self.last_simulations = 0

    def __getstate__(self) -> dict[str, Any]:
        """Picklable (the server and the lab ship agents to worker processes): the bots, which
        hold pyspiel games and a resampler closure, are made again where the agent lands;
        the generators travel, so the choices stay those of the same seed."""
        state = dict(self.__dict__)
        state["_bots"] = {}
        return state

    def _bot(self, game_id: str, players: int) -> Any:
        key = (game_id, players)
        bot = self._bots.get(key)
        if bot is None:
            s = self.settings
            _, ismcts, _, _, bot_class = _openspiel()
            bot = self._bots[key] = bot_class(
                _spiel_game(game_id, players), self._evaluator, s.uct_c, self.simulations,
                random_state=self._bot_random,
                final_policy_type=ismcts.ISMCTSFinalPolicyType[_FINAL_POLICIES[s.final_policy]],
                child_selection_policy=ismcts.ChildSelectionPolicy[s.child_selection.upper()],
                seconds=s.seconds, clock=s.clock)
            rng = self.rng
            bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng))
        return bot

    def select_action(self, state: State) -> Action:
        legal = state.legal_actions(self.seat)
        if not legal:
            raise ValueError(f"no legal action for seat {self.seat}: {state}")
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        game = _spiel_game(state.game.id, state.num_players)
        adapter = _openspiel()[3]
        # the root is a resample from the seat's view: the bot never holds the true hidden state
        root = adapter.BloodforgeSpielState(game, state.resample_hidden(self.seat, self.rng), first=self.seat)
        bot = self._bot(state.game.id, state.num_players)
        action_id = int(bot.step(root))
        self.last_simulations = bot.last_simulations
        choices: list[Action] = root.inner.legal_actions(self.seat)
        if not 0 <= action_id < len(choices) or choices[action_id] not in legal:
            raise RuntimeError(f"the bot chose action {action_id}, not one of seat {self.seat}'s legal actions")
        return choices[action_id]


register_agent("openspiel-ismcts", OpenSpielIsmctsAgent)
