"""Every game's random-playout speed as a ratio to python-chess, timed in the same run.

Run on demand (not a timed test); needs the `bench` extra (`pip install -e '.[bench]'`):

    .venv/bin/python benchmarks/bench_playouts.py                 # 3 rounds, ~2 CPU-s per cell
    .venv/bin/python benchmarks/bench_playouts.py --rounds 5 --seconds 3 --only kingdoms

Why a ratio: this machine is shared and absolute times drift by 2x within minutes, but two
workloads interleaved in one process drift together. Each round times python-chess random
playouts (legal_moves + push, the reference every issue quotes) and then every game/seat-count
cell, each for about `--seconds` of CPU time (`time.process_time`: another process's load does
not count); the table shows the median over rounds of plies per CPU-second and its ratio to
python-chess's median. A ply here is one applied action (`apply_unchecked`, as search and
self-play use it) chosen uniformly among the legal ones of a uniformly chosen actor.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

import bloodforge
from bloodforge.buildinfo import build_info
from bloodforge.core import Rng

try:
    import chess
except ImportError as missing:  # pragma: no cover - a message for people, not a code path
    raise SystemExit("python-chess is missing: pip install -e '.[bench]'") from missing

# (game, players) cells: every game at its smallest and largest player count
CELLS: list[tuple[str, int]] = [
    ("bloodstones", 2), ("bloodstones", 6), ("witch", 2), ("forts", 2), ("forts", 4),
    ("kingdoms", 2), ("kingdoms", 4), ("arena", 1), ("arena", 6),
]  # fmt: skip


def chess_plies(budget: float, seed: int) -> tuple[int, float]:
    """Random chess games until `budget` CPU seconds are spent: (plies, CPU seconds)."""
    rng = random.Random(seed)
    plies = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.fullmove_number < 200:
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return plies, time.process_time() - start


def game_plies(game_id: str, players: int, budget: float, seed: int) -> tuple[int, float]:
    """Random games of one cell until `budget` CPU seconds are spent: (plies, CPU seconds).

    Game construction (content loading, setup) is timed too: a playout in search or the lab
    pays it as well, once per game."""
    bloodforge.load_game(game_id, players=players, seed=0).new_initial_state()  # warm caches
    plies = 0
    game_seed = seed * 1000
    start = time.process_time()
    while time.process_time() - start < budget:
        state = bloodforge.load_game(game_id, players=players, seed=game_seed).new_initial_state()
        rng = Rng(game_seed)
        game_seed += 1
        while not state.is_terminal():
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
            plies += 1
    return plies, time.process_time() - start


def cell_runner(game_id: str, players: int, budget: float) -> Callable[[int], tuple[int, float]]:
    return lambda round_: game_plies(game_id, players, budget, round_)


def median_rate(samples: list[tuple[int, float]]) -> float:
    return statistics.median(p / s for p, s in samples)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per cell and round")
    parser.add_argument("--only", action="append", default=[], help="game id (repeatable)")
    args = parser.parse_args()
    cells = [c for c in CELLS if not args.only or c[0] in args.only]
    runs: dict[str, list[tuple[int, float]]] = {"chess": []}
    work: list[tuple[str, Callable[[int], tuple[int, float]]]] = [
        ("chess", lambda r: chess_plies(args.seconds, r))
    ]
    for game_id, players in cells:
        key = f"{game_id}/{players}"
        runs[key] = []
        work.append((key, cell_runner(game_id, players, args.seconds)))
    for r in range(args.rounds):
        for key, fn in work:  # interleaved: every cell of a round sees the same machine
            runs[key].append(fn(r))
    reference = median_rate(runs["chess"])
    print(
        f"Random playouts, plies per CPU-second, median of {args.rounds} rounds "
        f"(~{args.seconds:g} CPU-s per cell and round), Python {platform.python_version()}, "
        f"bloodforge {build_info().describe()}"
    )
    print(f"  {'cell':<16} {'plies/s':>10} {'vs python-chess':>16}")
    for key, samples in runs.items():
        rate = median_rate(samples)
        print(f"  {key:<16} {rate:>10,.0f} {rate / reference:>15.2f}x")


if __name__ == "__main__":
    main()
