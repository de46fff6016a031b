"""Kingdoms of Blood: the search's iterations per CPU second at decision points of real games,
one source tree against another (issue 21: its strength at one CPU second depends on them).

Run on demand (not a test), e.g. the code at a commit against the working tree:

    git archive <commit> | tar -x -C /tmp/old_kingdoms
    .venv/bin/python benchmarks/bench_kingdoms_search.py --old /tmp/old_kingdoms/src --new src \
        --options seconds=1:clock=cpu:rollout_turns=2 --rounds 3

Decision points: greedy-vs-greedy two-player games (seeds 1 and 2), the decisions the search
really searches (combat move and phase 4 with more than one plan, stand/press in a battle),
each seat's early, middle and late one (at 1/6, 1/2, 5/6 of its list): 12 positions, made
once by the `--new` tree and saved as state JSON. Each round runs the `mcts` agent (agent
seed 7) for one decision at every position in a subprocess per tree (PYTHONPATH), the trees
alternating and their order swapped every round; `clock=cpu`, so load does not change the
counts. Prints each tree's iterations per position (its median over the rounds), the median
over the positions, and the per-position ratios new/old. An iteration is one rollout (a
paired root search counts one per option and sample).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any


def make_positions(path: str) -> None:
    import bloodforge
    from bloodforge.core import Rng
    from bloodforge.games.kingdoms.policy import KingdomsPolicy

    out = []
    for seed in (1, 2):
        game = bloodforge.load_game("kingdoms", players=2, seed=seed)
        state = game.new_initial_state()
        policy = KingdomsPolicy()
        rng = Rng(seed)
        searched: dict[int, list[int]] = {0: [], 1: []}
        history: list[str] = []
        while not state.is_terminal():
            seat = state.actors()[0]
            legal = state.legal_actions(seat)
            kinds = {a.kind for a in legal}
            free = state.battle is None and state.pending < 0 and not state.instant  # type: ignore[attr-defined]
            if len(legal) > 1 and ((free and state.phase in ("combat_move", "noncombat"))  # type: ignore[attr-defined]
                                   or kinds & {"stand", "press"}):
                plans = KingdomsPolicy(finish=True).plans(state, seat, Rng(0))
                if plans and len(plans) > 1:
                    searched[seat].append(len(state.history))
            state.apply(policy.choose(state, seat, rng), seat)
        history = list(state.history)
        picks = {searched[seat][int(len(searched[seat]) * frac)] for seat in (0, 1) for frac in (1 / 6, 1 / 2, 5 / 6)}
        replay = game.new_initial_state()
        for ply, text in enumerate(history):
            if ply in picks:
                out.append({"seed": seed, "ply": ply, "state": replay.to_json()})
            replay.apply(text, replay.actors()[0])
    with open(path, "w") as f:
        json.dump(out, f)


def parse_options(text: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in filter(None, text.split(":")):
        key, value = item.split("=", 1)
        for kind in (int, float):
            try:
                options[key] = kind(value)
                break
            except ValueError:
                continue
        else:
            options[key] = value
    return options


def measure(path: str, options: str) -> None:
    import bloodforge
    from bloodforge.agents.mcts import MctsAgent

    with open(path) as f:
        positions = json.load(f)
    rows = []
    for p in positions:
        game = bloodforge.load_game("kingdoms", players=2, seed=p["seed"])
        state = game.state_from_json(p["state"])
        agent = MctsAgent(state.actors()[0], seed=7, **parse_options(options))
        start = time.process_time()
        agent.select_action(state)
        rows.append({"iterations": agent.last_iterations, "cpu": time.process_time() - start})
    print(json.dumps(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the old tree's src directory")
    parser.add_argument("--new", required=True, help="the new tree's src directory")
    parser.add_argument("--options", default="seconds=1:clock=cpu", help="mcts options, as after 'mcts:'")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # internal: one subprocess's run
    parser.add_argument("--make", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.measure, args.options)
        return
    if args.make:
        make_positions(args.make)
        return
    here = os.path.abspath(__file__)
    trees = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "positions.json")
        base = [sys.executable, here, "--old", args.old, "--new", args.new]
        subprocess.run([*base, "--make", path], env=dict(os.environ, PYTHONPATH=trees["new"]), check=True)
        counts: dict[str, list[list[int]]] = {"old": [], "new": []}
        for r in range(args.rounds):
            for label in ("old", "new") if r % 2 == 0 else ("new", "old"):
                done = subprocess.run([*base, "--options", args.options, "--measure", path],
                                      env=dict(os.environ, PYTHONPATH=trees[label]),
                                      capture_output=True, text=True, check=True)
                counts[label].append([row["iterations"] for row in json.loads(done.stdout)])
                print(label, r, counts[label][-1], flush=True)
    medians = {label: [statistics.median(col) for col in zip(*rows, strict=True)] for label, rows in counts.items()}
    for label, per in medians.items():
        print(f"{label}: median over positions {statistics.median(per)}; per position {per}")
    ratios = [n / o for n, o in zip(medians["new"], medians["old"], strict=True)]
    print(f"new/old per position: median {statistics.median(ratios):.3f}, "
          f"range {min(ratios):.2f}-{max(ratios):.2f}")


if __name__ == "__main__":
    main()
