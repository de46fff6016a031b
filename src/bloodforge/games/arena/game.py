"""The adapter: `ArenaGame` and `ArenaState` wire the engine contract to the rules modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Self

from bloodforge.core import (
    Action,
    ActionSpec,
    Game,
    GameInfo,
    GameParams,
    ParameterError,
    Rng,
    State,
    winners_share,
)
from bloodforge.core.errors import DataFileError

from . import player, setup, turns
from .content import ArenaMap, Content, load_content
from .hexes import canonical_hex, hex_id, to_pixel
from .model import Board
from .observation import observe, resample
from .params import ArenaParams
from .policy import ArenaPolicy
from .render import render
from .scenario import build as build_scenario
from .world import World

GRAMMAR: tuple[ActionSpec, ...] = (
    ActionSpec("pick", ("card",), "secretly choose this round's Initiative card", label="Play {card}"),
    ActionSpec("place", ("hex",), "round 1: enter the arena on a central space", label="Enter at {hex}"),
    ActionSpec("energy", ("die",), "Gain Energy from a rolled Blood Energy die", label="Energy from die {die}"),
    ActionSpec("move", ("hex",), "the Move action: go to a hex within Movement", label="Move to {hex}"),
    ActionSpec("attack", ("attack",), "the Attack action with one of your attacks", label="Attack: {attack}"),
    ActionSpec("target", ("unit",), "choose a target of the attack", label="Target {unit}"),
    ActionSpec("done", (), "no more targets: resolve the attack", label="Resolve attack"),
    ActionSpec("bonus", ("source",), "the Bonus Action of your current Initiative card", label="Card bonus"),
    ActionSpec("spell", ("die",), "resolve a rolled d6 Spell die as a Bonus Action", label="Spell die {die}"),
    ActionSpec("pact", ("pact",), "a Blood Pact (paid in Blood Energy)", label="Pact: {pact}"),
    ActionSpec("invoke", ("keep",), "Invoke your Ultimate, keeping one Blood Energy die", optional_args=1,
               label="Invoke Ultimate"),
    ActionSpec("minion", ("unit", "hex"), "move one of your minions (a Bonus Action)", label="Move {unit} to {hex}"),
    ActionSpec("choose", ("option",), "answer the waiting decision", label="Choose {option}"),
    ActionSpec("end", (), "end your turn (cleanup)", label="End turn"),
    ActionSpec("round", (), "the game: a new round begins"),
    ActionSpec("reveal", (), "the game: reveal Initiative cards and NPC Speeds, fix the order"),
    ActionSpec("immediate", ("unit",), "the game: a card's Immediate ability resolves"),
    ActionSpec("roll", ("unit",), "the game: a Champion's turn begins with the roll"),
    ActionSpec("env", ("env",), "the game: an Environmental's turn"),
    ActionSpec("npc", ("unit", "step", "arg"), "the game: one step of a Boss or Rival", optional_args=1,
               types=("unit", "word", "word")),
)


class ArenaState(World, State):
    game: ArenaGame

    def __init__(self, game: ArenaGame, rng: Rng, arena: ArenaMap | None = None) -> None:
        self._init_core(game, rng)
        self.content = game.content
        self.params = game.params
        self.board = Board()
        self.set_arena(arena or game.content.arena)

    def set_arena(self, arena: ArenaMap) -> None:
        self.arena_map = arena
        self.cells = frozenset(arena.cells())
        self.central = tuple(arena.central_cells())

    # -- contract hooks ----------------------------------------------------------------------
    def _actors(self) -> list[int]:
        return turns.actors(self)

    def _is_terminal(self) -> bool:
        return self.board.phase == "over"

    def _automatic_action(self) -> Action | None:
        return turns.auto_step(self)

    def _legal_actions(self, seat: int) -> list[Action]:
        return player.legal(self, seat)

    def _apply(self, action: Action, seat: int | None) -> None:
        if seat is None:
            turns.apply_auto(self, action)
        else:
            player.apply_seat(self, action, seat)

    def phase_name(self) -> str:
        b = self.board
        return f"round {b.round} {b.phase}" + (f" ({b.active} {b.stage})" if b.active else "")

    def seat_roles(self) -> list[str]:
        return [self.content.champion(c).name for c in self.params.seat_champions()]

    def scores(self) -> list[float]:
        """1 for a seat whose side won (R-WIN-1..3), else 0."""
        out = []
        for seat in range(self.num_players):
            u = player.seat_unit(self, seat)
            out.append(1.0 if self.board.phase == "over" and u.side in self.board.winners else 0.0)
        return out

    def returns(self) -> list[float]:
        """The winning seats share 1; when a side without seats (a Boss, Rivals) won, every
        seat lost and gets 0 (the contract allows an all-zero outcome for that; see Rulings)."""
        return winners_share(self.scores()) if any(self.scores()) else [0.0] * self.num_players

    def npc_won(self) -> bool:
        """Did a side without seats (a Boss, Rivals) win? (The balance report counts this.)"""
        return self.board.phase == "over" and not any(self.scores())

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observe(self, seat)

    def resample_hidden(self, seat: int | None, rng: Rng) -> Self:
        new = self.clone()
        new.board = resample(self.board, seat, rng)
        new.rng = Rng(rng.next_u64())
        return new

    def clone(self) -> Self:
        new = object.__new__(type(self))
        self._clone_core(new)
        new.content = self.content
        new.params = self.params
        new.board = self.board.copy()
        new.arena_map = self.arena_map
        new.cells = self.cells
        new.central = self.central
        return new

    def _position_json(self) -> dict[str, Any]:
        data = self.board.to_json()
        data["arena"] = self.arena_map.model_dump(mode="json", exclude_defaults=True)
        return data


class ArenaGame(Game):
    info = GameInfo(
        id="arena",
        name="BLOODSTONE arena",
        summary="Hex-arena brawler: Champions with dice pools, Initiative cards, Blood Energy, pacts and "
        "Ultimates against each other, automated Rivals and Bosses, minions and Environmentals.",
        min_players=1,
        max_players=6,
        params_model=ArenaParams,
        version=1,
        chance=True,
        hidden_information=True,
        score_name="won",
    )
    params: ArenaParams

    def __init__(self, params: GameParams, seed: int = 0) -> None:
        if not isinstance(params, ArenaParams):
            raise ParameterError(f"{self.info.name} needs ArenaParams, got {type(params).__name__}")
        super().__init__(params, seed)
        self.params = params
        try:
            self.content: Content = load_content(params.content, params.arena)
        except DataFileError as err:
            raise ParameterError(str(err)) from None
        known = {c.id for c in self.content.champions}
        for cid in [*params.seat_champions(), *params.rivals]:
            if cid not in known:
                raise ParameterError(f"unknown champion {cid!r}; known: {', '.join(sorted(known))}")
        if params.boss is not None and params.boss not in {b.id for b in self.content.bosses}:
            raise ParameterError(f"unknown boss {params.boss!r}; known: {', '.join(b.id for b in self.content.bosses)}")
        envs = {e.id for e in self.content.environmentals}
        if params.environmental is not None and params.environmental not in envs:
            raise ParameterError(f"unknown environmental {params.environmental!r}; known: {', '.join(sorted(envs))}")

    def _new_initial_state(self) -> ArenaState:
        state = ArenaState(self, self.initial_rng())
        setup.setup(state)
        return state

    def action_grammar(self) -> Sequence[ActionSpec]:
        return GRAMMAR

    def canonical_action(self, action: Action) -> Action:
        return Action(action.kind, tuple(canonical_hex(a.lower()) for a in action.args))

    def _state_from_position(self, position: Mapping[str, Any], rng: Rng) -> ArenaState:
        arena = ArenaMap.model_validate(position["arena"])
        state = ArenaState(self, rng, arena)
        state.board = Board.from_json(dict(position))
        return state

    def _state_from_scenario(self, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> ArenaState:
        state = ArenaState(self, self.initial_rng())
        build_scenario(state, position, rig)
        return state

    def static_info(self) -> dict[str, Any]:
        c = self.content
        hexes = []
        central = set(c.arena.central_cells())
        for h in c.arena.cells():
            x, y = to_pixel(h)
            hexes.append({"id": hex_id(h), "q": h[0], "r": h[1], "kind": "central" if h in central else "floor",
                          "x": round(x, 4), "y": round(y, 4)})
        colours = ["#b5651d", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#17becf"]
        return {
            "board": {
                "geometry": "hexes", "orientation": "pointy", "hexes": hexes,
                "kinds": {"floor": {"label": "Arena floor"}, "central": {"label": "Central zone"}},
                "seats": [{"seat": i, "name": self.content.champion(cid).name, "colour": colours[i % 6]}
                          for i, cid in enumerate(self.params.seat_champions())],
            },
            "champions": [ch.model_dump(mode="json") for ch in c.champions],
            "bosses": [b.model_dump(mode="json") for b in c.bosses],
            "environmentals": [e.model_dump(mode="json") for e in c.environmentals],
            "skirmish": [s.model_dump(mode="json") for s in c.skirmish],
            "rules": c.rules.model_dump(mode="json"),
            "mode": self.params.mode,
        }

    def policy(self, **options: Any) -> ArenaPolicy:
        return ArenaPolicy(**options)

    def render_text(self, observation: Mapping[str, Any]) -> str:
        return render(observation)

    def scenario_dir(self) -> Path | None:
        return Path(__file__).parent / "scenarios"

    def web_dir(self) -> Path:
        return Path(__file__).parent / "web"
