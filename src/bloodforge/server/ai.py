"""AI seats: agents think in worker processes with a time budget; moves go through `submit`.

An AI move is applied exactly like a human's (version check, engine validation, commit, then
broadcast), so nothing downstream can tell them apart and a restart resumes them the same way.
Searches never run on the event loop, nor in this process's threads (see `aiwork`: a pool of
processes shared fairly between clients), so a slow agent delays only its own table; cheap
agents decide in threads, and the random one, a legal-action list and a choice, on the loop.

During a secret simultaneous commitment several AI seats may be actors: each decides on its own
copy of the same position (through `bloodforge.match.Driver.decide`, the one decision step
of the CLI and the lab: the seat's agent, `agent.select_action(state)`), and the decisions are
submitted one after another at that version; the later ones are rebases (see `tables`),
accepted because only other seats' actions came in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

from bloodforge.core import Action, State
from bloodforge.core.rng import Rng, mix_seed

from .aiwork import INLINE_AGENTS, SEARCH_AGENTS, FairGate, decide, decide_packed, make_pool, pack, ready
from .clocks import now_ms
from .config import Settings
from .errors import ApiError
from .live import LiveTable
from .tables import TableManager

log = logging.getLogger("bloodforge.server.ai")


class _StoppedError(Exception):
    """Even the random fallback was refused: the loop waits for the table's next change."""


class AiRunner:
    def __init__(self, manager: TableManager, settings: Settings) -> None:
        self.manager = manager
        self.settings = settings
        #: Cheap agents (a move in milliseconds) think in threads; searches in `pool`.
        self.threads = ThreadPoolExecutor(max_workers=max(1, settings.ai_workers), thread_name_prefix="ai")
        self.pool = make_pool(settings.ai_processes, settings.ai_workers)
        self.gate = FairGate(settings.ai_processes if settings.ai_processes > 0 else settings.ai_workers)
        #: Who a table's AI work is charged to (the address that created it; set by the app).
        self.owner_of: Callable[[str], str | None] = lambda _table_id: None
        #: searching agents between their decisions, packed as the workers send them back
        self.packed_agents: dict[tuple[str, int], bytes] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.by_table: dict[str, asyncio.Task[None]] = {}
        self.closed = False
        manager.after_change.append(self.kick)

    def kick(self, live: LiveTable) -> None:
        """Start the table's AI loop if an AI seat is to act and none is running."""
        if self.closed or not live.agents_to_move():
            return
        running = self.by_table.get(live.id)  # by id: a table reloaded from the database is the same table
        if running is not None and not running.done():
            live.ai_task = running
            return
        task = asyncio.get_running_loop().create_task(self._play(live.id), name=f"ai-{live.id}")
        live.ai_task = task
        self.by_table[live.id] = task
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        for table_id, t in list(self.by_table.items()):
            if t is task:
                del self.by_table[table_id]

    async def warm(self) -> None:
        """Start the worker processes now (in the background at startup), so that the first AI
        move of a table does not wait for a process to start and load the games."""
        if isinstance(self.pool, ProcessPoolExecutor):
            loop = asyncio.get_running_loop()
            workers = max(1, self.settings.ai_processes)
            try:
                await asyncio.gather(*(loop.run_in_executor(self.pool, ready) for _ in range(workers)))
            except Exception:
                log.exception("the AI worker processes did not start")

    async def resume_all(self) -> int:
        """On startup: every unfinished table where an AI seat is to act continues by itself, and
        every running clock is armed again (deadlines are stored)."""
        ids = await asyncio.to_thread(self.manager.store.tables_to_resume)
        for table_id in ids:
            try:
                self.kick(await self.manager.get(table_id))
            except Exception:
                log.exception("could not resume table %s", table_id)
        return len(ids)

    async def sweep_forever(self) -> None:
        """Several processes on one database: take up the work of tables whose process may have
        died (a clock long run out, an AI turn not moving); loading a table arms its clocks and
        starts its AI seats. A table this process already holds (it has watchers here and
        followed the other process's moves) has its clocks armed, but its AI seats were left to
        the process that committed the move before theirs: if no AI loop runs here, start one."""
        while not self.closed:
            await asyncio.sleep(self.settings.sweep_interval)
            stall = self.settings.stall_seconds
            try:
                ids = await asyncio.to_thread(
                    self.manager.store.tables_to_resume,
                    overdue_ms=now_ms() - round(stall * 1000),
                    stalled_before=datetime.now(UTC) - timedelta(seconds=stall),
                )
                for table_id in ids:
                    live = self.manager.tables.get(table_id)
                    if live is None:
                        log.info("taking up table %s (its clock or AI turn is overdue)", table_id)
                        await self.manager.get(table_id)
                        continue
                    running = self.by_table.get(table_id)
                    if live.agents_to_move() and (running is None or running.done()):
                        log.info("taking up the AI turn of table %s (its process has been silent)", table_id)
                        self.kick(live)
            except Exception:
                log.exception("sweep for overdue tables failed")

    async def _play(self, table_id: str) -> None:
        while not self.closed:
            live = await self.manager.get(table_id)
            async with live.lock:
                seats = live.agents_to_move()
                if not seats:
                    return
                version = live.version
                # The live state is replaced, never changed in place: this object stays the
                # position at `version` (agents that may change it get a copy in `_choose`).
                snapshot = live.state
            if self.settings.ai_delay:
                await asyncio.sleep(self.settings.ai_delay)
            if len(seats) == 1:
                actions = [await self._choose(live, seats[0], snapshot)]
            else:
                actions = list(await asyncio.gather(*(self._choose(live, seat, snapshot) for seat in seats)))
            try:
                for seat, action in zip(seats, actions, strict=True):
                    if not await self._submit(table_id, seat, action, snapshot, version):
                        break
            except _StoppedError:
                return  # until the next change of the table kicks it again

    async def _submit(self, table_id: str, seat: int, action: Action, snapshot: State, version: int) -> bool:
        """Submit one AI decision; False when the position moved on (decide again); _StoppedError when
        even the random fallback was refused (a bug: the table waits for its next change)."""
        try:
            await self.manager.submit(table_id, seat=seat, text=str(action), version=version, by_agent=True)
            return True
        except ApiError as err:
            if err.code in ("action/stale", "seat/not_your_turn", "game/over", "seat/not_human"):
                return False
            log.error("table %s: AI seat %d played %s and was refused: %s", table_id, seat, action, err.message)
        fallback = self._fallback(snapshot, seat, version)
        try:
            await self.manager.submit(table_id, seat=seat, text=str(fallback), version=version, by_agent=True)
            return True
        except ApiError as again:
            if again.code != "action/stale":
                log.error("table %s: AI seat %d stopped: %s", table_id, seat, again.message)
                raise _StoppedError from None
            return False

    async def _choose(self, live: LiveTable, seat: int, snapshot: State) -> Action:
        """The seat's decision. A search (SEARCH_AGENTS) is made in the worker pool once the
        fair gate lets this table's client in, and the time budget counts the thinking, not the
        wait for a worker; a cheap agent decides at once in a thread (shipping the position to
        a process would cost more than its move), the random one (INLINE_AGENTS) right here."""
        spec = live.seats[seat]
        agent = spec.agent or "random"
        version = len(snapshot.history)
        seed = mix_seed(live.game.seed, "ai", seat, version)
        loop = asyncio.get_running_loop()
        kept = live.agents.get(seat)  # the seat's agent and the plan it is carrying out
        work: Future[tuple[Action, Any]]
        if agent in INLINE_AGENTS:
            # On the shared snapshot itself: a random agent only reads its legal actions (which
            # the state caches, so the engine's check of the move reuses them).
            try:
                action, live.agents[seat] = decide(snapshot, seat, agent, seed, spec.strength, kept)
                return action
            except Exception:
                log.exception("table %s: AI seat %d failed; playing a random move", live.id, seat)
                return self._fallback(snapshot, seat, version)
        snapshot = snapshot.clone()  # the agent's own copy: searches apply moves to what they get
        if agent in SEARCH_AGENTS:
            packed = await asyncio.to_thread(pack, snapshot)  # pickled off the event loop
            await self.gate.acquire(self.owner_of(live.id) or live.id)
            try:
                work = self.pool.submit(decide_packed, *packed, seat, agent, seed, spec.strength,
                                        self.packed_agents.get((live.id, seat)))
            except BaseException:
                self.gate.release()
                raise

            def free(_done: object) -> None:  # the slot is free when the worker is
                if not loop.is_closed():
                    with contextlib.suppress(RuntimeError):
                        loop.call_soon_threadsafe(self.gate.release)

            work.add_done_callback(free)
        else:
            work = self.threads.submit(decide, snapshot, seat, agent, seed, spec.strength, kept)
        try:
            action, player = await asyncio.wait_for(asyncio.wrap_future(work), self.settings.ai_time_budget)
            if isinstance(player, bytes):
                self.packed_agents[(live.id, seat)] = player
            else:
                live.agents[seat] = player
            return action
        except TimeoutError:
            log.warning("table %s: AI seat %d over its %.1fs budget; playing a random move",
                        live.id, seat, self.settings.ai_time_budget)
        except Exception:
            log.exception("table %s: AI seat %d failed; playing a random move", live.id, seat)
        return self._fallback(snapshot, seat, version)

    @staticmethod
    def _fallback(state: State, seat: int, version: int) -> Action:
        legal = [a for a in state.legal_actions(seat) if not a.is_cancel] or state.legal_actions(seat)
        return Rng(mix_seed(version, "fallback", seat)).choice(legal)

    async def close(self) -> None:
        self.closed = True
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.threads.shutdown(wait=False, cancel_futures=True)
