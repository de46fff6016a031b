"""Every game's random-playout speed as a ratio to python-chess, timed in the same run.

Run on demand (not a timed test); needs the `bench` extra (`pip install -e '.[bench]'`):

    .venv/bin/python benchmarks/bench_playouts.py                 # 3 rounds, ~2 CPU-s per slice
    .venv/bin/python benchmarks/bench_playouts.py --rounds 5 --seconds 3 --only kingdoms

Why a ratio: this machine is shared and absolute times drift by 2x within minutes, but two
workloads timed side by side drift together. Each round runs python-chess random playouts
(legal_moves + push, the reference every issue quotes) between every two game/seat-count cells
— chess, cell, chess, cell, ..., chess — each slice for about `--seconds` of CPU time
(`time.process_time`: another process's load does not count). A cell's ratio in a round is its
plies per CPU-second over the rate of the two chess slices on either side of it, so the
reference is timed within seconds of the cell it judges. Every round plays the same games
(the same seeds from 0 up), so rounds differ only by the machine. The table shows, per cell,
the median over rounds of plies per CPU-second, the median of the per-round ratios, and their
lowest and highest: a spread wider than the distance to a target means "measure again".

A ply here is one applied action (`apply_unchecked`, as search and self-play use it) chosen
uniformly among the legal ones of a uniformly chosen actor.

*Why brackets, not one chess sample a round:* with one chess sample at the start of a round,
the last cell ran ~20 s after its reference, and four runs of the same tree within three minutes
gave the arena's solo cell 0.84x, 0.91x, 0.99x and 1.19x (docs/speed/arena-journal.md, tenth
session).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

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
    """Random games of one cell, seeds from `seed` up, until `budget` CPU seconds are spent:
    (plies, CPU seconds).

    Game construction (content loading, setup) is timed too: a playout in search or the lab
    pays it as well, once per game."""
    bloodforge.load_game(game_id, players=players, seed=0).new_initial_state()  # warm caches
    plies = 0
    game_seed = seed
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


def rate(sample: tuple[int, float]) -> float:
    plies, seconds = sample
    return plies / seconds


def bracketed_round(cells: list[tuple[str, int]], budget: float) -> tuple[dict[str, float], dict[str, float]]:
    """One round, chess before, between and after the cells: ({cell: plies per CPU-second},
    {cell: its rate over the two chess slices around it}); "chess" maps to the chess rate."""
    chess_samples = [chess_plies(budget, 0)]
    rates: dict[str, float] = {}
    ratios: dict[str, float] = {}
    for game_id, players in cells:
        key = f"{game_id}/{players}"
        rates[key] = rate(game_plies(game_id, players, budget, 0))
        chess_samples.append(chess_plies(budget, 0))
        before, after = chess_samples[-2], chess_samples[-1]
        ratios[key] = rates[key] / rate((before[0] + after[0], before[1] + after[1]))
    rates["chess"] = rate((sum(p for p, _ in chess_samples), sum(s for _, s in chess_samples)))
    return rates, ratios


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per cell and round")
    parser.add_argument("--only", action="append", default=[], help="game id (repeatable)")
    args = parser.parse_args()
    cells = [c for c in CELLS if not args.only or c[0] in args.only]
    if not cells:
        raise SystemExit(f"no cell for {args.only}; games: {', '.join(sorted({g for g, _ in CELLS}))}")
    rates: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        round_rates, round_ratios = bracketed_round(cells, args.seconds)
        for key, value in round_rates.items():
            rates.setdefault(key, []).append(value)
        for key, value in round_ratios.items():
            ratios.setdefault(key, []).append(value)
    print(
        f"Random playouts, plies per CPU-second, {args.rounds} rounds, each cell between two "
        f"python-chess slices (~{args.seconds:g} CPU-s a slice), Python {platform.python_version()}, "
        f"bloodforge {build_info().describe()}"
    )
    print(f"  {'cell':<16} {'plies/s':>10} {'vs python-chess':>16} {'lowest-highest':>16}")
    print(f"  {'chess':<16} {statistics.median(rates['chess']):>10,.0f} {1:>15.2f}x")
    for key, values in ratios.items():
        spread = f"{min(values):.2f}-{max(values):.2f}"
        print(f"  {key:<16} {statistics.median(rates[key]):>10,.0f} {statistics.median(values):>15.2f}x {spread:>16}")


if __name__ == "__main__":
    main()
