"""The compiled build (mypyc) against the pure one: random-playout speed per game, same machine.

Run on demand (not a test), after building the compiled venv (README, "Compiled build"):

    .venv/bin/python benchmarks/bench_compiled.py --pure .venv/bin/python --compiled .venv-compiled/bin/python

Each round runs one child process per build, alternately, each playing seeded uniformly random
games of every cell for about `--seconds` of CPU time (`time.process_time`); the table shows the
median plies per CPU-second over the rounds and the compiled/pure ratio. Alternating the builds
lets both meet the same load on a shared machine. Each child prints which build it really ran
(an editable install, or `src/` on the path, would silently run the pure code).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess

CELLS = [("bloodstones", 2), ("witch", 2), ("forts", 4), ("kingdoms", 4), ("arena", 1), ("arena", 6)]

CHILD = """
import json, sys, time
import bloodforge
from bloodforge.buildinfo import build_info
from bloodforge.core import Rng
seconds = float(sys.argv[1])
out = {"build": build_info().describe()}
for game_id, players in json.loads(sys.argv[2]):
    params = {} if game_id == "witch" else {"players": players}
    bloodforge.load_game(game_id, seed=0, **params).new_initial_state()
    start, plies, seed = time.process_time(), 0, 0
    while time.process_time() - start < seconds:
        state = bloodforge.load_game(game_id, seed=seed, **params).new_initial_state()
        rng = Rng(seed)
        while not state.is_terminal():
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
            plies += 1
        seed += 1
    out[f"{game_id}/{players}"] = plies / (time.process_time() - start)
print(json.dumps(out))
"""


def measure(python: str, seconds: float, cells: list[tuple[str, int]]) -> dict[str, float | str]:
    done = subprocess.run([os.path.abspath(python), "-c", CHILD, str(seconds), json.dumps(cells)], check=True,
                          capture_output=True, text=True, cwd="/")  # cwd "/": no src/ on the path
    result: dict[str, float | str] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pure", required=True, help="python of a pure-Python install")
    parser.add_argument("--compiled", required=True, help="python of the compiled install")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.5, help="CPU seconds per cell and round")
    parser.add_argument("--only", action="append", choices=sorted({g for g, _ in CELLS}), metavar="GAME",
                        help="time only this game's cells (repeatable)")
    args = parser.parse_args()
    cells = [c for c in CELLS if not args.only or c[0] in args.only]
    runs: dict[str, list[dict[str, float | str]]] = {"pure": [], "compiled": []}
    for _ in range(args.rounds):
        runs["pure"].append(measure(args.pure, args.seconds, cells))
        runs["compiled"].append(measure(args.compiled, args.seconds, cells))
    print(f"pure: {runs['pure'][0]['build']}; compiled: {runs['compiled'][0]['build']}")
    print(f"random playouts, plies per CPU-second, median of {args.rounds} rounds")
    print(f"  {'cell':<16} {'pure':>10} {'compiled':>10} {'ratio':>7}")
    for game_id, players in cells:
        key = f"{game_id}/{players}"
        pure = statistics.median(float(r[key]) for r in runs["pure"])
        compiled = statistics.median(float(r[key]) for r in runs["compiled"])
        print(f"  {key:<16} {pure:>10,.0f} {compiled:>10,.0f} {compiled / pure:>6.2f}x")


if __name__ == "__main__":
    main()
