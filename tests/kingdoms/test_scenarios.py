# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""The packaged scenarios load, play as their descriptions say, and bad ones name the field."""

from __future__ import annotations

from pathlib import Path

import pytest

import bloodforge
from bloodforge.core import ScenarioError

from .helpers import F, idx, kinds_at, play, texts

GAME = bloodforge.load_game("kingdoms", players=4)
DIR = GAME.scenario_dir()
assert DIR is not None


def load(name: str):  # type: ignore[no-untyped-def]
    return GAME.load_scenario(Path(DIR) / f"{name}.yaml")


def test_every_packaged_scenario_loads_and_has_a_description() -> None:
    files = sorted(Path(DIR).glob("*.yaml"))
    assert len(files) >= 4
    for f in files:
        s = GAME.load_scenario(f)
        assert s.legal_actions()
        assert s.scenario is not None
        assert s.scenario["description"]


def test_T1_capital_production_scenario() -> None:
    s = load("capital_production")
    for _ in range(8):
        play(s, "place infantry sylvanhold")
    assert texts(s) == ["done"]
    assert len(kinds_at(s, "sylvanhold", "elves")) == 8


def test_amphibious_assault_scenario() -> None:
    s = load("amphibious_assault")
    play(s, "move verdant_deep crown_isle infantry", "move verdant_deep crown_isle infantry", "done",
         "fight crown_isle")
    assert s.owner[idx(s, "crown_isle")] == F("elves")


def test_T12_retreat_under_fire_scenario() -> None:
    s = load("retreat_under_fire")
    play(s, "move thornbrake amberford cavalry", "move thornbrake amberford cavalry", "done", "fight amberford",
         "retreat northgate")
    assert kinds_at(s, "northgate", "humans") == ["infantry"]


def test_T17_seven_gems_scenario() -> None:
    s = load("seven_gems")
    for _ in range(5):
        play(s, "done", "done", "done", "done")
    assert s.is_terminal()
    assert s.returns() == [1.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize(("position", "field"), [
    ({"active": "orcs"}, "position.active"),
    ({"owner": {"atlantis": "elves"}}, "position.owner"),
    ({"pieces": [{"faction": "elves", "kind": "wizard", "at": "elmwood"}]}, r"position.pieces\[0\].kind"),
    ({"phase": "lunch"}, "position.phase"),
    ({"colour": "red"}, "unknown field"),
])
def test_a_malformed_scenario_is_refused_naming_the_field(position: dict[str, object], field: str) -> None:
    with pytest.raises(ScenarioError, match=field):
        GAME.load_scenario({"game": "kingdoms", "params": {"players": 4}, "position": position})


def test_a_bad_rig_is_refused() -> None:
    with pytest.raises(ScenarioError, match="rig"):
        GAME.load_scenario({"game": "kingdoms", "position": {}, "rig": {"dice": [7]}})
