"""Contract Walk: Hex Walk (tests/e2e/hex_game.py) sending every optional key of the issue 18 UI
contract (docs/browser.md): a status board per seat with a private item for its owner only, a
phase label, card descriptions for the walkers and the pass, and a battle record for every
step. A test-only game, so the page's generic machinery is checked without any game's view.js.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bloodforge.core import GameInfo, Rng

from .hex_game import HexWalkGame, HexWalkParams, HexWalkState, distance, hex_id

SIDES = ("North", "South")


class ContractWalkState(HexWalkState):
    game: ContractWalkGame

    def _observation(self, seat: int | None) -> dict[str, Any]:
        obs = super()._observation(seat)
        for piece in obs["board"]["pieces"]:
            piece["card"] = piece["id"]
        obs["phase_label"] = "Walking"
        obs["status"] = [
            {"seat": s, "title": SIDES[s],
             "items": [{"label": "Distance", "value": f"{distance(*w)} hexes", "hint": "hexes from the centre"}],
             **({"private": [{"label": "Secret", "value": f"Plan of {SIDES[s]}"}]} if seat == s else {})}
            for s, w in enumerate(self.walkers)
        ]
        obs["battles"] = [
            {"id": f"clash-{i}", "title": f"Clash {i + 1}", "log_index": i,
             "sides": [{"name": f"{SIDES[k]} (attacker)" if k == i % 2 else SIDES[k], "seat": k,
                        "rolls": [{"label": "d6", "face": (i + k) % 6 + 1, "hit": (i + k) % 2 == 0}],
                        "modifiers": ["+1 high ground"] if k == 0 else [], "total": str((i + k) % 6 + 2),
                        "hits": str((i + k) % 2), "losses": []} for k in (0, 1)],
             "result": f"{SIDES[i % 2]} walks on."}
            for i in range(max(0, self.turn - 5), self.turn)
        ]
        return obs


class ContractWalkGame(HexWalkGame):
    info = GameInfo(
        id="toy_contract", name="Contract Walk (test game)", summary="Hex Walk with status, cards and battles",
        min_players=2, max_players=2, params_model=HexWalkParams,
    )

    def _new_initial_state(self) -> ContractWalkState:
        return ContractWalkState(self, self.initial_rng())

    def static_info(self) -> dict[str, Any]:
        info = super().static_info()
        info["cards"] = {
            "w0": {"name": "North Walker", "kind": "walker", "text": "Walks one hex at a time.",
                   "stats": [["Move", "1 hex"], ["Side", "North"]]},
            "w1": {"name": "South Walker", "kind": "walker", "text": "Walks one hex at a time.",
                   "stats": [["Move", "1 hex"], ["Side", "South"]]},
            "centre": {"name": "The Centre", "kind": "place", "text": "Where both walkers start from."},
        }
        info["score_label"] = "hexes walked"
        return info

    def _state_from_position(self, position: Mapping[str, Any], rng: Rng) -> ContractWalkState:
        st = ContractWalkState(self, rng)
        st.walkers = [(int(w[0]), int(w[1])) for w in position["walkers"]]
        st.turn = int(position["turn"])
        return st


__all__ = ["ContractWalkGame", "hex_id"]
