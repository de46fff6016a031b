"""IS-MCTS speed: iterations per second of the `mcts` agent in every game, with the game's own
search settings and per rollout kind.

Run on demand (not a timed test):

    .venv/bin/python benchmarks/bench_mcts.py                 # 0.5 s per decision
    .venv/bin/python benchmarks/bench_mcts.py --seconds 1 --positions 5

For each game (smallest table) it walks a seeded random game, stops at `--positions` positions
spread over the first plies, and lets the agent think `--seconds` of CPU on each (`clock=cpu`,
so a busy machine gives the same counts); prints the mean iterations per decision (a paired
root search counts one rollout per option and sample) and the cost of one `Game.evaluate`.
`own` is the game's `search_options()` as `mcts:seconds=1` plays it; the other rows override
only the rollout.
"""

from __future__ import annotations

import argparse
import time

import bloodforge
from bloodforge.agents.mcts import MctsAgent
from bloodforge.core import Rng, State


def positions(game_id: str, players: int, count: int) -> list[State]:
    state = bloodforge.load_game(game_id, players=players, seed=1).new_initial_state()
    rng = Rng(1)
    out: list[State] = []
    ply = 0
    while not state.is_terminal() and len(out) < count:
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        if ply % 25 == 10 and len(legal) > 1:
            out.append(state.clone())
        state.apply_unchecked(rng.choice(legal), seat)
        ply += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--positions", type=int, default=4)
    args = parser.parse_args()
    print(f"{'game':<14}{'rollout':<10}{'iterations/decision':>22}{'evaluate (ms)':>16}")
    for info in bloodforge.list_games():
        players = info["min_players"] if info["min_players"] > 1 else 2
        states = positions(info["id"], players, args.positions)
        for rollout in ("own", "random", "light", "greedy"):
            iters = []
            for st in states:
                override = {} if rollout == "own" else {"rollout": rollout}
                agent = MctsAgent(st.actors()[0], seed=1, seconds=args.seconds, clock="cpu", **override)
                agent.select_action(st)
                iters.append(agent.last_iterations)
            start = time.perf_counter()
            for st in states:
                st.game.evaluate(st)
            ms = (time.perf_counter() - start) / max(1, len(states)) * 1000
            mean = sum(iters) / max(1, len(iters))
            print(f"{info['id']:<14}{rollout:<10}{mean:>22.0f}{ms:>16.2f}")


if __name__ == "__main__":
    main()
