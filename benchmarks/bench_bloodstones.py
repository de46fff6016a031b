"""Bloodstones engine speed: random playouts and the cost of the hot calls.

Run on demand (not a test): `python benchmarks/bench_bloodstones.py [--games N] [--profile]`.
Prints one table: games/s and actions/s of random playouts for 2 and 4 players (unchecked apply,
as the lab runs them, and checked apply, as the server does), and the mean cost in microseconds
of legal_actions, apply and clone measured on states sampled from those playouts.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from rich.console import Console
from rich.table import Table

import bloodforge
from bloodforge.core import Rng, State


def playout(state: State, rng: Rng, checked: bool) -> int:
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        useful = [a for a in legal if not a.is_cancel] or legal
        action = rng.choice(useful)
        if checked:
            state.apply(action)
        else:
            state.apply_unchecked(action)
        n += 1
    return n


def sample_states(players: int, count: int) -> list[State]:
    out: list[State] = []
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


def micro(states: list[State]) -> tuple[float, float, float]:
    t = time.perf_counter()
    for s in states:
        s.legal_actions()
    legal_us = (time.perf_counter() - t) / len(states) * 1e6
    t = time.perf_counter()
    for s in states:
        s.clone()
    clone_us = (time.perf_counter() - t) / len(states) * 1e6
    pairs = [(s.clone(), s.legal_actions()[0]) for s in states if not s.is_terminal()]
    t = time.perf_counter()
    for s, a in pairs:
        s.apply_unchecked(a)
    apply_us = (time.perf_counter() - t) / max(len(pairs), 1) * 1e6
    return legal_us, apply_us, clone_us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60, help="random games per player count")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of 4-player playouts")
    args = parser.parse_args()
    table = Table(title="Bloodstones random playouts (one core)")
    for col in ("players", "apply", "games/s", "actions/s", "plies/game", "legal_actions µs", "apply µs", "clone µs"):
        table.add_column(col, justify="right")
    for players in (2, 4):
        states = sample_states(players, 3000)
        legal_us, apply_us, clone_us = micro(states)
        for checked in (False, True):
            plies = 0
            t = time.perf_counter()
            for seed in range(args.games):
                state = bloodforge.load_game("bloodstones", players=players, seed=seed).new_initial_state()
                plies += playout(state, Rng(seed), checked)
            dt = time.perf_counter() - t
            table.add_row(str(players), "checked" if checked else "unchecked", f"{args.games / dt:.1f}",
                          f"{plies / dt:,.0f}", f"{plies / args.games:.0f}",
                          f"{legal_us:.1f}", f"{apply_us:.1f}", f"{clone_us:.1f}")
    Console(width=140).print(table)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for seed in range(20):
            playout(bloodforge.load_game("bloodstones", players=4, seed=seed).new_initial_state(), Rng(seed), False)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
