"""Where AI seats think: a pool of worker processes, shared fairly between clients.

*Why processes:* a search (IS-MCTS at full strength) is pure Python; in a thread it holds the
GIL, so ten searches slowed every request of the process, the event loop included. In worker
processes the event loop never runs a search and never waits for the GIL behind one. *Why a
fair gate:* one client with ten max-strength tables would otherwise fill every worker and
queue everyone else behind its searches; decisions wait in one queue per client, and a free
worker goes to the clients in turn (round robin), so a client's own tables share its turns.
Agents that decide in milliseconds (random, greedy, heuristic) stay in threads: shipping a
position to a process costs more than their move.

A decision in a worker gets the position (pickled) and the seat's agent (pickled too, or its
settings the first time): an agent carries plans between decisions (a greedy move is "select,
destination, pay", one action each), and an agent made afresh for every decision met its own
half-built move, cancelled it and planned it again, forever (a Bloodstones table hung so). The
worker sends the agent back with its decision, and the table keeps it for the next one. The
position travels without its `Game` and the game's own parts it holds (content, ruleset),
which a worker keeps per table (a game warms caches on its first decisions: a fresh copy each
move made every AI move some hundred milliseconds slower).
"""

from __future__ import annotations

import asyncio
import io
import json
import multiprocessing
import os
import pickle
import threading
from collections import OrderedDict, deque
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import bloodforge
from bloodforge.agents import Agent, make_agent
from bloodforge.core import Action, Game, State, game_class
from bloodforge.match import Driver
from bloodforge.procpool import watched_pool


def decide(
    state: State, seat: int, agent: str, seed: int, strength: int | None, player: Agent | None = None
) -> tuple[Action, Agent]:
    """One AI decision: the seat's agent (`player`, or a new one) picks; the agent comes back,
    with the plan it is carrying out, for the seat's next decision.

    The search counts the CPU time of its worker process (`clock=cpu`), as in `lab levels`: the
    Elo the lobby shows next to a level was measured so, and on a busy server a search on wall
    time would get fewer iterations and play below that Elo. The price is a slower move when
    the machine is busy, never a weaker one."""
    if player is None:
        options: dict[str, object] = {"strength": strength} if strength is not None else {}
        if agent in CPU_CLOCK_AGENTS:
            options["clock"] = "cpu"
        player = make_agent(agent, seat, seed=seed, **options)
    return Driver({seat: player}).decide(state, seat), player


#: Agents that search (a second or more per move at full strength): they run in the processes.
#: `openspiel-ismcts` is the lab's outside anchor; the lobby does not offer it, but a table made
#: through the API may seat it, and its search must not stall the event loop either.
SEARCH_AGENTS = frozenset({"mcts", "openspiel-ismcts"})
#: Searches whose `seconds` a table counts in CPU time (`openspiel-ismcts` does by default).
CPU_CLOCK_AGENTS = frozenset({"mcts"})
#: Agents whose decision is one legal-action list and a choice (what the server computes for
#: every human seat's view anyway): they decide on the event loop, since a hand-off to a
#: thread and back cost more CPU than the decision.
INLINE_AGENTS = frozenset({"random"})

GameKey = tuple[str, str, str, int, str]

#: Worker side: the games of the tables this worker decided for lately.
_GAMES: OrderedDict[GameKey, Game] = OrderedDict()


#: Values a game's attribute may hold that are not worth a reference (and whose identity
#: means nothing: a small int equal to the seed is the seed's object in CPython).
_ATOMS = (int, float, str, bytes, bool, type(None))


def _shared_parts(game: Game) -> dict[int, str]:
    """The game's own parts a state or an agent holds by reference, by object id: its content,
    ruleset, config (whatever its attributes hold). *Why:* a state keeps its game's content
    (Blood Stone's 240 kB of cards, Bloodstones' 78 kB ruleset) and the content was pickled
    with every decision, most of each state's bytes in every game; a worker has the same parts
    in its own copy of the game."""
    own = getattr(game, "__dict__", {})  # a game class with slots only shares nothing
    return {id(value): name for name, value in own.items() if not isinstance(value, _ATOMS)}


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, game: Game) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.game = game
        self.parts = _shared_parts(game)
        self.parts[id(game)] = ""

    def persistent_id(self, obj: Any) -> str | None:
        return self.parts.get(id(obj))  # "" the game itself, else the name of its part


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, game: Game) -> None:
        super().__init__(file)
        self.game = game

    def persistent_load(self, pid: Any) -> Any:
        if pid == "":
            return self.game
        if isinstance(pid, str) and pid in getattr(self.game, "__dict__", {}):
            return getattr(self.game, pid)
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")


def _dumps(obj: object, game: Game) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, game).dump(obj)
    return buf.getvalue()


#: Server side: each table's game pickled once (by the game object itself: a table keeps its
#: game for its whole life). A worker unpickles a game only the first time it meets its key,
#: but the bytes go with every decision, since any worker may take it; pickling them afresh
#: cost 1-9 ms of each decision (Blood Stone's 239 kB game 8.8 ms), more than the state's own
#: pickle in some games.
_GAME_BYTES: OrderedDict[int, tuple[Game, GameKey, bytes]] = OrderedDict()
_GAME_BYTES_LOCK = threading.Lock()  # `pack` runs in threads (`asyncio.to_thread`)


def pack(state: State) -> tuple[GameKey, bytes, bytes]:
    """The position for a worker: its game's key and pickle, and the state without the game."""
    game = state.game
    with _GAME_BYTES_LOCK:
        cached = _GAME_BYTES.get(id(game))
        if cached is not None and cached[0] is game:
            _GAME_BYTES.move_to_end(id(game))
    if cached is not None and cached[0] is game:
        key, game_bytes = cached[1], cached[2]
    else:
        key = (type(game).__module__, type(game).__qualname__, game.id, game.seed,
               json.dumps(game.params_dict(), sort_keys=True, default=str))
        game_bytes = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
        with _GAME_BYTES_LOCK:
            _GAME_BYTES[id(game)] = (game, key, game_bytes)  # the game is kept: its id stays its own
            while len(_GAME_BYTES) > 64:  # as many as a worker keeps (`_GAMES`)
                _GAME_BYTES.popitem(last=False)
    return key, game_bytes, _dumps(state, game)


def decide_packed(key: GameKey, game_bytes: bytes, state_bytes: bytes, seat: int, agent: str, seed: int,
                  strength: int | None, player_bytes: bytes | None = None) -> tuple[Action, bytes]:
    """`decide` in a worker on a packed position, with the worker's copy of its game; the agent
    travels both ways packed like the position (without the game)."""
    game = _GAMES.get(key)
    if game is None:
        game = pickle.loads(game_bytes)
        _GAMES[key] = game
        while len(_GAMES) > 64:
            _GAMES.popitem(last=False)
    else:
        _GAMES.move_to_end(key)
    state = _Unpickler(io.BytesIO(state_bytes), game).load()
    player = _Unpickler(io.BytesIO(player_bytes), game).load() if player_bytes else None
    action, player = decide(state, seat, agent, seed, strength, player)
    return action, _dumps(player, game)


def make_pool(processes: int, threads: int) -> Executor:
    """Worker processes (forked from a clean fork server that preloaded the engine and the
    games), or with `processes` 0 threads of this process (the old way: tests that register
    agents of their own in this process use it)."""
    if processes <= 0:
        return ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="ai")
    context = multiprocessing.get_context("forkserver")
    games = sorted({game_class(str(g["id"])).__module__ for g in bloodforge.list_games()})
    context.set_forkserver_preload(["bloodforge", "bloodforge.agents", "bloodforge.server.aiwork", *games])
    # the workers exit when this server is gone, even killed without its shutdown (`procpool`)
    return watched_pool(processes, context)


def ready() -> int:
    """A worker's answer to the warm-up at startup (its first job starts it)."""
    return os.getpid()


class FairGate:
    """`slots` decisions at once; waiting ones are served one client at a time, in turn."""

    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        self.waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    async def acquire(self, client: str) -> None:
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(client, deque()).append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # granted just as we gave up: pass the slot on
            raise

    def release(self) -> None:
        while self.waiting:
            client, queue = next(iter(self.waiting.items()))
            fut = queue.popleft()
            if queue:
                self.waiting.move_to_end(client)  # the next client's turn
            else:
                del self.waiting[client]
            if not fut.done():
                fut.set_result(None)
                return
        self.free += 1
