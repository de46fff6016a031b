"""Shared helpers for the Kingdoms of Blood tests: scenario positions in a few lines."""

from __future__ import annotations

from typing import Any

import bloodforge
from bloodforge.games.kingdoms import KingdomsState
from bloodforge.games.kingdoms.board import gems, income, supply
from bloodforge.games.kingdoms.content import FACTIONS


def scenario(position: dict[str, Any], rig: dict[str, Any] | None = None, players: int = 4,
             **params: Any) -> KingdomsState:
    game = bloodforge.load_game("kingdoms", players=players, seed=0, **params)
    state = game.load_scenario({"game": "kingdoms", "params": {"players": players, **params}, "seed": 0,
                                "position": position, "rig": rig})
    assert isinstance(state, KingdomsState)
    return state


def fresh(players: int = 4, seed: int = 0, **params: Any) -> KingdomsState:
    state = bloodforge.load_game("kingdoms", players=players, seed=seed, first="elves", **params).new_initial_state()
    assert isinstance(state, KingdomsState)
    return state


def F(name: str) -> int:  # noqa: N802 - reads like a constant
    return FACTIONS.index(name)


def idx(state: KingdomsState, space: str) -> int:
    return state.content.index[space]


def kinds_at(state: KingdomsState, space: str, faction: str | None = None) -> list[str]:
    i = idx(state, space)
    return sorted(p.kind for p in state.pieces.values() if p.at == i and (faction is None or p.faction == F(faction)))


def play(state: KingdomsState, *texts: str) -> None:
    for t in texts:
        state.apply(t, state.current_player)


def texts(state: KingdomsState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def economy(state: KingdomsState, faction: str) -> tuple[int, int, int, int]:
    f = F(faction)
    return state.treasury[f], income(state, f), supply(state, f), gems(state, f)


def strikes(s: Any) -> list[dict[str, Any]]:
    """The dice events of the log as side, dice and hits (faces and values left out), battle
    mage rolls excluded: what the rules decide, not how the battle view shows it."""
    return [{k: e.data[k] for k in ("side", "dice", "hits")} for e in s.events
            if e.kind == "dice" and e.data and not e.data.get("mage")]
