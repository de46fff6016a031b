"""Blood Stone (the Witch and the Soldiers): a two-player asymmetric skirmish on a square grid.

Seat 0 commands the three Soldiers, seat 1 the Blood Witch and her four minions. The rules are
the rulebook's (003_0883d58191803368.txt) as ruled in docs/games/witch.md; the board, the unit
cards and the 24 spell cards are house content in `data/content.json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bloodforge.core import (
    Action,
    ActionSpec,
    Game,
    GameInfo,
    GameParams,
    ParameterError,
    Rng,
    State,
    register_game,
)
from bloodforge.core.policy import shares_from_values

from . import actions, rules
from .content import Content, load_content
from .model import SOLDIERS, WITCH
from .observation import static_board
from .params import WitchParams
from .policy import WitchPolicy
from .render import render
from .scenario import build as build_scenario
from .state import WitchState


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

    def __init__(self, params: GameParams, seed: int = 0) -> None:
        if not isinstance(params, WitchParams):
            raise ParameterError(f"{self.info.name} needs WitchParams, got {type(params).__name__}")
        super().__init__(params, seed)
        self.params = params
        self.content: Content = load_content(params.content)
        if params.setup == "preset" and not self.content.data.board.preset:
            raise ParameterError(f"setup='preset' needs board.preset in {self.content.source}")

    def _new_initial_state(self) -> WitchState:
        state = WitchState(self, self.initial_rng(), [])
        rules.setup(state, preset=self.params.setup == "preset")
        return state

    def action_grammar(self) -> Sequence[ActionSpec]:
        return actions.GRAMMAR

    def canonical_action(self, action: Action) -> Action:
        return actions.canonical(self.content, action)

    def _state_from_position(self, position: Mapping[str, Any], rng: Rng) -> WitchState:
        return WitchState.from_position(self, dict(position), rng)

    def _state_from_scenario(
        self, position: Mapping[str, Any], rig: Mapping[str, Any] | None
    ) -> WitchState:
        return build_scenario(self, position, rig)

    def policy(self, **options: Any) -> WitchPolicy:
        return WitchPolicy(**options)

    def evaluate(self, state: State) -> list[float]:
        """Both sides' policy evaluations of their own observations as shares of the win
        (about 15 points, a soldier with a few stones, makes a side a 3:1 favourite)."""
        judge = self._judge
        values = [judge.evaluate(state.observation(s), s) for s in (SOLDIERS, WITCH)]
        return shares_from_values(values, 15.0)

    @property
    def _judge(self) -> WitchPolicy:
        judge = self.__dict__.get("_judge_policy")
        if judge is None:
            judge = self.__dict__["_judge_policy"] = WitchPolicy()
        return judge

    def render_text(self, observation: Mapping[str, Any]) -> str:
        return render(observation)

    def static_info(self) -> dict[str, Any]:
        return {"board": static_board(self.content)}

    def web_dir(self) -> Path:
        return Path(__file__).parent / "web"


register_game(WitchGame)

__all__ = ["SOLDIERS", "WITCH", "WitchGame", "WitchParams", "WitchState"]
