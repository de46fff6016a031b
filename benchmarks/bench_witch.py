"""Blood Stone speed: random playouts and the cost of the contract's hot calls.

Run on demand (not a timed test):

    .venv/bin/python benchmarks/bench_witch.py            # 200 random games
    .venv/bin/python benchmarks/bench_witch.py --games 1000

Prints one table: random-playout games/s and actions/s (unchecked `apply_unchecked`, as search
and self-play use it, and checked `apply` with legality checks), then the mean cost in
microseconds of legal_actions, apply, clone, observation and a JSON round trip, measured on
the states met during the playouts.
"""

from __future__ import annotations

import argparse
import platform

from bloodforge.core import State
from playouts import mean_us, random_playouts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()

    secs, actions, states = random_playouts("witch", args.games, sample_every=97, players=2)
    csecs, cactions, _ = random_playouts("witch", args.games, checked=True, sample_every=97, players=2)
    live = [s for s in states if not s.is_terminal()]
    legal = {id(s): s.legal_actions() for s in live}

    def apply_one(s: State) -> None:
        s.clone().apply_unchecked(legal[id(s)][0])

    clone_us = mean_us(live, lambda s: s.clone())
    # apply changes a state, so it is timed on a fresh clone and the clone's cost subtracted.
    unchecked_us = mean_us(live, apply_one) - clone_us
    checked_us = mean_us(live, lambda s: s.clone().apply(legal[id(s)][0])) - clone_us
    obs_us = mean_us(live, lambda s: s.observation(s.current_player))
    json_us = mean_us(live, lambda s: s.game.state_from_json(s.to_json()), 1)
    rows = [
        ("random playout (apply_unchecked)", f"{args.games / secs:,.1f} games/s",
         f"{actions / secs:,.0f} actions/s"),
        ("random playout (checked apply)", f"{args.games / csecs:,.1f} games/s",
         f"{cactions / csecs:,.0f} actions/s"),
        ("mean actions per game", f"{actions / args.games:,.1f}", ""),
        ("legal_actions()", f"{mean_us(live, lambda s: s.clone().legal_actions()) - clone_us:,.1f} us", ""),
        ("apply_unchecked(action)", f"{unchecked_us:,.1f} us", ""),
        ("apply(action), legality checked", f"{checked_us:,.1f} us", ""),
        ("clone()", f"{clone_us:,.1f} us", ""),
        ("observation(seat to move)", f"{obs_us:,.1f} us", ""),
        ("to_json() + state_from_json()", f"{json_us:,.1f} us", ""),
    ]  # fmt: skip
    print(
        f"Blood Stone benchmark: {args.games} random games, {len(live)} sampled states, "
        f"Python {platform.python_version()} on {platform.machine()}"
    )
    width = max(len(r[0]) for r in rows)
    for name, a, b in rows:
        print(f"  {name:<{width}}  {a:>18}  {b}")


if __name__ == "__main__":
    main()
