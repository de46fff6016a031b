"""OpenSpiel (pyspiel) games for every bloodforge game: `pyspiel.load_game("bloodforge_witch")`.

`register_openspiel_games()` registers one Python game per registered bloodforge game, named
`bloodforge_<id>`, with the game parameters `players` and `seed` (integers) and `params` (a
JSON object of any other parameter, as a string). What it declares to OpenSpiel:

* sequential dynamics: a secret simultaneous commitment is asked seat by seat (first of
  `actors()`), each seat seeing only its own observation, exactly as the match driver does;
* sampled stochastic chance (when the game has chance): dice and draws come from the state's
  own seeded RNG inside `apply`, so there are no explicit chance nodes;
* imperfect information with observation strings (the seat's JSON observation); the seat's
  whole readable log plus that observation as the information-state string;
  `resample_from_infostate(seat, rng)` (what OpenSpiel's IS-MCTS asks) is the engine's
  `resample_hidden(seat, rng)`: a state the seat cannot tell from the true one;
* general-sum terminal rewards: the returns, 1 shared among the winners (general rather than
  constant sum because in some games a side without a seat, a boss, can win: all seats get 0);
* `num_distinct_actions` = `max_actions`: action id i is the i-th legal action now (see
  `bloodforge.adapters`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pyspiel  # type: ignore[import-not-found]

import bloodforge
from bloodforge.core import Game, Rng, State

from .encoding import MAX_ACTIONS, numbered_actions

#: The longest game OpenSpiel is told about when a game declares no `max_length` (decisions).
DEFAULT_MAX_GAME_LENGTH = 100_000

PREFIX = "bloodforge_"


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def _game_type(info: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name(info["id"]),
        long_name=f"bloodforge {info['name']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if info["chance"]
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if info["hidden_information"]
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info["max_players"],
        min_num_players=info["min_players"],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": info["min_players"] if info["min_players"] > 1 else 2,
                                 "seed": 0, "params": "{}"},
    )


class BloodforgeSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A bloodforge game seen by OpenSpiel."""

    #: Set on the subclass registered for each game (see `register_openspiel_games`).
    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_id = self.game_id
        info = next(g for g in bloodforge.list_games() if g["id"] == game_id)
        params = dict(params or {})
        players = int(params.get("players", info["min_players"] if info["min_players"] > 1 else 2))
        extra = json.loads(str(params.get("params", "{}")))
        self.inner: Game = bloodforge.load_game(game_id, seed=int(params.get("seed", 0)), players=players, **extra)
        max_length = info["max_length"] or DEFAULT_MAX_GAME_LENGTH
        game_info = pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=0, num_players=players,
            min_utility=0.0, max_utility=1.0, utility_sum=None, max_game_length=max_length,
        )
        super().__init__(_game_type(info), game_info, params)

    def new_initial_state(self) -> BloodforgeSpielState:
        return BloodforgeSpielState(self, self.inner.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> JsonObserver:
        del iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return JsonObserver()


class _Held:
    """Holds the engine state; pyspiel clones a Python state by deep-copying its attributes,
    and the engine's own `clone` is the fast, correct copy (games copy their containers by
    hand; a deep copy would also copy the game and its content)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())


class BloodforgeSpielState(pyspiel.State):  # type: ignore[misc]
    """`first`: the seat asked first when several seats commit at once (default: the first of
    `actors()`). A searcher for that seat sets it, so its own secret choice comes first in
    its tree and never follows a commitment it could not see (as `agents.mcts` does)."""

    def __init__(self, game: BloodforgeSpielGame, state: State | None = None, first: int | None = None) -> None:
        super().__init__(game)
        self._held = _Held(game.inner.new_initial_state() if state is None else state)
        self.first = first

    @property
    def inner(self) -> State:
        return self._held.state

    def current_player(self) -> int:
        if self.inner.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        actors = self.inner.actors()
        return self.first if self.first in actors else actors[0]

    def _legal_actions(self, player: int) -> list[int]:
        if player not in self.inner.actors():
            return []
        return list(range(len(numbered_actions(self.inner, player, MAX_ACTIONS))))

    def _apply_action(self, action: int) -> None:
        seat = self.current_player()
        legal = numbered_actions(self.inner, seat, MAX_ACTIONS)
        if not 0 <= action < len(legal):
            raise ValueError(f"action {action} is not one of the {len(legal)} legal actions of seat {seat}")
        self.inner.apply(legal[action], seat)

    def _action_to_string(self, player: int, action: int) -> str:
        legal = numbered_actions(self.inner, player, MAX_ACTIONS) if player in self.inner.actors() else []
        return str(legal[action]) if 0 <= action < len(legal) else f"action {action}"

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        if not self.inner.is_terminal():
            return [0.0] * self.inner.num_players
        return [float(r) for r in self.inner.returns()]

    def observation_string(self, player: int | None = None) -> str:
        """`player` defaults to the seat to move, as pyspiel's own no-argument form does."""
        seat = self.current_player() if player is None else player
        return json.dumps(self.inner.observation(seat), sort_keys=True, separators=(",", ":"))

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return json.dumps({"log": self.inner.event_log(seat), "now": self.inner.observation(seat)},
                          sort_keys=True, separators=(",", ":"))

    def resample_from_infostate(self, player_id: int, probability_sampler: Rng | Callable[[], float]
                                ) -> BloodforgeSpielState:
        """A state `player_id` cannot tell from this one (same observation, same readable log):
        the engine's `resample_hidden`, which draws the hidden part (hands, bag order, dice to
        come) from the seat's own view and never copies the true hidden state. With a
        bloodforge `Rng` the draw is reproducible; pyspiel's samplers (a function giving
        uniforms in [0, 1)) seed one."""
        if isinstance(probability_sampler, Rng):
            rng = probability_sampler
        else:
            rng = Rng(int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32))
        return BloodforgeSpielState(self.get_game(), self.inner.resample_hidden(player_id, rng), self.first)

    def __str__(self) -> str:
        return self.inner.game.render_text(self.inner.observation(None))


class JsonObserver:
    """The PyObserver interface: strings only (the JSON observation)."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: BloodforgeSpielState, player: int) -> None:
        del state, player

    def string_from(self, state: BloodforgeSpielState, player: int) -> str:
        return state.observation_string(player)


def register_openspiel_games() -> list[str]:
    """Register every bloodforge game with OpenSpiel (idempotent); returns the short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for info in bloodforge.list_games():
        name = short_name(info["id"])
        names.append(name)
        if name in registered:
            continue
        # A class per game, as OpenSpiel's own Python games register: pyspiel keeps the
        # creator until after the interpreter shut down, and a class (unlike a closure) is
        # never freed before that, which would crash the process at exit.
        cls = type(f"BloodforgeSpielGame_{info['id']}", (BloodforgeSpielGame,), {"game_id": info["id"]})
        _REGISTERED.append(cls)
        pyspiel.register_game(_game_type(info), cls)
    return names


_REGISTERED: list[type[BloodforgeSpielGame]] = []
