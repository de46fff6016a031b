"""`lab ... --records`: every game of a run kept whole, so a lost game can be watched again.

The games log says who won; with agents that decide by the clock the seed alone cannot
rebuild a game, so the record (each entry with its seat) is the only way to see how it went.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bloodforge.cli.main import app
from bloodforge.match import read_records

runner = CliRunner()


def _games(log: Path) -> list[dict[str, object]]:
    lines = log.read_text(encoding="utf-8").splitlines()
    assert "experiment" in json.loads(lines[0])
    return [json.loads(line) for line in lines[1:]]


def test_a_matchup_with_records_keeps_each_game_replayable_to_its_logged_digest(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = runner.invoke(app, ["lab", "matchup", "forts", "--agent", "greedy", "--agent", "random",
                                 "--games", "4", "--seed", "31", "--workers", "2", "--records", "--out", str(out)])
    assert result.exit_code == 0, result.output
    games = _games(out.with_name("m.json.games.jsonl"))
    records = read_records(out.with_name("m.json.records.jsonl"))
    assert len(records) == len(games) == 4
    for game, record in zip(games, records, strict=True):
        # the same game, line for line: its place in the run, its seed, agents and outcome
        assert record.meta["index"] == game["index"]
        assert record.meta["tags"] == game["tags"]
        assert record.seed == game["seed"]
        assert record.agents == game["agents"]
        assert record.returns == game["returns"]
        # and it replays entry by entry to the digest the games log holds
        assert record.digest == game["digest"]
        state = record.replay()
        assert state.is_terminal()
        assert state.digest() == game["digest"]
        assert state.returns() == game["returns"]
    # the result document stays the size of its outcomes
    assert all("record" not in g for g in json.loads(out.read_text())["games"])
    # `bloodforge replay` reads the file as it is
    shown = runner.invoke(app, ["replay", str(out.with_name("m.json.records.jsonl")), "--index", "3"])
    assert shown.exit_code == 0, shown.output
    assert "digest matches (chain)" in shown.output


def test_without_records_no_records_file_is_written(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = runner.invoke(app, ["lab", "matchup", "forts", "--agent", "random", "--agent", "random",
                                 "--games", "2", "--backend", "local", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(_games(out.with_name("m.json.games.jsonl"))) == 2
    assert not out.with_name("m.json.records.jsonl").exists()


def test_variant_runs_keep_records_too(tmp_path: Path) -> None:
    """A/B runs (and sweeps, which are variant runs) take the same option."""
    out = tmp_path / "ab.json"
    result = runner.invoke(app, ["lab", "ab", "forts", "--a", "players=2", "--b", "players=3", "--games", "2",
                                 "--agents", "random", "--backend", "local", "--records", "--out", str(out)])
    assert result.exit_code == 0, result.output
    records = read_records(out.with_name("ab.json.records.jsonl"))
    assert sorted(len(r.agents or []) for r in records) == [2, 2, 3, 3]
    for record, game in zip(records, _games(out.with_name("ab.json.games.jsonl")), strict=True):
        assert record.replay().digest() == game["digest"]
