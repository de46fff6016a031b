"""What a state digest costs per call as games grow: the whole-state hash against the chain.

Run on demand (not a timed test):

    .venv/bin/python benchmarks/bench_digest.py                  # every game, plies 10/100/1000
    .venv/bin/python benchmarks/bench_digest.py --only kingdoms --plies 10 100 1000 --repeat 400

Issue 23 item 2 asked for a digest that costs O(1) per applied entry. `State.position_digest()`
(what `digest()` was) serialises the whole state to JSON and hashes it, so it grows with the
position and the history. `State.digest()` is a hash chain over the game's header and every
entry, computed lazily and cached on the state (shared by `clone`), so a call hashes only the
entries recorded since the last call. For each game (seeded uniformly random play, the seat
count in `CELLS`) and each ply count the table shows, in microseconds per call (median of
`--repeat` calls):

* position: `position_digest()` on the state at that ply;
* chain, step: `digest()` right after one more seat action, the previous digest cached: the
  cost of keeping a digest of every position (the action's own entries plus the game's own
  steps that follow it, `entries` on average);
* chain, again: `digest()` with nothing new (the cached chain, hex-encoded);
* chain, cold: the first `digest()` of a state that never computed it (one loaded from JSON):
  every entry once, O(history) - paid once per state, never again by it or its clones.

Applying actions costs nothing extra: the chain is advanced only when a digest is asked for.
A game that ends before the ply count is played again with the next seed (up to 20 seeds);
"-" marks a ply count no seed reached.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

import bloodforge
from bloodforge.core import Rng, State

CELLS: list[tuple[str, int]] = [("bloodstones", 2), ("witch", 2), ("forts", 2), ("kingdoms", 2), ("arena", 1)]


def state_at(game_id: str, players: int, plies: int) -> State | None:
    """A state after `plies` seat actions of seeded uniformly random play, or None."""
    for seed in range(20):
        state = bloodforge.load_game(game_id, players=players, seed=seed).new_initial_state()
        rng = Rng(seed)
        done = 0
        while done < plies and not state.is_terminal():
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
            done += 1
        if done == plies and not state.is_terminal():
            return state
    return None


def per_call_us(calls: list[float]) -> float:
    return statistics.median(calls) * 1e6


def measure(state: State, repeat: int) -> dict[str, float]:
    """The four costs of the module doc on one state, in microseconds per call."""
    position = []
    for _ in range(repeat):
        t = time.perf_counter()
        state.position_digest()
        position.append(time.perf_counter() - t)
    # one more seat action after a cached digest: prepare `repeat` such states, time digest()
    rng = Rng(1)
    state.digest()
    steps: list[State] = []
    added = []
    for _ in range(repeat):
        s = state.clone()
        before = len(s.history)
        seat = rng.choice(s.actors())
        s.apply_unchecked(rng.choice(s.legal_actions(seat)), seat)
        added.append(len(s.history) - before)
        steps.append(s)
    step = []
    for s in steps:
        t = time.perf_counter()
        s.digest()
        step.append(time.perf_counter() - t)
    again = []
    for s in steps:
        t = time.perf_counter()
        s.digest()
        again.append(time.perf_counter() - t)
    data = json.loads(json.dumps(state.to_json()))
    loaded = [state.game.state_from_json(data) for _ in range(max(5, repeat // 20))]
    cold = []
    for s in loaded:
        t = time.perf_counter()
        s.digest()
        cold.append(time.perf_counter() - t)
    return {
        "entries": len(state.history), "position": per_call_us(position), "step": per_call_us(step),
        "step_entries": statistics.mean(added), "again": per_call_us(again), "cold": per_call_us(cold),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--repeat", type=int, default=200, help="calls per measurement (median taken)")
    parser.add_argument("--only", nargs="*", default=None, help="game ids to run (default: all)")
    args = parser.parse_args()
    print(f"bloodforge digest cost, Python {platform.python_version()}, {platform.machine()}, "
          f"median of {args.repeat} calls, microseconds per call")
    print(f"{'game':<14}{'ply':>6}{'entries':>9}{'position':>10}{'chain step':>12}{'(entries)':>10}"
          f"{'chain again':>13}{'chain cold':>12}{'position/step':>15}")
    for game_id, players in CELLS:
        if args.only and game_id not in args.only:
            continue
        for plies in args.plies:
            state = state_at(game_id, players, plies)
            label = f"{game_id} {players}p"
            if state is None:
                print(f"{label:<14}{plies:>6}{'-':>9}")
                continue
            m = measure(state, args.repeat)
            print(f"{label:<14}{plies:>6}{m['entries']:>9}{m['position']:>10.1f}{m['step']:>12.2f}"
                  f"{m['step_entries']:>10.1f}{m['again']:>13.2f}{m['cold']:>12.1f}"
                  f"{m['position'] / m['step']:>14.0f}x", flush=True)


if __name__ == "__main__":
    main()
