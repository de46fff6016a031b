"""What every game's benchmark measures the same way: seeded random playouts and the mean
time of a hot call over sampled positions. Imported by the `bench_<game>.py` scripts."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import bloodforge
from bloodforge.core import Rng, State


def random_playouts(
    game_id: str,
    games: int,
    *,
    checked: bool = False,
    sample_every: int = 53,
    max_samples: int = 2000,
    skip_cancel: bool = False,
    **params: Any,
) -> tuple[float, int, list[State]]:
    """Play `games` uniformly random games (seeds 0..games-1): seconds, actions, sampled states.

    A random actor decides each step (one seat in sequential games); the sample is every
    `sample_every`-th position, cloned, for timing hot calls on realistic positions."""
    samples: list[State] = []
    actions = 0
    bloodforge.load_game(game_id, seed=0, **params).new_initial_state()  # content loaded before timing
    start = time.perf_counter()
    for seed in range(games):
        state = bloodforge.load_game(game_id, seed=seed, **params).new_initial_state()
        rng = Rng(seed)
        while not state.is_terminal():
            seat = rng.choice(state.actors())
            legal = state.legal_actions(seat)
            if skip_cancel:
                legal = [a for a in legal if not a.is_cancel] or legal
            action = rng.choice(legal)
            if checked:
                state.apply(action, seat)
            else:
                state.apply_unchecked(action, seat)
            actions += 1
            if actions % sample_every == 0 and len(samples) < max_samples:
                samples.append(state.clone())
    return time.perf_counter() - start, actions, samples


def mean_us(states: list[State], fn: Callable[[State], object], repeat: int = 3) -> float:
    """Mean microseconds of `fn` over `states`, `repeat` passes."""
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.perf_counter() - start) / (repeat * max(1, len(states))) * 1e6
