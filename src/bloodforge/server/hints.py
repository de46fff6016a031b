"""Hints for human seats: GET/POST /api/tables/{id}/seats/{seat}/hint (issue 21 item 4).

A table created with `hints: true` lets each human seat ask, with its own Bearer token, what the
strongest AI would play now and its estimated win chance (`bloodforge.agents.hint`). The search
sees only the seat's observation, so a hint reveals nothing the seat could not see.

*Why off the event loop and with a fixed budget:* a hint is a full-strength search (a second or
more); it runs in the AI runner's executor (worker processes, or threads where the server runs
without them), never on the event loop, and its budget is counted in iterations, so the same
position gives the same hint. One hint per seat and table version is kept: asking again, or a
second browser asking, costs nothing.
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict
from concurrent.futures import Executor
from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from bloodforge.agents.hint import HINT_ITERATIONS, Hint, compute_hint
from bloodforge.core.rng import mix_seed

from .api import ERRORS, Live, Token
from .errors import ApiError
from .tables import TableManager

router = APIRouter(prefix="/api", responses=ERRORS)

#: Hints kept per (table, seat, version): repeated requests reuse the search.
_CACHE: OrderedDict[tuple[str, int, int, int], Hint] = OrderedDict()
_CACHE_SIZE = 256
#: Searches under way, by the same key: a second ask while the first searches waits for it.
_RUNNING: dict[tuple[str, int, int, int], asyncio.Future[Hint]] = {}


class HintAnswer(BaseModel):
    action: str = Field(description="the action the strongest AI would play now (its text, as in `legal`)")
    label: str = Field(description="the action in players' words")
    then: list[str] = Field(default_factory=list, description="where the AI plans a compound action (select units, "
                            "destination, payment): its later steps in players' words, played after this one")
    win_chance: float = Field(ge=0, le=1, description="the search's estimate of the seat's return (1: a win)")
    iterations: int = Field(description="search iterations behind the hint (its fixed budget)")


def _finished(key: tuple[str, int, int, int], work: asyncio.Future[Hint]) -> None:
    """A search ended: keep its hint (also when the asker gave up waiting: asking again
    gets it at once)."""
    _RUNNING.pop(key, None)
    if work.cancelled() or work.exception() is not None:
        return
    _CACHE[key] = work.result()
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)


def _executor(request: Request) -> Executor | None:
    """The AI runner's executor (worker processes or threads), if the app has one."""
    ai = getattr(request.app.state, "ai", None)
    pool = getattr(ai, "pool", None)
    return pool if isinstance(pool, Executor) else None


async def _hint(live: Live, seat: int, token: str | None, request: Request) -> HintAnswer:
    seat_ok = TableManager.authenticate(live, seat, token)
    assert seat_ok is not None
    if not live.record.hints:
        raise ApiError(403, "hints/off", "this table was created without hints")
    iterations = int(getattr(request.app.state, "hint_iterations", HINT_ITERATIONS))
    async with live.lock:
        if live.state.is_terminal():
            raise ApiError(409, "game/over", "the game is over: there is nothing to hint")
        if seat not in live.state.actors():
            raise ApiError(409, "seat/not_your_turn", "a hint is for your own decision; it is not your turn")
        version = live.version
        snapshot = live.state.clone()
    key = (live.id, seat, version, iterations)
    hint = _CACHE.get(key)
    if hint is None:
        work = _RUNNING.get(key)
        if work is None:
            seed = mix_seed(live.game.seed, "hint", seat, version)
            # compute_hint itself goes to the worker (a process pool pickles it by name)
            search = functools.partial(compute_hint, snapshot, seat, iterations=iterations, seed=seed)
            work = _RUNNING[key] = asyncio.get_running_loop().run_in_executor(_executor(request), search)
            work.add_done_callback(functools.partial(_finished, key))
        ai = getattr(request.app.state, "ai", None)
        budget = float(getattr(getattr(ai, "settings", None), "ai_time_budget", 60.0))
        try:
            hint = await asyncio.wait_for(asyncio.shield(work), max(budget, 5.0))
        except TimeoutError:
            raise ApiError(409, "hint/busy", "the AI is still working out the hint; ask again in a moment") from None
    return HintAnswer(action=str(hint.action), label=hint.label, then=list(hint.then),
                      win_chance=hint.win_chance, iterations=hint.iterations)


SeatPath = Annotated[int, Path(ge=0, le=64)]


@router.get("/tables/{table_id}/seats/{seat}/hint", response_model=HintAnswer)
async def get_hint(live: Live, seat: SeatPath, token: Token, request: Request) -> HintAnswer:
    """What the strongest AI would play now for your seat (your token in `Authorization`) and its
    estimated win chance; 403 `hints/off` unless the table was created with `hints: true`."""
    return await _hint(live, seat, token, request)


@router.post("/tables/{table_id}/seats/{seat}/hint", response_model=HintAnswer)
async def post_hint(live: Live, seat: SeatPath, token: Token, request: Request) -> HintAnswer:
    """The same as GET (for clients that ask with POST)."""
    return await _hint(live, seat, token, request)
