"""Random playouts counted in machine instructions, for builds compared on a shared machine.

Run on demand (needs valgrind; minutes per cell under it):

    .venv/bin/python benchmarks/bench_instructions.py --python .venv/bin/python \\
        --python .venv-compiled/bin/python
    .venv/bin/python benchmarks/bench_instructions.py --python A/bin/python --python B/bin/python \\
        --only forts --only witch

*Why instructions:* timings on this 2-core shared machine move by 10-30 % between two runs of
the same build a minute apart (README, "Speed"), which hides a change of a few per cent;
valgrind's instruction count of the same program on the same input repeats to within a fraction
of a per cent whatever else runs. It is not time (a cache miss costs more than an add), so the
ratio-to-python-chess table stays `bench_playouts.py`'s job; this one says which of two builds
or trees does less work for the very same games.

Each cell plays the same random games in every build (seeds 1000 up, one action a ply chosen
uniformly with `Rng(seed)`, as `bench_playouts.py` plays), once with N games and once with none;
the difference is the games' own count (imports and three warm-up games cancel). Both runs get
`PYTHONHASHSEED=0` and `setarch -R` (no address randomisation), so set and dict orders repeat.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys

#: (game, players, games): about 10,000-50,000 plies a cell, a few minutes under valgrind
CELLS: list[tuple[str, int, int]] = [
    ("bloodstones", 2, 40), ("witch", 2, 100), ("forts", 4, 100), ("kingdoms", 4, 6),
    ("arena", 1, 100), ("arena", 6, 20),
]  # fmt: skip

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def play(game_id: str, players: int, games: int) -> int:
    """Three warm-up games, then `games` random games from seed 1000: the plies played."""
    import bloodforge
    from bloodforge.core import Rng

    def run(count: int, first_seed: int) -> int:
        plies = 0
        for seed in range(first_seed, first_seed + count):
            state = bloodforge.load_game(game_id, players=players, seed=seed).new_initial_state()
            rng = Rng(seed)
            while not state.is_terminal():
                seat = rng.choice(state.actors())
                state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
                plies += 1
        return plies

    run(3, 0)
    return run(games, 1000)


def counted(python: str, game_id: str, players: int, games: int) -> tuple[int, int]:
    """(instructions, plies) of `games` games under `python`, from one valgrind run."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["setarch", platform.machine(), "-R", "valgrind", "--tool=cachegrind", "--cache-sim=no",
           "--cachegrind-out-file=/dev/null", python, __file__, "--play", game_id, str(players), str(games)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    found = _REFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", help="a build's python (repeatable; the first is the base)")
    parser.add_argument("--only", action="append", help="game id (repeatable); default: every cell")
    parser.add_argument("--games", type=int, help="games per cell instead of each cell's default")
    parser.add_argument("--play", nargs=3, metavar=("GAME", "PLAYERS", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:  # the program valgrind runs
        print(play(args.play[0], int(args.play[1]), int(args.play[2])))
        return
    pythons = args.python or [sys.executable]
    cells = [(g, p, args.games or n) for g, p, n in CELLS if not args.only or g in args.only]
    print("instructions a ply (valgrind, the games' own: N games minus none); ratio: base over each build")
    for i, python in enumerate(pythons):
        print(f"  build {i}: {python}")
    header = "".join(f" {'build ' + str(i):>12}" for i in range(len(pythons)))
    ratios = "".join(f" {'0/' + str(i):>7}" for i in range(1, len(pythons)))
    print(f"  {'cell':<14} {'games':>5} {'plies':>7}{header}{ratios}")
    for game_id, players, games in cells:
        per_ply: list[float] = []
        plies_seen: set[int] = set()
        for python in pythons:
            base, _ = counted(python, game_id, players, 0)
            total, plies = counted(python, game_id, players, games)
            plies_seen.add(plies)
            per_ply.append((total - base) / plies)
        if len(plies_seen) != 1:
            raise SystemExit(f"{game_id}/{players}: the builds played different games ({sorted(plies_seen)} plies)")
        cols = "".join(f" {v:>12,.0f}" for v in per_ply)
        rcols = "".join(f" {per_ply[0] / v:>6.2f}x" for v in per_ply[1:])
        print(f"  {game_id + '/' + str(players):<14} {games:>5} {plies_seen.pop():>7}{cols}{rcols}", flush=True)


if __name__ == "__main__":
    main()
