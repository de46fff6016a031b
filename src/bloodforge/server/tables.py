"""The table manager: every live table of a process, rebuilt from the database log on demand.

The order on every action is fixed (and is what makes restarts exact): take the table's lock,
check the version and the seat, validate through the engine on a clone, COMMIT the seat's
entry together with the game's own steps that followed it, then swap in the new state and tell
the listeners. A refused action changes nothing anywhere. Clocks that run out go the same way
(`timeout <seat>`, recorded with seat None).

Versions: the version is the number of history entries. An action carries the version its
client saw; a different version is refused (`action/stale`, with the current version) unless
it is a *rebase* of a simultaneous commitment: the seat was an actor at that version, every
entry since was another seat's action (no game step, no timeout, nothing of its own), and the
seat is still an actor. Then its action is checked against the current position and applied
(if it is no longer legal: `action/stale`). So two players bidding at once both get in, while a
double click, a second tab or a move made before the game moved on is still refused.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from bloodforge.core import ActionSyntaxError, BloodforgeError, Game, IllegalAction, State

from .clocks import TURN, deadlines_from_json, deadlines_to_json, next_deadlines, now_ms
from .config import Settings
from .errors import ApiError, not_found
from .live import REBASE_WINDOW, LiveTable, record_of, result_of
from .newtable import clean_name, default_table_name, hash_token, new_game, seat_specs
from .schemas import TableCreate
from .store import CREDENTIALS_CHANGED, REMATCH_MADE, Entry, RematchTaken, SeatSpec, StaleWrite, Store, TableRecord

log = logging.getLogger("bloodforge.server")

#: SQLite: moves written on the event loop between two checkpoints of the write-ahead log
#: (about what SQLite's own 1000-page automatic checkpoint would do).
CHECKPOINT_EVERY = 200


Listener = Callable[[LiveTable], None]


class TableManager:
    """Owns every live table of this process; the only writer of entries."""

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
        #: Called (outside any lock) after every committed change and on table creation.
        self.after_change: list[Callable[[LiveTable], None]] = []
        #: Called with the id of a table another process changed that this one does not hold.
        self.after_remote: list[Callable[[str], None]] = []
        self._timeouts: set[asyncio.Task[None]] = set()
        self._refreshing: set[asyncio.Task[None]] = set()
        #: Called with (table id, seat or None: every seat) when seat credentials changed.
        self.after_credentials: list[Callable[[str, int | None], None]] = []
        #: Called with a finished table's id when another process made its rematch.
        self.after_rematch: list[Callable[[str], None]] = []
        #: Does this process have connections watching a table? (set by the websocket hub)
        self.watched: Callable[[str], bool] = lambda _table_id: False
        self.closed = False
        #: Moves written on the event loop (SQLite), for the checkpoint every CHECKPOINT_EVERY.
        self._written_now = 0

    # -- creating -----------------------------------------------------------------------------
    async def create(self, req: TableCreate, prepared: tuple[Game, State] | None = None,
                     rematch_of: str | None = None) -> tuple[LiveTable, dict[int, str], str]:
        """The new table, each human seat's link token and the host token (re-invites).
        `prepared`: a game and its first state the server built itself (the workbench's
        playtest of stored content), used in place of the request's game and parameters.
        `rematch_of`: the finished table this is the rematch of (409 `rematch/started`, nothing
        made, if it has one already: two players clicking at once, on any server process)."""
        if prepared is not None:
            game, state, scenario = prepared[0], prepared[1], None
        else:
            game, state, scenario = await asyncio.to_thread(new_game, req)
        host = secrets.token_urlsafe(32)
        seats = seat_specs(req.seats, game)
        tokens = {s: secrets.token_urlsafe(32) for s, spec in enumerate(seats) if spec.kind == "human"}
        specs = [
            SeatSpec(i, spec.name, spec.kind, spec.agent, spec.strength,
                     hash_token(tokens[i]) if i in tokens else None)
            for i, spec in enumerate(seats)
        ]
        name = clean_name(req.name, default_table_name(game, seats), 80)
        entries = state.moves()
        deadlines = next_deadlines({}, state, entries, set(tokens), req.turn_clock, now_ms())
        try:
            record = await asyncio.to_thread(
                self.store.create_table,
                table_id=secrets.token_urlsafe(9), name=name, game=game.id, game_version=game.info.version,
                params=game.params_dict(), seed=game.seed, scenario=scenario, seats=specs,
                entries=entries, actors=state.actors(), result=result_of(state), turn_clock=req.turn_clock,
                deadlines=deadlines_to_json(deadlines), host_hash=hash_token(host), hints=req.hints,
                rematch_of=rematch_of,
            )
        except RematchTaken:
            if rematch_of is not None:
                self.forget(rematch_of)  # our copy did not know: the next access reads it
            raise ApiError(409, "rematch/started",
                           "the rematch has been started already: every seat was offered it") from None
        finished = None if rematch_of is None else self.tables.get(rematch_of)
        if finished is not None:
            finished.record = replace(finished.record, rematch_id=record.id)
        live = LiveTable(record=record, game=game, state=state, deadlines=deadlines)
        self.tables[record.id] = live
        self._evict()
        self._arm(live)
        self._after(live)
        return live, tokens, host

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
            self._arm(live)
            fut.set_result(live)
            self._after(live)  # an AI seat to act resumes here (its server may have died)
            return live
        except BaseException as err:
            fut.set_exception(err)
            fut.exception()  # mark retrieved: waiters (if any) re-raise it themselves
            raise
        finally:
            del self._loading[table_id]

    def _rebuild(self, table_id: str) -> LiveTable:
        """Replay the committed log through the engine (`Record.states`, every entry checked,
        the game's own steps included): the state is exactly where it was, and the actors of
        the last positions are known again (so a rebase works across restarts and processes)."""
        if len(table_id) > 32:
            raise not_found("table", table_id[:32])
        record = self.store.get_table(table_id=table_id)
        if record is None:
            raise not_found("table", table_id)
        game_record = record_of(record, self.store.entries(table_id=table_id))
        first_kept = len(game_record.moves) - REBASE_WINDOW
        actors_at: dict[int, tuple[int, ...]] = {}
        state = None
        for ply, position in enumerate(game_record.states()):  # one object, stepped entry by entry
            if ply >= first_kept:
                actors_at[ply] = tuple(position.actors())
            state = position
        assert state is not None
        return LiveTable(record=record, game=state.game, state=state,
                         deadlines=deadlines_from_json(record.deadlines), actors_at=actors_at)

    # -- other server processes ---------------------------------------------------------------
    def on_remote_change(self, table_id: str, ply: int) -> None:
        """A commit (by any process) left `table_id` with `ply` entries: catch up if this
        process holds the table or has people watching it."""
        if self.closed:
            return
        if ply == CREDENTIALS_CHANGED:  # a seat link was claimed or re-issued there
            self.forget(table_id)
            self._credentials_changed(table_id, None)
            return
        if ply == REMATCH_MADE:  # the finished table's rematch was made there
            self.forget(table_id)
            for hook in self.after_rematch:
                hook(table_id)
            return
        live = self.tables.get(table_id)
        if live is None and not self.watched(table_id):
            self._after_remote(table_id)
            return
        if live is not None and live.version >= ply:
            return  # our own commit, or already caught up
        task = asyncio.get_running_loop().create_task(self._catch_up(table_id, ply), name=f"sync-{table_id}")
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)

    async def _catch_up(self, table_id: str, ply: int) -> None:
        """Step the live table forward through the entries another process committed."""
        try:
            live = self.tables.get(table_id)
            if live is None:  # watched here but not loaded: load it, then tell the watchers
                live = await self.get(table_id)
                async with live.lock:
                    for listener in self.listeners:
                        listener(live)
                self._after_remote(table_id)
                return
            async with live.lock:
                if live.version >= ply or self.tables.get(table_id) is not live:
                    return
                record, entries = await asyncio.to_thread(self._load_since, table_id, live.version)
                new = live.state.clone()
                for seat, text in entries:
                    new.step_entry(seat, text)
                    live.actors_at[len(new.history)] = tuple(new.actors())
                live.state = new
                for seat, spec in enumerate(record.seats):
                    if spec != live.record.seats[seat]:
                        live.agents.pop(seat, None)
                live.record = record
                live.deadlines = deadlines_from_json(record.deadlines)
                live._changes += 1
                live.actors_at[live.version] = tuple(new.actors())
                self._arm(live)
                for listener in self.listeners:
                    listener(live)
            # Not the AI hooks: the process that committed runs the AI seats (no duplicate
            # thinking); if it dies, the sweep takes the table up.
            self._after_remote(table_id)
        except Exception:
            log.exception("table %s: could not catch up with another server; reloading it", table_id)
            self.forget(table_id)

    def _load_since(self, table_id: str, since: int) -> tuple[TableRecord, list[Entry]]:
        record = self.store.get_table(table_id=table_id)
        if record is None:
            raise not_found("table", table_id)
        return record, self.store.entries(table_id=table_id, since=since)

    def _evict(self) -> None:
        excess = len(self.tables) - self.settings.max_live_tables
        if excess <= 0:
            return
        idle = sorted(
            (t for t in self.tables.values()
             if t.watchers == 0 and not self.watched(t.id) and not t.lock.locked() and not t.deadlines
             and (t.ai_task is None or t.ai_task.done())),
            key=lambda t: t.last_used,
        )
        for t in idle[:excess]:
            del self.tables[t.id]

    def forget(self, table_id: str) -> None:
        """Drop a live table so that the next access rebuilds it from the database."""
        live = self.tables.pop(table_id, None)
        if live is not None and live.timer is not None:
            live.timer.cancel()

    # -- seats --------------------------------------------------------------------------------
    @staticmethod
    def authenticate(live: LiveTable, seat: int | None, token: str | None) -> int | None:
        """The seat a request may act and see for: None (spectator) or a human seat whose secret
        token matches (compared in constant time). Bad or missing tokens are refused, never
        downgraded silently to a spectator view. A seat the AI took over keeps its token: its
        player may still watch from it."""
        if seat is None:
            return None
        if isinstance(seat, bool) or not 0 <= seat < len(live.seats):
            raise ApiError(400, "seat/invalid", f"seat must be 0..{len(live.seats) - 1}, got {seat}")
        if not token:
            raise ApiError(401, "auth/missing_token", f"seat {seat} needs its token (from the join link)")
        spent = live.seats[seat].invite_hash
        if spent is not None and hmac.compare_digest(hash_token(token), spent):
            raise ApiError(403, "seat/claimed",
                           f"this link to seat {seat} was opened in another browser first; it shows the table "
                           "only as a spectator sees it (ask the table's host for a new link)")
        stored = live.seats[seat].token_hash
        # Compare even for AI seats (against a dummy hash), so timing tells nothing about them.
        ok = hmac.compare_digest(hash_token(token), stored or "0" * 64)
        if not ok or stored is None:
            raise ApiError(403, "auth/bad_token", f"the token does not open seat {seat}")
        return seat

    async def claim(self, table_id: str, seat: int, token: str) -> str:
        """Claim-once seat links: the first browser to open a seat's link gets a credential of
        its own (returned; the link's token is spent and then opens only the spectator view,
        `seat/claimed`). A credential already claimed is returned as it is. *Why:* whoever
        created the table holds every link; without this the creator could read each hand.

        A rematch's seat is claimed the same way with the player's credential of that seat at
        the finished table (`rematch_credential`): the offer a page gets from a server process
        that does not hold the new links (another process, or after a restart)."""
        live = await self.get(table_id)
        from_finished = False
        try:
            self.authenticate(live, seat, token)  # the link or the credential, else refused
        except ApiError as err:
            if err.code != "auth/bad_token" or not await self.rematch_credential(table_id, seat, token):
                raise
            from_finished = True
        async with live.lock:
            spec = live.seats[seat]
            if from_finished:
                if spec.claimed:  # the player took the seat already, in another browser
                    raise ApiError(409, "seat/claimed", f"seat {seat} of the rematch was opened in another "
                                   "browser first; it shows the table only as a spectator sees it")
            else:
                self.authenticate(live, seat, token)  # again under the lock: it may have changed
                if spec.claimed:
                    return token
            new = secrets.token_urlsafe(32)
            assert spec.token_hash is not None
            await self._set_credentials(live, replace(spec, token_hash=hash_token(new), claimed=True,
                                                      invite_hash=spec.token_hash))
        return new

    async def rematch_credential(self, table_id: str, seat: int, token: str) -> bool:
        """Whether `token` is seat `seat`'s credential at the finished table whose rematch
        `table_id` is (the same seat there: a rematch keeps the seats in order), and that seat
        is a human one of the rematch. *Why:* the rematch's links exist only in the memory of
        the process that made it (credentials are stored hashed), so a page offered the rematch
        by another process, or after a restart, joins with what it holds."""
        finished_id = await asyncio.to_thread(self.store.rematch_source, table_id=table_id)
        if finished_id is None:
            return False
        finished = await self.get(finished_id)
        try:
            self.authenticate(finished, seat, token)
        except ApiError:
            return False
        spec = (await self.get(table_id)).seats[seat]
        return spec.kind == "human" and spec.token_hash is not None

    async def reinvite(self, table_id: str, seat: int, host_token: str | None) -> str:
        """A new link for a human seat (the table's host only, with the host token from the
        creation): the seat is unclaimed again, and the old link and credential open nothing."""
        live = await self.get(table_id)
        async with live.lock:
            host = live.record.host_hash
            if not host_token or host is None or not hmac.compare_digest(hash_token(host_token), host):
                raise ApiError(403, "auth/bad_token", "only the table's host token (from its creation) re-invites")
            if isinstance(seat, bool) or not 0 <= seat < len(live.seats):
                raise ApiError(400, "seat/invalid", f"seat must be 0..{len(live.seats) - 1}, got {seat}")
            spec = live.seats[seat]
            if spec.kind != "human" or spec.token_hash is None:
                raise ApiError(403, "seat/not_human", f"seat {seat} is played by the server's AI")
            new = secrets.token_urlsafe(32)
            await self._set_credentials(live, replace(spec, token_hash=hash_token(new), claimed=False,
                                                      invite_hash=None))
        return new

    async def _set_credentials(self, live: LiveTable, spec: SeatSpec) -> None:
        """Store a seat's new credential (under the table's lock), then drop the connections that
        authenticated with the old one (they reconnect with what they hold)."""
        old = live.seats[spec.seat].token_hash
        assert old is not None
        assert spec.token_hash is not None
        ok = await asyncio.to_thread(
            self.store.set_credentials, table_id=live.id, seat=spec.seat, expect_hash=old,
            token_hash=spec.token_hash, claimed=spec.claimed, invite_hash=spec.invite_hash,
        )
        if not ok:  # another browser (or process) got there first
            self.forget(live.id)
            raise ApiError(409, "seat/claimed", f"seat {spec.seat}'s link was just opened in another browser")
        seats = list(live.record.seats)
        seats[spec.seat] = spec
        live.record = replace(live.record, seats=tuple(seats))
        self._credentials_changed(live.id, spec.seat)

    def _credentials_changed(self, table_id: str, seat: int | None) -> None:
        for hook in self.after_credentials:
            hook(table_id, seat)

    # -- acting -------------------------------------------------------------------------------
    async def submit(
        self, table_id: str, *, seat: int, text: str, version: int, by_agent: bool = False
    ) -> tuple[int, str]:
        """Apply one action for `seat` at `version`: (new version, canonical text) or ApiError.

        If another server process committed first, the table is reloaded and the action tried
        once more there, under the same rules (so a simultaneous commitment made through two
        processes is a rebase too, and anything else is stale with the real version)."""
        try:
            return await self._submit(table_id, seat=seat, text=text, version=version, by_agent=by_agent)
        except LostRaceError:
            return await self._submit(table_id, seat=seat, text=text, version=version, by_agent=by_agent)

    async def _submit(self, table_id: str, *, seat: int, text: str, version: int, by_agent: bool) -> tuple[int, str]:
        live = await self.get(table_id)
        async with live.lock:
            st = live.state
            if st.is_terminal():
                raise ApiError(409, "game/over", "the game is over")
            if not by_agent and live.seats[seat].kind != "human":
                what = ("its clock ran out; the server's AI plays it now" if live.seats[seat].taken_over
                        else "it is played by the server's AI")
                raise ApiError(403, "seat/not_human", f"seat {seat}: {what}")
            rebase = version != live.version
            if rebase and not live.may_rebase(seat, version):
                raise _stale(live, version)
            actors = st.actors()
            if seat not in actors:
                waiting = ", ".join(f"seat {s}" for s in actors)
                raise ApiError(409, "seat/not_your_turn", f"seat {seat} may not act now; waiting for {waiting}")
            try:
                action = live.game.parse_action(st, text, seat)
                new = st.clone()
                new.apply(action, seat)
            except ActionSyntaxError as err:
                raise ApiError(422, "action/syntax", str(err)) from None
            except IllegalAction as err:
                if rebase:
                    raise _stale(live, version, f"; and the action is not legal now: {err}") from None
                raise ApiError(422, "action/illegal", str(err)) from None
            except BloodforgeError as err:
                raise ApiError(422, "action/refused", str(err)) from None
            await self._commit(live, new)
            new_version = live.version
        self._after(live)
        return new_version, str(action)

    async def _commit(self, live: LiveTable, new: State, *, take_over: int | None = None) -> None:
        """Write every entry `new` added (one transaction), then swap it in and tell listeners.
        Called under the table's lock."""
        old_version = live.version
        entries: list[Entry] = list(zip(new.history_seats[old_version:], new.history[old_version:], strict=True))
        record = live.record
        spec: SeatSpec | None = None
        if take_over is not None:
            agent = "greedy" if live.game.policy() is not None else "random"
            spec = replace(record.seats[take_over], kind="agent", agent=agent, strength=None, taken_over=True)
            seats = list(record.seats)
            seats[take_over] = spec
            record = replace(record, seats=tuple(seats))
        humans = {s.seat for s in record.seats if s.kind == "human"}
        deadlines = next_deadlines(live.deadlines, new, entries, humans, record.turn_clock, now_ms())
        row: dict[str, Any] = {
            "table_id": live.id, "ply": old_version, "entries": entries, "actors": new.actors(),
            "result": result_of(new), "deadlines": deadlines_to_json(deadlines), "take_over": spec,
        }
        try:
            if self.store.append_now(**row):  # SQLite, its lock free: committed here and now
                self._written_now += 1
                if self._written_now % CHECKPOINT_EVERY == 0:
                    self._checkpoint()
            else:
                write = functools.partial(self.store.append_entries, **row)
                await asyncio.get_running_loop().run_in_executor(self.writer, write)
        except StaleWrite as err:
            self.forget(live.id)
            raise LostRaceError(str(err)) from None
        live.state = new
        live.record = record
        live.deadlines = deadlines
        live._changes += 1
        if take_over is not None:
            live.agents.pop(take_over, None)
        live.actors_at[live.version] = tuple(new.actors())
        floor = live.version - REBASE_WINDOW
        for old in [v for v in live.actors_at if v < floor]:
            del live.actors_at[old]
        live.last_used = time.monotonic()
        self._arm(live)
        for listener in self.listeners:
            listener(live)

    def _checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database in the writer thread (the moves
        written on the event loop never do it there: it can wait for the disk)."""
        def done(fut: asyncio.Future[tuple[int, int]]) -> None:
            if not fut.cancelled() and fut.exception() is not None:
                log.warning("SQLite checkpoint failed: %s", fut.exception())

        asyncio.get_running_loop().run_in_executor(self.writer, self.store.checkpoint).add_done_callback(done)

    # -- clocks -------------------------------------------------------------------------------
    def _arm(self, live: LiveTable) -> None:
        """Wake up when the table's earliest clock runs out (re-armed after every change)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if not live.deadlines or self.closed:
            return
        delay = max(0.0, (min(d.at for d in live.deadlines.values()) - now_ms()) / 1000)
        loop = asyncio.get_running_loop()
        live.timer = loop.call_later(delay, self._ring, live.id)

    def _ring(self, table_id: str) -> None:
        if self.closed:
            return
        task = asyncio.get_running_loop().create_task(self._expire(table_id), name=f"clock-{table_id}")
        self._timeouts.add(task)
        task.add_done_callback(self._timeouts.discard)

    async def _expire(self, table_id: str) -> None:
        """Record `timeout <seat>` for the earliest clock that ran out; a turn clock also hands
        the seat to the server's AI for the rest of the game."""
        try:
            live = await self.get(table_id)
            async with live.lock:
                now = now_ms()
                due = sorted((d.at, seat) for seat, d in live.deadlines.items() if d.at <= now)
                if not due:
                    self._arm(live)
                    return
                seat = due[0][1]
                kind = live.deadlines[seat].kind
                new = live.state.clone()
                try:
                    new.apply_timeout(seat)
                except IllegalAction as err:
                    # The rules do not wait for this seat's clock: nothing to record, but a
                    # turn clock still hands the seat over.
                    log.warning("table %s: timeout of seat %d refused by the game: %s", table_id, seat, err)
                    new = live.state.clone()
                    if kind != TURN:
                        del live.deadlines[seat]
                        live._changes += 1
                        self._arm(live)
                        return
                await self._commit(live, new, take_over=seat if kind == TURN else None)
                log.info("table %s: seat %d ran out of time (%s clock)", table_id, seat, kind)
            self._after(live)
        except ApiError as err:
            log.info("table %s: clock not applied: %s", table_id, err.message)
        except Exception:
            log.exception("table %s: clock failed", table_id)

    async def close(self) -> None:
        self.closed = True
        for live in self.tables.values():
            if live.timer is not None:
                live.timer.cancel()
        for task in list(self._timeouts):
            task.cancel()
        await asyncio.gather(*self._timeouts, return_exceptions=True)

    def _after_remote(self, table_id: str) -> None:
        for hook in self.after_remote:
            hook(table_id)

    def _after(self, live: LiveTable) -> None:
        for hook in self.after_change:
            hook(live)


class LostRaceError(ApiError):
    """Another process committed this ply first; this process's copy of the table is dropped."""

    def __init__(self, message: str) -> None:
        super().__init__(409, "action/stale", f"another server changed the table first: {message}")


def _stale(live: LiveTable, version: int, extra: str = "") -> ApiError:
    return ApiError(
        409, "action/stale",
        f"the table is at version {live.version}, the action was for version {version}{extra}",
        version=live.version,
    )
