"""The registry and parameter validation, as a user meets them."""

import pytest

import bloodforge
from bloodforge.core import ParameterError, ScenarioError, UnknownGame


def test_list_games_describes_every_game() -> None:
    games = bloodforge.list_games()
    ids = [g["id"] for g in games]
    assert "bloodstones" in ids
    for g in games:
        assert g["min_players"] <= g["max_players"]
        assert g["parameters"]["type"] == "object"
        assert "players" in g["parameters"]["properties"]


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="bloodstones"):
        bloodforge.load_game("chess")


def test_unknown_parameter_is_refused_by_name() -> None:
    with pytest.raises(ParameterError, match="colour"):
        bloodforge.load_game("bloodstones", players=2, colour="red")


def test_player_count_outside_range_is_refused() -> None:
    with pytest.raises(ParameterError, match=r"players.*(6|2-6)"):
        bloodforge.load_game("bloodstones", players=7)


def test_seed_must_be_an_integer() -> None:
    with pytest.raises(ParameterError, match="seed"):
        bloodforge.load_game("bloodstones", players=2, seed="x")  # type: ignore[arg-type]


def test_scenario_envelope_errors_are_clear() -> None:
    with pytest.raises(ScenarioError, match="game"):
        bloodforge.load_scenario({"params": {}})
    with pytest.raises(ScenarioError, match=r"extra|not permitted"):
        bloodforge.load_scenario({"game": "bloodstones", "params": {"players": 2}, "bogus": 1})


def test_scenario_file_that_is_not_yaml_is_refused(tmp_path: object) -> None:
    from pathlib import Path

    p = Path(str(tmp_path)) / "broken.yaml"
    p.write_text("game: [unclosed")
    with pytest.raises(ScenarioError, match=r"broken\.yaml"):
        bloodforge.load_scenario(p)
    with pytest.raises(ScenarioError, match="cannot read"):
        bloodforge.load_scenario(Path(str(tmp_path)) / "missing.yaml")
