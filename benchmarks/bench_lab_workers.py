"""Speed of verdicts: one SPRT-stopped matchup run on 1 and 2 workers (process pool and Ray),
showing the same verdict from the same games, and the wall time of each.

Run on demand (not a timed test):

    .venv/bin/python benchmarks/bench_lab_workers.py
    .venv/bin/python benchmarks/bench_lab_workers.py --game witch --agent mcts:iterations=300 \
        --agent greedy --games 400 --runs process:1,process:2,ray:2

Why an iteration budget by default: with `seconds=` the search's choices depend on how fast the
machine was at that moment, so two runs play different games; with `iterations=` every run plays
the same games whatever the worker count, and only the wall time may differ — which is what
this measures. (The published results use `seconds=1:clock=cpu`; their wall times are in each
document's `run` block and in docs/lab.md.)

Columns: wall seconds of the whole run; `games·s` is the sum of every game's own wall time; the
efficiency is games·s / (workers x wall): 1.0 means no worker ever waited. On a shared machine
other processes' load lowers both the speed-up and the efficiency: read the load average
printed with the table.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

from bloodforge.lab.experiments import Experiment, SprtSpec, run_experiment


def run(exp: Experiment, backend: str, workers: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as work:
        return run_experiment(exp, work_dir=Path(work), backend=backend, workers=workers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="witch")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--agent", action="append", default=None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--sprt", default="0.75,0.85")
    parser.add_argument("--runs", default="process:1,process:2,ray:2", help="backend:workers, comma separated")
    args = parser.parse_args()
    agents = args.agent or ["mcts:iterations=50", "random"]
    p0, p1 = (float(x) for x in args.sprt.split(","))
    exp = Experiment(kind="matchup", name="worker scaling", game=args.game, params={"players": args.players},
                     agents=agents, games=args.games, seed=args.seed,
                     sprt=SprtSpec(p0=p0, p1=p1, by_seat=True))
    print(f"{args.game}: {' vs '.join(agents)}, SPRT({p0}, {p1}) per seat, seeds from {args.seed}")
    print(f"{'backend':<10}{'workers':>8}{'wall s':>9}{'games':>7}{'games·s':>10}{'speed-up':>10}"
          f"{'efficiency':>12}  verdict")
    first: dict[str, Any] | None = None
    for item in args.runs.split(","):
        backend, workers = item.split(":")
        load = os.getloadavg()[0]
        doc = run(exp, backend, int(workers))
        wall = doc["run"]["wall_seconds"]
        pair = doc["summary"]["pairs"][0]
        verdict = pair["sprt"]["decision"] or "undecided"
        same = ""
        if first is None:
            first = doc
        else:
            equal = (doc["summary"] == first["summary"]
                     and [g["digest"] for g in doc["games"]] == [g["digest"] for g in first["games"]])
            same = "  same games and summary as the first run" if equal else "  DIFFERENT games or summary"
        speedup = first["run"]["wall_seconds"] / wall if wall else float("nan")
        efficiency = doc["run"]["game_seconds"] / (int(workers) * wall) if wall else float("nan")
        print(f"{backend:<10}{workers:>8}{wall:>9.1f}{len(doc['games']):>7}{doc['run']['game_seconds']:>10.1f}"
              f"{speedup:>10.2f}{efficiency:>12.2f}  {verdict} (score {pair['rate']:.3f}; load {load:.1f}){same}",
              flush=True)


if __name__ == "__main__":
    main()
