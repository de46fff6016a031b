"""Several actors: secret simultaneous bids through the API, the game's own steps as entries.

Sealed Bids: the game turns up a prize (its own step), every seat bids at once, the game reveals
and awards (its own step). Every entry is stored with its seat (NULL for the game's), the
version is the number of entries, and a bid made at an older version is a rebase when only
other seats' bids came in between.
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

import bloodforge

from .bids import bid, bids_game, bids_table, replayed_record, view, wait_for
from .conftest import ClientFactory
from .support import auth

__all__ = ["bids_game"]


def test_two_humans_bid_at_the_same_version_and_both_get_in(
    bids_game: None, make_client: ClientFactory, db_url: str
) -> None:
    with make_client(db_url) as client:
        tid, tokens = bids_table(client, humans=3)
        start = view(client, tid)
        assert start["version"] == 1, "the game's first step (the prize turned up) is an entry"
        assert start["actors"] == [0, 1, 2]
        for s, t in tokens.items():
            mine = view(client, tid, s, t)
            assert mine["legal"] == ["bid 1", "bid 2", "bid 3"], "every acting seat gets its legal actions"
        assert bid(client, tid, 0, tokens[0], "bid 3", 1).json() == {"version": 2, "action": "bid 3"}
        # Seat 1 saw version 1 and bids; only seat 0's bid came in between: a rebase, accepted.
        assert bid(client, tid, 1, tokens[1], "bid 2", 1).json() == {"version": 3, "action": "bid 2"}
        # Seat 0 again at version 1 (a second tab): its own bid came in between.
        r = bid(client, tid, 0, tokens[0], "bid 1", 1)
        assert r.status_code == 409
        assert r.json()["error"]["code"] == "action/stale"
        assert r.json()["error"]["details"] == {"version": 3}
        # The last bid: the game resolves and turns up the next prize, in the same commit.
        assert bid(client, tid, 2, tokens[2], "bid 1", 1).json() == {"version": 6, "action": "bid 1"}
        # A bid made before the game's steps is refused with the new version, even if it is legal.
        r = bid(client, tid, 1, tokens[1], "bid 1", 3)
        assert r.status_code == 409
        assert r.json()["error"]["details"] == {"version": 6}
        spectator = client.get(f"/api/tables/{tid}/history").json()
        assert [(h["seat"], h["action"]) for h in spectator] == [
            (None, "reveal"), (0, None), (1, None), (2, None), (None, "resolve"), (None, "reveal")
        ], "the game's own entries are public; the seats' bids are secret while the game runs"
        mine = client.get(f"/api/tables/{tid}/history?seat=1", headers=auth(tokens[1])).json()
        assert [h["action"] for h in mine][1:4] == [None, "bid 2", None]
    engine = create_engine(db_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT ply, seat, text FROM actions WHERE table_id = :t ORDER BY ply"),
                            {"t": tid}).all()
        ply = conn.execute(text("SELECT ply FROM tables WHERE id = :t"), {"t": tid}).scalar()
    engine.dispose()
    assert [tuple(r) for r in rows] == [
        (0, None, "reveal"), (1, 0, "bid 3"), (2, 1, "bid 2"), (3, 2, "bid 1"),
        (4, None, "resolve"), (5, None, "reveal"),
    ]
    assert ply == 6, "the table's version is the number of entries"


def test_each_game_step_is_its_own_replay_position(bids_game: None, sqlite_client: TestClient) -> None:
    client = sqlite_client
    tid, tokens = bids_table(client)
    bid(client, tid, 0, tokens[0], "bid 2", 1)
    bid(client, tid, 1, tokens[1], "bid 3", 2)
    positions = [client.get(f"/api/tables/{tid}/replay/{p}?seat=0", headers=auth(tokens[0])).json()
                 for p in range(6)]
    assert [p["observation"]["prize"] is not None for p in positions] == [False, True, True, True, False, True]
    assert [p["by"] for p in positions] == [None, None, 0, 1, None, None]
    prize = positions[1]["observation"]["prize"]
    assert positions[4]["observation"]["points"] == [0, prize], "seat 1's higher bid took the prize"
    assert positions[4]["actors"] == [], "after the resolve the game itself is to step"
    assert positions[5]["actors"] == [0, 1]
    assert positions[2]["observation"]["my_bid"] == 2
    assert positions[3]["observation"]["my_bid"] == 2, "seat 0 never sees seat 1's bid before the reveal"
    assert "bids: seat 0 2, seat 1 3" in positions[4]["log"]


def test_several_ai_seats_bid_together_and_wait_for_the_human(bids_game: None, sqlite_client: TestClient) -> None:
    client = sqlite_client
    tid, tokens = bids_table(client, humans=1, agents=2)
    for _ in range(3):
        table = wait_for(client, tid, lambda t: t["actors"] in ([0], []))
        if table["status"] == "over":
            break
        me = view(client, tid, 0, tokens[0])
        assert me["legal"]
        assert bid(client, tid, 0, tokens[0], me["legal"][0], me["version"]).status_code == 200
    table = wait_for(client, tid, lambda t: t["status"] == "over")
    record = replayed_record(client, tid)
    assert [s for s, _ in record.moves[:4]].count(None) == 1
    assert {s for s, _ in record.moves[1:4]} == {0, 1, 2}, "both AI seats bid in the first round"
    state = record.replay()
    assert state.is_terminal()
    assert state.scores() == table["result"]["scores"]


def test_ai_tables_of_sealed_bids_play_to_the_end_and_replay_exactly(
    bids_game: None, sqlite_client: TestClient
) -> None:
    client = sqlite_client
    tid, _ = bids_table(client, humans=0, agents=4, params={"prizes": 5})
    table = wait_for(client, tid, lambda t: t["status"] == "over")
    record = replayed_record(client, tid)
    state = record.replay()
    expected = bloodforge.load_game("toy_bids", seed=3, players=4, prizes=5).new_initial_state()
    for seat, action in record.moves:
        if seat is not None:
            expected.apply(action, seat)
    assert state.moves() == expected.moves() == record.moves
    assert state.scores() == table["result"]["scores"]


def test_simultaneous_bids_through_two_servers_are_both_accepted(
    bids_game: None, make_client: ClientFactory, db_url: str
) -> None:
    """Seat 1's server still holds version 1 when seat 0's bid lands through the other one (or
    has just caught up): either way the bid is a rebase there and gets in."""
    with make_client(db_url) as a, make_client(db_url) as b:
        tid, tokens = bids_table(a)
        assert view(b, tid)["version"] == 1  # b holds the table too
        assert bid(a, tid, 0, tokens[0], "bid 1", 1).status_code == 200
        r = bid(b, tid, 1, tokens[1], "bid 3", 1)
        assert r.status_code == 200, r.text
        assert r.json()["version"] == 5
        assert [h["seat"] for h in b.get(f"/api/tables/{tid}/history").json()] == [None, 0, 1, None, None]
        # ... and a double submission through the other server is still refused
        r = bid(a, tid, 1, tokens[1], "bid 3", 1)
        assert r.status_code == 409
        assert r.json()["error"]["code"] == "action/stale"
