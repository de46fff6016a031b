"""Statistics for self-play studies, as pure functions of counts (no I/O, no global state).

Game results are returns in [0, 1] (a draw or shared win counts as a fraction), so a "score"
below is the sum of returns, a real number between 0 and the number of games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

#: z of a two-sided 95% interval.
Z95 = NormalDist().inv_cdf(0.975)


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a win rate (`score` wins out of `n`; draws count half).

    Wilson rather than the normal approximation because lab runs are often small or lopsided
    (a 10-0 sweep still gets a sensible interval, never [1, 1]).
    """
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, score / n))
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# -- SPRT -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float
    upper: float
    #: "H1" (the rate is at least p1: accept), "H0" (at most p0: reject), or None (go on).
    decision: str | None


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's log-likelihood-ratio thresholds for error rates alpha (false H1) and beta."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must be in (0, 1), got {alpha}, {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt(score: float, n: int, p0: float, p1: float, alpha: float = 0.05, beta: float = 0.05) -> SprtResult:
    """Wald's sequential probability ratio test of a win rate, H0: p = p0 against H1: p = p1.

    Each game is a Bernoulli trial (a draw counts as half a win and half a loss, the usual
    trinomial-to-binomial reduction). Stop as soon as the log-likelihood ratio leaves the
    bounds; with a rate between p0 and p1 the test may run long, so runners also cap games.
    """
    if not 0 < p0 < p1 < 1:
        raise ValueError(f"need 0 < p0 < p1 < 1, got p0={p0}, p1={p1}")
    lower, upper = sprt_bounds(alpha, beta)
    wins = score
    losses = n - score
    llr = wins * math.log(p1 / p0) + losses * math.log((1 - p1) / (1 - p0))
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SprtResult(llr, lower, upper, decision)


def sprt_stop_index(scores: Sequence[float], p0: float, p1: float, alpha: float = 0.05,
                    beta: float = 0.05) -> tuple[int, SprtResult]:
    """The number of games (in seed order) after which the SPRT decides, and its result;
    all of them if it never decides. Deciding on the ordered prefix (not on whichever games
    finished first) keeps results identical on every backend and worker count."""
    total = 0.0
    result = sprt(0.0, 0, p0, p1, alpha, beta)
    for i, s in enumerate(scores, 1):
        total += s
        result = sprt(total, i, p0, p1, alpha, beta)
        if result.decision is not None:
            return i, result
    return len(scores), result


def sprt_by_group(scores: Sequence[tuple[str, float]], p0: float, p1: float, alpha: float = 0.05,
                  beta: float = 0.05) -> tuple[int, str | None, dict[str, tuple[int, SprtResult]]]:
    """One SPRT per group (e.g. per seat of an asymmetric game) on the ordered games, each
    group's test frozen once it decides. The whole decides H0 as soon as one group does (some
    group is no better than p0) and H1 once every group has (all are at least p1).

    Returns the number of games in order after which the whole decided (all of them if it
    never did), the decision, and per group the games it used and its result."""
    seen: dict[str, list[float]] = {}
    done: dict[str, tuple[int, SprtResult]] = {}
    for i, (group, score) in enumerate(scores, 1):
        if group in done:
            continue
        seen.setdefault(group, []).append(score)
        result = sprt(sum(seen[group]), len(seen[group]), p0, p1, alpha, beta)
        if result.decision is not None:
            done[group] = (len(seen[group]), result)
            if result.decision == "H0":
                return i, "H0", _with_open(done, seen, p0, p1, alpha, beta)
            if len(done) == len({g for g, _ in scores}):
                return i, "H1", done
    return len(scores), None, _with_open(done, seen, p0, p1, alpha, beta)


def _with_open(done: dict[str, tuple[int, SprtResult]], seen: dict[str, list[float]], p0: float, p1: float,
               alpha: float, beta: float) -> dict[str, tuple[int, SprtResult]]:
    out = dict(done)
    for group, scores in seen.items():
        if group not in out:
            out[group] = (len(scores), sprt(sum(scores), len(scores), p0, p1, alpha, beta))
    return out


# -- Elo --------------------------------------------------------------------------------------
def elo_difference(rate: float) -> float:
    """Elo difference implied by an expected score (0.75 -> +190.8); infinite at 0 or 1."""
    if rate <= 0.0:
        return -math.inf
    if rate >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / rate - 1.0)


def elo_with_interval(score: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Elo difference of a head-to-head record with the Wilson interval mapped through it
    (monotone, so the mapped bounds are a valid interval of the Elo difference)."""
    low, high = wilson_interval(score, n, z)
    rate = score / n if n else 0.5
    return elo_difference(rate), elo_difference(low), elo_difference(high)


def bradley_terry(wins: Sequence[Sequence[float]], iterations: int = 2000, tol: float = 1e-10,
                  prior: float = 0.5) -> list[float]:
    """Elo ratings (mean 0) of several agents from a matrix `wins[i][j]` = score of i against j.

    Minorisation-maximisation (Hunter 2004). `prior` adds that many virtual draws between every
    pair that met, so an agent that won every game still gets a finite rating.
    """
    k = len(wins)
    w = [[float(wins[i][j]) + (prior if i != j and (wins[i][j] + wins[j][i]) > 0 else 0.0)
          for j in range(k)] for i in range(k)]
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    gamma = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            total = sum(w[i][j] for j in range(k) if j != i)
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i and games[i][j] > 0)
            new.append(gamma[i] if denom == 0 else max(total, 1e-12) / denom)
        mean_log = sum(math.log(g) for g in new) / k
        new = [g / math.exp(mean_log) for g in new]
        done = max(abs(a - b) for a, b in zip(new, gamma, strict=True)) < tol
        gamma = new
        if done:
            break
    return [400.0 * math.log10(g) for g in gamma]


# -- paired comparisons -----------------------------------------------------------------------
@dataclass(frozen=True)
class PairedResult:
    n: int
    mean_a: float
    mean_b: float
    diff: float
    low: float
    high: float
    #: Games where only A's side won / only B's (the discordant pairs of McNemar's test).
    a_only: int
    b_only: int
    p_value: float


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = Z95) -> PairedResult:
    """Compare two rule variants played on the same seeds: `a[i]` and `b[i]` are the same
    outcome (e.g. the Witch's return) of game i under each variant.

    Pairing cancels the luck both variants share (the same set-up, the same agent seeds), so a
    small difference shows with far fewer games than two independent samples need. The
    interval is the normal one of the mean paired difference; the p-value is McNemar's exact
    (two-sided binomial) test on the pairs where exactly one variant won.
    """
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    n = len(a)
    if n == 0:
        raise ValueError("no pairs to compare")
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    a_only = sum(1 for x, y in zip(a, b, strict=True) if x > y)
    b_only = sum(1 for x, y in zip(a, b, strict=True) if y > x)
    return PairedResult(n, sum(a) / n, sum(b) / n, mean, mean - half, mean + half, a_only, b_only,
                        binomial_two_sided(a_only, a_only + b_only))


def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p-value of k successes in n fair coin flips (McNemar's exact test)."""
    if n == 0:
        return 1.0
    low = min(k, n - k)
    tail = sum(math.comb(n, i) for i in range(low + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)
