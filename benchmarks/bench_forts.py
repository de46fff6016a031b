"""Five Forts speed and balance.

Run on demand (not a timed test):

    nice -n 10 .venv/bin/python benchmarks/bench_forts.py                 # speed: 100 random games
    nice -n 10 .venv/bin/python benchmarks/bench_forts.py --games 500
    nice -n 10 .venv/bin/python benchmarks/bench_forts.py --balance --players 4 --games 200
    nice -n 10 .venv/bin/python benchmarks/bench_forts.py --balance --players 2 --agents greedy,random

Speed prints random-playout games/s and actions/s (unchecked and checked apply), then the mean
cost in microseconds of legal_actions, apply, clone, observation and a JSON round trip on the
states met. Balance plays seeded self-play games (seeds 0..games-1) and prints each seat's win
share with a 95% Wilson interval (ties share a win), how games ended and their mean length.
"""

from __future__ import annotations

import argparse
import math
import platform
import time
from collections import Counter

import bloodforge
from bloodforge.core import Action, State
from bloodforge.lab.selfplay import play_game
from playouts import mean_us, random_playouts


def apply_first(state: State, legal: dict[int, list[Action]]) -> None:
    state.clone().apply_unchecked(legal[id(state)][0])


def speed(games: int, players: int) -> None:
    secs, actions, states = random_playouts("forts", games, players=players)
    csecs, cactions, _ = random_playouts("forts", games, checked=True, players=players)
    live = [s for s in states if not s.is_terminal()]
    legal = {id(s): s.legal_actions() for s in live}
    clone_us = mean_us(live, lambda s: s.clone())
    rows = [
        ("random playout (apply_unchecked)", f"{games / secs:,.1f} games/s", f"{actions / secs:,.0f} actions/s"),
        ("random playout (checked apply)", f"{games / csecs:,.1f} games/s", f"{cactions / csecs:,.0f} actions/s"),
        ("mean actions per game", f"{actions / games:,.1f}", ""),
        ("mean legal actions per position", f"{sum(len(v) for v in legal.values()) / max(1, len(live)):,.1f}", ""),
        ("legal_actions()", f"{mean_us(live, lambda s: s.clone().legal_actions()) - clone_us:,.1f} us", ""),
        ("apply_unchecked()", f"{mean_us(live, lambda s: apply_first(s, legal)) - clone_us:,.1f} us", ""),
        ("clone()", f"{clone_us:,.1f} us", ""),
        ("observation()", f"{mean_us(live, lambda s: s.observation(s.current_player)):,.1f} us", ""),
        ("to_json + state_from_json", f"{mean_us(live, lambda s: s.game.state_from_json(s.to_json()), 1):,.1f} us", ""),
    ]
    print(f"Five Forts, {players} players, {games} random games, Python {platform.python_version()}")
    for name, a, b in rows:
        print(f"  {name:<36} {a:>18} {b:>18}")


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def balance(games: int, players: int, agents: list[str], timeout_rate: float) -> None:
    wins = [0.0] * players
    first = [0.0] * players  # wins by position in turn order (0 = first player)
    reasons: Counter[str] = Counter()
    rounds = plies = 0
    start = time.perf_counter()
    for seed in range(games):
        game = bloodforge.load_game("forts", players=players, seed=seed)
        record, state = play_game(game, agents, timeout_rate=timeout_rate)
        obs = state.observation(None)
        opener = obs["turn"]["first_seat"]
        for s, r in enumerate(record.returns):
            wins[s] += r
            first[(s - opener) % players] += r
        reasons[obs["end_reason"].split(" (")[0]] += 1
        rounds += obs["turn"]["round"]
        plies += record.plies
    secs = time.perf_counter() - start
    print(f"Five Forts balance: {players} players, agents {','.join(agents)}, {games} games, "
          f"timeout_rate {timeout_rate}, {secs:,.1f} s ({secs / games:.2f} s/game)")
    print(f"  mean rounds {rounds / games:.1f}, mean decisions {plies / games:.0f}; endings: {dict(reasons)}")
    print("  seat (home)        win share   95% CI")
    names = bloodforge.load_game("forts", players=players).static_info()["board"]["seats"]
    for s in range(players):
        lo, hi = wilson(wins[s], games)
        print(f"  {s} {names[s]['name']:<16} {wins[s] / games:9.3f}   [{lo:.3f}, {hi:.3f}]")
    print("  turn position      win share   95% CI")
    for k in range(players):
        lo, hi = wilson(first[k], games)
        print(f"  {k + 1:<18} {first[k] / games:9.3f}   [{lo:.3f}, {hi:.3f}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--balance", action="store_true", help="self-play balance report instead of speed")
    parser.add_argument("--agents", default="greedy", help="one agent for all seats, or one per seat")
    parser.add_argument("--timeout-rate", type=float, default=0.0, help="host timeouts injected (balance)")
    args = parser.parse_args()
    if args.balance:
        balance(args.games, args.players, args.agents.split(","), args.timeout_rate)
    else:
        speed(args.games, args.players)


if __name__ == "__main__":
    main()
