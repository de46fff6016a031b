"""The adapter: `BloodstonesGame` and `BloodstonesState` wire the engine's hooks to the rules.

Layers (docs/architecture.md): content, params <- units <- ruleset <- model <- rules modules
(movement, villages, turn, setup, battle, rules) <- observation, scenario, render, static <- this
module <- `__init__`. The exported queries (`queries.py`) sit below everything: the rules and the
heuristic policy both use them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, Self

from bloodforge.core import Action, ActionSpec, BagEmpty, Game, GameInfo, Rng, ScenarioError, State
from bloodforge.core.editable import ContentSource, files_source
from bloodforge.core.errors import DataFileError, ParameterError
from bloodforge.core.policy import shares_from_values

from . import odds, rules, setup
from .content import DATA_DIR, FactionsFile, default_map_for, load_board, load_factions
from .model import Phase, Position
from .observation import observe, resample
from .params import BloodstonesParams
from .policy import BloodstonesPolicy, Model, evaluate
from .render import render
from .ruleset import Ruleset
from .scenario import fill_scenario
from .scoring import final_returns
from .static import static_info
from .units import FactionRules

GRAMMAR = (
    ActionSpec("faction", ("faction",), "choose your faction (setup)", label="Play the {faction}"),
    ActionSpec("citadel", ("area",), "place your citadel (setup)", label="Place your citadel in {area}"),
    ActionSpec("start", ("area",), "Chaos Horde: choose the starting area (setup)", label="Start in {area}"),
    ActionSpec("build", ("unit", "area"), "build a unit from hand in an area", types=("tile", "area"),
               label="Build {unit} in {area}"),
    ActionSpec("place", ("unit", "area"), "Chaos Horde wiped out: return with one unit", types=("tile", "area"),
               label="Return with {unit} in {area}"),
    ActionSpec("pay", ("tile",), "discard a tile from hand towards the cost being paid", label="Pay with {tile}"),
    ActionSpec("move", ("area", "unit"), "add a unit in an area to the group being moved",
               label="Select {unit} in {area} to move"),
    ActionSpec("to", ("area",), "move the selected group to an area", label="Move the group to {area}"),
    ActionSpec("battle", ("area", "seat"), "attack another player's units in an area", label="Attack {seat} in {area}"),
    ActionSpec("capture", ("area",), "capture a village in an area holding your units",
               label="Capture a village in {area}"),
    ActionSpec("village", ("area",), "construct a village in an area", label="Build a village in {area}"),
    ActionSpec("undead", ("from", "to"), "move one Undead up to two areas", types=("area", "area"),
               label="Undead: {from} to {to}"),
    ActionSpec("withdraw", ("area",), "defender: withdraw before the battle", label="Withdraw to {area}"),
    ActionSpec("stay", (), "defender: stay and fight", label="Stay and fight"),
    ActionSpec("substitute", ("tile",), "replace your lowest Battle tile with a tile from hand",
               label="Substitute {tile} for your lowest battle tile"),
    ActionSpec("keep", (), "keep the Battle tiles drawn", label="Keep the battle tiles"),
    ActionSpec("casualty", ("unit",), "loser: the unit to eliminate", label="Lose {unit}"),
    ActionSpec("retreat", ("area",), "loser: the area to retreat to", label="Retreat to {area}"),
    ActionSpec("raise", ("count",), "Necromancers: Undead to raise from the units they beat", types=("number",),
               label="Raise {count} Undead"),
    ActionSpec("done", (), "end this step or phase", label="Done"),
)


class BloodstonesGame(Game):
    info = GameInfo(
        id="bloodstones",
        name="Bloodstones",
        summary="2-6 player fantasy area-control wargame with asymmetric factions and domino-like tiles.",
        min_players=2,
        max_players=6,
        params_model=BloodstonesParams,
        version=1,
        chance=True,
        hidden_information=True,
        score_name="VP",
    )
    params: BloodstonesParams

    @classmethod
    def editable_content(cls) -> ContentSource:
        """The factions file (units, tiles, battle modifiers): the numbers designers tune. The
        map stays a parameter (the built-in maps differ by player count)."""
        return files_source("bloodstones", {"factions": (FactionsFile, DATA_DIR / "factions.json", "faction_data")})

    def __init__(self, params: BloodstonesParams, seed: int = 0) -> None:
        super().__init__(params, seed)
        try:
            factions_file = load_factions(params.faction_data)
            board = load_board(params.map_file or params.map or default_map_for(params.players))
        except DataFileError as err:
            raise ParameterError(str(err)) from None
        known = {f.id for f in factions_file.factions}
        for f in params.factions or ():
            if f not in known:
                raise ParameterError(f"unknown faction {f!r}; factions: {', '.join(sorted(known))}")
        bounds = board.data.players
        if not params.allow_unrecommended and not bounds.min <= params.players <= bounds.max:
            raise ParameterError(
                f"map {board.id!r} is marked for {bounds.min}-{bounds.max} players, not {params.players} "
                "(choose another map or set allow_unrecommended=true)"
            )
        self.ruleset = Ruleset(params, factions_file, board)
        self.factions_file = factions_file
        self.board = board

    def faction_rules(self, faction_id: str) -> FactionRules:
        return self.ruleset.faction_rules(faction_id)

    def _new_initial_state(self) -> BloodstonesState:
        st = BloodstonesState(self, self.initial_rng())
        setup.begin(st)
        return st

    def action_grammar(self) -> Sequence[ActionSpec]:
        return GRAMMAR

    def canonical_action(self, action: Action) -> Action:
        # ASCII digits only: str.isdigit() also accepts "²" or "٣", which int() rejects or
        # silently turns into an area number.
        args = tuple(str(int(a)) if a.isascii() and a.isdigit() else a.lower() for a in action.args)
        return Action(action.kind, args)

    def _state_from_position(self, position: Mapping[str, Any], rng: Rng) -> BloodstonesState:
        st = BloodstonesState(self, rng)
        st.load_position(dict(position))
        return st

    def _state_from_scenario(self, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> BloodstonesState:
        st = BloodstonesState(self, self.initial_rng())
        fill_scenario(st, position, rig)
        return st

    def policy(self, **options: Any) -> BloodstonesPolicy:
        return BloodstonesPolicy(**options)

    def search_options(self) -> dict[str, Any]:
        """A move is `move`, more `move`s, `to`, `pay`: the search weighs the policy's whole
        plans at the root, each on the same samples (tile draws, battle tiles, the other
        hands), played on by the policy to the end of the turn and judged there
        (docs/lab.md; measured in docs/games/bloodstones.md)."""
        return {"plans": "root", "root": "paired", "rollout": "greedy", "rollout_turns": 1, "rollout_depth": 80}

    @cached_property
    def _policy_model(self) -> Model:
        return Model(self.static_info())

    def evaluate(self, state: State) -> list[float]:
        """Each seat's policy evaluation of its own observation, as shares of the win (a lead
        of about 3 VP-equivalents makes a seat a 3:1 favourite); used by search agents."""
        model = self._policy_model
        values = [evaluate(state.policy_observation(s), model, s) for s in range(state.num_players)]
        return shares_from_values(values, 3.0)

    def web_dir(self) -> Path:
        return Path(__file__).parent / "web"

    def static_info(self) -> dict[str, Any]:
        return static_info(self.ruleset)

    def render_text(self, observation: Mapping[str, Any]) -> str:
        return render(self.ruleset, observation)

    def battle_odds(self, attacker: str, defender: str, options: Mapping[str, str]) -> dict[str, Any]:
        return odds.battle_odds(self.ruleset, attacker, defender, options)

    def render_odds(self, result: Mapping[str, Any]) -> str:
        return odds.render_odds(result)


class BloodstonesState(Position, State):
    """A Bloodstones position with the engine's part (history, RNG, log) and the hooks."""

    game: BloodstonesGame

    def __init__(self, game: BloodstonesGame, rng: Rng) -> None:
        self._init_core(game, rng)
        Position.__init__(self, game.ruleset)

    # -- the contract -------------------------------------------------------------------------
    def _actors(self) -> list[int]:
        if self.phase is Phase.OVER:
            return []
        return [self.active if self.decider is None else self.decider]

    def _is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def _legal_actions(self, seat: int) -> list[Action]:
        del seat  # one seat acts at a time: the rules know which
        return rules.legal_actions(self)

    def _apply(self, action: Action, seat: int | None) -> None:
        del seat
        if not self.rigged():
            rules.apply(self, action)
            return
        # A scenario's rig may ask for tiles a bag cannot give (e.g. three 3s in one draw); that
        # is only discovered mid-action, so keep a snapshot and put everything back.
        snapshot = self.clone()
        try:
            rules.apply(self, action)
        except BagEmpty as err:
            self.__dict__.update(snapshot.__dict__)
            raise ScenarioError(f"{action}: the scenario's rig cannot be honoured ({err})") from None

    def explain_illegal(self, action: Action) -> str | None:
        return rules.explain_illegal(self, action)

    def phase_name(self) -> str:
        if self.battle is not None:
            return f"battle in area {self.battle.area}: {self.battle.step}"
        return str(self.phase)

    def statistics(self) -> dict[str, float]:
        """How the game went, for the lab: turns, battles (won by the attacker, withdrawals
        before them) and per faction its final VP and where they came from (battles, village
        scoring at regroups), battles won, villages built and captured, units built."""
        out: dict[str, float] = {"turns": float(self.turns_taken), "battles": 0.0, "attacker_wins": 0.0,
                                 "withdrawals": 0.0}

        def add(key: str, seat: int, amount: float = 1.0) -> None:
            name = f"{key}.{self.factions[seat]}"
            out[name] = out.get(name, 0.0) + amount

        for event in self.events:
            data = event.data or {}
            if event.kind == "battle":
                out["battles"] += 1
                out["attacker_wins"] += data["winner"] == data["attacker"]
                add("battles_won", data["winner"])
                add("vp_battles", data["winner"], data["vp"])
            elif event.kind == "withdraw":
                out["withdrawals"] += 1
            elif event.kind == "regroup":
                add("vp_regroups", data["seat"], data["vp"])
            elif event.kind == "villages":
                add("villages_built", data["seat"], data["villages"])
            elif event.kind == "capture":
                add("villages_captured", data["seat"], data["villages"])
            elif event.kind == "build":
                add("units_built", data["seat"])
        for seat in range(self.num_players):
            if self.factions[seat] is not None:
                add("vp", seat, self.vp[seat])
        return out

    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def seat_roles(self) -> list[str]:
        return [self.ruleset.faction_rules(f).faction.name if f else "" for f in self.factions]

    def returns(self) -> list[float]:
        return final_returns(self)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observe(self, seat)

    def policy_observation(self, seat: int) -> dict[str, Any]:
        """What the policy and the evaluation read (`observe(..., lean=True)`): the same values
        without what only a page reads (the log's tail, the status board, the battle records)."""
        return observe(self, seat, lean=True)

    def turn_marker(self) -> Hashable:
        return (self.turns_taken, self.active)

    def resample_hidden(self, seat: int | None, rng: Rng) -> Self:
        new = self.clone()
        resample(new, seat, rng)
        return new

    def clone(self) -> Self:
        new = object.__new__(type(self))
        self._clone_core(new)
        self.copy_position_into(new)
        return new

    def _position_json(self) -> dict[str, Any]:
        return self.position_json()
