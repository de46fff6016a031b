"""BLOODSTONE arena: speed of random playouts, cost of the hot contract calls, and the balance
report (how often the Boss wins, per player count, against greedy Champions).

Run on demand (not a timed test):

    nice -n 10 .venv/bin/python benchmarks/bench_arena.py                 # speed + balance, 40 games each
    nice -n 10 .venv/bin/python benchmarks/bench_arena.py --balance 200   # the 200-game self-play runs
    nice -n 10 .venv/bin/python benchmarks/bench_arena.py --games 0       # balance only

The balance part plays solo (1 Champion vs the Boss, the six Champions in turn), Free-For-All (2-6 Champions + the Boss)
and Team (2v2 and 3v3, no Boss) matches with the `greedy` agent on every seat and prints, per
setting: games, mean rounds, the Boss win rate (`npc_won`: the seats' side lost), the share of
matches ended by the house round limit, and the win share of each Champion.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections import Counter
from typing import Any

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.games.arena.game import ArenaState
from bloodforge.match import play_match
from playouts import mean_us, random_playouts

CHAMPIONS = ("vhrak", "ulwazi", "lienne", "cynwrig", "calvio", "maere")


def speed(games: int) -> None:
    print(f"arena speed ({platform.python_implementation()} {platform.python_version()}), random agents")
    print(f"{'players':>7} {'games':>6} {'games/s':>8} {'actions/s':>10} {'legal us':>9} {'clone us':>9} "
          f"{'obs us':>8} {'json us':>8}")
    for players in (1, 3, 6):
        secs, actions, states = random_playouts("arena", games, skip_cancel=True, max_samples=1000, players=players)
        live = [s for s in states if s.actors()]
        legal = mean_us(live, lambda s: s._legal_actions(s.actors()[0]))
        clone = mean_us(states, lambda s: s.clone())
        obs = mean_us(states, lambda s: s.observation(0))
        js = mean_us(states, lambda s: s.game.state_from_json(s.to_json()))
        print(f"{players:>7} {games:>6} {games / secs:>8.1f} {actions / secs:>10.0f} {legal:>9.0f} {clone:>9.1f} "
              f"{obs:>8.0f} {js:>8.0f}")


SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("solo vs Mal'varra", {"players": 1}),
    ("solo vs Grevvar", {"players": 1, "boss": "grevvar"}),
    ("solo vs Terror", {"players": 1, "boss": "terror"}),
    ("FFA 2 + Mal'varra", {"players": 2}),
    ("FFA 3 + Mal'varra", {"players": 3}),
    ("FFA 4 + Mal'varra", {"players": 4}),
    ("FFA 5 + Mal'varra", {"players": 5}),
    ("FFA 6 + Mal'varra", {"players": 6}),
    ("team 2v2", {"players": 4, "mode": "team", "boss": None}),
    ("team 3v3", {"players": 6, "mode": "team", "boss": None}),
]


def balance(games: int) -> None:
    print(f"\narena balance: greedy Champions, {games} games per setting")
    print(f"{'setting':<20} {'games':>5} {'rounds':>6} {'boss wins':>9} {'time-outs':>9}  champion win shares")
    for name, params in SETTINGS:
        wins = 0
        timeouts = 0
        rounds = 0
        share: Counter[str] = Counter()
        start = time.perf_counter()
        for seed in range(games):
            extra: dict[str, Any] = {}
            if params["players"] == 1:  # solo: every Champion in turn
                extra["champions"] = [CHAMPIONS[seed % len(CHAMPIONS)]]
            state = bloodforge.load_game("arena", seed=seed, **params, **extra).new_initial_state()
            assert isinstance(state, ArenaState)
            agents = {s: make_agent("greedy", s, seed=seed * 7 + s) for s in range(params["players"])}
            play_match(state, agents)
            rounds += state.board.round
            wins += state.npc_won()
            timeouts += any(t.startswith("round limit") for t in state.event_log(None))
            if not state.npc_won():
                for seat, r in enumerate(state.returns()):
                    share[state.seat_roles()[seat]] += r
        secs = time.perf_counter() - start
        shares = " ".join(f"{k} {v / games:.2f}" for k, v in sorted(share.items()))
        print(f"{name:<20} {games:>5} {rounds / games:>6.1f} {wins / games:>9.2f} {timeouts / games:>9.2f}  {shares}"
              f"  ({secs:.0f}s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="random games per player count for the speed table")
    parser.add_argument("--balance", type=int, default=40, help="greedy games per balance setting (0: skip)")
    args = parser.parse_args()
    if args.games:
        speed(args.games)
    if args.balance:
        balance(args.balance)


if __name__ == "__main__":
    main()
