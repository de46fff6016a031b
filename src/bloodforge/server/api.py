"""The JSON API under /api: games, tables, seats' views, actions, history and replays.

Every route reaches games through the engine contract only; every refusal is an `ApiError`
(JSON `{"error": {"code", "message"}}`, 4xx). Seat tokens travel in the `Authorization: Bearer`
header, never in URLs.
"""

from __future__ import annotations

import asyncio
import hmac
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Request

import bloodforge
from bloodforge.agents import agent_names
from bloodforge.agents.levels import GameLevels, for_play, load_levels
from bloodforge.core import Game

from .errors import ApiError
from .limits import ClientLimits, RateLimit
from .live import LiveTable, table_public
from .newtable import hash_token, roles_at_a_new_table
from .replay import ReplayCache
from .schemas import (
    ActionAccepted,
    ActionSubmit,
    ErrorResponse,
    GameDescription,
    Health,
    HistoryEntry,
    SeatClaimed,
    SeatCreate,
    SeatLink,
    TableCreate,
    TableCreated,
    TablePublic,
)
from .tables import TableManager

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorResponse} for code in (400, 401, 403, 404, 409, 413, 422)
}

router = APIRouter(prefix="/api", responses=ERRORS)


def get_manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def get_replays(request: Request) -> ReplayCache:
    replays: ReplayCache = request.app.state.replays
    return replays


Manager = Annotated[TableManager, Depends(get_manager)]
Replays = Annotated[ReplayCache, Depends(get_replays)]
TableId = Annotated[str, Path(max_length=32, description="table id")]
SeatQuery = Annotated[int | None, Query(ge=0, le=64, description="your seat; omitted: spectator view")]


def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "auth/bad_header", "use the header `Authorization: Bearer <seat token>`")
    return token.strip()


Token = Annotated[str | None, Depends(bearer_token)]


async def live_table(manager: Manager, table_id: TableId) -> LiveTable:
    return await manager.get(table_id)


Live = Annotated[LiveTable, Depends(live_table)]


async def lobby_tables(manager: TableManager, status: str | None = None) -> list[TablePublic]:
    records = await asyncio.to_thread(manager.store.list_tables, status=status)
    names = {g["id"]: g["name"] for g in await asyncio.to_thread(bloodforge.list_games)}
    out = []
    for rec in records:
        live = manager.tables.get(rec.id)
        if live is not None:
            out.append(live.public())
        else:
            out.append(table_public(rec, game_name=names.get(rec.game, rec.game), ply=rec.ply,
                                    actors=rec.actors, result=rec.result if rec.status == "over" else None))
    return out


@router.get("/health", response_model=Health)
async def health(manager: Manager) -> Health:
    count = await asyncio.to_thread(manager.store.count_tables)
    return Health(status="ok", tables=count, live_tables=len(manager.tables))


@router.get("/games", response_model=list[GameDescription])
def games() -> list[GameDescription]:
    """Every game with its player range, parameter schema, action grammar and the AI agents."""
    return _games(tuple(g["id"] for g in bloodforge.list_games()), tuple(agent_names()))


@lru_cache(maxsize=4)
def _games(ids: tuple[str, ...], agents: tuple[str, ...]) -> list[GameDescription]:
    """Cached per set of registered games and agents (tests register games of their own)."""
    del ids  # part of the cache key only
    out = []
    for g in bloodforge.list_games():
        sample = bloodforge.load_game(g["id"], players=g["min_players"])
        out.append(GameDescription(
            id=g["id"], name=g["name"], summary=g["summary"], min_players=g["min_players"],
            max_players=g["max_players"], version=g["version"], parameters=g["parameters"],
            grammar=grammar_of(sample), agents=list(agents), levels=_levels(g["id"]),
        ))
    return out


def _levels(game_id: str) -> GameLevels | None:
    """The shipped levels as tables play them now: the search's only while the game's search
    settings are those the levels were measured with (`agents.levels.for_play`)."""
    levels = load_levels(game_id)
    if levels is None:
        return None
    return for_play(levels, bloodforge.load_game(game_id, players=levels.players).search_options())


@router.post("/tables", status_code=201, response_model=TableCreated, responses={429: {"model": ErrorResponse}})
async def create_table(body: TableCreate, manager: Manager, request: Request) -> TableCreated:
    """Create a table; the response holds each human seat's secret join link (shown only now).
    New tables and running tables with AI seats are bounded per client address (429)."""
    return await _create_table(body, manager, request)


async def _create_table(body: TableCreate, manager: TableManager, request: Request,
                        rematch_of: str | None = None) -> TableCreated:
    """`create_table`; `rematch_of`: as that finished table's rematch (`TableManager.create`)."""
    limits: ClientLimits = request.app.state.limits
    client = request.client.host if request.client is not None else "?"
    # A turn clock hands a seat to the server's AI when it runs out: such a table counts as one
    # with AI seats, and the clock has a floor (a 0.05 s clock is an AI table by another name).
    with_ai = body.seats is None or any(s.kind == "agent" for s in body.seats) or body.turn_clock is not None
    floor = manager.settings.min_turn_clock
    if body.turn_clock is not None and body.turn_clock < floor:
        raise ApiError(422, "request/invalid", f"turn_clock: at least {floor:g} seconds per decision",
                       field="turn_clock")

    def running(table_id: str) -> bool:
        live = manager.tables.get(table_id)
        return live is not None and not live.state.is_terminal()

    limits.check_create(client, with_ai, running)
    live, tokens, host = await manager.create(body, rematch_of=rematch_of)
    limits.created(client, live.id, with_ai)
    links = [
        SeatLink(seat=s, name=live.seats[s].name, token=t, url=f"/table/{live.id}#seat={s}&token={t}")
        for s, t in sorted(tokens.items())
    ]
    return TableCreated(table=live.public(), links=links, spectator_url=f"/table/{live.id}", host_token=host)


@router.post("/tables/{table_id}/seats/{seat}/claim", response_model=SeatClaimed)
async def claim_seat(table_id: TableId, seat: Annotated[int, Path(ge=0, le=64)], token: Token,
                     manager: Manager) -> SeatClaimed:
    """Open a seat link (its token in `Authorization`): the first browser gets a credential of
    its own and the link is spent (409 `seat/claimed` later: watch as a spectator); a claimed
    credential is returned unchanged."""
    if token is None:
        raise ApiError(401, "auth/missing_token", f"seat {seat} needs its token (from the join link)")
    return SeatClaimed(seat=seat, token=await manager.claim(table_id, seat, token))


@router.post("/tables/{table_id}/seats/{seat}/invite", response_model=SeatLink)
async def reinvite_seat(table_id: TableId, seat: Annotated[int, Path(ge=0, le=64)], token: Token,
                        manager: Manager) -> SeatLink:
    """A new link for a human seat, with the host token from the table's creation in
    `Authorization`; whoever held the seat before is out (their link and credential are void)."""
    new = await manager.reinvite(table_id, seat, token)
    live = await manager.get(table_id)
    return SeatLink(seat=seat, name=live.seats[seat].name, token=new, url=f"/table/{live.id}#seat={seat}&token={new}")


@router.get("/tables", response_model=list[TablePublic])
async def list_tables(
    manager: Manager, status: Annotated[str | None, Query(pattern="^(playing|over)$")] = None
) -> list[TablePublic]:
    return await lobby_tables(manager, status)


@router.get("/tables/{table_id}", response_model=TablePublic)
async def get_table(live: Live) -> TablePublic:
    return live.public()


@router.get("/tables/{table_id}/static")
async def static_info(live: Live) -> dict[str, Any]:
    """What never changes in this table's game (map geometry, piece names): `game.static_info()`,
    the action grammar with argument types and labels, and the URLs of the game's browser view
    (`view`, `view_css`: None when the game has none, and the generic board is drawn), and what
    each seat plays when the parameters fix it (`roles`: "Elves + Dwarves" for a seat commanding
    two factions; empty when the game deals roles during play)."""
    roles = await asyncio.to_thread(roles_at_a_new_table, live.game)
    return {
        "game": live.game.id, "grammar": grammar_of(live.game), "static": live.static_info(),
        "roles": roles, **view_urls(live.game),
    }


def grammar_of(game: Game) -> list[dict[str, Any]]:
    """Every verb but the host's (`timeout`), with argument types and label templates."""
    return [s.describe() for s in game.grammar().values() if not s.host]


def view_urls(game: Game) -> dict[str, str | None]:
    folder = game.web_dir()
    out: dict[str, str | None] = {}
    for key, name in (("view", "view.js"), ("view_css", "view.css")):
        found = folder is not None and (folder / name).is_file()
        out[key] = f"/games/{game.id}/{name}" if found else None
    return out


@router.get("/tables/{table_id}/state")
async def table_state(live: Live, token: Token, seat: SeatQuery = None) -> dict[str, Any]:
    """The table as `seat` sees it (observation, readable log, legal actions if it may act,
    running clocks as `deadlines`)."""
    viewer = TableManager.authenticate(live, seat, token)
    async with live.lock:
        return live.view(viewer)


@router.post("/tables/{table_id}/actions", response_model=ActionAccepted)
async def submit_action(live: Live, body: ActionSubmit, token: Token, manager: Manager) -> ActionAccepted:
    """Play one action for your seat at the version you saw; stale versions are refused (409)
    unless only other seats' simultaneous commitments came in between (a rebase)."""
    seat = TableManager.authenticate(live, body.seat, token)
    assert seat is not None
    version, text = await manager.submit(live.id, seat=seat, text=body.action, version=body.version)
    return ActionAccepted(version=version, action=text)


def _replay_seat(live: LiveTable, seat: int | None, token: str | None) -> int | None:
    """Running games: your own seat (with its token) or the spectator view: another seat's
    view would leak what it hides. Finished games: any seat's view, since nothing is hidden
    any more (with or without the token of some seat: the replay's viewpoint switch)."""
    if seat is not None and live.state.is_terminal():
        if not 0 <= seat < len(live.seats):
            raise ApiError(400, "seat/invalid", f"seat must be 0..{len(live.seats) - 1}, got {seat}")
        return seat
    return TableManager.authenticate(live, seat, token)


@router.get("/tables/{table_id}/history", response_model=list[HistoryEntry])
async def history(live: Live, token: Token, replays: Replays, request: Request,
                  seat: SeatQuery = None) -> list[HistoryEntry]:
    """Who made each entry (a seat, or null: the game's own step or the server's timeout).
    Texts of the game's entries are shown to everyone (by contract they hold no secrets), other
    seats' texts only once the game is over (`substitute resources` can be a secret meanwhile)."""
    _spend_replay(request)
    viewer = _replay_seat(live, seat, token)
    over = live.state.is_terminal()
    version = live.version
    entries = await asyncio.to_thread(replays.entries, live.record, version)
    return [
        HistoryEntry(ply=i, seat=s, action=text if over or s is None or s == viewer else None)
        for i, (s, text) in enumerate(entries)
    ]


@router.get("/tables/{table_id}/replay/{ply}")
async def replay(
    live: Live, token: Token, replays: Replays, request: Request, ply: Annotated[int, Path(ge=0)],
    seat: SeatQuery = None,
) -> dict[str, Any]:
    """The table after its first `ply` entries (each of the game's own steps is a position), as
    `seat` saw it then (with the end summary on the final position). Rate-limited per client."""
    _spend_replay(request)
    viewer = _replay_seat(live, seat, token)
    plies = live.version
    if ply > plies:
        raise ApiError(404, "replay/out_of_range", f"the table has {plies} entries; ply must be 0..{plies}")
    return await replays.view(live.record, ply, viewer, plies, live.static_info())


def _spend_replay(request: Request) -> None:
    """Replays and histories rebuild old positions: a token bucket per client address (429)."""
    limit: RateLimit = request.app.state.replay_limit
    limit.spend(request.client.host if request.client is not None else "?")


@router.post("/tables/{table_id}/rematch", status_code=201, response_model=TableCreated,
             responses={429: {"model": ErrorResponse}})
async def rematch(live: Live, manager: Manager, request: Request, token: Token,
                  seat: SeatQuery = None) -> TableCreated:
    """A new table of a finished one: the same game, parameters (or scenario), seat names and
    kinds (a seat the AI took over is human again) and turn clock, on a fresh seed. Only a
    player of the finished table (`seat` with its credential) or its host (the host token from
    the creation) may start it: a stranger holding the new seats' links could claim them first.
    The response holds the join link of the caller's own seat (the host: every link and a new
    host token, as creating a table does); every connection to the finished table gets a
    `rematch` message with its own seat's link (never another seat's) or, watching, the
    spectator's (issue 18: only the browser that clicked reached the table)."""
    if token is None:
        raise ApiError(401, "auth/missing_token",
                       "a rematch is started by a player of the table (seat and its credential) or its host")
    host = live.record.host_hash
    is_host = seat is None and host is not None and hmac.compare_digest(hash_token(token), host)
    caller = None if is_host else TableManager.authenticate(live, seat, token)
    if caller is None and not is_host:
        raise ApiError(403, "auth/bad_token", "only the players of the table or its host may start a rematch")
    if not live.state.is_terminal():
        raise ApiError(409, "game/not_over", "a rematch can be started once the game is over")
    if live.record.rematch_id is not None:  # made before (the database says, on any process)
        raise ApiError(409, "rematch/started", "the rematch has been started already: every seat was offered it")
    record = live.record
    seats = [
        SeatCreate(name=s.name, kind="human") if s.kind == "human" or s.taken_over
        else SeatCreate(name=s.name, kind="agent", agent=s.agent, strength=s.strength)
        for s in record.seats
    ]
    body = TableCreate(game=record.game, name=record.name, params=dict(record.params), seats=seats,
                       scenario=record.scenario, turn_clock=record.turn_clock, hints=record.hints)
    # two players clicking at once (on any server process): one new table, the other 409
    made = await _create_table(body, manager, request, rematch_of=live.id)
    # every browser at the finished table is offered the new one: a seat its own link only
    request.app.state.hub.offer_rematch(live.id, made.table.id)
    if is_host:
        return made
    return made.model_copy(update={"links": [link for link in made.links if link.seat == caller], "host_token": None})
