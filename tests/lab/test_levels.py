"""Strength levels (docs/lab.md, "Strength levels"): the ladder's Bradley-Terry fit anchored at
random = 0, its bootstrap intervals, interpolation between measured levels, the levels file and
a whole (tiny) ladder run that continues from its games log."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import bloodforge
from bloodforge.agents.levels import LEVELS_DIR, GameLevels, LevelEntry, load_levels
from bloodforge.cli.main import app
from bloodforge.lab.experiments import ExperimentError
from bloodforge.lab.jobs import AgentSpec, GameResult
from bloodforge.lab.levels import (
    LevelsConfig,
    anchored_ratings,
    fit_with_intervals,
    included_games,
    level_table,
    levels_jobs,
    levels_markdown,
    order_chains,
    pair_scores,
    rated_rungs,
    run_levels,
    rung_key,
    search_settings,
    seated_fit,
    wins_matrix,
)


def expected(d: float) -> float:
    """Expected score of a player `d` Elo above its opponent."""
    return float(1.0 / (1.0 + 10.0 ** (-d / 400.0)))


TRUE = [0.0, 150.0, 420.0, 600.0, 900.0]  # a ladder of known strengths, random first


def test_a_synthetic_chain_is_recovered_with_random_at_zero() -> None:
    n = 4000
    scores = {(i, i + 1): [expected(TRUE[i] - TRUE[i + 1])] * n for i in range(len(TRUE) - 1)}
    ratings = anchored_ratings(wins_matrix(len(TRUE), scores))
    assert ratings[0] == 0.0, "the random player is the anchor, exactly 0"
    for got, want in zip(ratings, TRUE, strict=True):
        assert got == pytest.approx(want, abs=5.0)


def test_the_anchor_is_random_whatever_the_mean() -> None:
    # the same ladder shifted by +300 for every rung but random: random stays 0, the others move
    shifted = [0.0, *(t + 300 for t in TRUE[1:])]
    scores = {(i, i + 1): [expected(shifted[i] - shifted[i + 1])] * 4000 for i in range(4)}
    ratings = anchored_ratings(wins_matrix(5, scores))
    assert ratings[0] == 0.0
    assert ratings[1] == pytest.approx(450.0, abs=10.0)
    assert ratings[4] == pytest.approx(1200.0, abs=10.0)


def test_bootstrap_intervals_cover_the_truth_and_widen_along_the_chain() -> None:
    rng = random.Random(5)
    by_seed: dict[tuple[int, int], dict[str, list[tuple[float, int]]]] = {}
    for i in range(len(TRUE) - 1):
        p = expected(TRUE[i] - TRUE[i + 1])
        by_seed[(i, i + 1)] = {str(s): [(float(rng.random() < p), -1), (float(rng.random() < p), 1)]
                               for s in range(100)}
    fitted = fit_with_intervals(len(TRUE), by_seed, reps=100, seed=1).ratings
    assert fitted[0] == (0.0, 0.0, 0.0)
    for (elo, low, high), want in zip(fitted[1:], TRUE[1:], strict=True):
        assert low <= elo <= high
        assert low <= want <= high
    widths = [high - low for _, low, high in fitted[1:]]
    assert widths[-1] > widths[0], "uncertainty adds up from random along the ladder"


def test_levels_between_measured_ones_are_interpolated_and_none_outside() -> None:
    search = level_table("mcts", {1: (100, 50, 150, 12), 3: (300, 200, 400, 12), 10: (700, 500, 900, 6)})
    assert [e.level for e in search] == list(range(1, 11))
    by = {e.level: e for e in search}
    assert [lv for lv, e in by.items() if e.measured] == [1, 3, 10]
    # linear in log seconds: level 2 sits log 2 / log 3 of the way from level 1 to level 3
    assert by[2].elo == round(100 + math.log(2) / math.log(3) * 200)
    assert by[2].seconds == pytest.approx(0.2)
    assert by[2].games == 0
    assert by[5].low == round(200 + (math.log(5) - math.log(3)) / (math.log(10) - math.log(3)) * 300)
    greedy = level_table("greedy", {3: (10, 0, 20, 40), 7: (50, 40, 60, 40)})
    assert [e.level for e in greedy] == [3, 4, 5, 6, 7], "no level outside the measured ones"
    assert greedy[2].elo == 30
    assert greedy[2].seconds is None


def test_a_ladder_starts_at_random_and_names_each_level() -> None:
    with pytest.raises(ValidationError, match="starts with 'random'"):
        LevelsConfig(game="toy_bids", ladder=["greedy", "random"])
    with pytest.raises(ValidationError, match=r"strength=1\.\.10"):
        LevelsConfig(game="toy_bids", ladder=["random", "mcts:seconds=1"])
    with pytest.raises(ValidationError, match="different"):
        LevelsConfig(game="toy_bids", ladder=["random", "greedy", "greedy:strength=10"])
    config = LevelsConfig(game="toy_bids", params={"players": 2}, games_per_pair=4, cheap_games=6)
    jobs = levels_jobs(config)
    pairs = [tuple(j.tags["pair"]) for j in jobs]
    assert sorted(set(pairs)) == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)], "neighbours only"
    assert pairs.count((0, 1)) == 6, "pairs without search play cheap_games"
    assert pairs.count((2, 3)) == 4, "search pairs play games_per_pair"
    assert "--seed 0 --games-per-pair 4 --cheap-games 6" in config.command()
    # cheap pairs first, then the search pairs seed by seed: a run stopped early has every pair
    assert set(pairs[:12]) == {(0, 1), (1, 2)}
    assert [(j.seed, tuple(j.tags["pair"])) for j in jobs[12:18:2]] == [(0, (2, 3)), (0, (3, 4)), (0, (4, 5))]
    assert [j.index for j in jobs] == list(range(len(jobs)))


def test_a_greedy_rung_with_blunder_is_a_bridge_not_a_lobby_level() -> None:
    """Bloodstones: random scored 0 of 40 against greedy 1, so the ladder needs rungs between
    them; they are fitted like any rung but give no lobby level (greedy 1-10 stay the levels)."""
    config = LevelsConfig(game="toy_bids", params={"players": 2}, cheap_games=2,
                          ladder=["random", "greedy:blunder=0.9", "greedy:blunder=0.75", "greedy:strength=1"])
    keys = [rung_key(s) for s in config.specs()]
    assert keys[1] == ("greedy:blunder=0.9", None)
    assert keys[2] == ("greedy:blunder=0.75", None)
    assert keys[3] == ("greedy", 1)
    assert sorted({tuple(j.tags["pair"]) for j in levels_jobs(config)}) == [(0, 1), (1, 2), (2, 3)]


def test_a_search_rung_with_iterations_is_a_bridge_between_greedy_and_the_search() -> None:
    """The two-player arena: greedy 10 won 0 of 64 against the search, so a weaker search (a
    fixed number of iterations) joins them; it gives no lobby level, and the search's levels
    1-10 stay the lobby's."""
    config = LevelsConfig(game="toy_bids", params={"players": 2}, cheap_games=2, games_per_pair=2,
                          ladder=["random", "greedy:strength=10", "mcts:iterations=4",
                                  "mcts:strength=1:clock=cpu", "mcts:strength=10:clock=cpu"])
    keys = [rung_key(s) for s in config.specs()]
    assert keys[2] == ("mcts:iterations=4", None)
    assert keys[3] == ("mcts", 1)
    assert keys[4] == ("mcts", 10)
    with pytest.raises(ValueError, match=r"strength=1\.\.10"):
        rung_key(AgentSpec.parse("mcts:seconds=0.05"))  # a search by time is a level, given as strength


def test_a_level_entry_must_hold_its_interval_and_say_if_measured() -> None:
    with pytest.raises(ValidationError, match="outside its interval"):
        LevelEntry(level=2, elo=10, low=20, high=30, measured=True, games=4)
    with pytest.raises(ValidationError, match="measured level has games"):
        LevelEntry(level=2, elo=10, low=0, high=30, measured=True, games=0)


def test_every_shipped_levels_file_validates() -> None:
    for path in sorted(LEVELS_DIR.glob("*.json")):
        levels = load_levels(path.stem)
        assert levels is not None
        assert levels.game == path.stem
        assert levels.games == sum(p.games for p in levels.pairs)
        for entries in levels.agents.values():
            assert all(e.measured == (e.games > 0) for e in entries)
        # the rungs are the lobby's AIs (a level and, in the lab, the CPU clock) or greedy bridges
        # (`blunder`: a share of random moves, between random and greedy 1, or a policy option such
        # as the arena's `shy`, between greedy and the search; no lobby level); a
        # search rung may name a setting only as the file's `search` holds it (the settings the
        # server checks against the game's before it shows the search's levels: for_play)
        for pair in levels.pairs:
            for label in (pair.a, pair.b):
                spec = AgentSpec.parse(label)
                bridge = spec.name == "greedy" and bool(set(spec.options) - {"strength"})
                allowed = set(spec.options) - {"strength"} if bridge else {"strength", "clock"}
                if spec.name == "mcts" and "iterations" in spec.options and "strength" not in spec.options:
                    allowed = {"iterations"}  # a search bridge: a fixed number of iterations, no lobby level
                if spec.name == "mcts":
                    assert levels.search is not None, path.name
                    allowed |= {k for k, v in spec.options.items() if levels.search.get(k) == v}
                assert set(spec.options) <= allowed, (path.name, label)
        assert {e.level for entries in levels.agents.values() for e in entries} <= set(range(1, 11))
    assert load_levels("no_such_game") is None


def test_a_tiny_ladder_runs_writes_its_levels_and_continues_from_its_log(tmp_path: Path) -> None:
    ladder = ["random", "mcts:strength=1:iterations=2", "mcts:strength=4:iterations=8"]
    config = LevelsConfig(game="toy_bids", params={"players": 2}, ladder=ladder, games_per_pair=2, bootstrap=50)
    log = tmp_path / "levels.json.games.jsonl"
    doc, levels = run_levels(config, work_dir=tmp_path, result_path="levels.json", backend="local", games_log=log)
    assert len(doc["games"]) == 4
    assert all(g["digest_kind"] == "chain" for g in doc["games"])
    assert doc["summary"]["kind"] == "matchup"
    assert len(doc["summary"]["pairs"]) == 2
    assert [e.level for e in levels.agents["mcts"]] == [1, 2, 3, 4]
    assert [e.measured for e in levels.agents["mcts"]] == [True, False, False, True]
    # the fit is the anchored, seated Bradley-Terry of the same games, the two levels in order
    games = [GameResult.model_validate(g) for g in doc["games"]]
    flat = {p: [x for g in s.values() for x in g] for p, s in pair_scores(games).items()}
    assert order_chains(config.specs()) == [[1, 2]], "the same search at more iterations"
    fit = seated_fit(3, flat, [[1, 2]])
    assert [e.elo for e in levels.agents["mcts"] if e.measured] == [round(fit.ratings[1]), round(fit.ratings[2])]
    assert levels.agents["mcts"][0].elo <= levels.agents["mcts"][-1].elo
    GameLevels.model_validate_json(json.dumps(levels.model_dump(mode="json")))
    # twice the games: the first run's games are kept, the rest played
    more = config.model_copy(update={"games_per_pair": 4})
    doc2, _ = run_levels(more, work_dir=tmp_path, result_path="levels.json", backend="local", games_log=log)
    assert doc2["run"]["resumed_games"] == 4
    assert len(doc2["games"]) == 8
    first = {(g["seed"], g["tags"]["a_seat"], tuple(g["tags"]["pair"])): g["digest"] for g in doc["games"]}
    again = {(g["seed"], g["tags"]["a_seat"], tuple(g["tags"]["pair"])): g["digest"] for g in doc2["games"]}
    assert all(again[k] == v for k, v in first.items())
    # a run stopped early is fitted on the games its log holds, and says so
    most = config.model_copy(update={"games_per_pair": 8})
    doc3, stopped = run_levels(most, work_dir=tmp_path, result_path="levels.json", backend="local", games_log=log,
                               fit_only=True)
    assert len(doc3["games"]) == 8
    assert stopped.command.endswith("(stopped after 8 of 16 games, then --fit-only)")
    # a rung put into the ladder (a bridge): the games of the pairs left as they were are kept,
    # under the pair's new place in the ladder; the new pairs are played
    bridged = more.model_copy(update={"ladder": ["random", "mcts:iterations=1", "mcts:strength=1:iterations=2",
                                                 "mcts:strength=4:iterations=8"]})
    doc4, _ = run_levels(bridged, work_dir=tmp_path, result_path="levels.json", backend="local", games_log=log)
    kept = {(g["seed"], tuple(g["agents"])): g["digest"] for g in doc2["games"] if "random" not in g["agents"]}
    now = {(g["seed"], tuple(g["agents"])): (g["digest"], g["tags"]["pair"]) for g in doc4["games"]}
    assert doc4["run"]["resumed_games"] == len(kept) == 4
    assert all(now[k] == (digest, [2, 3]) for k, digest in kept.items())
    assert sum(1 for g in doc4["games"] if g["tags"]["pair"] == [1, 2]) == 4  # the new pairs played


def test_lab_levels_command_writes_the_result_and_the_levels_file(tmp_path: Path) -> None:
    out = tmp_path / "levels.json"
    res = CliRunner().invoke(app, [
        "lab", "levels", "toy_bids", "--players", "2", "--seed", "3", "--games-per-pair", "2",
        "--rung", "random", "--rung", "mcts:strength=2:iterations=3", "--out", str(out), "--backend", "local"])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert len(doc["games"]) == 2
    assert doc["summary"]["kind"] == "matchup"
    levels = GameLevels.model_validate_json((tmp_path / "levels.levels.json").read_text(encoding="utf-8"))
    assert levels.command == ("bloodforge lab levels toy_bids --players 2 --seed 3 --games-per-pair 2 "
                              "--cheap-games 40 --rung random --rung mcts:strength=2:iterations=3")
    (pair,) = levels.pairs
    swept = pair.score in (0.0, pair.games)
    assert [e.level for e in levels.agents.get("mcts", [])] == ([] if swept else [2])
    bad = CliRunner().invoke(app, ["lab", "levels", "toy_bids", "--rung", "greedy", "--rung", "random",
                                   "--out", str(out)])
    assert bad.exit_code != 0
    assert "starts with 'random'" in " ".join(bad.output.replace("│", " ").split())


def test_the_levels_table_for_the_docs_marks_interpolated_levels() -> None:
    levels = GameLevels(
        game="toy_bids", players=2, interval="-", interpolation="-", command="-", date="2026-11-26", seed=0,
        games=6, result="-", pairs=[{"a": "random", "b": "mcts:strength=1", "games": 6, "score": 1.0}],
        agents={"mcts": level_table("mcts", {1: (200, 100, 300, 6), 3: (400, 250, 600, 6)})})
    table = levels_markdown(levels).splitlines()
    assert table[2] == "| random | — | — | 0 | (the anchor) | by definition | 6 |"
    assert table[3] == "| mcts | 1 | 0.1 | +200 | [+100, +300] | measured | 6 |"
    assert table[4].startswith("| mcts | 2 | 0.2 | +326 |")
    assert table[4].endswith("| interpolated | — |")


def test_games_of_another_run_between_two_rungs_are_fitted_too(tmp_path: Path) -> None:
    """`--include`: a published matchup (mcts:seconds=1 against greedy) adds its games to the pair
    of the rungs it names in other words (strength 10 = one second; greedy's default is 10)."""
    config = LevelsConfig(game="toy_bids", params={"players": 2},
                          ladder=["random", "greedy:strength=10", "mcts:strength=10:clock=cpu"])
    doc = {"experiment": {"game": "toy_bids", "params": {"players": 2}}, "games": [
        {"agents": ["mcts:seconds=1:clock=cpu", "greedy"], "returns": [1.0, 0.0], "seed": 5},
        {"agents": ["greedy", "mcts:clock=cpu:seconds=1.0"], "returns": [1.0, 0.0], "seed": 5},
        {"agents": ["greedy", "mcts:seconds=1:clock=cpu"], "returns": [0.5, 0.5], "seed": 6},
        {"agents": ["greedy", "mcts:seconds=0.5:clock=cpu"], "returns": [1.0, 0.0], "seed": 7},  # no rung
    ]}
    included = included_games(config, [("other.json", doc)])
    # (document, rung a, rung b, seed, a's score, a's seat: +1 seat 1, -1 seat 0)
    assert included == [("other.json", 1, 2, 5, 0.0, 1), ("other.json", 1, 2, 5, 1.0, -1),
                        ("other.json", 1, 2, 6, 0.5, -1)]
    elsewhere = {"experiment": {"game": "toy_bids", "params": {"players": 3}}, "games": []}
    with pytest.raises(ExperimentError, match="not of 'toy_bids'"):
        included_games(config, [("x.json", elsewhere)])
    by_seed = pair_scores([], included)
    assert by_seed[(1, 2)] == {"other.json#000000000005": [(0.0, 1), (1.0, -1)],
                               "other.json#000000000006": [(0.5, -1)]}


def test_a_rung_reached_from_random_only_across_a_sweep_gets_no_number() -> None:
    """A 40-0 pair bounds the gap from below only; the fit's number for it would be the half
    virtual draw's. Rungs beyond it are left out, unless another pair joins them to random."""
    swept = {(0, 1): [0.0] * 40, (1, 2): [0.3] * 10, (0, 3): [0.5] * 4}
    assert rated_rungs(swept) == {3}
    assert rated_rungs({**swept, (2, 3): [0.5, 0.0]}) == {1, 2, 3}
    assert rated_rungs({(0, 1): [1.0] * 8, (1, 2): [0.5] * 8}) == set()


def test_a_game_already_counted_is_not_included_twice() -> None:
    """`--include` of a second run on the same seeds: its games without a searching agent are
    the first run's move for move (same seed and digest) and count once; a game of the same
    seed and pair with another digest (a search stopping on CPU time plays another game) counts."""
    config = LevelsConfig(game="toy_bids", params={"players": 2},
                          ladder=["random", "greedy:strength=10", "mcts:strength=10:clock=cpu"])
    doc = {"experiment": {"game": "toy_bids", "params": {"players": 2}}, "games": [
        {"agents": ["random", "greedy:strength=10"], "returns": [0.0, 1.0], "seed": 5, "digest": "d1"},
        {"agents": ["greedy:strength=10", "mcts:strength=10:clock=cpu"], "returns": [0.0, 1.0], "seed": 5,
         "digest": "d2"},
        {"agents": ["greedy:strength=10", "mcts:strength=10:clock=cpu"], "returns": [1.0, 0.0], "seed": 5,
         "digest": "d3"},
    ]}
    included = included_games(config, [("a.json", doc), ("b.json", doc)], played=[(5, "d2")])
    assert included == [("a.json", 0, 1, 5, 0.0, -1), ("a.json", 1, 2, 5, 1.0, -1)]


def test_the_levels_file_names_the_search_settings_its_search_rungs_played_with() -> None:
    """The game's own settings with a rung's own options (not its time) on top, so the lobby can
    tell when the levels no longer describe the game's search (`agents.levels.for_play`)."""
    own = bloodforge.load_game("kingdoms", players=2).search_options()
    plain = LevelsConfig(game="kingdoms", params={"players": 2},
                         ladder=["random", "greedy:strength=10", "mcts:strength=1:clock=cpu",
                                 "mcts:strength=10:clock=cpu"])
    assert search_settings(plain) == own
    mine = LevelsConfig(game="kingdoms", params={"players": 2},
                        ladder=["random", "mcts:strength=1:clock=cpu:rollout_turns=7",
                                "mcts:strength=10:clock=cpu:rollout_turns=7"])
    assert search_settings(mine) == {**own, "rollout_turns": 7}
    assert search_settings(LevelsConfig(game="kingdoms", params={"players": 2},
                                        ladder=["random", "greedy:strength=10"])) is None
    mixed = LevelsConfig(game="kingdoms", params={"players": 2},
                         ladder=["random", "mcts:strength=1:clock=cpu", "mcts:strength=10:clock=cpu:rollout_turns=7"])
    with pytest.raises(ExperimentError, match="different settings"):
        search_settings(mixed)
