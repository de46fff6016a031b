"""Issue 22: the other games' content in the workbench (Bloodstones' factions, Five Forts'
content file, Kingdoms' map, units and mercenaries): per game, a bad number is refused with
its field path and nothing saved, a one-number edit saves as a variant whose difference is
that number, and a playtest table starts with it (its game built from the variant)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ClientFactory
from .test_workbench import AUTH, TOKEN

#: game -> (path of one number as the form names it, the new value, players, where the
#: playtest table's game holds that number).
CASES: dict[str, tuple[list[str | int], int, int, Callable[[Any], Any]]] = {
    "bloodstones": (["factions", "factions", 0, "hand_size"], 8, 2, lambda g: g.factions_file.factions[0].hand_size),
    "forts": (["content", "hand_limit"], 4, 2, lambda g: g.content.data.hand_limit),
    "kingdoms": (["units", "mercenary_cost"], 20, 2, lambda g: g.content.units.mercenary_cost),
}


def set_at(content: Any, path: list[str | int], value: Any) -> None:
    node = content
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


def get_at(content: Any, path: list[str | int]) -> Any:
    node = content
    for step in path:
        node = node[step]
    return node


@pytest.mark.parametrize("game", sorted(CASES))
def test_one_number_edit_validates_saves_and_playtests(game: str, make_client: ClientFactory,
                                                       sqlite_url: str) -> None:
    path, value, players, read = CASES[game]
    with make_client(sqlite_url, lab=True, lab_token=TOKEN) as client:
        assert game in {g["id"] for g in client.get("/api/lab/games", headers=AUTH).json()["games"]}
        body = client.get(f"/api/lab/games/{game}/content", headers=AUTH).json()
        files = body["files"]
        assert set(body["schemas"]) == set(files)
        old = get_at(files, path)
        assert isinstance(old, int)
        assert old != value

        bad = copy.deepcopy(files)
        set_at(bad, path, "lots")
        r = client.post("/api/lab/variants", headers=AUTH, json={"game": game, "name": "bad", "content": bad})
        assert r.status_code == 422, r.text
        assert [e["path"] for e in r.json()["error"]["details"]["errors"]] == [".".join(map(str, path))]
        assert client.get(f"/api/lab/variants?game={game}", headers=AUTH).json()["variants"] == []

        good = copy.deepcopy(files)
        set_at(good, path, value)
        r = client.post("/api/lab/variants", headers=AUTH, json={"game": game, "name": "one number", "content": good})
        assert r.status_code == 201, r.text
        vid = r.json()["id"]
        diff = client.get(f"/api/lab/variants/{vid}", headers=AUTH).json()["diff_base"]
        assert [(d["old"], d["new"]) for d in diff] == [(old, value)]

        r = client.post(f"/api/lab/variants/{vid}/playtest", headers=AUTH, json={"players": players})
        assert r.status_code == 201, r.text
        table = r.json()["table"]
        assert client.get(f"/api/tables/{table}").json()["name"] == "Playtest of one number (version 1)"
        manager: Any = client.app.state.manager  # type: ignore[attr-defined]
        assert read(manager.tables[table].game) == value
