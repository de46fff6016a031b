"""`lab merge`: pooling several runs of one experiment, with the SPRT decided on the
interleaved order, and the games log a run writes while it plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bloodforge.cli.main import app
from bloodforge.lab.experiments import Experiment, ExperimentError, SprtSpec
from bloodforge.lab.jobs import GameResult
from bloodforge.lab.merge import merge_runs, read_run

runner = CliRunner()


def message(output: str) -> str:
    """The CLI's error text without the panel's borders and line breaks (rich wraps it to the
    terminal's width, so a long temporary path can split any phrase over two lines)."""
    return " ".join(output.replace("│", " ").split())


def matchup(tmp_path: Path, name: str, seed: int, games: int = 4) -> Path:
    out = tmp_path / f"{name}.json"
    result = runner.invoke(app, ["lab", "matchup", "toy_bids", "--agent", "random", "--agent", "mcts:iterations=3",
                                 "--games", str(games), "--seed", str(seed), "--out", str(out), "--backend", "local"])
    assert result.exit_code == 0, result.output
    return out


def test_a_run_logs_every_game_as_it_finishes_after_a_line_naming_the_experiment(tmp_path: Path) -> None:
    out = matchup(tmp_path, "a", seed=0)
    lines = (tmp_path / "a.json.games.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["experiment"]["game"] == "toy_bids"
    doc = json.loads(out.read_text())
    logged = [json.loads(line) for line in lines[1:]]
    assert sorted(g["seed"] for g in logged) == sorted(g["seed"] for g in doc["games"])
    exp, games = read_run(tmp_path / "a.json.games.jsonl")
    assert exp.game == "toy_bids"
    assert len(games) == 4


def test_merging_pools_two_runs_on_other_seeds(tmp_path: Path) -> None:
    a, b = matchup(tmp_path, "a", seed=0), matchup(tmp_path, "b", seed=100)
    out = tmp_path / "merged.json"
    result = runner.invoke(app, ["lab", "merge", str(a), str(tmp_path / "b.json.games.jsonl"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert len(doc["games"]) == 8
    assert [g["index"] for g in doc["games"]] == list(range(8))
    first, second = json.loads(a.read_text()), json.loads(b.read_text())
    # interleaved: a's first game, b's first game, a's second ...
    assert doc["games"][0]["seed"] == first["games"][0]["seed"]
    assert doc["games"][1]["seed"] == second["games"][0]["seed"]
    total = sum(p["score"] for d in (first, second) for p in d["summary"]["pairs"])
    pair = doc["summary"]["pairs"][0]
    assert pair["games"] == 8
    assert pair["score"] == pytest.approx(total)
    assert pair["rate"] == pytest.approx(total / 8)


def test_merging_the_same_seeds_twice_or_two_experiments_is_refused(tmp_path: Path) -> None:
    a = matchup(tmp_path, "a", seed=0)
    result = runner.invoke(app, ["lab", "merge", str(a), str(tmp_path / "a.json.games.jsonl"),
                                 "--out", str(tmp_path / "m.json")])
    assert result.exit_code != 0
    assert "already in" in message(result.output)
    other = tmp_path / "other.json"
    result = runner.invoke(app, ["lab", "matchup", "toy_bids", "--agent", "random", "--agent", "random",
                                 "--games", "2", "--seed", "50", "--out", str(other), "--backend", "local"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["lab", "merge", str(a), str(other), "--out", str(tmp_path / "m.json")])
    assert result.exit_code != 0
    assert "differs in agents" in message(result.output)
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize(("text", "message"), [
    ("not json", "not JSON"),
    ('{"games": []}', "not a lab result document"),
])
def test_unreadable_runs_say_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    with pytest.raises(ExperimentError, match=message):
        read_run(bad)
    log = tmp_path / "bad.games.jsonl"
    log.write_text('{"index": 0}\n')
    with pytest.raises(ExperimentError, match="first line must name the experiment"):
        read_run(log)


def _game(index: int, seed: int, a_seat: int, a_score: float) -> GameResult:
    returns = [0.0, 0.0]
    returns[a_seat] = a_score
    returns[1 - a_seat] = 1.0 - a_score
    return GameResult(index=index, tags={"pair": [0, 1], "a_seat": a_seat}, seed=seed,
                      agents=["random", "mcts:iterations=3"], returns=returns, scores=returns,
                      roles=["x", "y"], plies=3, digest="d", seconds=1.0)


def test_the_sprt_is_decided_on_the_interleaved_order_and_stops_there() -> None:
    exp = Experiment(kind="matchup", game="toy_bids", params={"players": 2}, agents=["random", "mcts:iterations=3"],
                     sprt=SprtSpec(p0=0.5, p1=0.9))
    # run one wins every game; run two loses its first game then wins
    one = [_game(i, seed=i, a_seat=i % 2, a_score=1.0) for i in range(20)]
    two = [_game(i, seed=100 + i, a_seat=i % 2, a_score=0.0 if i == 0 else 1.0) for i in range(20)]
    doc = merge_runs([(Path("one"), exp, one), (Path("two"), exp, two)])
    decided = doc["run"]["sprt_decided_after"]
    assert decided is not None
    assert decided < 40
    assert len(doc["games"]) == decided
    assert doc["summary"]["pairs"][0]["sprt"]["decision"] == "H1"
    # undecided: everything kept, nothing claimed
    doc = merge_runs([(Path("one"), exp, one[:2]), (Path("two"), exp, two[:1])])
    assert doc["run"]["sprt_decided_after"] is None
    assert len(doc["games"]) == 3
