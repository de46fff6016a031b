"""Perft-style counting of legal action sequences (shared by the test and its regeneration)."""

from __future__ import annotations

from typing import Any

import bloodforge
from bloodforge.games.bloodstones.game import BloodstonesState

from .helpers import scenario_dict


def perft(st: BloodstonesState, depth: int) -> int:
    if depth == 0 or st.is_terminal():
        return 1
    total = 0
    for action in st.legal_actions():
        child = st.clone()
        child.apply_unchecked(action)
        total += perft(child, depth - 1)
    return total


def divide(st: BloodstonesState, depth: int) -> dict[str, int]:
    out = {}
    for action in st.legal_actions():
        child = st.clone()
        child.apply_unchecked(action)
        out[str(action)] = perft(child, depth - 1)
    return out


def position(entry: dict[str, Any]) -> BloodstonesState:
    if "scenario" in entry:
        st = bloodforge.load_scenario(scenario_dict(**entry["scenario"]))
    else:
        st = bloodforge.load_game(
            "bloodstones", seed=entry["seed"], **entry["params"]
        ).new_initial_state()
    assert isinstance(st, BloodstonesState)
    for text in entry.get("actions", []):
        st.apply(text)
    return st
