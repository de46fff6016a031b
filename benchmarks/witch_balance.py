"""Blood Stone balance: the Witch's win rate in self-play, with a 95% confidence interval.

Run on demand (not a test):

    .venv/bin/python benchmarks/witch_balance.py                      # 1,000 greedy-vs-greedy games
    .venv/bin/python benchmarks/witch_balance.py --agents random,greedy --games 200
    .venv/bin/python benchmarks/witch_balance.py --content my_content.json --workers 4

Seeds are 0..games-1, so a run is reproducible. Agents are named in seat order: seat 0 is the
Soldiers, seat 1 the Witch. The interval is Wilson's score interval for the Witch's win share;
draws (the house turn limit) count as not-a-win and are reported separately.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import bloodforge
from bloodforge.lab.selfplay import play_game


def _play(
    job: tuple[list[int], list[str], dict[str, Any]],
) -> list[tuple[int, list[float], int, int]]:
    seeds, agents, params = job
    out = []
    for seed in seeds:
        game = bloodforge.load_game("witch", players=2, seed=seed, **params)
        record, state = play_game(game, agents)
        out.append((seed, record.returns, record.plies, state.turn_number))  # type: ignore[attr-defined]
    return out


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--agents", default="greedy,greedy", help="seat 0 (Soldiers), seat 1 (Witch)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--content", default=None, help="a content file (default: the packaged one)"
    )
    parser.add_argument("--blood-spells-per-turn", type=int, default=None)
    args = parser.parse_args()

    agents = [a.strip() for a in args.agents.split(",")]
    params: dict[str, Any] = {}
    if args.content:
        params["content"] = args.content
    if args.blood_spells_per_turn:
        params["blood_spells_per_turn"] = args.blood_spells_per_turn
    seeds = list(range(args.games))
    jobs = [(seeds[i :: args.workers], agents, params) for i in range(args.workers)]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = [r for part in pool.map(_play, jobs) for r in part]
    seconds = time.perf_counter() - start

    n = len(results)
    witch = sum(1 for _, r, _, _ in results if r[1] == 1.0)
    soldiers = sum(1 for _, r, _, _ in results if r[0] == 1.0)
    draws = n - witch - soldiers
    low, high = wilson(witch, n)
    turns = sum(t for *_, t in results) / n
    plies = sum(p for _, _, p, _ in results) / n
    print(f"Blood Stone balance: {n} games, agents {agents[0]} (Soldiers) vs {agents[1]} (Witch)")
    print(f"  content: {params.get('content', 'packaged house content')}")
    print(f"  Witch wins    {witch:5d}  {witch / n:6.1%}   95% CI [{low:.1%}, {high:.1%}]")
    print(f"  Soldiers win  {soldiers:5d}  {soldiers / n:6.1%}")
    print(f"  draws (limit) {draws:5d}  {draws / n:6.1%}")
    print(f"  mean length   {turns:.1f} turns, {plies:.0f} plies")
    print(f"  {seconds:.0f} s with {args.workers} workers")


if __name__ == "__main__":
    main()
