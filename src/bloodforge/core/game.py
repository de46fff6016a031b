"""The game contract: `Game` (rules + parameters) and `State` (one position).

The engine owns the public step (`State.apply`): it checks legality, refuses bad input without
touching the state and records history; a game fills in the hooks (`_legal_actions`, `_apply`,
...), as in OpenSpiel. Everything an agent, the server or the lab needs goes through here.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .action import CANCEL, TIMEOUT, Action, ActionSpec
from .editable import ContentSource
from .errors import ActionSyntaxError, IllegalAction, ParameterError, ScenarioError, format_validation_error
from .log import EventLog
from .policy import Policy
from .rng import Rng, mix_seed
from .scenario import read_scenario

#: How many of its own steps in a row a game may take before the engine calls it a loop.
MAX_AUTOMATIC_STEPS = 100_000

#: The digests a record or a lab result can carry: "chain" (`State.digest`, written since the
#: hash chain exists) and "position" (`State.position_digest`, what older files carry).
DIGEST_KINDS: tuple[str, ...] = ("chain", "position")
#: Domain tag hashed first into every chain, so a chain never equals another kind of hash.
CHAIN_TAG = b"bloodforge digest chain v1\n"


class GameParams(BaseModel):
    """Parameters every game accepts; games subclass it with their own fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int

    @classmethod
    def file_parameters(cls) -> list[str]:
        """Names of the parameters that name files (declared with `data_file_field`)."""
        return [name for name, f in cls.model_fields.items() if is_file_field(f.json_schema_extra)]

    def files_named(self) -> dict[str, str]:
        """The file parameters this instance sets, with their values."""
        return {k: str(v) for k in self.file_parameters() if (v := getattr(self, k)) is not None}


#: The JSON-schema key that marks a parameter as naming a file on the machine running the game.
FILE_PARAMETER_KEY = "x-bloodforge-file"


def data_file_field(description: str) -> Any:
    """A parameter naming a designer's data file (a map, a faction sheet, a deck).

    Every file parameter of every game is declared with this, so one rule can refuse them all at
    a trust boundary (the server must never open a path a client sends) and the lab can find
    the files a parameter sweep may vary.
    """
    return Field(default=None, description=description, json_schema_extra={FILE_PARAMETER_KEY: True})


def is_file_field(extra: object) -> bool:
    return isinstance(extra, dict) and extra.get(FILE_PARAMETER_KEY) is True


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

    @classmethod
    def editable_content(cls) -> ContentSource | None:
        """The game's data files as content a designer edits in the workbench (read, checked
        by the game's own models, written back), or None: the game has nothing to edit there."""
        return None

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
    def _new_initial_state(self) -> State:
        """The state before anyone acts (the engine then runs the game's own first steps)."""

    @abstractmethod
    def action_grammar(self) -> Sequence[ActionSpec]:
        """Every verb of this game with its arguments; `cancel` is added by the engine."""

    @abstractmethod
    def _state_from_position(self, position: Mapping[str, Any], rng: Rng) -> State:
        """Rebuild a state from the game-specific part of `State.to_json()` (the engine then
        restores history, events and scenario)."""

    def _state_from_scenario(self, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> State:
        del position, rig
        raise ScenarioError(f"{self.info.name} does not support scenarios")

    def policy(self, **options: Any) -> Policy | None:
        """The game's own heuristic policy (the `greedy` agent plays it), or None if it has none.

        It lives in the game's folder because a good static evaluation is game knowledge; it
        still sees the game only through observations, legal actions and exported rule queries.
        """
        del options
        return None

    def rollout_policy(self) -> Policy | None:
        """A light policy for search rollouts (the `light` rollout of the search agent), or
        None: then they are uniformly random. *Why a hook:* a searcher judges a line by playing
        on from it, and uniformly random play can be the wrong stand-in (a random soldier hits
        his comrades); the heuristic policy is right but costs milliseconds a decision, so a
        game may offer a cheap weighted-random one that avoids the foolish moves."""
        return None

    def search_options(self) -> dict[str, Any]:
        """Options of the IS-MCTS agent (agents/mcts.py) that suit this game, used unless the
        user gives others; default none. *Why a hook:* which search works is game knowledge
        (a game of long compound moves wants a search over its policy's plans, a tactical
        skirmish a tree over single actions), and a player choosing "mcts" should get the
        strong one without knowing the options."""
        return {}

    def evaluate(self, state: State) -> list[float] | None:
        """The game's estimate of every seat's return in a running position, or None (default:
        no estimate; searchers then give every seat an even share at their cut-off).

        Each value is in [0, 1] and they sum to about 1, like `returns()`. Search agents call it
        only on states they sampled themselves (`resample_hidden`), so it may read the whole
        state; a good one is judged from each seat's observation, as the game's policy is.
        *Why a hook:* playing a long game out to the end inside a search is far too slow; a
        static evaluation is game knowledge, so it lives in the game's folder.
        """
        del state
        return None

    def web_dir(self) -> Path | None:
        """The folder of the game's browser view (`view.js`, optional `view.css`), if any."""
        return None

    def scenario_dir(self) -> Path | None:
        """The folder of the game's packaged scenario files, if any."""
        return None

    def battle_odds(self, attacker: str, defender: str, options: Mapping[str, str]) -> dict[str, Any] | None:
        """Exact odds of a battle described in the game's own words, or None if the game has no
        calculator. JSON-safe: at least `win`, `lose`, `draw` (attacker's view)."""
        del attacker, defender, options
        return None

    def render_odds(self, odds: Mapping[str, Any]) -> str:
        """A terminal table of `battle_odds` output."""
        return json.dumps(odds, indent=1, sort_keys=True)

    # -- contract -----------------------------------------------------------------------------
    def new_initial_state(self, *, advance: bool = True) -> State:
        """The first state; `advance=False` stops before the game's own first steps (replays
        step through those one entry at a time)."""
        state = self._new_initial_state()
        if advance:
            state._advance()
        return state

    def grammar(self) -> dict[str, ActionSpec]:
        specs = {s.kind: s for s in self.action_grammar()}
        specs.setdefault(CANCEL, ActionSpec(CANCEL, (), "drop the partial choice being built", label="Undo choice"))
        specs.setdefault(TIMEOUT, ActionSpec(TIMEOUT, ("seat",), "the host: a seat's clock ran out", host=True))
        return specs

    def parse_action(self, state: State, text: str, seat: int | None = None) -> Action:
        """Text to a legal Action for `seat` (default: the current player): ActionSyntaxError if
        malformed, IllegalAction if not allowed now."""
        action = self.parse_text(text)
        state.check_legal(action, seat)
        return action

    def parse_text(self, text: str) -> Action:
        """Text to a well-formed Action, legal or not: ActionSyntaxError if malformed."""
        if not isinstance(text, str):
            raise ActionSyntaxError(f"an action text must be a string, got {type(text).__name__}")
        words = text.split()
        if not words:
            raise ActionSyntaxError("empty action text")
        kind = words[0].lower()
        specs = self.grammar()
        spec = specs.get(kind)
        if spec is None:
            known = ", ".join(sorted(k for k, s in specs.items() if not s.host))
            raise ActionSyntaxError(f"{text!r}: unknown action {kind!r}; {self.info.name} knows {known}")
        n = len(words) - 1
        if not spec.min_arity <= n <= spec.max_arity:
            raise ActionSyntaxError(f"{text!r}: expected `{spec.usage()}`, got {n} argument(s)")
        if kind == TIMEOUT:
            return Action(TIMEOUT, (str(_seat_number(words[1], text)),))
        return self.canonical_action(Action(kind, tuple(words[1:])))

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
        history = list(data["history"])
        state = self._state_from_position(data["position"], Rng(int(data["rng"])))
        state.history = history
        seats = data.get("history_seats")
        state.history_seats = list(seats) if seats is not None else [None] * len(history)
        state.events = EventLog.from_json(data.get("events", ()))
        state.scenario = data.get("scenario")
        state._chain = None  # history and scenario replaced: the chain is rebuilt on first use
        return state

    def load_scenario(self, source: str | Path | Mapping[str, Any], *, advance: bool = True) -> State:
        scenario = read_scenario(source)
        if scenario.game != self.id:
            raise ScenarioError(f"scenario is for game {scenario.game!r}, not {self.id!r}")
        game = type(self).create(seed=scenario.seed, **scenario.params)
        try:
            state = game._state_from_scenario(scenario.position, scenario.rig)
        except ScenarioError:
            raise
        except (KeyError, TypeError, ValueError) as err:
            raise ScenarioError(f"scenario position is invalid: {err}") from err
        state.scenario = scenario.model_dump(mode="json")
        state._chain = None  # the chain starts from the scenario too
        if advance:
            state._advance()
        return state


def _seat_number(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise ActionSyntaxError(f"{text!r}: a seat number is expected, got {word!r}")
    return int(word)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the one place that decides who won.

    `returns` share 1 among the winners (ties shared); `winners` are the seats with the best
    return, empty when nobody scored (a draw by cap where the game gives everyone 0).
    """

    scores: list[float]
    returns: list[float]
    winners: list[int]
    roles: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"scores": self.scores, "returns": self.returns, "winners": self.winners, "roles": self.roles}


def winners_of(returns: Sequence[float]) -> list[int]:
    best = max(returns, default=0.0)
    return [i for i, r in enumerate(returns) if r == best and r > 0]


class State(ABC):
    """One position of a game. Mutable: `apply` changes it in place; `clone` copies it.

    The engine owns the public step: it checks who may act and what is legal, applies the
    action through the game's hook, records it with the acting seat, then lets the game take
    its own steps (bosses, reveals, chance) until a seat must decide again, recording each of
    them as the game's action (seat None). Every game keeps its log in `events`.
    """

    game: Game
    rng: Rng
    history: list[str]
    #: Who acted at each entry of `history`: a seat, or None for the game's own steps and the
    #: host's actions (`timeout`).
    history_seats: list[int | None]
    events: EventLog
    #: The scenario this state was started from (its JSON), kept for the game's record.
    scenario: dict[str, Any] | None
    #: The digest's hash chain so far: (entries of `history` folded in, chain hash after them),
    #: or None before the first `digest()`. An immutable pair, so `clone` shares it in O(1);
    #: a copy made without it (None) only recomputes the chain from the history.
    _chain: tuple[int, bytes] | None = None

    def _init_core(self, game: Game, rng: Rng, history: list[str] | None = None) -> None:
        """Set the engine's fields; games call this first in their constructor."""
        self.game = game
        self.rng = rng
        self.history = [] if history is None else history
        self.history_seats = [None] * len(self.history)
        self.events = EventLog()
        self.scenario = None
        self._chain = None

    def _clone_core(self, new: State) -> None:
        """Copy the engine's fields into `new` (games call this from `clone`)."""
        new.game = self.game
        new.rng = self.rng.copy()
        new.history = list(self.history)
        new.history_seats = list(self.history_seats)
        new.events = self.events.copy()
        new.scenario = self.scenario
        new._chain = self._chain

    # -- hooks --------------------------------------------------------------------------------
    @abstractmethod
    def _actors(self) -> list[int]:
        """Seats that may act now, in seat order: one seat usually, several while secret
        simultaneous commitments are open; empty when the game is over."""

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """Legal actions of `seat`, which is one of `_actors()`."""

    @abstractmethod
    def _apply(self, action: Action, seat: int | None) -> None:
        """Change the state by a legal action of `seat`, or by the game's own step (seat None)."""

    def _automatic_action(self) -> Action | None:
        """The step the game takes itself now (a boss's move, a reveal, a chance event), if any.

        Must not change the state: the engine calls it, then applies the returned action with
        `_apply(action, None)`. Randomness belongs in `_apply`, from `self.rng`.
        """
        return None

    def _is_terminal(self) -> bool:
        """Is the game over? Games usually know more cheaply than this default does."""
        return not self._actors() and self._automatic_action() is None

    def _timeout_allowed(self, seat: int) -> bool:
        """May the host record that `seat`'s clock ran out? By default: when `seat` is waited for."""
        return seat in self._actors()

    def _apply_timeout(self, seat: int) -> None:
        """The rules' effect of `timeout <seat>`; by default only a log line (the host decides
        what follows, e.g. an AI takes the seat over)."""
        self.events.add(f"{self.seat_label(seat)} ran out of time", kind="timeout")

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
        """Everything of this state except game, params, RNG, history and events, JSON-safe."""

    def turn_marker(self) -> Hashable | None:
        """A value that changes exactly when a new player's turn begins (None: the game has no
        turns worth naming). *Why:* a searcher cutting its rollouts at the same point of the
        turn order compares its options fairly; cut after a fixed number of actions, an option
        that ends the turn early is judged further into the opponent's turn than one that
        does not."""
        return None

    def resample_hidden(self, seat: int | None, rng: Rng) -> Self:
        """Default for games whose only hidden information is future chance: reseed the RNG."""
        del seat
        new = self.clone()
        new.rng = Rng(rng.next_u64())
        return new

    def event_log(self, seat: int | None) -> list[str]:
        """Every logged event `seat` may read (None: public ones), oldest first."""
        return self.events.texts_for(seat)

    def explain_illegal(self, action: Action) -> str | None:
        """A game-specific reason why `action` is illegal now, if the game can say better."""
        del action
        return None

    def phase_name(self) -> str:
        return "play"

    def rule_clock(self, seat: int) -> float | None:
        """Seconds the rules give `seat` for its current decision (Five Forts' planning minute),
        or None when the rules set no clock. The host runs the clock and applies `timeout`."""
        del seat
        return None

    def seat_roles(self) -> list[str]:
        """What each seat plays (faction, side), for summaries and UIs; '' where nothing yet."""
        return [""] * self.num_players

    def statistics(self) -> dict[str, float]:
        """Numbers about how this game went (spells cast, battles fought, ...), for the lab to
        average per rule variant; default none. *Why:* a designer changing a rule wants to see
        the mechanism move (how often a spell is cast at full price), not only the win rate.
        Called by the lab on finished games, so it may read everything."""
        return {}

    def seat_label(self, seat: int) -> str:
        role = self.seat_roles()[seat] if 0 <= seat < self.num_players else ""
        return f"seat {seat}" + (f" ({role})" if role else "")

    # -- contract -----------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.game.num_players

    def actors(self) -> list[int]:
        """Seats that may act now (several during secret simultaneous commitments)."""
        return self._actors()

    @property
    def current_player(self) -> int | None:
        """The first seat that may act, or None once the game is over (or the game itself is
        to step, which only a step-by-step replay ever shows)."""
        actors = self._actors()
        return actors[0] if actors else None

    def is_terminal(self) -> bool:
        return self._is_terminal()

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Legal actions of `seat` (default: the current player); empty if it may not act."""
        return list(self._cached_legal(self._default_seat(seat)))

    def _default_seat(self, seat: int | None) -> int | None:
        if seat is None:
            return self.current_player
        if type(seat) is int and 0 <= seat < self.num_players:  # the usual case (every ply asks)
            return seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0..{self.num_players - 1}, got {seat!r}")
        return seat

    def _cached_legal(self, seat: int | None) -> list[Action]:
        """Legal actions, computed once per position and seat: agents ask, then `apply` checks."""
        cache: tuple[int, int | None, list[Action]] | None = self.__dict__.get("_legal_cache")
        n = len(self.history)
        if cache is not None and cache[0] == n and cache[1] == seat:
            return cache[2]
        legal = [] if seat is None or seat not in self._actors() else self._legal_actions(seat)
        self.__dict__["_legal_cache"] = (n, seat, legal)
        return legal

    def _invalidate_legal(self) -> None:
        self.__dict__.pop("_legal_cache", None)

    def check_legal(self, action: Action, seat: int | None = None) -> None:
        """Raise IllegalAction (saying why) unless `seat` may play `action` now."""
        if action.kind == TIMEOUT:
            raise IllegalAction(f"{action}: only the host records timeouts (State.apply_timeout)")
        actors = self._actors()
        if not actors:
            raise IllegalAction(f"{action}: the game is over")
        seat = actors[0] if seat is None else self._default_seat(seat)
        if seat is None or seat not in actors:
            waiting = ", ".join(self.seat_label(s) for s in actors)
            who = "nobody" if seat is None else self.seat_label(seat)
            raise IllegalAction(f"{action}: {who} may not act now; waiting for {waiting}")
        legal = self._cached_legal(seat)
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
        raise IllegalAction(f"{action}: {reason} [seat {seat}, {self.phase_name()}]")

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply `seat`'s action (default seat: the current player) or its text; on any
        refusal the state is left exactly as it was. The game's own steps follow by themselves."""
        if isinstance(action, str):
            action = self.game.parse_action(self, action, seat)
        elif isinstance(action, Action):
            self.check_legal(action, seat)
        else:
            raise ActionSyntaxError(f"expected an Action or its text, got {type(action).__name__}")
        self._commit(action, self._default_seat(seat))

    def apply_unchecked(self, action: Action, seat: int | None = None) -> None:
        """Fast path for search and simulation: the caller guarantees `action` is legal."""
        self._commit(action, self.current_player if seat is None else seat)

    def apply_timeout(self, seat: int) -> None:
        """The host records that `seat`'s clock ran out; the game decides what that does."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise IllegalAction(f"timeout {seat}: seats are 0..{self.num_players - 1}")
        if self.is_terminal():
            raise IllegalAction(f"timeout {seat}: the game is over")
        if not self._timeout_allowed(seat):
            raise IllegalAction(f"timeout {seat}: no clock of {self.seat_label(seat)} is running now")
        self._invalidate_legal()
        self._apply_timeout(seat)
        self._record(Action(TIMEOUT, (str(seat),)), None)
        self._advance()

    def _commit(self, action: Action, seat: int | None) -> None:
        self.__dict__.pop("_legal_cache", None)  # `_invalidate_legal`, inlined (every action)
        self._apply(action, seat)
        self.history.append(str(action))  # `_record`, inlined
        self.history_seats.append(seat)
        self._advance()

    def _record(self, action: Action, seat: int | None) -> None:
        self.history.append(str(action))
        self.history_seats.append(seat)

    def _advance(self) -> None:
        """Let the game take its own steps until a seat must act or the game is over.

        `_invalidate_legal` and `_record` inlined, the bound hooks looked up once: a game
        takes several own steps per seat action (the arena's NPCs and effects about two per
        ply), so the wrappers were a few per cent of a random playout (issue 23). The same
        calls in the same order."""
        automatic = self._automatic_action
        apply = self._apply
        pop = self.__dict__.pop
        for _ in range(MAX_AUTOMATIC_STEPS):
            action = automatic()
            if action is None:
                return
            pop("_legal_cache", None)
            apply(action, None)
            self.history.append(str(action))
            self.history_seats.append(None)
        raise RuntimeError(f"{self.game.id}: over {MAX_AUTOMATIC_STEPS} automatic steps in a row")

    def step_entry(self, seat: int | None, text: str) -> None:
        """Replay one recorded entry exactly, without running the game's next own steps: a
        seat's action, the host's `timeout`, or the game's own step (checked against what the
        game would do). Replays step with this so that every entry is a position of its own."""
        if seat is None:
            action = self.game.parse_text(text)
            if action.kind == TIMEOUT:
                target = int(action.args[0])
                if not self._timeout_allowed(target):
                    raise IllegalAction(f"{text}: no clock of seat {target} is running now")
                self._invalidate_legal()
                self._apply_timeout(target)
                self._record(action, None)
                return
            expected = self._automatic_action()
            if expected is None or str(expected) != str(action):
                raise IllegalAction(f"{text}: the game's own step here is {expected}, not {text!r}")
            self._invalidate_legal()
            self._apply(expected, None)
            self._record(expected, None)
            return
        action = self.game.parse_action(self, text, seat)
        self._invalidate_legal()
        self._apply(action, seat)
        self._record(action, seat)

    def moves(self) -> list[tuple[int | None, str]]:
        """The history as (seat, text) pairs: what a game record stores."""
        return list(zip(self.history_seats, self.history, strict=True))

    def outcome(self) -> Outcome | None:
        """Scores, returns and winners once the game is over; None while it runs."""
        if not self.is_terminal():
            return None
        returns = self.returns()
        return Outcome(self.scores(), returns, winners_of(returns), self.seat_roles())

    def observation(self, seat: int | None = None) -> dict[str, Any]:
        if seat is not None and (isinstance(seat, bool) or not 0 <= seat < self.num_players):
            raise ValueError(f"seat must be None (spectator) or 0..{self.num_players - 1}, got {seat!r}")
        return self._observation(seat)

    def policy_observation(self, seat: int) -> dict[str, Any]:
        """What a game's own greedy policy reads of `seat`'s observation. A game whose full
        observation is costly may return only the fields its policy reads (the same values under
        the same visibility, which its tests check); the default is the whole observation. It
        lives on the state so that a policy needs no import of the game's internals."""
        return self.observation(seat)

    def to_json(self) -> dict[str, Any]:
        data = self.game.record()
        data.update(
            rng=self.rng.state, history=list(self.history), history_seats=list(self.history_seats),
            events=self.events.to_json(), position=self._position_json(),
        )
        if self.scenario is not None:
            data["scenario"] = self.scenario
        return data

    def digest(self) -> str:
        """The game's identity so far, in O(1) per entry: a SHA-256 hash chain.

        h_0 = sha256(tag || canonical JSON of `game.record()` (game, rules version, parameters,
        seed) and the scenario the state started from); each history entry then advances it:
        h_{n+1} = sha256(h_n || seat ("-" for the game's own steps and the host's timeouts)
        || 0x1f || action text). Rules are deterministic and chance comes only from the state's
        RNG, seeded by the game, so the chain identifies the state that replaying those entries
        reaches, under the same rules version. It says nothing about a position reached any
        other way: a state edited by hand, or a `resample_hidden` determinisation (which keeps
        its source's chain). Use `position_digest` to compare positions.

        Lazy: the pair (entries folded, hash) is cached on the state and shared by `clone`, so
        a call hashes only the entries recorded since the last call on this state or the one
        it was cloned from; applying actions costs nothing extra.

        Hidden information: the chain covers every entry, hidden commitments included; with
        few possible actions those could be recovered by trying each one, so a seat must
        never be shown a digest while the game runs (observations and the server carry none).
        """
        history, seats = self.history, self.history_seats
        cached = self._chain
        if cached is None or cached[0] > len(history):
            done, h = 0, self._chain_start()
        else:
            done, h = cached
        sha256 = hashlib.sha256
        for i in range(done, len(history)):
            seat = seats[i]
            who = b"-" if seat is None else str(seat).encode()
            h = sha256(h + who + b"\x1f" + history[i].encode("utf-8", "surrogatepass")).digest()
        self._chain = (len(history), h)
        return h.hex()

    def _chain_start(self) -> bytes:
        """h_0 of `digest`: what defines the game before any entry."""
        head = {"record": self.game.record(), "scenario": self.scenario}
        blob = json.dumps(head, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(CHAIN_TAG + blob.encode()).digest()

    def position_digest(self) -> str:
        """SHA-256 of the whole state's canonical JSON (`to_json`: position, RNG, history, log).

        Why both exist: `digest` is cheap and identifies the game by its entries, but it cannot
        see a position that differs while the entries are the same (a refused action that
        leaked a change, a search that touched the real state, a JSON round trip that lost a
        field, a rules change that keeps every entry legal). This one sees all of that and
        costs a full serialisation (0.2-2 ms, growing with the game); it is also the digest
        that records and lab results written before the chain existed carry."""
        blob = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def digest_of(self, kind: str) -> str:
        """The digest of one of `DIGEST_KINDS`: what a stored record or result says it keeps."""
        if kind == "chain":
            return self.digest()
        if kind == "position":
            return self.position_digest()
        raise ValueError(f"unknown digest kind {kind!r}; known: {', '.join(DIGEST_KINDS)}")

    def __str__(self) -> str:
        return f"<{self.game.info.name} state, {len(self.history)} actions, {self.phase_name()}>"


def winners_share(scores: Sequence[float], tiebreak: Sequence[Sequence[float]] = ()) -> list[float]:
    """Returns where the best seats (by score, then each tiebreak list) share a total of 1."""
    keys = [(s, *(t[i] for t in tiebreak)) for i, s in enumerate(scores)]
    best = max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(scores))]
