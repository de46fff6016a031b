"""The game contract: `Game` (rules + parameters) and `State` (one position).

The engine owns the public step (`State.apply`): it checks legality, refuses bad input without
touching the state and records history; a game fills in the hooks (`_legal_actions`, `_apply`,
...), as in OpenSpiel. Everything an agent, the server or the lab needs goes through here.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, ValidationError

from .action import CANCEL, Action, ActionSpec
from .errors import ActionSyntaxError, IllegalAction, ParameterError, ScenarioError
from .rng import Rng, mix_seed


class GameParams(BaseModel):
    """Parameters every game accepts; games subclass it with their own fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int


@dataclass(frozen=True)
class GameInfo:
    """Metadata a game declares about itself (OpenSpiel's GameType, pgx's EnvId)."""

    id: str
    name: str
    summary: str
    min_players: int
    max_players: int
    params_model: type[GameParams]
    version: int = 1
    chance: bool = True
    hidden_information: bool = True
    score_name: str = "points"
    max_length: int | None = None

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "version": self.version,
            "chance": self.chance,
            "hidden_information": self.hidden_information,
            "score_name": self.score_name,
            "max_length": self.max_length,
            "parameters": self.params_model.model_json_schema(),
        }


def format_validation_error(err: ValidationError, source: str) -> str:
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "(root)"
        parts.append(f"{loc}: {e['msg']}")
    return f"{source}: " + "; ".join(parts)


class Game(ABC):
    """A game with fixed parameters and seed; a factory of states."""

    info: ClassVar[GameInfo]

    def __init__(self, params: GameParams, seed: int = 0) -> None:
        self.params = params
        self.seed = int(seed)

    @classmethod
    def create(cls, *, seed: int = 0, **params: Any) -> Self:
        """Validate raw parameters; bad or unknown ones raise ParameterError naming them."""
        try:
            model = cls.info.params_model.model_validate(params)
        except ValidationError as err:
            raise ParameterError(format_validation_error(err, f"parameters of {cls.info.id!r}")) from None
        if not cls.info.min_players <= model.players <= cls.info.max_players:
            raise ParameterError(
                f"{cls.info.name} is for {cls.info.min_players}-{cls.info.max_players} players, "
                f"not {model.players}"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ParameterError(f"seed must be an integer, got {seed!r}")
        return cls(model, seed)

    # -- identity -----------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.info.id

    @property
    def num_players(self) -> int:
        return self.params.players

    def params_dict(self) -> dict[str, Any]:
        return self.params.model_dump(mode="json", exclude_defaults=False)

    def record(self) -> dict[str, Any]:
        """What identifies a game before any action: replaying actions on it reproduces states."""
        return {"game": self.id, "version": self.info.version, "params": self.params_dict(), "seed": self.seed}

    def initial_rng(self) -> Rng:
        return Rng(mix_seed(self.seed, self.id))

    # -- hooks --------------------------------------------------------------------------------
    @abstractmethod
    def new_initial_state(self) -> State: ...

    @abstractmethod
    def action_grammar(self) -> Sequence[ActionSpec]:
        """Every verb of this game with its arguments; `cancel` is added by the engine."""

    @abstractmethod
    def _state_from_position(self, position: Mapping[str, Any], rng: Rng, history: list[str]) -> State:
        """Rebuild a state from the game-specific part of `State.to_json()`."""

    def _state_from_scenario(self, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> State:
        del position, rig
        raise ScenarioError(f"{self.info.name} does not support scenarios")

    # -- contract -----------------------------------------------------------------------------
    def grammar(self) -> dict[str, ActionSpec]:
        specs = {s.kind: s for s in self.action_grammar()}
        specs.setdefault(CANCEL, ActionSpec(CANCEL, (), "drop the partial choice being built"))
        return specs

    def parse_action(self, state: State, text: str) -> Action:
        """Text to a legal Action: ActionSyntaxError if malformed, IllegalAction if not allowed now."""
        if not isinstance(text, str):
            raise ActionSyntaxError(f"an action text must be a string, got {type(text).__name__}")
        words = text.split()
        if not words:
            raise ActionSyntaxError("empty action text")
        kind = words[0].lower()
        specs = self.grammar()
        spec = specs.get(kind)
        if spec is None:
            known = ", ".join(sorted(specs))
            raise ActionSyntaxError(f"{text!r}: unknown action {kind!r}; {self.info.name} knows {known}")
        n = len(words) - 1
        if not spec.min_arity <= n <= spec.max_arity:
            raise ActionSyntaxError(f"{text!r}: expected `{spec.usage()}`, got {n} argument(s)")
        action = self.canonical_action(Action(kind, tuple(words[1:])))
        state.check_legal(action)
        return action

    def static_info(self) -> dict[str, Any]:
        """JSON description of what stays fixed for the whole game (map, unit stats, cards).

        Observations carry only what changes; UIs and agents read the rest from here, so they
        never need a game's internals.
        """
        return {}

    def render_text(self, observation: Mapping[str, Any]) -> str:
        """A terminal rendering of an observation; games override with something readable."""
        return json.dumps(observation, indent=1, sort_keys=True)

    def canonical_action(self, action: Action) -> Action:
        """Normalise spelling (case, leading zeros) so equal actions compare equal."""
        return Action(action.kind, tuple(a.lower() for a in action.args))

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        if data.get("game") != self.id:
            raise ScenarioError(f"state is for game {data.get('game')!r}, not {self.id!r}")
        if data.get("params") != self.params_dict() or data.get("seed") != self.seed:
            raise ScenarioError("state parameters or seed differ from this game's; load the matching game")
        return self._state_from_position(data["position"], Rng(int(data["rng"])), list(data["history"]))

    def load_scenario(self, source: str | Path | Mapping[str, Any]) -> State:
        from .scenario import read_scenario

        scenario = read_scenario(source)
        if scenario.game != self.id:
            raise ScenarioError(f"scenario is for game {scenario.game!r}, not {self.id!r}")
        game = type(self).create(seed=scenario.seed, **scenario.params)
        try:
            return game._state_from_scenario(scenario.position, scenario.rig)
        except ScenarioError:
            raise
        except (KeyError, TypeError, ValueError) as err:
            raise ScenarioError(f"scenario position is invalid: {err}") from err


class State(ABC):
    """One position of a game. Mutable: `apply` changes it in place; `clone` copies it."""

    game: Game
    rng: Rng
    history: list[str]

    # -- hooks --------------------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat that must act now, or None once the game is over."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]: ...

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Change the state by a legal action (legality already checked by the caller)."""

    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def scores(self) -> list[float]: ...

    @abstractmethod
    def returns(self) -> list[float]: ...

    @abstractmethod
    def _observation(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def _position_json(self) -> dict[str, Any]:
        """Everything of this state except game, params, RNG and history, JSON-safe."""

    def resample_hidden(self, seat: int | None, rng: Rng) -> Self:
        """Default for games whose only hidden information is future chance: reseed the RNG."""
        del seat
        new = self.clone()
        new.rng = Rng(rng.next_u64())
        return new

    def event_log(self, seat: int | None) -> list[str]:
        """Every logged event `seat` may read (None: public ones), oldest first."""
        del seat
        return []

    def explain_illegal(self, action: Action) -> str | None:
        """A game-specific reason why `action` is illegal now, if the game can say better."""
        del action
        return None

    def phase_name(self) -> str:
        return "play"

    # -- contract -----------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.game.num_players

    def is_terminal(self) -> bool:
        return self.current_player is None

    def legal_actions(self) -> list[Action]:
        return list(self._cached_legal())

    def _cached_legal(self) -> list[Action]:
        """Legal actions, computed once per position: agents ask, then `apply` checks."""
        cache: tuple[int, list[Action]] | None = self.__dict__.get("_legal_cache")
        n = len(self.history)
        if cache is not None and cache[0] == n:
            return cache[1]
        legal = [] if self.is_terminal() else self._legal_actions()
        self.__dict__["_legal_cache"] = (n, legal)
        return legal

    def _invalidate_legal(self) -> None:
        self.__dict__.pop("_legal_cache", None)

    def check_legal(self, action: Action) -> None:
        if self.is_terminal():
            raise IllegalAction(f"{action}: the game is over")
        legal = self._cached_legal()
        if action in legal:
            return
        reason = self.explain_illegal(action)
        if reason is None:
            same = sorted(str(a) for a in legal if a.kind == action.kind)
            if same:
                shown = ", ".join(same[:12]) + (" ..." if len(same) > 12 else "")
                reason = f"not one of the legal `{action.kind}` actions now ({shown})"
            else:
                kinds = sorted({a.kind for a in legal})
                reason = f"`{action.kind}` is not possible now; possible: {', '.join(kinds)}"
        raise IllegalAction(
            f"{action}: {reason} [seat {self.current_player}, {self.phase_name()}]"
        )

    def apply(self, action: Action | str) -> None:
        """Apply an action or its text; on any refusal the state is left exactly as it was."""
        if isinstance(action, str):
            action = self.game.parse_action(self, action)
        elif isinstance(action, Action):
            self.check_legal(action)
        else:
            raise ActionSyntaxError(f"expected an Action or its text, got {type(action).__name__}")
        self._invalidate_legal()
        self._apply(action)
        self.history.append(str(action))

    def apply_unchecked(self, action: Action) -> None:
        """Fast path for search and simulation: the caller guarantees `action` is legal."""
        self._invalidate_legal()
        self._apply(action)
        self.history.append(str(action))

    def observation(self, seat: int | None = None) -> dict[str, Any]:
        if seat is not None and (isinstance(seat, bool) or not 0 <= seat < self.num_players):
            raise ValueError(f"seat must be None (spectator) or 0..{self.num_players - 1}, got {seat!r}")
        return self._observation(seat)

    def to_json(self) -> dict[str, Any]:
        data = self.game.record()
        data.update(rng=self.rng.state, history=list(self.history), position=self._position_json())
        return data

    def digest(self) -> str:
        blob = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def __str__(self) -> str:
        return f"<{self.game.info.name} state, {len(self.history)} actions, {self.phase_name()}>"


def winners_share(scores: Sequence[float], tiebreak: Sequence[Sequence[float]] = ()) -> list[float]:
    """Returns where the best seats (by score, then each tiebreak list) share a total of 1."""
    keys = [(s, *(t[i] for t in tiebreak)) for i, s in enumerate(scores)]
    best = max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(scores))]
