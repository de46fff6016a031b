"""Issue 21, item 3: GET /api/games carries each game's measured AI levels (the shipped
`agents/levels/<game>.json`), and none for a game nobody measured."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import bloodforge
import bloodforge.agents.levels as levels_module
from bloodforge.agents.levels import LEVELS_DIR, for_play, load_levels
from bloodforge.server.api import _games


@pytest.fixture
def fresh_listing() -> Iterator[None]:
    """The game listing is cached; these tests change what it reads."""
    _games.cache_clear()
    yield
    _games.cache_clear()


def test_the_listing_carries_the_shipped_levels_of_each_game(sqlite_client: TestClient, fresh_listing: None) -> None:
    games = sqlite_client.get("/api/games").json()
    shipped = {p.stem for p in LEVELS_DIR.glob("*.json")}
    assert shipped, "at least one game's levels are measured and shipped"
    for g in games:
        levels = load_levels(g["id"])
        if g["id"] in shipped:
            assert levels is not None
            assert levels.search is not None, f"{g['id']}: the file names the search settings it measured"
            playing = bloodforge.load_game(g["id"], players=levels.players).search_options()
            shown = for_play(levels, playing)
            assert shown is not None
            assert g["levels"] == shown.model_dump(mode="json")
            assert g["levels"]["anchor"] == "random"
            assert any(e["measured"] for entries in g["levels"]["agents"].values() for e in entries)
        else:
            assert g["levels"] is None, g["id"]


def test_a_game_without_a_levels_file_has_none_and_one_with_a_file_has_it(
    sqlite_client: TestClient, fresh_listing: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    levels = {
        "game": "forts", "players": 2, "interval": "bootstrap", "interpolation": "log seconds",
        "command": "bloodforge lab levels forts --players 2", "date": "2026-11-26", "seed": 5, "games": 4,
        "result": "docs/results/forts_levels.json", "pairs": [{"a": "random", "b": "greedy", "games": 4, "score": 0.5}],
        "agents": {"greedy": [{"level": 10, "seconds": None, "elo": 300, "low": 120, "high": 600, "measured": True,
                               "games": 4}]},
    }
    (tmp_path / "forts.json").write_text(json.dumps(levels), encoding="utf-8")
    monkeypatch.setattr(levels_module, "LEVELS_DIR", tmp_path)
    games = {g["id"]: g for g in sqlite_client.get("/api/games").json()}
    assert games["forts"]["levels"]["agents"]["greedy"][0]["elo"] == 300
    assert games["forts"]["levels"]["scale"] == "bradley-terry-elo"
    assert all(g["levels"] is None for gid, g in games.items() if gid != "forts")


def test_a_levels_file_of_another_game_is_refused(tmp_path: Path) -> None:
    (tmp_path / "witch.json").write_text(json.dumps({
        "game": "forts", "players": 2, "interval": "-", "interpolation": "-", "command": "-", "date": "-",
        "seed": 0, "games": 1, "result": "-", "pairs": [], "agents": {}}), encoding="utf-8")
    with pytest.raises(ValueError, match="not 'witch'"):
        load_levels("witch", tmp_path)


def _kingdoms_levels(search: dict[str, object] | None) -> dict[str, object]:
    return {
        "game": "kingdoms", "players": 2, "interval": "bootstrap", "interpolation": "log seconds",
        "command": "bloodforge lab levels kingdoms --players 2", "date": "2026-11-27", "seed": 5, "games": 8,
        "result": "docs/results/kingdoms_levels.json", "pairs": [{"a": "greedy", "b": "mcts", "games": 8, "score": 2}],
        "agents": {"greedy": [{"level": 10, "seconds": None, "elo": 2600, "low": 2400, "high": 2900, "measured": True,
                               "games": 8}],
                   "mcts": [{"level": 10, "seconds": 1.0, "elo": 2700, "low": 2500, "high": 3000, "measured": True,
                             "games": 8}]},
        "search": search,
    }


@pytest.mark.parametrize(("measured_with", "search_shown"), [
    ("today", True), ("other", False), ("unnamed", True)])
def test_the_search_levels_show_only_while_the_game_searches_as_when_they_were_measured(
    sqlite_client: TestClient, fresh_listing: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    measured_with: str, search_shown: bool,
) -> None:
    """Issue 21 item 3: a level's Elo is that of the agent the ladder played. Once a game's search
    settings change (Kingdoms' `rollout_turns` 1 -> 2), the lobby's search level is another player:
    the listing drops the search's levels (the lobby then shows the level alone) and keeps
    greedy's. A file naming no settings (none: written before the field) is taken as it is."""
    today = bloodforge.load_game("kingdoms", players=2).search_options()
    search = {"today": today, "other": {**today, "rollout_turns": today["rollout_turns"] + 5},
              "unnamed": None}[measured_with]
    (tmp_path / "kingdoms.json").write_text(json.dumps(_kingdoms_levels(search)), encoding="utf-8")
    monkeypatch.setattr(levels_module, "LEVELS_DIR", tmp_path)
    games = {g["id"]: g for g in sqlite_client.get("/api/games").json()}
    agents = games["kingdoms"]["levels"]["agents"]
    assert agents["greedy"][0]["elo"] == 2600
    assert ("mcts" in agents) == search_shown
    if search_shown:
        assert agents["mcts"][0]["elo"] == 2700
