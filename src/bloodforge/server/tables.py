"""Live tables: the in-memory state of each table, rebuilt from the database log on demand.

The order on every action is fixed (and is what makes restarts exact): take the table's lock,
check the version and the seat, validate through the engine on a clone, COMMIT the action row,
then swap in the new state and tell the listeners. A refused action changes nothing anywhere.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import secrets
import time
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import yaml

import bloodforge
from bloodforge.agents import Agent, agent_names
from bloodforge.core import ActionSyntaxError, BloodforgeError, Game, IllegalAction, State, UnknownGame, game_class

from .config import Settings
from .errors import ApiError, not_found
from .schemas import MAX_SEED, SeatCreate, SeatPublic, TableCreate, TablePublic
from .store import SeatSpec, StaleWrite, Store, TableRecord

log = logging.getLogger("bloodforge.server")

MAX_SCENARIO_CHARS = 200_000


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(raw: str, fallback: str, limit: int) -> str:
    """Printable text only (no control or format characters), spaces collapsed, trimmed.

    Names are still shown only as text (never parsed as HTML); cleaning keeps logs and layouts
    sane, escaping is the UI's job."""
    kept = "".join(ch for ch in raw if unicodedata.category(ch)[0] != "C")
    text = " ".join(kept.split())[:limit]
    return text or fallback


@dataclass
class LiveTable:
    record: TableRecord
    game: Game
    state: State
    version: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: int = 0
    last_used: float = field(default_factory=time.monotonic)
    ai_task: asyncio.Task[None] | None = None
    agents: dict[int, Agent] = field(default_factory=dict)
    _static: dict[str, Any] | None = None
    _public: tuple[int, dict[str, Any]] | None = None

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def seats(self) -> tuple[SeatSpec, ...]:
        return self.record.seats

    def static_info(self) -> dict[str, Any]:
        if self._static is None:
            self._static = self.game.static_info()
        return self._static

    def agent_to_move(self) -> int | None:
        seat = self.state.current_player
        if seat is not None and self.seats[seat].kind == "agent":
            return seat
        return None

    def public(self) -> TablePublic:
        return table_public(self.record, game_name=self.game.info.name, ply=self.version,
                            to_move=self.state.current_player, result=result_of(self.state))

    def view(self, seat: int | None, *, log_from: int = 0) -> dict[str, Any]:
        """Everything `seat` (None: spectator) may know now: built only from observation(seat),
        event_log(seat) and, for the seat to move, its legal actions."""
        st = self.state
        current = st.current_player
        event_log = st.event_log(seat)
        start = log_from if 0 <= log_from <= len(event_log) else 0
        legal: list[str] = []
        if seat is not None and seat == current and self.seats[seat].kind == "human":
            legal = [str(a) for a in st.legal_actions()]
        if self._public is None or self._public[0] != self.version:
            self._public = (self.version, self.public().model_dump(mode="json"))
        return {
            "type": "state",
            "table": self._public[1],
            "version": self.version,
            "seat": seat,
            "current_player": current,
            "phase": st.phase_name(),
            "terminal": st.is_terminal(),
            "result": result_of(st),
            "observation": st.observation(seat),
            "log_start": start,
            "log": event_log[start:],
            "legal": legal,
        }


def result_of(state: State) -> dict[str, Any] | None:
    if not state.is_terminal():
        return None
    returns = state.returns()
    best = max(returns)
    return {
        "scores": state.scores(),
        "returns": returns,
        "winners": [i for i, r in enumerate(returns) if r == best and r > 0],
    }


def table_public(
    record: TableRecord, *, game_name: str, ply: int, to_move: int | None, result: dict[str, Any] | None
) -> TablePublic:
    over = to_move is None
    return TablePublic(
        id=record.id, name=record.name, game=record.game, game_name=game_name, params=record.params,
        players=len(record.seats),
        seats=[SeatPublic(seat=s.seat, name=s.name, kind=s.kind, agent=s.agent, strength=s.strength)
               for s in record.seats],
        status="over" if over else "playing", ply=ply, to_move=to_move,
        created_at=record.created_at, updated_at=record.updated_at, result=result,
        from_scenario=record.scenario is not None,
        seed=record.seed if over else None,
    )


Listener = Callable[[LiveTable], None]


class TableManager:
    """Owns every live table of this process; the only writer of actions."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        self.listeners: list[Listener] = []
        # SQLite has one writer at a time: several writing threads would only queue on its lock
        # (sleeping in its busy handler), so writes go through one thread; PostgreSQL takes more.
        workers = 1 if store.dialect == "sqlite" else 8
        self.writer = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="db-write")
        #: Called (outside any lock) after every committed action and on table creation.
        self.after_change: list[Callable[[LiveTable], None]] = []

    # -- creating -----------------------------------------------------------------------------
    async def create(self, req: TableCreate) -> tuple[LiveTable, dict[int, str]]:
        game, state, scenario = _new_game(req)
        seats = _seat_specs(req.seats, game)
        tokens = {s: secrets.token_urlsafe(32) for s, spec in enumerate(seats) if spec.kind == "human"}
        specs = [
            SeatSpec(i, spec.name, spec.kind, spec.agent, spec.strength,
                     hash_token(tokens[i]) if i in tokens else None)
            for i, spec in enumerate(seats)
        ]
        name = clean_name(req.name, f"{game.info.name} table", 80)
        record = await asyncio.to_thread(
            self.store.create_table,
            table_id=secrets.token_urlsafe(9), name=name, game=game.id, game_version=game.info.version,
            params=game.params_dict(), seed=game.seed, scenario=scenario, seats=specs,
            to_move=state.current_player,
        )
        live = LiveTable(record=record, game=game, state=state, version=0)
        self.tables[record.id] = live
        self._evict()
        self._after(live)
        return live, tokens

    # -- loading ------------------------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable:
        live = self.tables.get(table_id)
        if live is not None:
            live.last_used = time.monotonic()
            return live
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            live = await asyncio.to_thread(self._rebuild, table_id)
            self.tables[table_id] = live
            self._evict()
            fut.set_result(live)
            return live
        except BaseException as err:
            fut.set_exception(err)
            fut.exception()  # mark retrieved: waiters (if any) re-raise it themselves
            raise
        finally:
            del self._loading[table_id]

    def _rebuild(self, table_id: str) -> LiveTable:
        """Replay the committed log through the engine: the state is exactly where it was."""
        if len(table_id) > 32:
            raise not_found("table", table_id[:32])
        record = self.store.get_table(table_id=table_id)
        if record is None:
            raise not_found("table", table_id)
        if record.scenario is not None:
            state = bloodforge.load_scenario(record.scenario)
            game = state.game
        else:
            game = bloodforge.load_game(record.game, seed=record.seed, **record.params)
            state = game.new_initial_state()
        actions = self.store.action_texts(table_id=table_id)
        for _seat, text in actions:
            state.apply(text)
        return LiveTable(record=record, game=game, state=state, version=len(actions))

    def _evict(self) -> None:
        excess = len(self.tables) - self.settings.max_live_tables
        if excess <= 0:
            return
        idle = sorted(
            (t for t in self.tables.values()
             if t.watchers == 0 and not t.lock.locked() and (t.ai_task is None or t.ai_task.done())),
            key=lambda t: t.last_used,
        )
        for t in idle[:excess]:
            del self.tables[t.id]

    def forget(self, table_id: str) -> None:
        """Drop a live table so that the next access rebuilds it from the database."""
        self.tables.pop(table_id, None)

    # -- seats --------------------------------------------------------------------------------
    @staticmethod
    def authenticate(live: LiveTable, seat: int | None, token: str | None) -> int | None:
        """The seat a request may act and see for: None (spectator) or a human seat whose secret
        token matches (compared in constant time). Bad or missing tokens are refused, never
        downgraded silently to a spectator view."""
        if seat is None:
            return None
        if isinstance(seat, bool) or not 0 <= seat < len(live.seats):
            raise ApiError(400, "seat/invalid", f"seat must be 0..{len(live.seats) - 1}, got {seat}")
        if not token:
            raise ApiError(401, "auth/missing_token", f"seat {seat} needs its token (from the join link)")
        stored = live.seats[seat].token_hash
        # Compare even for AI seats (against a dummy hash), so timing tells nothing about them.
        ok = hmac.compare_digest(hash_token(token), stored or "0" * 64)
        if not ok or stored is None:
            raise ApiError(403, "auth/bad_token", f"the token does not open seat {seat}")
        return seat

    # -- acting -------------------------------------------------------------------------------
    async def submit(
        self, table_id: str, *, seat: int, text: str, version: int, by_agent: bool = False
    ) -> tuple[int, str]:
        """Apply one action for `seat` at `version`: (new version, canonical text) or ApiError."""
        live = await self.get(table_id)
        async with live.lock:
            st = live.state
            if st.is_terminal():
                raise ApiError(409, "game/over", "the game is over")
            if version != live.version:
                raise ApiError(
                    409, "action/stale",
                    f"the table is at version {live.version}, the action was for version {version}",
                    version=live.version,
                )
            if st.current_player != seat:
                raise ApiError(409, "seat/not_your_turn", f"it is seat {st.current_player}'s turn, not seat {seat}'s")
            if not by_agent and live.seats[seat].kind != "human":
                raise ApiError(403, "seat/not_human", f"seat {seat} is played by the server's AI")
            try:
                action = live.game.parse_action(st, text)
                new = st.clone()
                new.apply(action)
            except ActionSyntaxError as err:
                raise ApiError(422, "action/syntax", str(err)) from None
            except IllegalAction as err:
                raise ApiError(422, "action/illegal", str(err)) from None
            except BloodforgeError as err:
                raise ApiError(422, "action/refused", str(err)) from None
            write = functools.partial(
                self.store.append_action,
                table_id=live.id, ply=live.version, seat=seat, text=str(action),
                to_move=new.current_player, result=result_of(new),
            )
            try:
                await asyncio.get_running_loop().run_in_executor(self.writer, write)
            except StaleWrite as err:
                self.forget(live.id)
                raise ApiError(409, "action/stale", f"another writer changed the table: {err}") from None
            live.state = new
            live.version += 1
            live.last_used = time.monotonic()
            for listener in self.listeners:
                listener(live)
            new_version = live.version
        self._after(live)
        return new_version, str(action)

    def _after(self, live: LiveTable) -> None:
        for hook in self.after_change:
            hook(live)


def _new_game(req: TableCreate) -> tuple[Game, State, dict[str, Any] | None]:
    """The game and first state a create request describes; every refusal is a clear 4xx."""
    if req.scenario is not None:
        data = _scenario_dict(req.scenario)
        if req.game is not None and data.get("game") != req.game:
            raise ApiError(422, "scenario/invalid", f"the scenario is for game {data.get('game')!r}, not {req.game!r}")
        params = data.get("params")
        _refuse_files(str(data.get("game")), params if isinstance(params, dict) else {})
        try:
            state = bloodforge.load_scenario(data)
        except KeyError as err:  # UnknownGame
            raise ApiError(422, "game/unknown", str(err)) from None
        except (BloodforgeError, ValueError) as err:
            raise ApiError(422, "scenario/invalid", str(err)) from None
        return state.game, state, data
    if req.game is None:
        raise ApiError(422, "game/missing", "give a game id (see GET /api/games) or a scenario")
    _refuse_files(req.game, req.params)
    seed = req.seed if req.seed is not None else secrets.randbelow(MAX_SEED)
    try:
        game = bloodforge.load_game(req.game, seed=seed, **req.params)
    except KeyError as err:
        raise ApiError(422, "game/unknown", str(err)) from None
    except (BloodforgeError, ValueError, TypeError) as err:
        raise ApiError(422, "params/invalid", str(err)) from None
    return game, game.new_initial_state(), None


def _refuse_files(game_id: str, params: dict[str, Any]) -> None:
    """Parameters that name files would let a client make the server open its files: every
    game declares them with `data_file_field`, and the server refuses them all."""
    try:
        files = game_class(game_id).info.params_model.file_parameters()
    except UnknownGame:
        return  # the game lookup that follows gives the clear error
    named = [k for k in files if params.get(k) is not None]
    if named:
        raise ApiError(
            422, "params/invalid",
            f"parameter {named[0]!r} names a file; the server accepts no file parameters "
            f"({', '.join(files)}): play a designer's copy with the CLI or the lab",
        )


def _scenario_dict(source: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(source, dict):
        return source
    if len(source) > MAX_SCENARIO_CHARS:
        raise ApiError(413, "scenario/too_large", f"scenario text is over {MAX_SCENARIO_CHARS} characters")
    try:
        data = yaml.safe_load(source)
    except yaml.YAMLError as err:
        raise ApiError(422, "scenario/invalid", f"scenario is not valid YAML or JSON: {err}") from None
    if not isinstance(data, dict):
        raise ApiError(422, "scenario/invalid", "a scenario must be a mapping with game, params, position")
    return data


def _seat_specs(seats: list[SeatCreate] | None, game: Game) -> list[SeatCreate]:
    n = game.num_players
    if seats is None:
        seats = [SeatCreate(kind="human")] + [SeatCreate(kind="agent", agent="greedy") for _ in range(n - 1)]
    if len(seats) != n:
        raise ApiError(422, "seats/invalid", f"{game.info.name} with these parameters has {n} seats, got {len(seats)}")
    known = agent_names()
    out = []
    for i, s in enumerate(seats):
        if s.kind == "agent":
            agent = s.agent or "greedy"
            if agent not in known:
                raise ApiError(422, "agent/unknown", f"seat {i}: unknown agent {agent!r}; known: {', '.join(known)}")
            name = clean_name(s.name, f"AI {i + 1} ({agent})", 40)
            out.append(SeatCreate(name=name, kind="agent", agent=agent, strength=s.strength))
        else:
            out.append(SeatCreate(name=clean_name(s.name, f"Player {i + 1}", 40), kind="human"))
    return out
