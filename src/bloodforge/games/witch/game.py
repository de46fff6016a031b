"""The adapter: `WitchGame` and `WitchState` wire the engine's hooks to the rules.

Layers (docs/architecture.md): board <- content, params <- model <- effects <- spells <- rules
<- observation, scenario, actions, render <- this module <- `__init__`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

from pydantic import create_model

from bloodforge.core import Action, ActionSpec, Game, GameInfo, GameParams, ParameterError, Rng, State
from bloodforge.core.datafile import read_structured
from bloodforge.core.editable import ContentSource, dump_json
from bloodforge.core.policy import shares_from_values

from . import actions, rules
from .content import DEFAULT_CONTENT, Content, ContentFile, load_content
from .describe import cards
from .model import BOARD, OVER, REALM, SIDE_NAMES, SOLDIERS, WITCH, Position
from .observation import observe, resample, static_board
from .params import WitchParams
from .policy import WitchPolicy
from .render import render
from .rollout import LightRollout
from .scenario import fill_scenario


class WitchGame(Game):
    info = GameInfo(
        id="witch",
        name="Blood Stone (the Witch and the Soldiers)",
        summary="Two-player asymmetric skirmish on a square grid: three spirit-medium soldiers "
        "hunt the Blood Witch and her forest minions; blood stones, zombification, the Realm "
        "and Phantom Spells.",
        min_players=2,
        max_players=2,
        params_model=WitchParams,
        version=1,
        chance=True,
        hidden_information=True,
        score_name="blood stones in play",
        max_length=None,
    )
    params: WitchParams


    @classmethod
    def editable_content(cls) -> ContentSource:
        """One content file (board, units, spells): the designer's workbench edits it whole."""
        model = create_model("BloodStoneContent", content=(ContentFile, ...))

        def base() -> dict[str, Any]:
            return {"content": read_structured(DEFAULT_CONTENT)}

        def write(content: dict[str, Any], folder: Path) -> dict[str, str]:
            path = folder / "content.json"
            dump_json(path, content["content"])
            return {"content": str(path)}

        return ContentSource("witch", model, base, write)

    def __init__(self, params: GameParams, seed: int = 0) -> None:
        if not isinstance(params, WitchParams):
            raise ParameterError(f"{self.info.name} needs WitchParams, got {type(params).__name__}")
        super().__init__(params, seed)
        self.params = params
        self.content: Content = load_content(params.content)
        if params.setup == "preset" and not self.content.data.board.preset:
            raise ParameterError(f"setup='preset' needs board.preset in {self.content.source}")

    def _new_initial_state(self) -> WitchState:
        state = WitchState(self, self.initial_rng())
        rules.setup(state, preset=self.params.setup == "preset")
        return state

    def action_grammar(self) -> Sequence[ActionSpec]:
        return actions.GRAMMAR

    def canonical_action(self, action: Action) -> Action:
        return actions.canonical(self.content, action)

    def _state_from_position(self, position: Mapping[str, Any], rng: Rng) -> WitchState:
        state = WitchState(self, rng)
        state.load_position(dict(position))
        return state

    def _state_from_scenario(
        self, position: Mapping[str, Any], rig: Mapping[str, Any] | None
    ) -> WitchState:
        state = WitchState(self, self.initial_rng())
        fill_scenario(state, position, rig)
        return state

    def policy(self, **options: Any) -> WitchPolicy:
        return WitchPolicy(**options)

    def rollout_policy(self) -> LightRollout:
        return LightRollout()

    def search_options(self) -> dict[str, Any]:
        """A tree over single Acts suits this tactical skirmish (a search over the policy's
        plans did not: 0.17 and 0.45 against greedy in screening). Rollouts play the light
        policy (uniformly random ones hit their own side, so ending the turn at once looked
        best) to the end of the opponent's reply, so every line is judged at the same point of
        the turn order after the other side has answered; the cut-off shares rarely leave
        0.3-0.7, so a UCB constant below the default keeps the tree on the lines that matter.
        Screening at one CPU second, seeds 2000-2011, the search as the Soldiers: 7/12 with
        light rollouts of 6 decisions, 8.5/9 to the end of the reply (docs/lab.md)."""
        return {"exploration": 0.4, "rollout": "light", "rollout_turns": 2, "rollout_depth": 40}

    def evaluate(self, state: State) -> list[float]:
        """Both sides' policy evaluations of their own observations as shares of the win
        (about 15 points, a soldier with a few stones, makes a side a 3:1 favourite)."""
        judge = self.__dict__.get("_judge_policy")
        if judge is None:
            judge = self.__dict__["_judge_policy"] = WitchPolicy()
        values = [judge.evaluate(state.policy_observation(s), s) for s in (SOLDIERS, WITCH)]
        return shares_from_values(values, 15.0)

    def static_info(self) -> dict[str, Any]:
        # description cards of every spell and unit (describe.py; the browser's card panel)
        return {"board": static_board(self.content), "cards": cards(self.content),
                "statistic_labels": STATISTIC_LABELS}

    def web_dir(self) -> Path:
        return Path(__file__).parent / "web"

    def render_text(self, observation: Mapping[str, Any]) -> str:
        return render(observation)


#: The end screen's words for `statistics()` keys (it showed "X2: Blood Bolt" for the casts
#: paying X = 2 blood); a key's item after the dot is named by the spell cards.
STATISTIC_LABELS: dict[str, str] = {
    "blood_paid": "Blood paid for spells (X)", "casts": "Casts", "passes": "Casts that passed",
    "x_at_die": "Casts paying X = the die's size", "soldiers_zombified": "Soldiers zombified",
    "soldiers_killed": "Soldiers killed", **{f"x{n}": f"Casts paying X = {n}" for n in range(1, 21)},
}


class WitchState(Position, State):
    """A Blood Stone position with the engine's part (history, RNG, log) and the hooks."""

    game: WitchGame

    def __init__(self, game: WitchGame, rng: Rng) -> None:
        self._init_core(game, rng)
        Position.__init__(self, game.content, game.params)

    def _actors(self) -> list[int]:
        return [] if self.phase == OVER else [self.side]

    def _is_terminal(self) -> bool:
        return self.phase == OVER

    def seat_roles(self) -> list[str]:
        return [SIDE_NAMES[SOLDIERS], SIDE_NAMES[WITCH]]

    def _legal_actions(self, seat: int) -> list[Action]:
        del seat  # one seat acts at a time: the rules know which
        return rules.legal_actions(self)

    def _apply(self, action: Action, seat: int | None) -> None:
        del seat
        rules.apply(self, action)

    def explain_illegal(self, action: Action) -> str | None:
        return rules.explain_illegal(self, action)

    def phase_name(self) -> str:
        if self.phase == OVER:
            return "game over"
        if self.phase != "turn":
            return "setup"
        # Not "casting" while a cast is pending: the phase is public, the pending spell is not
        # (only its caster's observation has it), and neither is a later cancel.
        step = "acting with a spell" if self.grant else "turn"
        return f"{SIDE_NAMES[self.side]} {step} {self.turn_number}"

    def clone(self) -> Self:
        new = object.__new__(type(self))
        self._clone_core(new)
        self.copy_position_into(new)
        return new

    def statistics(self) -> dict[str, float]:
        """How the game went, for the lab: turns; per spell, casts and casts that passed; blood
        paid; each blood spell's casts at each X (`x2.manipulate`) and at the die's size
        (`x_at_die.manipulate`: a sure pass under Ruling 2, 3 in 4 when read literally);
        soldiers zombified and killed."""
        out: defaultdict[str, float] = defaultdict(float, {"turns": float(self.turn_number), "blood_paid": 0.0})
        content = self.content
        for event in self.events:
            data = event.data or {}
            if event.kind == "zombify":
                out["soldiers_zombified"] += 1
            if event.kind != "cast" or "card" not in data:
                continue
            card, x = str(data["card"]), int(data.get("x", 0))
            out[f"casts.{card}"] += 1
            if data.get("passed", True):
                out[f"passes.{card}"] += 1
            out["blood_paid"] += x
            die = content.spells[card].chance.die
            if x and die is not None and x >= die:
                out[f"x_at_die.{card}"] += 1
            if x:
                out[f"x{x}.{card}"] += 1
        out["soldiers_killed"] = float(sum(1 for uid in content.soldier_ids if self.units[uid].where == REALM))
        return dict(out)

    def scores(self) -> list[float]:
        """Blood stones on each side's units in play (zombified soldiers count for the Witch)."""
        out = [0.0, 0.0]
        for uid, u in self.units.items():
            if u.where == BOARD:
                out[SOLDIERS if self.is_active_soldier(uid) else WITCH] += u.blood
        return out

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0, 0.0]
        if self.winner is None:
            return [0.5, 0.5]
        return [1.0 if seat == self.winner else 0.0 for seat in (SOLDIERS, WITCH)]

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observe(self, seat)

    def policy_observation(self, seat: int) -> dict[str, Any]:
        """What the policy reads of the observation (`observe(..., lean=True)`): the same values
        for every field it reads, without the log's window, the status board and the pieces."""
        return observe(self, seat, lean=True)

    def turn_marker(self) -> Hashable:
        return self.turn_number

    def resample_hidden(self, seat: int | None, rng: Rng) -> Self:
        new = self.clone()
        resample(new, seat, rng)
        return new

    def _position_json(self) -> dict[str, Any]:
        return self.position_json()
