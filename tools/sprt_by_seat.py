"""The SPRT by seat and the pooled Wilson interval of a matchup's games log, after the fact.

    .venv/bin/python tools/sprt_by_seat.py GAMES.jsonl [--p0 0.75 --p1 0.85]

A run fixed in advance to be judged by the Wilson rule (`lab matchup` without `--sprt`, no early
stop) still reports the SPRT by seat beside its verdict: this replays the lab's `sprt_by_group`
over the games in seed order (their `index`), scoring agent A as the lab does (`tags.a_seat`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bloodforge.lab.stats import sprt_by_group, wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=Path, help="a games log (.games.jsonl)")
    parser.add_argument("--p0", type=float, default=0.75)
    parser.add_argument("--p1", type=float, default=0.85)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.games.read_text().splitlines() if line.strip()]
    games = sorted((r for r in rows if "index" in r), key=lambda r: r["index"])
    scores = [(str(g["roles"][g["tags"]["a_seat"]]), float(g["returns"][g["tags"]["a_seat"]])) for g in games]
    total = sum(s for _, s in scores)
    low, high = wilson_interval(total, len(scores))
    print(f"{len(scores)} games: A scored {total:g}/{len(scores)} = {total / len(scores):.3f} [{low:.3f}, {high:.3f}]")
    decided_after, decision, groups = sprt_by_group(scores, args.p0, args.p1)
    print(f"SPRT({args.p0}, {args.p1}) by seat: {decision or 'undecided'} after {decided_after} games")
    for seat, (used, result) in groups.items():
        print(f"  {seat}: {result.decision or 'undecided'} after {used} games "
              f"(log-likelihood ratio {result.llr:.2f}, bounds {result.lower:.2f} and {result.upper:.2f})")


if __name__ == "__main__":
    main()
