"""`GET /games/{game_id}/{file}`: a game's browser view is served from its own web folder and
nothing else is (no path traversal, no symlinks out, no other suffixes); the static endpoint
names the view and sends the grammar with argument types and labels."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bloodforge.core.registry import register_game, unregister_game
from bloodforge.server.app import _WEB_DIRS, game_asset_path
from bloodforge.server.errors import ApiError
from tests.toy_bids import BidsGame

from .conftest import ClientFactory

OUTSIDE = [
    "../game.py", "../../server/app.py", "web/../../game.py", "..", ".", "./view.js", "..%2fgame.py",
    "%2e%2e/game.py", "..\\game.py", "/etc/passwd.js", "//etc/passwd.js", "C:/x.js", ".hidden.js",
    "view.js/../../game.py", "view.py", "game.py", "a/b/c/d/e.js", "", "view.js\x00.css",
]


@pytest.fixture
def client(make_client: ClientFactory, sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


def test_a_game_view_is_served_with_its_content_type(client: TestClient) -> None:
    js = client.get("/games/bloodstones/view.js")
    assert js.status_code == 200
    assert js.headers["content-type"].startswith("text/javascript")
    assert "export function createView" in js.text
    css = client.get("/games/witch/view.css")
    assert css.status_code == 200
    assert css.headers["content-type"].startswith("text/css")


@pytest.mark.parametrize("path", OUTSIDE)
def test_the_asset_route_refuses_every_path_outside_the_web_folder(path: str) -> None:
    with pytest.raises(ApiError) as err:
        game_asset_path("bloodstones", path)
    assert err.value.status == 404


@pytest.mark.parametrize("url", [
    "/games/bloodstones/%2e%2e/game.py", "/games/bloodstones/..%2fgame.py", "/games/bloodstones/%2e%2e%2fgame.py",
    "/games/bloodstones/web%2f..%2f..%2fgame.py", "/games/bloodstones/..%5cgame.py", "/games/bloodstones/view.py",
    "/games/bloodstones/%2e%2e%2f%2e%2e%2fserver%2fapp.py", "/games/no_such_game/view.js", "/games/..%2fweb/app.css",
])
def test_traversal_over_http_is_refused(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "import" not in response.text


def test_a_symlink_out_of_the_web_folder_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.js"
    secret.write_text("secret")
    web = tmp_path / "web"
    web.mkdir()
    (web / "view.js").write_text("export function createView() { return {}; }")
    (web / "leak.js").symlink_to(secret)

    class LinkedGame(BidsGame):
        info = dataclasses.replace(BidsGame.info, id="toy_linked")

        def web_dir(self) -> Path:
            return web

    register_game(LinkedGame)
    try:
        assert game_asset_path("toy_linked", "view.js") == (web / "view.js").resolve()
        with pytest.raises(ApiError):
            game_asset_path("toy_linked", "leak.js")
    finally:
        unregister_game("toy_linked")
        _WEB_DIRS.pop("toy_linked", None)


def test_static_names_the_view_and_sends_typed_labelled_grammar(client: TestClient) -> None:
    created: dict[str, Any] = client.post("/api/tables", json={"game": "witch", "seed": 1}).json()
    static = client.get(f"/api/tables/{created['table']['id']}/static").json()
    assert static["view"] == "/games/witch/view.js"
    assert static["view_css"] == "/games/witch/view.css"
    move = next(g for g in static["grammar"] if g["kind"] == "move")
    assert move["types"] == ["unit", "square"]
    assert move["label"] == "Move {unit} to {square}"
    assert "timeout" not in {g["kind"] for g in static["grammar"]}
    assert static["static"]["board"]["geometry"] == "squares"
