"""The table record in every state message: made once per version, and while the game runs only
the fields a move changes are filled in (issue 19, CPU per move); it must always equal what
pydantic makes of the whole table (`LiveTable.public()`), the API's own record."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import bloodforge
from bloodforge.core import Rng
from bloodforge.server.clocks import Deadline
from bloodforge.server.live import LiveTable
from bloodforge.server.store import SeatSpec, TableRecord


def test_the_state_message_table_is_the_public_record_at_every_version() -> None:
    game = bloodforge.load_game("bloodstones", players=2, seed=11)
    state = game.new_initial_state()
    now = datetime(2026, 11, 26, tzinfo=UTC)
    record = TableRecord(
        id="t1", name="Ann vs AI", game=game.id, game_version=game.info.version, params=game.params_dict(),
        seed=game.seed, scenario=None, created_at=now, updated_at=now, ply=len(state.history),
        to_move=state.current_player, status="playing", result=None,
        seats=(SeatSpec(0, "Ann", "human", None, None, "a" * 64), SeatSpec(1, "AI", "agent", "random", None, None)),
        actors=tuple(state.actors()),
    )
    live = LiveTable(record=record, game=game, state=state)
    rng = Rng(5)
    for move in range(30):
        for seat in (None, 0, 1):
            assert live.view(seat)["table"] == live.public().model_dump(mode="json"), move
        if move == 10:  # a clock starts: the same version, another change
            live.deadlines = {0: Deadline(1_800_000_000_000, "turn")}
            live._changes += 1
        elif move == 20:  # a seat's link was claimed: the same version, another record
            seats = list(live.record.seats)
            seats[0] = replace(seats[0], claimed=True)
            live.record = replace(live.record, seats=tuple(seats))
            assert live.view(0)["table"]["seats"][0]["claimed"] is True
        else:
            seat = live.state.actors()[0]
            new = live.state.clone()
            new.apply(rng.choice(new.legal_actions(seat)), seat)
            live.state = new
            live._changes += 1
