"""Lab statistics against reference values (scipy where it has the same statistic)."""

from __future__ import annotations

import math

import pytest
from scipy import stats as sps

from bloodforge.lab.stats import (
    bradley_terry,
    elo_difference,
    elo_with_interval,
    paired_difference,
    sprt,
    sprt_bounds,
    sprt_by_group,
    sprt_stop_index,
    wilson_interval,
)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (7, 10), (10, 10), (55, 100), (1, 1), (190, 400)])
def test_wilson_interval_matches_scipy(k: int, n: int) -> None:
    ref = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = wilson_interval(k, n)
    assert low == pytest.approx(ref.low, abs=1e-9)
    assert high == pytest.approx(ref.high, abs=1e-9)


def test_wilson_interval_of_no_games_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_counts_draws_as_half() -> None:
    # 5 wins and 2 draws in 10 is a score of 6
    assert wilson_interval(6.0, 10) == wilson_interval(6, 10)


def test_sprt_bounds_are_walds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19))
    assert lower == pytest.approx(-math.log(19))
    assert sprt_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


def test_sprt_log_likelihood_ratio() -> None:
    # 8 wins, 2 losses, H0 p=0.5 vs H1 p=0.75: 8 ln 1.5 + 2 ln 0.5
    r = sprt(8, 10, 0.5, 0.75)
    assert r.llr == pytest.approx(8 * math.log(1.5) + 2 * math.log(0.5))
    assert r.decision is None  # 1.85 < ln 19 = 2.94
    assert sprt(8, 8, 0.5, 0.75).decision == "H1"  # 8 ln 1.5 = 3.24
    assert sprt(0, 5, 0.5, 0.75).decision == "H0"  # 5 ln 0.5 = -3.47


def test_sprt_stops_at_the_first_decisive_prefix() -> None:
    n, r = sprt_stop_index([1.0] * 20, 0.5, 0.75)
    assert n == 8  # 7 ln 1.5 = 2.84 < 2.94 <= 8 ln 1.5
    assert r.decision == "H1"
    n, r = sprt_stop_index([0.5] * 6, 0.5, 0.75)
    assert (n, r.decision) == (6, None)


def test_sprt_by_seat_needs_every_seat_to_pass_and_fails_on_the_first_that_fails() -> None:
    # seat "0" wins every game, seat "1" loses every game: seat 1's test rejects first
    games = [(str(i % 2), 1.0 if i % 2 == 0 else 0.0) for i in range(40)]
    n, decision, seats = sprt_by_group(games, 0.5, 0.75)
    assert decision == "H0"
    assert seats["1"][0] == 5  # 5 ln 0.5 = -3.47 <= -2.94
    assert seats["1"][1].decision == "H0"
    assert n == 10  # the tenth game in order is seat 1's fifth
    # both win every game: each seat accepts after 8 of its own games (see above), so after 16
    n, decision, seats = sprt_by_group([(str(i % 2), 1.0) for i in range(40)], 0.5, 0.75)
    assert (n, decision) == (16, "H1")
    assert {k: v[0] for k, v in seats.items()} == {"0": 8, "1": 8}
    # a seat that decided keeps its decision while the other plays on; one that never decides
    # leaves the whole undecided
    games = [("0", 1.0)] * 8 + [("1", 0.5)] * 6
    n, decision, seats = sprt_by_group(games, 0.5, 0.75)
    assert (n, decision) == (14, None)
    assert seats["0"][1].decision == "H1"
    assert seats["1"][1].decision is None


def test_sprt_refuses_inverted_hypotheses() -> None:
    with pytest.raises(ValueError, match="p0"):
        sprt(1, 2, 0.7, 0.6)


def test_elo_difference_known_values() -> None:
    assert elo_difference(0.5) == 0
    assert elo_difference(0.75) == pytest.approx(190.8485, abs=1e-3)
    assert elo_difference(0.25) == pytest.approx(-190.8485, abs=1e-3)
    assert elo_difference(1.0) == math.inf
    elo, low, high = elo_with_interval(30, 40)
    assert elo == pytest.approx(190.8485, abs=1e-3)
    wl, wh = wilson_interval(30, 40)
    assert low == pytest.approx(elo_difference(wl))
    assert high == pytest.approx(elo_difference(wh))
    assert low < elo < high


def test_bradley_terry_two_players_is_the_head_to_head_elo() -> None:
    ratings = bradley_terry([[0, 30], [10, 0]], prior=0.0)
    assert ratings[0] - ratings[1] == pytest.approx(elo_difference(0.75), abs=1e-4)
    assert sum(ratings) == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_recovers_consistent_strengths() -> None:
    # strengths 4:2:1 -> expected scores p_ij = g_i / (g_i + g_j), 120 games per pair
    g = [4.0, 2.0, 1.0]
    wins = [[120 * g[i] / (g[i] + g[j]) if i != j else 0.0 for j in range(3)] for i in range(3)]
    ratings = bradley_terry(wins, prior=0.0)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(2), abs=1e-3)
    assert ratings[1] - ratings[2] == pytest.approx(400 * math.log10(2), abs=1e-3)


def test_bradley_terry_keeps_a_clean_sweep_finite() -> None:
    ratings = bradley_terry([[0, 10], [0, 0]])
    assert all(math.isfinite(r) for r in ratings)
    assert ratings[0] > ratings[1]


def test_paired_difference_matches_scipy() -> None:
    a = [1, 1, 0, 1, 0.5, 1, 0, 1, 1, 0]
    b = [0, 1, 0, 0, 0.5, 1, 0, 1, 0, 1]
    p = paired_difference(a, b)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    assert p.diff == pytest.approx(sum(diffs) / len(diffs))
    half = 1.959963984540054 * sps.sem(diffs)
    assert (p.low, p.high) == pytest.approx((p.diff - half, p.diff + half))
    assert (p.a_only, p.b_only) == (3, 1)
    assert p.p_value == pytest.approx(sps.binomtest(3, 4, 0.5).pvalue)


def test_paired_difference_needs_pairs() -> None:
    with pytest.raises(ValueError, match="length"):
        paired_difference([1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="no pairs"):
        paired_difference([], [])
