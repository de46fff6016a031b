"""Learn to play (issue 18): every game's tutorial file is valid and still fits the rules.

Each tutorial is replayed on its scenario with the real engine: at every step the expected
action must be legal for the player's seat (the AI's own seats play in between, as on the
server), and every highlight must name something the page can show then. A rules change that
breaks a tutorial fails here, not in front of a newcomer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.core import State
from bloodforge.server.app import create_app
from bloodforge.server.config import Settings
from bloodforge.server.tutorials import (
    PLAYER_SEAT,
    Tutorial,
    TutorialStep,
    game_folder,
    load_tutorial,
    progress,
    tutorial_games,
)

GAMES = tutorial_games()
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def _shipped_games() -> list[str]:
    """The games of the package itself (tests may register games of their own)."""
    return [g["id"] for g in bloodforge.list_games()
            if type(bloodforge.load_game(g["id"], players=g["min_players"])).__module__.startswith("bloodforge.games.")]


def _cell_ids(board: dict[str, Any]) -> set[str] | None:
    for key in ("areas", "cells", "hexes"):
        if board.get(key):
            return {str(c["id"]) for c in board[key]}
    return None


def _ai_moves(state: State) -> None:
    """The AI seats play (the server's default agent) until the player may act or the game ends."""
    agents: dict[int, Any] = {}
    for _ in range(2000):
        if state.is_terminal() or PLAYER_SEAT in state.actors():
            return
        seat = state.actors()[0]
        agent = agents.setdefault(seat, make_agent("greedy", seat=seat, seed=seat))
        state.apply(agent.select_action(state), seat)
    raise AssertionError("the AI seats never handed the turn back")


def test_every_game_of_the_package_has_a_tutorial() -> None:
    """Issue 18: "Learn to play" for each game."""
    assert set(_shipped_games()) <= set(GAMES)


@pytest.mark.parametrize("game_id", GAMES)
def test_tutorial_replays_on_its_scenario_with_the_real_engine(game_id: str) -> None:
    loaded = load_tutorial(game_id)
    state = bloodforge.load_scenario(loaded.scenario)
    board = state.game.static_info().get("board") or {}
    cells = _cell_ids(board)
    verbs = set(state.game.grammar())
    for i, step in enumerate(loaded.tutorial.steps, start=1):
        _ai_moves(state)
        assert not state.is_terminal(), f"step {i}: the game is over before it"
        assert PLAYER_SEAT in state.actors(), f"step {i}: the player may not act"
        legal = [str(a) for a in state.legal_actions(PLAYER_SEAT)]
        fitting = [a for a in legal if step.matches(a)]
        assert fitting, f"step {i}: {step.expect!r} is not legal now; legal: {legal[:40]}"
        seen = state.observation(PLAYER_SEAT).get("board") or {}
        units = {str(p.get("id")) for p in seen.get("pieces") or [] if p.get("id") is not None}
        hand = {str(h.get("id")) for h in seen.get("hand") or []}
        for target in step.highlight:
            kind, _, name = target.partition(":")
            if kind == "cell" and cells is not None:
                assert name in cells, f"step {i}: no cell {name!r} on the board"
            elif kind == "unit":
                assert name in units, f"step {i}: no piece {name!r} on the board now ({sorted(units)})"
            elif kind == "hand":
                assert name in hand, f"step {i}: no {name!r} in the hand now ({sorted(hand)})"
            elif kind == "action":
                assert name in legal or name in verbs, f"step {i}: no action {name!r}"
        state.apply(fitting[0], PLAYER_SEAT)
    # after the guide the game goes on: a real game against the AI
    _ai_moves(state)
    assert not state.is_terminal(), "the tutorial ends the game; it must end in a game to play on"


@pytest.mark.parametrize("game_id", GAMES)
def test_tutorial_texts_are_for_players_and_cite_the_rulebook(game_id: str) -> None:
    t = load_tutorial(game_id).tutorial
    assert 5 <= len(t.steps) <= 10, "keep a tutorial short: 5 to 10 steps"
    assert "play on against the AI" in t.outro
    for i, step in enumerate(t.steps, start=1):
        assert step.rule.startswith("Rulebook, "), f"step {i}: cite the rulebook's section in words"
        for text in (step.text, step.rule):
            assert not SNAKE.search(text), f"step {i}: developer id {SNAKE.search(text)} in {text!r}"
    for text in (t.intro, t.outro, t.title):
        assert not SNAKE.search(text)


@pytest.mark.parametrize("game_id", GAMES)
def test_tutorial_folder_lies_in_the_game_package(game_id: str) -> None:
    folder = game_folder(game_id)
    assert folder is not None
    assert (folder / "tutorial" / load_tutorial(game_id).tutorial.scenario).is_file()


def _tutorial(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "title": "T", "intro": "i", "scenario": "scenario.yaml", "outro": "Now play on against the AI.",
        "steps": [{"text": "Move.", "expect": "move a b2", "highlight": ["unit:a", "cell:b2"]}],
    }
    data.update(changes)
    return data


def test_tutorial_file_refuses_unknown_keys_and_bad_highlights() -> None:
    Tutorial.model_validate(_tutorial())
    with pytest.raises(ValidationError, match="extra"):
        Tutorial.model_validate(_tutorial(hint="x"))
    with pytest.raises(ValidationError, match="extra"):
        Tutorial.model_validate(_tutorial(steps=[{"text": "t", "expect": "end", "typo": 1}]))
    with pytest.raises(ValidationError, match="highlight"):
        Tutorial.model_validate(_tutorial(steps=[{"text": "t", "expect": "end", "highlight": ["square:b2"]}]))
    with pytest.raises(ValidationError, match="regular expression"):
        Tutorial.model_validate(_tutorial(steps=[{"text": "t", "expect": "move (", "pattern": True}]))
    with pytest.raises(ValidationError, match="scenario"):
        Tutorial.model_validate(_tutorial(scenario="../../secret.yaml"))


def test_progress_follows_the_players_actions_in_order() -> None:
    t = Tutorial.model_validate(_tutorial(steps=[
        {"text": "a", "expect": "move a b2"},
        {"text": "b", "expect": r"attack a \w+", "pattern": True},
        {"text": "c", "expect": "end"},
    ]))
    assert progress(t, []).step == 0
    # the other seats' actions and the game's own steps never count
    assert progress(t, [(1, "move a b2"), (None, "move a b2")]).step == 0
    assert progress(t, [(0, "move a b2")]).step == 1
    assert progress(t, [(0, "move a b2"), (1, "end"), (0, "attack a c")]).step == 2
    # a pattern must match the whole text
    assert progress(t, [(0, "move a b2"), (0, "attack a c d")]).step == 1
    # something else: the page says so, and the step stays until it is played
    off = progress(t, [(0, "move a b2"), (0, "move a c3")])
    assert (off.step, off.off_script) == (1, "move a c3")
    back = progress(t, [(0, "move a b2"), (0, "move a c3"), (0, "attack a c")])
    assert (back.step, back.off_script) == (2, None)
    done = progress(t, [(0, "move a b2"), (0, "attack a c"), (0, "end"), (0, "anything")])
    assert (done.step, done.off_script) == (3, None)


def test_step_matches_exact_text_unless_it_is_a_pattern() -> None:
    assert TutorialStep(text="t", expect="end").matches("end")
    assert not TutorialStep(text="t", expect="end").matches("end turn")
    assert not TutorialStep(text="t", expect="move .*").matches("move a b2")
    assert TutorialStep(text="t", expect="move .*", pattern=True).matches("move a b2")


# -- the API: POST /api/tutorials/{game}, GET /api/tutorials, GET /api/tables/{id}/tutorial ----
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'tutorials.sqlite3'}", ai_delay=0.0)
    with TestClient(create_app(settings)) as c:
        yield c


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_api_lists_the_games_with_tutorials(client: TestClient) -> None:
    listed = client.get("/api/tutorials").json()
    assert [t["game"] for t in listed] == GAMES
    assert all(t["title"] and t["game_name"] and t["steps"] >= 5 for t in listed)


@pytest.mark.parametrize("game_id", GAMES)
def test_api_creates_a_tutorial_table_with_the_player_in_seat_0_and_ai_elsewhere(
    client: TestClient, game_id: str
) -> None:
    loaded = load_tutorial(game_id)
    res = client.post(f"/api/tutorials/{game_id}", json={"name": "Ann"})
    assert res.status_code == 201, res.text
    data = res.json()
    table = data["table"]
    assert table["game"] == game_id
    assert table["name"] == f"{loaded.game_name}: learn to play"
    assert [s["kind"] for s in table["seats"]] == ["human"] + ["agent"] * (table["players"] - 1)
    assert table["seats"][0]["name"] == "Ann"
    assert [link["seat"] for link in data["links"]] == [PLAYER_SEAT]
    token = data["links"][0]["token"]
    url = f"/api/tables/{table['id']}/tutorial?seat=0"
    coach = client.get(url, headers=_auth(token)).json()
    assert coach["title"] == loaded.tutorial.title
    assert len(coach["steps"]) == len(loaded.tutorial.steps)
    assert (coach["step"], coach["off_script"], coach["possible"]) == (0, None, True)
    # playing the first step's action moves the coach on
    state = client.get(f"/api/tables/{table['id']}/state?seat=0", headers=_auth(token)).json()
    first = loaded.tutorial.steps[0]
    action = next(a for a in state["legal"] if first.matches(a))
    res = client.post(f"/api/tables/{table['id']}/actions",
                      json={"seat": 0, "action": action, "version": state["version"]}, headers=_auth(token))
    assert res.status_code == 200, res.text
    assert client.get(url, headers=_auth(token)).json()["step"] == 1


def test_api_tutorial_progress_says_when_the_player_did_something_else(client: TestClient) -> None:
    game_id = GAMES[0]
    data = client.post(f"/api/tutorials/{game_id}").json()
    table_id, token = data["table"]["id"], data["links"][0]["token"]
    state = client.get(f"/api/tables/{table_id}/state?seat=0", headers=_auth(token)).json()
    step = load_tutorial(game_id).tutorial.steps[0]
    other = next(a for a in state["legal"] if not step.matches(a) and a != "cancel")
    client.post(f"/api/tables/{table_id}/actions", json={"seat": 0, "action": other, "version": state["version"]},
                headers=_auth(token)).raise_for_status()
    coach = client.get(f"/api/tables/{table_id}/tutorial?seat=0", headers=_auth(token)).json()
    assert (coach["step"], coach["off_script"]) == (0, other)


def test_api_tutorial_of_other_tables_and_viewers(client: TestClient) -> None:
    game_id = GAMES[0]
    plain = client.post("/api/tables", json={"game": game_id}).json()
    res = client.get(f"/api/tables/{plain['table']['id']}/tutorial")
    assert res.status_code == 404
    assert res.json()["error"]["code"] == "tutorial/not_found"
    made = client.post(f"/api/tutorials/{game_id}").json()
    table_id = made["table"]["id"]
    # spectators see the steps, never the player's progress; a seat needs its token
    spectator = client.get(f"/api/tables/{table_id}/tutorial").json()
    assert spectator["steps"]
    assert spectator["step"] is None
    assert client.get(f"/api/tables/{table_id}/tutorial?seat=0").status_code == 401
    assert client.get(f"/api/tables/{table_id}/tutorial?seat=0", headers=_auth("wrong")).status_code == 403


def test_api_tutorial_refuses_unknown_games_and_paths(client: TestClient) -> None:
    res = client.post("/api/tutorials/nosuchgame")
    assert res.status_code == 404
    assert res.json()["error"]["code"] == "tutorial/not_found"
    for bad in ("..%2F..%2Fetc", "Witch.yaml", "a b"):
        assert client.post(f"/api/tutorials/{bad}").status_code in (404, 422)
    assert client.post(f"/api/tutorials/{GAMES[0]}", json={"name": "x", "scenario": "a.yaml"}).status_code == 422
