"""What shipping a position to an AI worker costs (server/aiwork.py `pack`), per game.

Run on demand (not a timed test):

    .venv/bin/python benchmarks/bench_aiwork_pack.py                # every game, plies 100 and 300
    .venv/bin/python benchmarks/bench_aiwork_pack.py --plies 50 500 --repeat 50

Every AI decision a search makes on the server is shipped to a worker process: `pack` pickles
the position (the state without its game and without the game's own parts it holds, which
the worker has in its copy of the game) and hands over the game's pickle (made once per table).
For each game (seeded uniformly random play) and ply count the table shows, in milliseconds
of CPU time (median of `--repeat` calls) and kB:

* pack: `pack(state)`, what the server pays per decision (in a thread, off the event loop);
* naive: the state pickled whole without its game (what a position cost before the game's
  parts travelled by reference), and the game pickled, as `pack` did at every decision then;
* load: the worker's unpickling of the packed position with its game already at hand.
"""

from __future__ import annotations

import argparse
import io
import pickle
import statistics
import time
from collections.abc import Callable

import bloodforge
from bloodforge.core import Rng, State
from bloodforge.server.aiwork import _Unpickler, pack

GAMES: list[tuple[str, dict[str, int]]] = [
    ("bloodstones", {"players": 2}), ("witch", {}), ("forts", {"players": 2}),
    ("kingdoms", {"players": 2}), ("arena", {"players": 2}),
]  # fmt: skip


class _GameOnly(pickle.Pickler):
    """The old way: only the game object itself by reference."""

    def __init__(self, file: io.BytesIO, state: State) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.game = state.game

    def persistent_id(self, obj: object) -> str | None:
        return "game" if obj is self.game else None


def naive(state: State) -> int:
    buf = io.BytesIO()
    _GameOnly(buf, state).dump(state)
    return len(buf.getvalue()) + len(pickle.dumps(state.game, protocol=pickle.HIGHEST_PROTOCOL))


def played(game_id: str, params: dict[str, int], plies: int) -> State | None:
    for seed in range(20):
        state = bloodforge.load_game(game_id, seed=seed, **params).new_initial_state()
        rng = Rng(seed)
        while len(state.history) < plies and not state.is_terminal():
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
        if len(state.history) >= plies:
            return state
    return None


def cpu_ms(call: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        samples.append(time.process_time() - start)
    return statistics.median(samples) * 1e3


def measure(state: State, repeat: int) -> str:
    """One row's numbers after the game and the ply count."""
    _key, game_bytes, state_bytes = pack(state)
    worker_game = pickle.loads(game_bytes)
    packed = cpu_ms(lambda: pack(state), repeat)
    old = cpu_ms(lambda: naive(state), repeat)
    load = cpu_ms(lambda: _Unpickler(io.BytesIO(state_bytes), worker_game).load(), repeat)
    return f"{packed:8.2f} {len(state_bytes) / 1024:8.0f} {old:9.2f} {naive(state) / 1024:9.0f} {load:8.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[100, 300])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print(f"{'game':12} {'plies':>5} {'pack ms':>8} {'pack kB':>8} {'naive ms':>9} {'naive kB':>9} {'load ms':>8}")
    for game_id, params in GAMES:
        for plies in args.plies:
            state = played(game_id, params, plies)
            if state is None:
                print(f"{game_id:12} {plies:>5} {'-':>8}")
                continue
            print(f"{game_id:12} {len(state.history):>5} " + measure(state, args.repeat))

if __name__ == "__main__":
    main()
