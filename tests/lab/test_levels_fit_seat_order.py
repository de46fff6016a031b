"""Strength levels (docs/lab.md, "Strength levels"): the fit with a seat term (Agresti's
home-advantage Bradley-Terry, strengths at a neutral seat) and the order within one AI (a
higher level is not weaker; levels the games would reverse are pooled at one Elo), the half
virtual draw that keeps sweeps finite, and the pairwise score of a game neither player won."""

from __future__ import annotations

import itertools
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize
from typer.testing import CliRunner

from bloodforge.agents.levels import GameLevels, SeatAdvantage
from bloodforge.cli.main import app
from bloodforge.lab.jobs import AgentSpec, GameResult
from bloodforge.lab.levels import (
    DEFAULT_LADDER,
    LevelsConfig,
    Obs,
    fit_document,
    fit_with_intervals,
    ladder_experiment,
    level_table,
    levels_jobs,
    levels_markdown,
    levels_of,
    order_chains,
    pairwise,
    seat_classes,
    seat_sentences,
)
from bloodforge.lab.stats import ELO_PER_LOGIT, Cell, _cells_with_prior, bradley_terry, bradley_terry_seated


def seat_one_wins_most(a_in_seat_1: int, b_in_seat_1: int, share: float) -> dict[Cell, tuple[float, float]]:
    """Two equal agents 0 and 1; seat 1 wins `share` of the games, whoever sits there."""
    return {(0, 1, 1): (share * a_in_seat_1, float(a_in_seat_1)),
            (0, 1, -1): ((1 - share) * b_in_seat_1, float(b_in_seat_1))}


def test_seat_one_winning_between_equal_agents_is_the_seat_not_the_agent() -> None:
    """Agent 0 sat in seat 1 in 30 games, agent 1 in 10, and seat 1 won 80% either way: the
    agents are equal and seat 1 is worth logit(0.8) = +241 Elo. The plain fit credits the agent
    who sat there more often with the seat's wins (26 of 40: about +108)."""
    cells = seat_one_wins_most(30, 10, 0.8)
    fit = bradley_terry_seated(2, cells)
    assert abs(fit.ratings[1] - fit.ratings[0]) < 10, "equal agents come out (nearly) equal"
    assert fit.seat == pytest.approx(ELO_PER_LOGIT * math.log(4), abs=25)
    assert fit.ratings[0] == 0.0, "the anchor"
    plain = bradley_terry([[0, 26], [14, 0]])
    assert plain[0] - plain[1] > 80, "without the seat term agent 0 looks ~100 Elo stronger"
    no_seat = bradley_terry_seated(2, cells, seat=False)
    assert no_seat.seat == 0.0
    assert no_seat.ratings[1] == pytest.approx(plain[1] - plain[0], abs=1e-6), "seat=False is the plain fit"


def test_the_seat_term_is_fitted_through_the_ladder_and_its_bootstrap() -> None:
    """The same through `fit_with_intervals`: equal rungs 1 and 2, seat 1 winning 80%; 25
    seeds seat-rotated, then 40 games of another run with rung 1 in seat 1 (unbalanced). Random
    (rung 0) scores 2 of 34 in seat 0 and 17 of 34 in seat 1: the same seat term, ln 4."""
    by_seed: dict[tuple[int, int], dict[str, list[Obs]]] = {
        (0, 1): {str(s): [(float(s < 2), -1), (float(s < 17), 1)] for s in range(34)},
        (1, 2): {str(s): [(float(s < 5), -1), (float(s >= 5), 1)] for s in range(25)},
    }
    by_seed[(1, 2)].update({f"other#{s}": [(float(s >= 8), 1)] for s in range(40)})
    fit = fit_with_intervals(3, by_seed, reps=60, seed=1)
    elo1, elo2 = fit.ratings[1][0], fit.ratings[2][0]
    assert abs(elo1 - elo2) < 30, "equal rungs stay equal"
    assert fit.plain[1] - fit.plain[2] > 80, "the plain fit puts rung 1 above rung 2 (it sat in seat 1 more)"
    seat, low, high = fit.seat
    assert 0 < low <= seat <= high
    assert seat == pytest.approx(ELO_PER_LOGIT * math.log(4), abs=40)


def scipy_loglik_max(k: int, cells: dict[Cell, tuple[float, float]], chains: list[list[int]]) -> float:
    """The same maximum likelihood (virtual draws included) by scipy's SLSQP with the order as
    inequality constraints: the reference for the projected Newton of `bradley_terry_seated`."""
    rows, score, games = _cells_with_prior(k, cells, 0.5, True)

    def negll(v: np.ndarray) -> float:
        eta = rows @ np.concatenate([[0.0], v])
        return -float(np.sum(-score * np.logaddexp(0, -eta) - (games - score) * np.logaddexp(0, eta)))

    cons = [{"type": "ineq", "fun": lambda v, a=a, b=b: np.concatenate([[0.0], v])[b] - np.concatenate([[0.0], v])[a]}
            for chain in chains for a, b in itertools.pairwise(chain)]
    res = minimize(negll, np.zeros(k), method="SLSQP", constraints=cons, options={"ftol": 1e-13, "maxiter": 500})
    return -float(res.fun)


def test_the_order_pools_a_reversed_pair_and_leaves_an_ordered_one_untouched() -> None:
    """Rungs 1 < 2 < 3 are levels of one AI. Level 1 beat level 3 in 6 of 8 games (reversed):
    they share one Elo and are reported pooled. Level 3 lost 6 of 8 to level 10 (in order): its
    gap is the unconstrained fit's, as is everything when no pair is reversed."""
    cells: dict[Cell, tuple[float, float]] = {
        (0, 1, -1): (5.0, 20.0), (0, 1, 1): (5.0, 20.0),
        (1, 2, -1): (3.0, 4.0), (1, 2, 1): (3.0, 4.0),
        (2, 3, -1): (1.0, 4.0), (2, 3, 1): (1.0, 4.0),
    }
    free = bradley_terry_seated(4, cells)
    assert free.ratings[1] > free.ratings[2], "the data reverse levels 1 and 3"
    fit = bradley_terry_seated(4, cells, chains=[[1, 2, 3]])
    assert fit.pooled == [[1, 2]]
    assert fit.ratings[1] == fit.ratings[2]
    # every pair's two seatings alike, so no seat term: level 10's gap is its pair's alone,
    # 2 of 8 plus the half virtual draw
    assert fit.seat == pytest.approx(0.0, abs=1e-6)
    assert fit.ratings[3] - fit.ratings[2] == pytest.approx(ELO_PER_LOGIT * math.log(6.5 / 2.5), abs=1e-3)
    assert fit.loglik == pytest.approx(scipy_loglik_max(4, cells, [[1, 2, 3]]), abs=1e-6)
    assert fit.loglik <= free.loglik
    ordered = {**cells, (1, 2, -1): (1.0, 4.0), (1, 2, 1): (1.0, 4.0)}
    untouched = bradley_terry_seated(4, ordered, chains=[[1, 2, 3]])
    assert untouched.pooled == []
    assert untouched.ratings == pytest.approx(bradley_terry_seated(4, ordered).ratings, abs=1e-6)


def test_the_projected_newton_fit_matches_scipy_on_random_ladders() -> None:
    rng = random.Random(11)
    for _ in range(12):
        k = rng.randint(3, 6)
        cells: dict[Cell, tuple[float, float]] = {}
        for i in range(k - 1):
            for s in (-1, 1):
                n = rng.randint(1, 6)
                cells[(i, i + 1, s)] = (float(rng.randint(0, n)), float(n))
        chain = sorted(rng.sample(range(1, k), rng.randint(2, k - 1)))
        fit = bradley_terry_seated(k, cells, chains=[chain])
        assert fit.loglik == pytest.approx(scipy_loglik_max(k, cells, [chain]), abs=1e-6)
        assert all(b - a >= -1e-9 for a, b in zip([fit.ratings[i] for i in chain],
                                                  [fit.ratings[i] for i in chain[1:]], strict=False))


def test_the_half_virtual_draw_keeps_sweeps_and_the_seat_term_finite() -> None:
    """Every rung swept by the next, and seat 1 won every game: without the virtual draws
    every gap and the seat term would be infinite."""
    cells: dict[Cell, tuple[float, float]] = {}
    for i in range(4):
        cells[(i, i + 1, 1)] = (0.0, 4.0)
        cells[(i + 1, i, 1)] = (4.0, 4.0)  # the stronger rung in seat 1 too: seat 1 always won
    fit = bradley_terry_seated(5, cells, chains=[[1, 2, 3, 4]])
    assert all(math.isfinite(r) for r in [*fit.ratings, fit.seat])
    assert fit.ratings == sorted(fit.ratings), "each sweep puts the winner above"
    by_seed = {(i, i + 1): {str(s): [(0.0, -1), (0.0, 1)] for s in range(5)} for i in range(4)}
    ladder = fit_with_intervals(5, by_seed, reps=50, seed=2, chains=[[1, 2, 3, 4]])
    assert all(math.isfinite(v) for r in ladder.ratings for v in r)
    assert all(math.isfinite(v) for v in ladder.seat)


def test_a_game_neither_player_won_is_a_draw_between_them() -> None:
    """The arena with a Boss: both players return 0 when the Boss wins; that game is half each,
    not a win of the second rung (the count before the seat term)."""
    assert pairwise([0.0, 0.0], 0) == (0.5, -1)
    assert pairwise([0.0, 0.0], 1) == (0.5, 1)
    assert pairwise([1.0, 0.0], 1) == (0.0, 1)
    assert pairwise([0.5, 0.5], 0) == (0.5, -1)
    assert pairwise([0.0, 1.0, 0.0], 1) == (1.0, 0), "more seats: its return, the seat not fitted"


def test_the_order_holds_within_each_ai_family() -> None:
    assert order_chains(LevelsConfig(game="toy_bids").specs()) == [[0, 1, 2], [3, 4, 5]], DEFAULT_LADDER
    bridges = ["random", "greedy:blunder=0.9", "greedy:blunder=0.7", "greedy:strength=1", "greedy:strength=5",
               "greedy", "mcts:strength=1:clock=cpu", "mcts:strength=10:clock=cpu"]
    assert order_chains([AgentSpec.parse(a) for a in bridges]) == [[0, 1, 2, 3, 4, 5], [6, 7]]
    other = ["random", "mcts:strength=3:clock=cpu", "mcts:strength=1:clock=wall", "mcts:strength=2:iterations=3",
             "mcts:strength=4:iterations=9", "mcts:seconds=0.5:clock=cpu"]
    # the same clock and other options only; a budget of iterations is its own family
    assert order_chains([AgentSpec.parse(a) for a in other]) == [[1, 5], [3, 4]], "0.3 s before 0.5 s"


def result(index: int, pair: tuple[int, int], a_seat: int, a_return: float, seed: int) -> GameResult:
    agents = ["x", "y"]
    returns = [0.0, 0.0]
    returns[a_seat] = a_return
    returns[1 - a_seat] = 1.0 - a_return
    return GameResult(index=index, tags={"pair": list(pair), "a_seat": a_seat}, seed=seed, agents=agents,
                      returns=returns, scores=returns, roles=["first", "second"], plies=1, digest="-", seconds=0.0)


def test_the_levels_file_says_which_levels_were_pooled_and_what_the_seat_is_worth() -> None:
    """Search level 1 beat level 3 (the arena's situation): the two share one Elo, the levels
    file and the docs table say they are not distinguished, and the seat term is reported."""
    config = LevelsConfig(game="toy_bids", params={"players": 2}, bootstrap=50,
                          ladder=["random", "greedy", "mcts:strength=1:clock=cpu", "mcts:strength=3:clock=cpu"])
    games: list[GameResult] = []
    plan = {(0, 1): [0.0, 1.0, 0.0, 0.0], (1, 2): [0.0, 1.0, 0.0, 0.0], (2, 3): [1.0, 1.0, 1.0, 0.0]}
    for pair, a_returns in plan.items():
        for s in range(10):
            for a_seat in (0, 1):
                games.append(result(len(games), pair, a_seat, a_returns[(s + a_seat) % 4], 100 + s))
    levels = levels_of(config, games, "levels.json", date="2026-11-26")
    mcts = {e.level: e for e in levels.agents["mcts"]}
    assert mcts[1].elo == mcts[3].elo
    assert mcts[1].pooled_with == [3]
    assert mcts[3].pooled_with == [1]
    assert mcts[2].pooled_with == [], "an interpolated level is not itself pooled"
    assert [s.between for s in levels.seats] == ["pairs with at most one searching agent",
                                                 "two searching agents"]
    assert levels.model is not None
    assert "seat" in levels.model
    table = levels_markdown(levels)
    assert "| mcts | 1 | 0.1 |" in table
    assert "not distinguished from level 3 (pooled)" in table
    sentences = seat_sentences(levels)
    assert len(sentences) == 2
    for seat, sentence in zip(levels.seats, sentences, strict=True):
        assert sentence.startswith(f"Second seat over the first, equal players ({seat.between}): {seat.elo:+d} Elo")
        assert sentence in table.splitlines(), "the docs table shows the same sentences as the command"
    GameLevels.model_validate_json(levels.model_dump_json())


def test_a_table_row_of_a_pooled_level() -> None:
    entries = level_table("mcts", {1: (500, 300, 700, 8), 3: (500, 350, 690, 8)}, {1: [3], 3: [1]})
    assert [e.pooled_with for e in entries] == [[3], [], [1]]
    assert entries[1].elo == 500


def test_the_result_document_shows_the_fit_beside_the_plain_one_and_each_pairs_seats() -> None:
    """The fit document: every rung (bridges too) with the plain fit beside it, the seat term,
    and per pair the first rung's score in each seat, where a seat effect of one pair shows
    that the single seat term averages away (the arena's searching pairs)."""
    config = LevelsConfig(game="toy_bids", params={"players": 2}, bootstrap=50,
                          ladder=["random", "greedy:blunder=0.5", "greedy"])
    by_seed: dict[tuple[int, int], dict[str, list[Obs]]] = {
        (0, 1): {str(s): [(float(s < 3), -1), (float(s < 3), 1)] for s in range(10)},
        (1, 2): {str(s): [(0.0, -1), (1.0, 1)] for s in range(6)},
    }
    fitted = fit_with_intervals(3, by_seed, reps=50, seed=0, chains=order_chains(config.specs()))
    doc = fit_document(config, by_seed, fitted)
    assert [r["rung"] for r in doc["rungs"]] == config.ladder
    assert doc["rungs"][0]["elo"] == 0.0
    (seat,) = doc["seats"]
    assert seat["between"] == "all pairs", "no pair of two searching agents: one seat term"
    assert seat["elo"] > 0, "seat 1 won every game of the second pair"
    assert doc["pairs_by_seat"] == [
        {"a": "random", "b": "greedy:blunder=0.5", "a_seat": 0, "a_score": 3.0, "games": 10},
        {"a": "random", "b": "greedy:blunder=0.5", "a_seat": 1, "a_score": 3.0, "games": 10},
        {"a": "greedy:blunder=0.5", "b": "greedy", "a_seat": 0, "a_score": 0.0, "games": 6},
        {"a": "greedy:blunder=0.5", "b": "greedy", "a_seat": 1, "a_score": 6.0, "games": 6},
    ]


def test_two_searching_agents_get_a_seat_term_of_their_own() -> None:
    """Between two searching agents seat 1 wins 80%, in the other pairs the seat does not matter:
    the two-term fit finds both (one term would average them), and `seat_classes` gives the
    searching pairs their own term only when the ladder has such a pair."""
    cells: dict[Cell, tuple[float, float]] = {
        (0, 1, -1): (10.0, 40.0), (0, 1, 1): (10.0, 40.0),  # random vs greedy: no seat effect
        (1, 2, -1): (4.0, 40.0), (1, 2, 1): (4.0, 40.0),  # greedy vs search: none either
        (2, 3, -1): (8.0, 40.0), (2, 3, 1): (32.0, 40.0),  # two search levels, equal: seat 1 wins 80%
    }
    two = bradley_terry_seated(4, cells, seat_groups={(2, 3): 1})
    assert two.seats[0] == pytest.approx(0.0, abs=1e-6)
    assert two.seats[1] == pytest.approx(ELO_PER_LOGIT * math.log(32.25 / 8.25), abs=1e-3)
    assert two.ratings[3] == pytest.approx(two.ratings[2], abs=1e-6)
    one = bradley_terry_seated(4, cells)
    assert 0 < one.seat < two.seats[1] / 2, "one term for all averages the seat effect away"
    specs = LevelsConfig(game="toy_bids").specs()
    scores = {(0, 1): [0.0, 1.0], (1, 2): [0.5], (2, 3): [0.0, 1.0], (3, 4): [1.0, 0.0], (4, 5): [0.5, 0.0]}
    assert seat_classes(specs, scores) == {(3, 4): 1, (4, 5): 1}
    assert seat_classes(specs, {(0, 1): [0.0, 1.0], (2, 3): [0.0, 1.0]}) == {}, "no pair of two searching agents"
    assert seat_classes(specs, {**scores, (3, 4): [0.0, 0.0], (4, 5): [1.0]}) == {}, "sweeps say nothing of seats"


def test_a_seat_sentence_says_which_seat_is_favoured_counting_seats_from_one() -> None:
    """The fit's "seat 1 over seat 0" is the second seat over the first as players count; the
    sentence names the favoured seat only when the interval excludes zero."""
    levels = GameLevels(
        game="toy_bids", players=2, interval="-", interpolation="-", command="-", date="2026-11-26", seed=0,
        games=6, result="-", pairs=[{"a": "random", "b": "mcts:strength=1", "games": 6, "score": 1.0}],
        agents={"mcts": level_table("mcts", {1: (200, 100, 300, 6)})},
        seats=[SeatAdvantage(between="two searching agents", elo=214, low=173, high=310),
               SeatAdvantage(between="all pairs", elo=-34, low=-84, high=23),
               SeatAdvantage(between="all pairs", elo=-90, low=-150, high=-20)])
    assert seat_sentences(levels) == [
        "Second seat over the first, equal players (two searching agents): +214 Elo, 95% interval [+173, +310]: "
        "the second seat is favoured.",
        "Second seat over the first, equal players (all pairs): -34 Elo, 95% interval [-84, +23]: "
        "neither seat is shown to be favoured.",
        "Second seat over the first, equal players (all pairs): -90 Elo, 95% interval [-150, -20]: "
        "the first seat is favoured.",
    ]
    assert seat_sentences(levels.model_copy(update={"seats": []})) == [], "more seats or an old file: none"


def test_lab_levels_prints_what_the_seat_is_worth_under_its_table(tmp_path: Path) -> None:
    """`lab levels --fit-only` on a games log where seat 1 (the second seat) wins every game
    between the two search levels: the command prints the seat terms of the levels file it
    writes, in the sentences the docs table has, the searching pairs' term favouring the second seat."""
    ladder = ["random", "greedy", "mcts:strength=1:clock=cpu", "mcts:strength=3:clock=cpu"]
    config = LevelsConfig(game="toy_bids", params={"players": 2}, ladder=ladder, games_per_pair=4, cheap_games=4)
    out = tmp_path / "levels.json"
    lines = [json.dumps({"experiment": ladder_experiment(config).model_dump(mode="json"),
                         "levels": config.model_dump(mode="json")})]
    for job in levels_jobs(config):
        a, b = job.tags["pair"]
        a_seat = int(job.tags["a_seat"])
        # two search levels: the second seat, whoever sits there; else the higher rung wins 3 of 4
        # (the lower one only on the first seed, from the first seat)
        winner = 1 if (a, b) == (2, 3) else a_seat if (job.seed, a_seat) == (0, 0) else 1 - a_seat
        returns = [float(seat == winner) for seat in (0, 1)]
        lines.append(GameResult(index=job.index, tags=job.tags, seed=job.seed, agents=[x.label for x in job.agents],
                                returns=returns, scores=returns, roles=["first", "second"], plies=1, digest="-",
                                seconds=0.0).model_dump_json())
    (tmp_path / "levels.json.games.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rungs = [arg for label in ladder for arg in ("--rung", label)]
    res = CliRunner().invoke(app, ["lab", "levels", "toy_bids", "--players", "2", "--games-per-pair", "4",
                                   "--cheap-games", "4", *rungs, "--out", str(out), "--fit-only"])
    assert res.exit_code == 0, res.output
    levels = GameLevels.model_validate_json((tmp_path / "levels.levels.json").read_text(encoding="utf-8"))
    assert levels.games == 12, "every game of the log was fitted"
    assert [s.between for s in levels.seats] == ["pairs with at most one searching agent", "two searching agents"]
    printed = " ".join(res.output.split())
    sentences = seat_sentences(levels)
    for sentence in sentences:
        assert sentence in printed
    assert sentences[1].endswith("the second seat is favoured.")
