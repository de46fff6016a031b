"""Hex Walk: a tiny test-only game on a hex grid, for the browser's shared hex renderer.

Two walkers (`w0`, `w1`) on a radius-2 hex board with two wall hexes; each turn a seat steps its
walker to a free neighbouring hex (`step <unit> <hex>`) or passes. The game ends after a fixed
number of plies; the seat that walked farther from the centre wins. It declares the browser
board contract (static_info()["board"] with hexes, observation()["board"] with pieces) and
typed arguments, and has no view.js: the page draws it with the generic hex renderer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Self

from pydantic import Field

from bloodforge.core import Action, ActionSpec, Game, GameInfo, GameParams, Rng, State, winners_share

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
RADIUS = 2
WALLS = {(1, -1), (-1, 1)}
START = ((0, 2), (0, -2))


def hex_id(q: int, r: int) -> str:
    return f"{q},{r}"


def distance(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


HEXES = [(q, r) for q in range(-RADIUS, RADIUS + 1) for r in range(-RADIUS, RADIUS + 1) if distance(q, r) <= RADIUS]


class HexWalkParams(GameParams):
    players: int = Field(default=2, ge=2, le=2)
    plies: int = Field(default=6, ge=1, le=40)
    orientation: Literal["pointy", "flat"] = "pointy"
    #: "areas": the same board declared as an area map without outlines (cells around points)
    geometry: Literal["hexes", "areas"] = "hexes"


class HexWalkState(State):
    game: HexWalkGame

    def __init__(self, game: HexWalkGame, rng: Rng) -> None:
        self._init_core(game, rng)
        self.walkers: list[tuple[int, int]] = list(START)
        self.turn = 0

    def _actors(self) -> list[int]:
        return [] if self._is_terminal() else [self.turn % 2]

    def _is_terminal(self) -> bool:
        return self.turn >= self.game.params.plies

    def _legal_actions(self, seat: int) -> list[Action]:
        q, r = self.walkers[seat]
        out = []
        for dq, dr in DIRECTIONS:
            t = (q + dq, r + dr)
            if distance(*t) <= RADIUS and t not in WALLS and t not in self.walkers:
                out.append(Action("step", (f"w{seat}", hex_id(*t))))
        return [*out, Action("pass")]

    def _apply(self, action: Action, seat: int | None) -> None:
        assert seat is not None
        if action.kind == "step":
            q, r = (int(x) for x in action.args[1].split(","))
            self.walkers[seat] = (q, r)
            self.events.add(f"seat {seat} steps to {action.args[1]}", kind="step")
        else:
            self.events.add(f"seat {seat} passes", kind="pass")
        self.turn += 1

    def scores(self) -> list[float]:
        return [float(distance(*w)) for w in self.walkers]

    def returns(self) -> list[float]:
        return winners_share(self.scores())

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "board": {
                "pieces": [
                    {"at": hex_id(*w), "id": f"w{s}", "owner": s, "kind": "walker", "label": f"walker {s}"}
                    for s, w in enumerate(self.walkers)
                ],
                "marks": [{"at": hex_id(0, 0), "kind": "centre", "label": "centre"}],
            },
            "log": self.events.tail_for(seat, 5),
        }

    def resample_hidden(self, seat: int | None, rng: Rng) -> Self:
        del seat, rng
        return self.clone()

    def clone(self) -> Self:
        new = object.__new__(type(self))
        self._clone_core(new)
        new.walkers = list(self.walkers)
        new.turn = self.turn
        return new

    def _position_json(self) -> dict[str, Any]:
        return {"walkers": [list(w) for w in self.walkers], "turn": self.turn}


class HexWalkGame(Game):
    info = GameInfo(
        id="toy_hexwalk", name="Hex Walk (test game)", summary="walk away from the centre of a hex board",
        min_players=2, max_players=2, params_model=HexWalkParams,
    )
    params: HexWalkParams

    def _new_initial_state(self) -> HexWalkState:
        return HexWalkState(self, self.initial_rng())

    def action_grammar(self) -> Sequence[ActionSpec]:
        cell = "area" if self.params.geometry == "areas" else "hex"
        return (
            ActionSpec("step", ("unit", cell), "step your walker to a free neighbouring hex",
                       label=f"Step {{unit}} to {{{cell}}}"),
            ActionSpec("pass", (), "stay where you are", label="Stay"),
        )

    def static_info(self) -> dict[str, Any]:
        if self.params.geometry == "areas":
            return {"board": self._areas_board()}
        return {
            "board": {
                "geometry": "hexes",
                "orientation": self.params.orientation,
                "hexes": [
                    {"id": hex_id(q, r), "q": q, "r": r, "kind": "wall" if (q, r) in WALLS else "floor"}
                    for q, r in HEXES
                ],
                "kinds": {"floor": {"label": "floor"}, "wall": {"label": "wall"}},
                "seats": [{"seat": 0, "name": "North", "colour": "#1f6f8b"},
                          {"seat": 1, "name": "South", "colour": "#b5651d"}],
            }
        }

    def _areas_board(self) -> dict[str, Any]:
        """Hexes as areas at their centres, no outlines; walls linked to nothing."""
        open_hexes = [h for h in HEXES if h not in WALLS]
        links = [
            [hex_id(*a), hex_id(a[0] + dq, a[1] + dr)]
            for a in open_hexes for dq, dr in DIRECTIONS[:3]
            if (a[0] + dq, a[1] + dr) in open_hexes
        ]
        return {
            "geometry": "areas",
            "areas": [
                {"id": hex_id(q, r), "name": f"area {hex_id(q, r)}", "x": 1.732 * (q + r / 2), "y": 1.5 * r,
                 "kind": "wall" if (q, r) in WALLS else "floor"}
                for q, r in HEXES
            ],
            "links": links,
            "kinds": {"floor": {"label": "floor"}, "wall": {"label": "wall"}},
        }

    def _state_from_position(self, position: Mapping[str, Any], rng: Rng) -> HexWalkState:
        st = HexWalkState(self, rng)
        st.walkers = [(int(w[0]), int(w[1])) for w in position["walkers"]]
        st.turn = int(position["turn"])
        return st
