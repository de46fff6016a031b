"""No silently ignored field in any game's scenario format (issue 20 item 7).

Every packaged scenario of every registered game is loaded once as it is, then once per mapping
inside its `position` and `rig` with one unknown key added (its value a copy of a neighbour's,
so only the key can be wrong): each must be refused with a ScenarioError, never ignored.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bloodforge
from bloodforge.core import ParameterError, ScenarioError
from bloodforge.core.datafile import read_structured

GAMES_DIR = Path(bloodforge.__file__).parent / "games"
SCENARIOS = sorted((g["id"], p) for g in bloodforge.list_games()
                   for p in (GAMES_DIR / g["id"] / "scenarios").glob("*.yaml"))
UNKNOWN = "zz_not_a_field"


def _mappings(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """Paths of every mapping inside `node` (itself included)."""
    if isinstance(node, dict):
        yield path
        for k, v in node.items():
            yield from _mappings(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _mappings(v, (*path, i))


def _with_unknown_key(data: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
    out = copy.deepcopy(data)
    node: Any = out
    for k in path:
        node = node[k]
    node[UNKNOWN] = copy.deepcopy(next(iter(node.values()))) if node else 1
    return out


def test_every_game_ships_a_scenario() -> None:
    assert {g for g, _ in SCENARIOS} == {g["id"] for g in bloodforge.list_games()}


@pytest.mark.parametrize(("game_id", "path"), SCENARIOS, ids=[f"{g}-{p.stem}" for g, p in SCENARIOS])
def test_scenario_formats_refuse_unknown_fields_at_every_level(game_id: str, path: Path) -> None:
    data = read_structured(path)
    assert isinstance(data, dict)
    game = bloodforge.load_game(game_id, **data.get("params", {}))
    game.load_scenario(data, advance=False)  # loads as shipped
    paths = [("position", *p) for p in _mappings(data.get("position") or {}, ())]
    paths += [("rig", *p) for p in _mappings(data.get("rig") or {}, ())] if data.get("rig") else []
    paths += [(), ("params",)]
    ignored = []
    for where in paths:
        bad = _with_unknown_key(data, where)
        try:
            bloodforge.load_game(game_id, **bad.get("params", {})).load_scenario(bad, advance=False)
        except (ScenarioError, ParameterError):
            continue
        ignored.append(".".join(str(k) for k in where) or "(top level)")
    assert ignored == [], f"unknown keys silently ignored in: {ignored}"
