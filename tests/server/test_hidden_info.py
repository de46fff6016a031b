"""No response or websocket message for one seat carries another seat's hidden information.

For every registered game: a table of human seats plays random legal moves over the websocket
while every seat and a spectator listen. Each message must equal what the engine itself gives
that seat (observation and event log of an independently replayed state), hold legal actions
only for the seat to move, and contain none of the parts of other seats' views that the
spectator does not see.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import bloodforge
from bloodforge.core import Rng, State, register_game, unregister_game
from tests.toy_bids import BidsGame

from .support import auth, create_table

# Sealed Bids joins: secret simultaneous commitments and the game's own steps.
GAMES = [(g["id"], n) for g in bloodforge.list_games() for n in sorted({g["min_players"], min(4, g["max_players"])})]
GAMES += [("toy_bids", 2), ("toy_bids", 3)]
STATE_KEYS = {"type", "table", "version", "seat", "current_player", "actors", "deadlines", "phase", "terminal",
              "result", "observation", "log_start", "log", "legal", "summary"}  # summary: None until the end


@pytest.fixture(autouse=True)
def bids_game() -> Iterator[None]:
    register_game(BidsGame)
    yield
    unregister_game(BidsGame.info.id)


class Seen:
    """What each seat and the spectator are shown of `state` at one position, each view made
    once. *Why:* every message of a step is checked against every other seat's view, and making
    the views afresh for each pair (observations, whole event logs) was most of this test's time
    (issue 23 item 5); the state does not change between the messages of one step."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._obs: dict[int | None, dict[str, Any]] = {}
        self._log: dict[int | None, list[str]] = {}
        self._log_set: dict[int | None, set[str]] = {}

    def obs(self, seat: int | None) -> dict[str, Any]:
        if seat not in self._obs:
            self._obs[seat] = self.state.observation(seat)
        return self._obs[seat]

    def log(self, seat: int | None) -> list[str]:
        if seat not in self._log:
            self._log[seat] = self.state.event_log(seat)
        return self._log[seat]

    def log_set(self, seat: int | None) -> set[str]:
        if seat not in self._log_set:
            self._log_set[seat] = set(self.log(seat))
        return self._log_set[seat]


def private_parts(seen: Seen, seat: int, viewer: int) -> list[str]:
    """JSON texts of what `seat` sees that neither the spectator nor `viewer` does."""
    mine, public, theirs = seen.obs(seat), seen.obs(None), seen.obs(viewer)
    out: list[str] = []
    for key, value in mine.items():
        if value == public.get(key) or value == theirs.get(key):
            continue
        if isinstance(value, list) and all(isinstance(x, str) for x in value):
            out.extend(x for x in value if x not in (public.get(key) or []) and x not in (theirs.get(key) or []))
        elif len(json.dumps(value)) >= 40:  # shorter texts, e.g. {"cavalry": 1}, occur by chance
            out.append(json.dumps(value))
    visible = seen.log_set(viewer)
    out.extend(line for line in seen.log(seat) if line not in visible)
    return out


def check_message(msg: dict[str, Any], mirror: State, seat: int | None, log_so_far: list[str],
                  seen: Seen | None = None) -> None:
    """`seen`: the views of `mirror` as it is now, shared by the checks of one step's messages."""
    seen = Seen(mirror) if seen is None else seen
    assert set(msg) == STATE_KEYS
    assert msg["seat"] == seat
    assert msg["observation"] == seen.obs(seat)
    log_so_far[msg["log_start"]:] = msg["log"]
    assert log_so_far == seen.log(seat)
    assert msg["actors"] == mirror.actors()
    assert msg["version"] == len(mirror.history)
    if seat is None or seat not in mirror.actors():
        assert msg["legal"] == []
    else:
        assert msg["legal"] == [str(a) for a in mirror.legal_actions(seat)]
    table = json.dumps(msg["table"])
    assert "token" not in table
    assert (msg["table"]["seed"] is None) == (not mirror.is_terminal())
    text = json.dumps(msg)
    for other in range(mirror.num_players):
        if other == seat:
            continue
        if seat is None:
            public = seen.log_set(None)
            secrets = [line for line in seen.log(other) if line not in public]
        else:
            secrets = private_parts(seen, other, seat)
        for secret in secrets:
            assert secret not in text, f"seat {seat} was sent seat {other}'s {secret[:80]}"


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_message_holds_only_what_its_seat_may_see(
    sqlite_client: TestClient, game_id: str, players: int
) -> None:
    client = sqlite_client
    data = create_table(client, game=game_id, params={"players": players}, seed=21,
                        seats=[{"name": f"P{i}"} for i in range(players)])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    game = bloodforge.load_game(game_id, seed=21, players=players)
    mirror = game.new_initial_state()
    rng = Rng(5)
    viewers: list[int | None] = [*range(players), None]
    logs: dict[int | None, list[str]] = {v: [] for v in viewers}
    sockets = {v: client.websocket_connect(f"/ws/tables/{tid}") for v in viewers}
    try:
        for v, ws in sockets.items():
            ws.__enter__()
            ws.send_json({"type": "hello", "seat": v, "token": tokens.get(v) if v is not None else None})
            check_message(ws.receive_json(), mirror, v, logs[v])
        for step in range(160):
            if mirror.is_terminal():
                break
            seat = rng.choice(mirror.actors())  # any acting seat, not only the first
            version = len(mirror.history)
            useful = [a for a in mirror.legal_actions(seat) if not a.is_cancel] or mirror.legal_actions(seat)
            action = str(rng.choice(useful))
            sockets[seat].send_json({"type": "act", "action": action, "version": version, "id": version})
            before = mirror.clone()
            mirror.apply(action, seat)
            seen = Seen(mirror)
            for v, ws in sockets.items():
                check_message(ws.receive_json(), mirror, v, logs[v], seen)
            assert sockets[seat].receive_json()["type"] == "ack"
            if step % 40 == 0:  # the REST view is built the same way
                for v in viewers:
                    q = "" if v is None else f"?seat={v}"
                    r = client.get(f"/api/tables/{tid}/state{q}", headers=auth(tokens[v]) if v is not None else {})
                    check_message(r.json(), mirror, v, [], seen)
                    hist = client.get(f"/api/tables/{tid}/history{q}",
                                      headers=auth(tokens[v]) if v is not None else {}).json()
                    assert len(hist) == len(mirror.history)
                    assert all(h["action"] is None or h["seat"] in (v, None) for h in hist)
                    assert all(h["action"] == text for h, (s, text) in zip(hist, mirror.moves(), strict=True)
                               if s is None), "the game's own steps are shown to everyone"
                    replay = client.get(f"/api/tables/{tid}/replay/{version}{q}",
                                        headers=auth(tokens[v]) if v is not None else {}).json()
                    assert replay["observation"] == before.observation(v), "a replay shows what the seat saw"
                    assert replay["log"] == before.event_log(v)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
