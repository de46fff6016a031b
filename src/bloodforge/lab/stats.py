"""Statistics for self-play studies, as pure functions of counts (no I/O, no global state).

Game results are returns in [0, 1] (a draw or shared win counts as a fraction), so a "score"
below is the sum of returns, a real number between 0 and the number of games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

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


# -- Bradley-Terry with a seat term and order within families ---------------------------------
#: Logits to Elo points: 400 / ln 10.
ELO_PER_LOGIT = 400.0 / math.log(10.0)

#: A cell of seated games: (a, b, a's seat), a's seat +1 when a sat in seat 1 of a two-player
#: game, -1 in seat 0, 0 when the seat plays no part (e.g. one seat against several).
Cell = tuple[int, int, int]


@dataclass(frozen=True)
class SeatedFit:
    """A Bradley-Terry fit with a seat term (`bradley_terry_seated`)."""

    #: Elo of every agent at a neutral seat, the anchor at exactly 0.
    ratings: list[float]
    #: Elo of seat 1 over seat 0 between two equal agents (positive: seat 1 is favoured), per
    #: seat group (`seat_groups`; one group unless asked).
    seats: list[float]
    #: Agents of one chain the order constraint holds at one Elo (the data would reverse them).
    pooled: list[list[int]]
    #: Log-likelihood (with the virtual draws) at the fit.
    loglik: float

    @property
    def seat(self) -> float:
        """The seat term of group 0 (the only one unless `seat_groups` gave more)."""
        return self.seats[0]


def bradley_terry_seated(k: int, cells: dict[Cell, tuple[float, float]], *, prior: float = 0.5,
                         chains: Sequence[Sequence[int]] = (), anchor: int = 0, seat: bool = True,
                         seat_groups: Mapping[tuple[int, int], int] | None = None,
                         tol: float = 1e-9, iterations: int = 200) -> SeatedFit:
    """Maximum-likelihood Bradley-Terry ratings of `k` agents with a seat (order) advantage,
    Agresti's home-advantage model: a's chance against b is logistic(θa - θb + s·h), s = +1
    when a sits in seat 1, -1 in seat 0, 0 when seats play no part. The ratings are for a
    neutral seat; h is what seat 1 is worth over seat 0.

    `cells[(a, b, s)] = (a's score, games)` (draws count half). `prior`: every pair that met
    gets `2·prior` virtual games scored half each, split evenly between the two seatings, so a
    sweep stays finite (as `bradley_terry`'s half virtual draw) and so does the seat term when
    one seat won everything; symmetric in the seats, it pulls h toward 0 only weakly.

    `chains`: lists of agents, weakest first, that the fit keeps in order (θ of each not above
    the next's): a family's levels, parameterised by non-negative increments. Where the data
    would reverse two neighbours the increment sits at 0 and they share one rating (`pooled`).

    `seat_groups`: (a, b) with a < b -> the index of that pair's seat term (pairs not named: 0),
    for a seat advantage that differs between kinds of pair (e.g. only between two searching
    agents); one seat term for all unless given.

    *Why a seat term:* in an asymmetric game between equal agents the seat decides; with seats
    rotated the term cancels in expectation, but not in a pair whose seatings are unbalanced
    (an odd game count, a stopped run, another run's games), and a strong seat effect makes a
    pair's score a poorer measure of the gap (the average of the two seatings' logits is the
    gap; the logit of the average score is shrunk toward 0). *Why by Newton's method:* the
    log-likelihood is concave in the parameters and the problem tiny; projected Newton with
    a line search converges in a few steps and the bounds make the pooling exact.
    """
    if not 0 <= anchor < k:
        raise ValueError(f"anchor {anchor} is not one of the {k} agents")
    seen: set[int] = set()
    for chain in chains:
        if len(set(chain)) != len(chain) or seen & set(chain) or any(not 0 <= i < k for i in chain):
            raise ValueError(f"chains must be disjoint lists of distinct agents 0..{k - 1}: {list(chains)}")
        if anchor in chain and chain[0] != anchor:
            raise ValueError(f"the anchor {anchor} can only start a chain: {list(chain)}")
        seen |= set(chain)
    groups = dict(seat_groups or {})
    if any(g < 0 for g in groups.values()):
        raise ValueError(f"seat groups are numbered from 0: {groups}")
    n_seats = 1 + max(groups.values(), default=0)
    rows, score, games = _cells_with_prior(k, cells, prior, seat, groups, n_seats)
    # z = (θ_0 .. θ_k-1, h) = T x: free parameters x, the increments of each chain bounded >= 0
    columns: list[list[tuple[int, float]]] = []
    bounded: list[int] = []
    for chain in chains:
        if chain[0] != anchor:
            columns.append([(i, 1.0) for i in chain])
        for m in range(1, len(chain)):
            bounded.append(len(columns))
            columns.append([(i, 1.0) for i in chain[m:]])
    for i in range(k):
        if i != anchor and i not in seen:
            columns.append([(i, 1.0)])
    if seat:
        columns += [[(k + g, 1.0)] for g in range(n_seats)]
    t = np.zeros((k + n_seats, len(columns)))
    for c, entries in enumerate(columns):
        for i, v in entries:
            t[i, c] = v
    design = rows @ t
    lower = np.full(len(columns), -np.inf)
    lower[bounded] = 0.0

    def loglik(x: np.ndarray) -> float:
        eta = design @ x
        return float(np.sum(score * -np.logaddexp(0.0, -eta) + (games - score) * -np.logaddexp(0.0, eta)))

    x = np.zeros(len(columns))
    value = loglik(x)
    for _ in range(iterations if len(columns) else 0):
        p = 1.0 / (1.0 + np.exp(-(design @ x)))
        grad = design.T @ (score - games * p)
        info = (design * (games * p * (1.0 - p))[:, None]).T @ design  # minus the Hessian
        free = ~((x <= lower) & (grad <= 0.0))  # a bound increment the gradient pushes below 0 stays
        step = np.zeros_like(x)
        step[free] = np.linalg.lstsq(info[np.ix_(free, free)], grad[free], rcond=None)[0]
        rate = 1.0
        trial = np.maximum(x + step, lower)
        trial_value = loglik(trial)
        while trial_value < value and rate > 1e-10:
            rate /= 2.0
            trial = np.maximum(x + rate * step, lower)
            trial_value = loglik(trial)
        if trial_value < value:
            break  # no ascent left along the step: at the optimum up to rounding
        moved = float(np.max(np.abs(trial - x)))
        x, value = trial, trial_value
        if moved < tol:
            break
    z = t @ x
    pooled: list[list[int]] = []
    for chain in chains:
        group = [chain[0]]
        for m in range(1, len(chain)):
            if abs(z[chain[m]] - z[chain[m - 1]]) <= 1e-9:
                group.append(chain[m])
            else:
                if len(group) > 1:
                    pooled.append(group)
                group = [chain[m]]
        if len(group) > 1:
            pooled.append(group)
    return SeatedFit(ratings=[float(ELO_PER_LOGIT * z[i]) for i in range(k)],
                     seats=[float(ELO_PER_LOGIT * z[k + g]) for g in range(n_seats)], pooled=pooled, loglik=value)


def _cells_with_prior(k: int, cells: dict[Cell, tuple[float, float]], prior: float, seat: bool,
                      groups: Mapping[tuple[int, int], int] | None = None,
                      n_seats: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Design rows (e_a - e_b + s·e_h over k agents and the pair's seat term h), scores and games of every cell,
    with the virtual draws added: `2·prior` games per pair that met, half in each seating
    (all in the neutral cell when no seat term is fitted)."""
    total: dict[Cell, list[float]] = {}
    met: set[tuple[int, int]] = set()
    for (a, b, s), (w, n) in cells.items():
        if a == b or not (0 <= a < k and 0 <= b < k):
            raise ValueError(f"cell {(a, b, s)}: two different agents of 0..{k - 1}")
        if s not in (-1, 0, 1):
            raise ValueError(f"a seat sign is -1, 0 or +1, got {s}")
        if n < 0 or not 0 <= w <= n:
            raise ValueError(f"cell {(a, b, s)}: score {w} of {n} games")
        s = s if seat else 0
        key, sw = ((a, b, s), w) if a < b else ((b, a, -s), n - w)
        cell = total.setdefault(key, [0.0, 0.0])
        cell[0] += sw
        cell[1] += n
        if n > 0:
            met.add(key[:2])
    if prior > 0:
        for a, b in met:
            for s in ((-1, 1) if seat else (0,)):
                cell = total.setdefault((a, b, s), [0.0, 0.0])
                share = 2.0 * prior / (2 if seat else 1)  # virtual games in this seating, drawn
                cell[0] += share / 2.0
                cell[1] += share
    keys = sorted(total)
    rows = np.zeros((len(keys), k + n_seats))
    for r, (a, b, s) in enumerate(keys):
        rows[r, a] += 1.0
        rows[r, b] -= 1.0
        rows[r, k + (groups or {}).get((a, b), 0)] = s
    return rows, np.array([total[key][0] for key in keys]), np.array([total[key][1] for key in keys])
