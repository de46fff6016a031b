"""The Bloodstones game object: parameters, content, and the entry points of the contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from bloodforge.core import Action, ActionSpec, Game, GameInfo, Rng, State
from bloodforge.core.errors import DataFileError, ParameterError
from bloodforge.core.policy import shares_from_values

from .content import Board, FactionsFile, default_map_for, load_board, load_factions
from .params import BloodstonesParams
from .policy import BloodstonesPolicy, Model, evaluate
from .state import BloodstonesState
from .units import FactionRules, compile_faction

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

    def __init__(self, params: BloodstonesParams, seed: int = 0) -> None:
        super().__init__(params, seed)
        try:
            self.factions_file: FactionsFile = load_factions(params.faction_data)
            self.board: Board = load_board(params.map_file or params.map or default_map_for(params.players))
        except DataFileError as err:
            raise ParameterError(str(err)) from None
        known = {f.id for f in self.factions_file.factions}
        for f in params.factions or ():
            if f not in known:
                raise ParameterError(f"unknown faction {f!r}; factions: {', '.join(sorted(known))}")
        bounds = self.board.data.players
        if not params.allow_unrecommended and not bounds.min <= params.players <= bounds.max:
            raise ParameterError(
                f"map {self.board.id!r} is marked for {bounds.min}-{bounds.max} players, not {params.players} "
                "(choose another map or set allow_unrecommended=true)"
            )
        self._faction_rules: dict[str, FactionRules] = {}

    @cached_property
    def _base_move_cost(self) -> dict[str, int | None]:
        return {str(t): c for t, c in self.board.rules.move_cost.items()}

    def faction_rules(self, faction_id: str) -> FactionRules:
        rules = self._faction_rules.get(faction_id)
        if rules is None:
            rules = compile_faction(self.factions_file, faction_id, self._base_move_cost)
            self._faction_rules[faction_id] = rules
        return rules

    def _new_initial_state(self) -> BloodstonesState:
        from . import setup

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
        return BloodstonesState.from_position(self, dict(position), rng)

    def _state_from_scenario(self, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> BloodstonesState:
        from .scenario import build_scenario_state

        return build_scenario_state(self, position, rig)

    def policy(self, **options: Any) -> BloodstonesPolicy:
        return BloodstonesPolicy(**options)

    @cached_property
    def _policy_model(self) -> Model:
        return Model(self.static_info())

    def evaluate(self, state: State) -> list[float]:
        """Each seat's policy evaluation of its own observation, as shares of the win (a lead
        of about 3 VP-equivalents makes a seat a 3:1 favourite); used by search agents."""
        model = self._policy_model
        values = [evaluate(state.observation(s), model, s) for s in range(state.num_players)]
        return shares_from_values(values, 3.0)

    def web_dir(self) -> Path:
        return Path(__file__).parent / "web"

    def static_info(self) -> dict[str, Any]:
        from .static import static_info

        return static_info(self)

    def render_text(self, observation: Mapping[str, Any]) -> str:
        from .render import render

        return render(self, observation)
