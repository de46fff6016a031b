"""AI seats: agents think in worker threads with a time budget; moves go through `submit`.

An AI move is applied exactly like a human's (version check, engine validation, commit, then
broadcast), so nothing downstream can tell them apart and a restart resumes them the same way.
Agents never run on the event loop: a slow agent delays only its own table.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from bloodforge.agents import Agent, make_agent
from bloodforge.core import Action, State
from bloodforge.core.rng import Rng, mix_seed

from .config import Settings
from .errors import ApiError
from .tables import LiveTable, TableManager

log = logging.getLogger("bloodforge.server.ai")


class AiRunner:
    def __init__(self, manager: TableManager, settings: Settings) -> None:
        self.manager = manager
        self.settings = settings
        self.pool = ThreadPoolExecutor(max_workers=max(1, settings.ai_workers), thread_name_prefix="ai")
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = False
        manager.after_change.append(self.kick)

    def kick(self, live: LiveTable) -> None:
        """Start the table's AI loop if an AI seat is to move and none is running."""
        if self.closed or live.agent_to_move() is None:
            return
        if live.ai_task is not None and not live.ai_task.done():
            return
        task = asyncio.get_running_loop().create_task(self._play(live.id), name=f"ai-{live.id}")
        live.ai_task = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def resume_all(self) -> int:
        """On startup: every unfinished table whose turn is an AI seat's continues by itself."""
        ids = await asyncio.to_thread(self.manager.store.tables_waiting_for_agents)
        for table_id in ids:
            try:
                self.kick(await self.manager.get(table_id))
            except Exception:
                log.exception("could not resume table %s", table_id)
        return len(ids)

    async def _play(self, table_id: str) -> None:
        while not self.closed:
            live = await self.manager.get(table_id)
            async with live.lock:
                seat = live.agent_to_move()
                if seat is None:
                    return
                version = live.version
                snapshot = live.state.clone()
            if self.settings.ai_delay:
                await asyncio.sleep(self.settings.ai_delay)
            action = await self._choose(live, seat, snapshot)
            try:
                await self.manager.submit(table_id, seat=seat, text=str(action), version=version, by_agent=True)
            except ApiError as err:
                if err.code == "action/stale":
                    continue
                log.error("table %s: AI seat %d played %s and was refused: %s", table_id, seat, action, err.message)
                fallback = self._fallback(snapshot, version)
                try:
                    await self.manager.submit(table_id, seat=seat, text=str(fallback), version=version, by_agent=True)
                except ApiError as again:
                    if again.code != "action/stale":
                        log.error("table %s: AI seat %d stopped: %s", table_id, seat, again.message)
                        return

    async def _choose(self, live: LiveTable, seat: int, snapshot: State) -> Action:
        agent = self._agent(live, seat)
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self.pool, agent.select_action, snapshot), self.settings.ai_time_budget
            )
        except TimeoutError:
            log.warning("table %s: AI seat %d over its %.1fs budget; playing a random move",
                        live.id, seat, self.settings.ai_time_budget)
        except Exception:
            log.exception("table %s: AI seat %d failed; playing a random move", live.id, seat)
        return self._fallback(snapshot, live.version)

    @staticmethod
    def _fallback(state: State, version: int) -> Action:
        legal = [a for a in state.legal_actions() if not a.is_cancel] or state.legal_actions()
        return Rng(mix_seed(version, "fallback")).choice(legal)

    @staticmethod
    def _agent(live: LiveTable, seat: int) -> Agent:
        agent = live.agents.get(seat)
        if agent is None:
            spec = live.seats[seat]
            options = {"strength": spec.strength} if spec.strength is not None else {}
            agent = make_agent(spec.agent or "random", seat, seed=mix_seed(live.game.seed, "ai", seat), **options)
            live.agents[seat] = agent
        return agent

    async def close(self) -> None:
        self.closed = True
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
