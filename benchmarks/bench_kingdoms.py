"""Kingdoms of Blood: engine speed, exact-odds speed and accuracy, greedy self-play balance.

Run on demand (not a test): `python benchmarks/bench_kingdoms.py [--games N] [--mc N] [--balance N]`.
Prints: plies/s of random playouts (2 and 4 players); the mean cost of legal_actions, apply and
clone; the time of exact odds for 20 v 20 and other sizes; exact odds against a Monte-Carlo of
the engine's own battle code (in standard errors); and, with --balance N, faction win shares
with 95% Wilson intervals over N greedy self-play games (4 players, free for all).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from rich.console import Console
from rich.table import Table

import bloodforge
from bloodforge.core import Rng, State
from bloodforge.games.kingdoms.content import FACTIONS, load_content
from bloodforge.games.kingdoms.queries.odds import battle_odds, loss_order
from bloodforge.lab.selfplay import play_game

UNITS = load_content(None, None, None).units.units


def playouts(players: int, games: int) -> tuple[int, float, list[State]]:
    plies, t0, samples = 0, time.perf_counter(), []
    for seed in range(games):
        s = bloodforge.load_game("kingdoms", players=players, seed=seed).new_initial_state()
        rng = Rng(seed)
        while not s.is_terminal():
            if plies % 97 == 0:
                samples.append(s.clone())
            s.apply_unchecked(rng.choice(s.legal_actions()))
            plies += 1
    return plies, time.perf_counter() - t0, samples


def hot_calls(samples: list[State]) -> dict[str, float]:
    out = {}
    for name, fn in (("legal_actions", lambda s: s._legal_actions(s.current_player or 0)),
                     ("clone", lambda s: s.clone()),
                     ("observation", lambda s: s.observation(0))):
        t0 = time.perf_counter()
        for s in samples:
            fn(s)
        out[name] = (time.perf_counter() - t0) / len(samples) * 1e6
    t0 = time.perf_counter()
    for s in samples:
        c = s.clone()
        c.apply_unchecked(c.legal_actions()[0])
    out["clone+apply"] = (time.perf_counter() - t0) / len(samples) * 1e6
    return out


def odds_speed() -> list[tuple[str, float]]:
    rows = []
    for a, d in ((["cavalry"] * 5, ["infantry"] * 5), (["cavalry"] * 20, ["cavalry"] * 20),
                 (["cavalry"] * 10 + ["infantry"] * 10, ["infantry"] * 15 + ["cavalry"] * 4 + ["castle"]),
                 (["dragon"] * 4 + ["cavalry"] * 16 + ["infantry"] * 20, ["infantry"] * 40)):
        battle_odds(UNITS, a, d)
        t0 = time.perf_counter()
        for _ in range(5):
            battle_odds(UNITS, a, d)
        rows.append((f"{len(a)} v {len(d)}", (time.perf_counter() - t0) / 5 * 1000))
    return rows


def engine_monte_carlo(n: int) -> tuple[dict[str, float], dict[str, float], int]:
    """The exact odds of 3 cavalry + 2 infantry v 4 infantry + castle against n engine battles."""
    game = bloodforge.load_game("kingdoms", players=4)
    pieces = [{"faction": "elves", "kind": "cavalry", "at": "amberford", "count": 3},
              {"faction": "elves", "kind": "infantry", "at": "amberford", "count": 2},
              {"faction": "humans", "kind": "infantry", "at": "amberford", "count": 4}]
    base = game.load_scenario({"game": "kingdoms", "position": {
        "active": "elves", "phase": "combat", "clear_units": True, "owner": {"amberford": "humans"},
        "castles": ["amberford"], "pieces": pieces}})
    exact = battle_odds(UNITS, ["cavalry"] * 3 + ["infantry"] * 2, ["infantry"] * 4 + ["castle"])
    counts: Counter[str] = Counter()
    i = base.content.index["amberford"]
    for k in range(n):
        s = base.clone()
        s.rng = Rng(k + 1)
        s.apply("fight amberford", 0)
        while getattr(s, "battle", None) is not None:
            seat = s.actors()[0]
            legal = [str(a) for a in s.legal_actions(seat)]
            if legal[0].startswith("hit"):
                b = s.battle  # type: ignore[attr-defined]
                side = 0 if b.stage in ("att_hits", "mage_att") else 1
                f = b.att if side == 0 else b.dfn
                force = [p.kind for p in s.pieces.values() if p.at == b.space and p.faction == f]  # type: ignore[attr-defined]
                force += [w for w in ("castle",) if f"hit {w}" in legal]
                order = loss_order(UNITS, force, side, keep_land=side == 0)
                s.apply(next(f"hit {x}" for x in order if f"hit {x}" in legal), seat)
            else:
                s.apply("press" if "press" in legal else "stand", seat)
        if s.owner[i] == 0:  # type: ignore[attr-defined]
            counts["win"] += 1
        elif any("both sides are destroyed" in e.text for e in s.events):
            counts["draw"] += 1
        else:
            counts["lose"] += 1
    mc = {k: counts[k] / n for k in ("win", "lose", "draw")}
    return {k: exact[k] for k in ("win", "lose", "draw")}, mc, n


def wilson(k: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p, z = k / n, 1.96
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return c - h, c + h


def balance(games: int) -> list[tuple[str, float, tuple[float, float]]]:
    share: Counter[str] = Counter()
    for seed in range(1, games + 1):
        game = bloodforge.load_game("kingdoms", players=4, seed=seed)
        _, st = play_game(game, ["greedy"])
        for seat, r in enumerate(st.returns()):
            share[FACTIONS[seat]] += r
    return [(f, share[f] / games, wilson(share[f], games)) for f in FACTIONS]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--mc", type=int, default=100_000)
    ap.add_argument("--balance", type=int, default=0)
    args = ap.parse_args()
    con = Console()
    t = Table(title="Kingdoms of Blood random playouts")
    for c in ("players", "games", "plies", "plies/s"):
        t.add_column(c)
    samples: list[State] = []
    for players in (2, 4):
        plies, secs, smp = playouts(players, args.games)
        samples += smp
        t.add_row(str(players), str(args.games), str(plies), f"{plies / secs:.0f}")
    con.print(t)
    t = Table(title="hot calls (microseconds, mean over sampled states)")
    for k, v in hot_calls(samples).items():
        t.add_row(k, f"{v:.0f}")
    con.print(t)
    t = Table(title="exact odds (milliseconds)")
    for label, ms in odds_speed():
        t.add_row(label, f"{ms:.1f}")
    con.print(t)
    if args.mc:
        exact, mc, n = engine_monte_carlo(args.mc)
        t = Table(title=f"exact odds v {n} engine battles (3 cav + 2 inf v 4 inf + castle)")
        for c in ("outcome", "exact", "monte-carlo", "SE", "|diff|/SE"):
            t.add_column(c)
        for k in exact:
            se = math.sqrt(max(exact[k] * (1 - exact[k]), 1e-12) / n)
            t.add_row(k, f"{exact[k]:.5f}", f"{mc[k]:.5f}", f"{se:.5f}", f"{abs(exact[k] - mc[k]) / se:.2f}")
        con.print(t)
    if args.balance:
        t = Table(title=f"greedy self-play, {args.balance} games, 4 players")
        for c in ("faction", "win share", "95% CI"):
            t.add_column(c)
        for f, sh, (lo, hi) in balance(args.balance):
            t.add_row(f, f"{sh:.3f}", f"[{lo:.3f}, {hi:.3f}]")
        con.print(t)


if __name__ == "__main__":
    main()
