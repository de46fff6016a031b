"""Bloodstones engine speed, before and after: the current tree against a baseline commit.

Run on demand (not a test): `python benchmarks/bench_bloodstones.py [--games N] [--rounds R]
[--baseline REV] [--profile]`. The baseline (default: the merge-base with `main`) is checked out
into a temporary git worktree, and the same measurements run in subprocesses with `PYTHONPATH`
pointing at each tree's `src/`, alternating between the two trees `--rounds` times (the machine
is shared: the best round counts). Measured:

* random playouts: plies/s over the same seeded games, unchecked apply as the lab runs them; the
  games must be identical (the action texts of every game are compared by hash);
* the mean cost in microseconds of `clone`, `legal_actions` (not cached: fresh clones) and
  `apply_unchecked`, on states sampled every 7th ply from seeded playouts (garbage collector
  off while timing).

Prints a before/after table with the speed-ups. `--profile` prints a cProfile of the current
tree's 4-player playouts instead.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


# -- the worker: runs inside each tree's interpreter (only the public contract, old and new) ----
def _playout(state: Any, rng: Any) -> int:
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        useful = [a for a in legal if not a.is_cancel] or legal
        state.apply_unchecked(rng.choice(useful))
        n += 1
    return n


def _sample_states(players: int, count: int) -> list[Any]:
    import bloodforge
    from bloodforge.core import Rng

    out: list[Any] = []
    seed = 1000
    while len(out) < count:
        state = bloodforge.load_game("bloodstones", players=players, seed=seed).new_initial_state()
        rng = Rng(seed)
        step = 0
        while not state.is_terminal() and len(out) < count:
            if step % 7 == 0:
                out.append(state.clone())
            legal = state.legal_actions()
            state.apply_unchecked(rng.choice([a for a in legal if not a.is_cancel] or legal))
            step += 1
        seed += 1
    return out


def _micro(states: list[Any]) -> dict[str, float]:
    """Timed with the garbage collector off, as `timeit` does: a full collection landing
    inside one timed loop (likelier after the playouts) would count its whole cost there."""
    gc.collect()
    gc.disable()
    try:
        fresh = [s.clone() for s in states]
        t = time.process_time()
        for s in fresh:
            s.legal_actions()
        legal_us = (time.process_time() - t) / len(fresh) * 1e6
        t = time.process_time()
        for s in states:
            s.clone()
        clone_us = (time.process_time() - t) / len(states) * 1e6
        pairs = [(s.clone(), s.legal_actions()[0]) for s in states if not s.is_terminal()]
        t = time.process_time()
        for s, a in pairs:
            s.apply_unchecked(a)
        apply_us = (time.process_time() - t) / max(len(pairs), 1) * 1e6
    finally:
        gc.enable()
    return {"legal_us": legal_us, "clone_us": clone_us, "apply_us": apply_us}


def worker(games: int, samples: int) -> dict[str, Any]:
    import bloodforge
    from bloodforge.core import Rng

    result: dict[str, Any] = {"src": str(Path(bloodforge.__file__).parent)}
    for players in (2, 4):
        plies = 0
        digest = hashlib.sha256()
        states = [bloodforge.load_game("bloodstones", players=players, seed=s).new_initial_state()
                  for s in range(games)]
        seconds = []
        for seed, state in enumerate(states):
            t = time.process_time()
            plies += _playout(state, Rng(seed))
            seconds.append(time.process_time() - t)
        dt = sum(seconds)
        for state in states:
            digest.update("\n".join(state.history).encode())
            digest.update(b"\0")
        result[str(players)] = {
            "plies": plies, "seconds": dt, "game_seconds": seconds, "plies_per_s": plies / dt,
            "games_hash": digest.hexdigest(),
            **_micro(_sample_states(players, samples)),
        }
    return result


# -- the driver ---------------------------------------------------------------------------------
def _run_worker(src: Path, games: int, samples: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--games", str(games),
           "--samples", str(samples)]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    data: dict[str, Any] = json.loads(out)
    if Path(data["src"]).resolve() != (src / "bloodforge").resolve():
        raise SystemExit(f"the worker imported {data['src']}, not {src}")
    return data


def _best(runs: list[dict[str, Any]], players: str, key: str) -> float:
    """The best of the rounds; for playouts, each game's fastest round (the machine is shared:
    a burst of other work slows single games, not the code)."""
    if key == "plies_per_s":
        fastest = [min(times) for times in zip(*(r[players]["game_seconds"] for r in runs), strict=True)]
        return float(runs[0][players]["plies"] / sum(fastest))
    return float(min(r[players][key] for r in runs))


def compare(baseline: str, games: int, samples: int, rounds: int) -> None:
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", baseline], check=True,
                         capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bench-bloodstones-") as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), rev],
                       check=True, capture_output=True)
        try:
            before: list[dict[str, Any]] = []
            after: list[dict[str, Any]] = []
            for _ in range(rounds):
                before.append(_run_worker(base / "src", games, samples))
                after.append(_run_worker(ROOT / "src", games, samples))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                           check=False, capture_output=True)
    print(f"Bloodstones, baseline {rev} vs the current tree: {games} random games per player count, "
          f"{samples} sampled states, best of {rounds} rounds (each game's fastest), CPU time")
    header = f"{'players':>7}  {'measure':<22}{'before':>12}{'after':>12}{'speed-up':>10}"
    print(header)
    print("-" * len(header))
    identical = True
    for players in ("2", "4"):
        same = {r[players]["games_hash"] for r in before + after}
        identical &= len(same) == 1
        plies = before[0][players]["plies"]
        rows = [("playouts plies/s", "plies_per_s"), ("clone µs", "clone_us"),
                ("legal_actions µs", "legal_us"), ("apply µs", "apply_us")]
        for label, key in rows:
            b, a = _best(before, players, key), _best(after, players, key)
            ratio = a / b if key == "plies_per_s" else b / a
            print(f"{players:>7}  {label:<22}{b:>12.1f}{a:>12.1f}{ratio:>9.2f}x")
        print(f"{players:>7}  {'plies in all games':<22}{plies:>12}{after[0][players]['plies']:>12}")
    print("games identical (action texts of every game):", "yes" if identical else "NO")
    if not identical:
        raise SystemExit(1)


def profile() -> None:
    import bloodforge
    from bloodforge.core import Rng

    prof = cProfile.Profile()
    prof.enable()
    for seed in range(20):
        _playout(bloodforge.load_game("bloodstones", players=4, seed=seed).new_initial_state(), Rng(seed))
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="random games per player count")
    parser.add_argument("--samples", type=int, default=2000, help="sampled states for the micro measurements")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each tree")
    parser.add_argument("--baseline", default=None, help="baseline revision (default: merge-base with main)")
    parser.add_argument("--profile", action="store_true", help="cProfile the current tree instead")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.games, args.samples)))
        return
    if args.profile:
        sys.path.insert(0, str(ROOT / "src"))
        profile()
        return
    baseline = args.baseline or subprocess.run(
        ["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], check=True, capture_output=True, text=True
    ).stdout.strip()
    compare(baseline, args.games, args.samples, args.rounds)


if __name__ == "__main__":
    main()
