"""The browser board contract (docs/browser.md), checked for every registered game that declares
a board: cell ids are exactly the words actions use for arguments typed area/square/hex, every
piece and mark stands on a cell, hand items are the seat's own (a spectator has none), and the
grammar's labels name only its own arguments. Random playouts check it in every position."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest

import bloodforge
from bloodforge.core import Game

CELL_TYPES = {"areas": "area", "squares": "square", "hexes": "hex"}


def boarded_games() -> list[tuple[str, int]]:
    out = []
    for g in bloodforge.list_games():
        game = bloodforge.load_game(g["id"], players=g["min_players"])
        if "board" in game.static_info():
            out.append((g["id"], g["min_players"]))
    return out


def cell_ids(board: dict[str, Any]) -> set[str]:
    geometry = board["geometry"]
    if geometry == "areas":
        return {str(a["id"]) for a in board["areas"]}
    if geometry == "hexes":
        return {str(h["id"]) for h in board["hexes"]}
    cells = board.get("cells")
    if cells:
        return {str(c["id"]) for c in cells}
    return {f"{c},{r}" for c in range(board["width"]) for r in range(board["height"])}


def check_static(game: Game) -> tuple[str, set[str]]:
    board = game.static_info()["board"]
    assert board["geometry"] in CELL_TYPES
    ids = cell_ids(board)
    assert ids, "a board has cells"
    for a, b in board.get("links", []):
        assert {str(a), str(b)} <= ids
    for spec in game.grammar().values():
        names = set(string.Formatter().parse(spec.label))
        used = {field for _, field, _, _ in names if field}
        assert used <= set(spec.args), f"{spec.kind}: label {spec.label!r} names no argument in {spec.args}"
    return CELL_TYPES[board["geometry"]], ids


@pytest.mark.parametrize(("game_id", "players"), boarded_games())
def test_cells_are_the_words_actions_use_and_pieces_stand_on_cells(game_id: str, players: int) -> None:
    rng = random.Random(7)
    for seed in range(3):
        game = bloodforge.load_game(game_id, seed=seed, players=players)
        cell_type, ids = check_static(game)
        grammar = game.grammar()
        state = game.new_initial_state()
        for _ in range(150):
            if state.is_terminal():
                break
            for seat in [None, *range(game.num_players)]:
                view = state.observation(seat).get("board")
                if view is None:
                    continue
                for item in [*view.get("pieces", []), *view.get("marks", [])]:
                    assert str(item["at"]) in ids, f"{item} stands on no cell"
                if seat is None:
                    assert not view.get("hand"), "a spectator sees no hand"
            actor = state.actors()[0]
            legal = state.legal_actions(actor)
            for action in legal:
                types = grammar[action.kind].arg_types()
                for word, kind in zip(action.args, types, strict=False):
                    if kind == cell_type:
                        assert word in ids, f"{action}: {word!r} is not a cell of the board"
            state.apply(rng.choice(legal), actor)
