"""Lab experiments: configs, variants of data files, matchups, summaries and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from bloodforge.cli.main import app
from bloodforge.lab.datafiles import DataPathError, set_path, write_variant
from bloodforge.lab.experiments import (
    Experiment,
    ExperimentError,
    FileEdit,
    Variant,
    load_experiment,
    run_experiment,
)
from bloodforge.lab.report import render_report

DATA = {"house": {"prizes": 5, "note": "x"}, "cards": [{"id": "a", "cost": 1}, {"id": "b", "cost": 2}]}


# -- data-file paths --------------------------------------------------------------------------
def test_set_path_by_key_index_and_id() -> None:
    assert set_path(DATA, "house.prizes", 3)["house"]["prizes"] == 3
    assert set_path(DATA, "cards[1].cost", 9)["cards"][1]["cost"] == 9
    assert set_path(DATA, "cards[id=a].cost", 7)["cards"][0]["cost"] == 7
    assert DATA["house"]["prizes"] == 5, "the original is untouched"


@pytest.mark.parametrize(
    ("path", "message"),
    [("house.prize", "no field 'prize'"), ("cards[5].cost", r"no list element \[5\]"),
     ("cards[id=z].cost", "0 elements have id=z"), ("house[0]", "no list element"), ("", "empty"),
     ("cards[x]", "neither an index")],
)
def test_bad_paths_name_the_file_path_and_step(path: str, message: str) -> None:
    with pytest.raises(DataPathError, match=message):
        set_path(DATA, path, 1, "deck.json")


def test_variant_files_are_named_by_their_changes(tmp_path: Path) -> None:
    base = tmp_path / "deck.json"
    base.write_text(json.dumps(DATA))
    a = write_variant(base, {"house.prizes": 3}, tmp_path / "v")
    b = write_variant(base, {"house.prizes": 3}, tmp_path / "v")
    c = write_variant(base, {"house.prizes": 4}, tmp_path / "v")
    assert a == b != c
    assert json.loads(a.read_text())["house"]["prizes"] == 3


# -- experiments ------------------------------------------------------------------------------
def deck_file(tmp_path: Path) -> Path:
    base = tmp_path / "deck.json"
    base.write_text(json.dumps(DATA))
    return base


def test_a_data_file_sweep_changes_the_game_and_pairs_seeds(tmp_path: Path) -> None:
    base = deck_file(tmp_path)
    exp = Experiment(
        kind="variants", game="toy_file_bids", params={"players": 2}, agents=["random"], games=12,
        variants=[Variant(name="five", files={"deck": FileEdit(base=str(base), set={"house.prizes": 5})}),
                  Variant(name="two", files={"deck": FileEdit(base=str(base), set={"house.prizes": 2})})],
    )
    doc = run_experiment(exp, work_dir=tmp_path, backend="local")
    five, two = doc["summary"]["variants"]
    # two prizes: a reveal, two bids and a resolve per prize, far fewer decisions
    assert five["mean_plies"] == 10
    assert two["mean_plies"] == 4
    assert set(two["vs_first"]) == {"0", "1"}
    seats = five["seats"]
    assert sum(s["score"] for s in seats.values()) == pytest.approx(12)
    for s in seats.values():
        assert s["low"] <= s["rate"] <= s["high"]
    assert [g["seed"] for g in doc["games"][:12]] == [g["seed"] for g in doc["games"][12:]]


def test_a_matchup_rotates_seats_and_rates_agents(tmp_path: Path) -> None:
    exp = Experiment(kind="matchup", game="toy_bids", params={"players": 3},
                     agents=["random", "mcts:iterations=30"], games=9)
    doc = run_experiment(exp, work_dir=tmp_path, backend="local")
    s = doc["summary"]
    (pair,) = s["pairs"]
    assert pair["games"] == 9
    assert set(pair["a_by_seat"]) == {"0", "1", "2"}
    assert all(v["games"] == 3 for v in pair["a_by_seat"].values())
    # each seat is one side here, so A's score by seat is also A's score by side
    assert [pair["a_by_seat"][k]["role"] for k in ("0", "1", "2")] == ["bidder 1", "bidder 2", "bidder 3"]
    assert {k: v["games"] for k, v in pair["a_by_role"].items()} == {"bidder 1": 3, "bidder 2": 3, "bidder 3": 3}
    assert pair["a_by_role"]["bidder 2"]["score"] == pair["a_by_seat"]["1"]["score"]
    assert s["matrix"][0][1] + s["matrix"][1][0] == pytest.approx(9)
    assert set(s["roles"]) == {"bidder 1", "bidder 2", "bidder 3"}


def test_one_agent_fills_every_variants_seats_even_when_a_variant_changes_the_player_count(
        tmp_path: Path) -> None:
    exp = Experiment(kind="variants", game="toy_bids", params={"players": 2}, agents=["random"], games=2,
                     variants=[Variant(name="two"), Variant(name="three", params={"players": 3})])
    doc = run_experiment(exp, work_dir=tmp_path, backend="local")
    assert sorted(len(g["returns"]) for g in doc["games"]) == [2, 2, 3, 3]


def test_bad_configs_name_what_is_wrong(tmp_path: Path) -> None:
    base = deck_file(tmp_path)
    typo = FileEdit(base=str(base), set={"house.prizez": 1})
    bad_path = Experiment(kind="variants", game="toy_file_bids", agents=["random"], games=1,
                          variants=[Variant(name="v", files={"deck": typo})])
    with pytest.raises(ExperimentError, match=r"variant 'v', file parameter 'deck'.*prizez"):
        run_experiment(bad_path, work_dir=tmp_path, backend="local")
    bad_agent = Experiment(kind="matchup", game="toy_bids", agents=["random", "oracle"], games=1)
    with pytest.raises(ExperimentError, match="oracle"):
        run_experiment(bad_agent, work_dir=tmp_path, backend="local")
    bad_param = Experiment(kind="variants", game="toy_bids", agents=["random"], games=1,
                           variants=[Variant(name="v", params={"prizes": 99})])
    with pytest.raises(ExperimentError, match="prizes"):
        run_experiment(bad_param, work_dir=tmp_path, backend="local")
    seats_short = Experiment(kind="variants", game="toy_bids", params={"players": 2}, agents=["random", "random"],
                             games=1, variants=[Variant(name="two"), Variant(name="three", params={"players": 3})])
    played: list[object] = []
    with pytest.raises(ExperimentError, match=r"variant 'three': give one agent per seat \(3\) or one for all; got 2"):
        run_experiment(seats_short, work_dir=tmp_path, backend="local", on_result=played.append)
    assert played == []  # refused before any game, not after the first variant's
    config = tmp_path / "bad.yaml"
    config.write_text(yaml.safe_dump({"kind": "variants", "game": "toy_bids", "agents": ["random"], "games": 0,
                                      "variants": [{"name": "v"}]}))
    with pytest.raises(ExperimentError, match=r"bad\.yaml.*games"):
        load_experiment(config)


# -- the CLI ----------------------------------------------------------------------------------
def test_lab_run_and_report_from_a_config(tmp_path: Path) -> None:
    base = deck_file(tmp_path)
    config = tmp_path / "study.yaml"
    config.write_text(yaml.safe_dump({
        "kind": "variants", "name": "prize count", "game": "toy_file_bids", "params": {"players": 2},
        "agents": ["random"], "games": 6,
        "variants": [{"name": "rulebook"},
                     {"name": "three", "files": {"deck": {"base": base.name, "set": {"house.prizes": 3}}}}],
    }))
    runner = CliRunner()
    out = tmp_path / "res" / "study.json"
    result = runner.invoke(app, ["lab", "run", str(config), "--out", str(out), "--backend", "local"])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert [v["name"] for v in doc["summary"]["variants"]] == ["rulebook", "three"]
    matchup = tmp_path / "res" / "m.json"
    result = runner.invoke(app, ["lab", "matchup", "toy_bids", "--agent", "random", "--agent", "mcts:iterations=5",
                                 "--games", "4", "--sprt", "0.5,0.75", "--out", str(matchup)])
    assert result.exit_code == 0, result.output
    html = tmp_path / "r.html"
    result = runner.invoke(app, ["lab", "report", str(out), str(matchup), "--out", str(html)])
    assert result.exit_code == 0, result.output
    page = html.read_text()
    assert page.count("data:image/png;base64,") >= 3
    assert "prize count" in page
    assert "matchup matrix" in page


def test_lab_sweep_and_ab_commands(tmp_path: Path) -> None:
    runner = CliRunner()
    base = deck_file(tmp_path)
    out = tmp_path / "sweep.json"
    result = runner.invoke(app, ["lab", "sweep", "toy_file_bids", "--vary", "house.prizes=2,4", "--file",
                                 f"deck={base}", "--games", "3", "--agents", "random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert [v["mean_plies"] for v in json.loads(out.read_text())["summary"]["variants"]] == [4, 8]
    # a path that selects by id carries its own `=`
    result = runner.invoke(app, ["lab", "sweep", "toy_file_bids", "--vary", "cards[id=b].cost=7", "--file",
                                 f"deck={base}", "--games", "1", "--agents", "random", "--out",
                                 str(tmp_path / "sweep_by_id.json")])
    assert result.exit_code == 0, result.output
    variants = [json.loads(p.read_text()) for p in (tmp_path / "variants").glob("*.json")]
    assert any(v["cards"][1]["cost"] == 7 for v in variants)
    out = tmp_path / "ab.json"
    result = runner.invoke(app, ["lab", "ab", "toy_bids", "--a", "prizes=2", "--b", "prizes=3", "--games", "3",
                                 "--agents", "random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["summary"]["variants"][1]["vs_first"]["0"]["p_value"] <= 1.0
    fresh = tmp_path / "fresh.json"
    result = runner.invoke(app, ["lab", "sweep", "toy_file_bids", "--vary", "house.nope=1", "--file",
                                 f"deck={base}", "--games", "1", "--agents", "random", "--out", str(fresh)])
    assert result.exit_code != 0
    assert "nope" in result.output
    result = runner.invoke(app, ["lab", "matchup", "toy_bids", "--agent", "random", "--agent", "random",
                                 "--sprt", "0.8,0.2", "--out", str(fresh)])
    assert result.exit_code != 0
    assert "P0,P1" in result.output


def test_a_matchup_can_demand_that_the_first_agent_passes_from_every_seat(tmp_path: Path) -> None:
    """`--sprt-by-seat`: one SPRT per seat of the first agent, the run stopping once every
    seat has passed (or one has failed); the games stop at that point of the seed order."""
    out = tmp_path / "by_seat.json"
    result = CliRunner().invoke(app, ["lab", "matchup", "toy_bids", "--agent", "mcts:iterations=40",
                                      "--agent", "random", "--games", "80", "--sprt", "0.2,0.5", "--sprt-by-seat",
                                      "--backend", "local", "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    (pair,) = doc["summary"]["pairs"]
    seats = pair["sprt"]["by_seat"]
    assert set(seats) == {"0", "1"}
    assert pair["sprt"]["decision"] == "H1"
    assert all(s["decision"] == "H1" for s in seats.values())
    # it stopped at the game where the later seat decided: that seat used all its games
    assert pair["games"] < 80
    later = max(seats, key=lambda k: seats[k]["games"])
    assert seats[later]["games"] == pair["a_by_seat"][later]["games"]
    result = CliRunner().invoke(app, ["lab", "matchup", "toy_bids", "--agent", "random", "--agent", "random",
                                      "--sprt-by-seat", "--out", str(out)])
    assert result.exit_code != 0
    assert "--sprt" in result.output


def test_variants_average_the_games_own_statistics(tmp_path: Path) -> None:
    """A designer sees the mechanism move, not only the win rate: with the blood payment
    capped at 2, no spell is ever paid with more (Blood Stone's `State.statistics`)."""
    exp = Experiment(kind="variants", game="witch", params={"players": 2}, agents=["greedy"], games=3,
                     variants=[Variant(name="ruled"), Variant(name="cap 2", params={"blood_payment_cap": 2})])
    doc = run_experiment(exp, work_dir=tmp_path, backend="local")
    ruled, capped = doc["summary"]["variants"]
    assert ruled["stats"]["turns"] > 0
    assert capped["stats"]["blood_paid"] > 0
    assert not [k for k in capped["stats"] if k.startswith(("x3.", "x4."))]
    assert all(g["stats"]["turns"] > 0 for g in doc["games"])
    assert "blood_paid" in render_report([doc])
