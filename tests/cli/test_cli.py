"""The command line as a user runs it: games, selfplay, replay, play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bloodforge.cli.main import app

runner = CliRunner()


def test_games_lists_bloodstones() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "bloodstones" in result.output


def test_selfplay_writes_records_that_replay_to_the_same_digest(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["selfplay", "bloodstones", "--players", "3", "--games", "3", "--agents", "random",
                                 "--seed", "4", "--jsonl", str(out)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 3
    for rec in records:
        for key in ("game", "params", "seed", "agents", "winner", "scores", "returns", "plies", "digest", "seconds"):
            assert key in rec
        assert rec["agents"] == ["random"] * 3
        assert sum(1 for seat, _ in rec["moves"] if seat is not None) == rec["plies"]
    assert [r["seed"] for r in records] == [4, 5, 6]
    replay = runner.invoke(app, ["replay", str(out), "--index", "2"])
    assert replay.exit_code == 0, replay.output
    assert "digest matches" in replay.output


def test_replay_detects_a_tampered_record(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    assert runner.invoke(app, ["selfplay", "bloodstones", "--games", "1", "--jsonl", str(out)]).exit_code == 0
    rec = json.loads(out.read_text())
    rec["digest"] = "0" * 64
    out.write_text(json.dumps(rec))
    result = runner.invoke(app, ["replay", str(out)])
    assert result.exit_code == 2
    assert "mismatch" in result.output


def test_selfplay_with_worker_processes_matches_single_process(tmp_path: Path) -> None:
    one, two = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = ["selfplay", "bloodstones", "--players", "3", "--games", "6", "--seed", "9", "--agents", "random"]
    assert runner.invoke(app, [*args, "--jsonl", str(one)]).exit_code == 0
    assert runner.invoke(app, [*args, "--jsonl", str(two), "--workers", "2"]).exit_code == 0
    digests = lambda p: [json.loads(x)["digest"] for x in p.read_text().splitlines()]  # noqa: E731
    assert digests(one) == digests(two)


def test_selfplay_rejects_unknown_agent_and_bad_params() -> None:
    result = runner.invoke(app, ["selfplay", "bloodstones", "--agents", "alphazero"])
    assert result.exit_code != 0
    assert "alphazero" in result.output
    result = runner.invoke(app, ["selfplay", "bloodstones", "--param", "factions=corsairs,horse_lords"])
    assert result.exit_code != 0
    assert "corsairs" in result.output


def test_play_with_only_ai_seats_runs_to_the_end() -> None:
    result = runner.invoke(app, ["play", "bloodstones", "--players", "2", "--seat", "1=random", "--seat", "2=random",
                                 "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output


def test_play_human_seat_reads_choices_and_reports_bad_input(tmp_path: Path) -> None:
    # the human (seat 1) answers with a malformed action, then an illegal one, then quits
    result = runner.invoke(app, ["play", "bloodstones", "--players", "2", "--seed", "1", "--seat", "2=random"],
                           input="fly away\nbattle 1 1\nq\n")
    assert "unknown action 'fly'" in result.output
    assert "battle 1 1" in result.output
    assert "Game abandoned" in result.output
    assert result.exit_code == 1


def test_play_human_typing_action_texts_until_the_end(tmp_path: Path) -> None:
    """Seat 1 types the actions a random agent would choose; the CLI game must be that game."""
    import bloodforge
    from bloodforge.agents import make_agent
    from bloodforge.core.rng import mix_seed

    seed = 2
    game = bloodforge.load_game("bloodstones", players=2, seed=seed)
    state = game.new_initial_state()
    me = make_agent("random", seat=0, seed=123)
    ai = make_agent("random", seat=1, seed=mix_seed(seed, "cli", 1))
    typed = []
    while not state.is_terminal():
        if state.current_player == 0:
            action = me.select_action(state)
            typed.append(str(action))
        else:
            action = ai.select_action(state)
        state.apply(action)
    save = tmp_path / "rec.json"
    result = runner.invoke(app, ["play", "bloodstones", "--players", "2", "--seed", str(seed), "--seat", "2=random",
                                 "--save", str(save)], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output[-2000:]
    rec = json.loads(save.read_text())
    assert rec["digest"] == state.digest()
    replay = runner.invoke(app, ["replay", str(save)])
    assert replay.exit_code == 0
    assert "digest matches" in replay.output


def test_play_from_a_scenario_saves_a_record_that_replays(tmp_path: Path) -> None:
    """`play --scenario ... --save` keeps the scenario, so `replay` rebuilds the same game."""
    scenario = Path(__file__).parents[2] / "src/bloodforge/games/witch/scenarios/last_stand.yaml"
    save = tmp_path / "r.json"
    result = runner.invoke(app, ["play", "witch", "--scenario", str(scenario), "--seat", "1=random",
                                 "--seat", "2=random", "--save", str(save)])
    assert result.exit_code == 0, result.output[-2000:]
    rec = json.loads(save.read_text())
    assert rec["scenario"]["game"] == "witch"
    replay = runner.invoke(app, ["replay", str(save)])
    assert replay.exit_code == 0, replay.output[-2000:]
    assert "digest matches" in replay.output


def test_replay_reads_records_written_before_seats_were_kept(tmp_path: Path) -> None:
    """Old `selfplay --jsonl` lines list only action texts; the seats are recovered by replaying."""
    out = tmp_path / "g.jsonl"
    assert runner.invoke(app, ["selfplay", "witch", "--games", "1", "--seed", "3", "--jsonl", str(out)]).exit_code == 0
    rec = json.loads(out.read_text())
    rec["actions"] = [text for _, text in rec.pop("moves")]
    out.write_text(json.dumps(rec))
    result = runner.invoke(app, ["replay", str(out)])
    assert result.exit_code == 0, result.output[-2000:]
    assert "digest matches" in result.output


def test_play_refuses_an_unknown_agent_in_seat_with_one_clear_error() -> None:
    result = runner.invoke(app, ["play", "bloodstones", "--seat", "2=alphazero"])
    assert result.exit_code == 2
    assert "unknown agent 'alphazero'" in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_play_prompt_understands_help_and_map() -> None:
    result = runner.invoke(app, ["play", "witch", "--seat", "2=random", "--seed", "2"], input="help\nmap\nlist\nq\n")
    assert result.exit_code == 1
    assert "cast" in result.output  # a verb of the game's grammar, from `help`
    assert "the board again" in result.output
    assert result.output.count("Turn") >= 0
    assert "Game abandoned" in result.output


def test_play_ends_with_a_summary_naming_winner_and_seats() -> None:
    result = runner.invoke(app, ["play", "witch", "--seat", "1=random", "--seat", "2=greedy", "--seed", "5"])
    assert result.exit_code == 0, result.output[-2000:]
    assert "Winner:" in result.output
    assert "Seat 1 (Soldiers) [random]" in result.output
    assert "Seat 2 (Witch) [greedy]" in result.output


def test_serve_on_a_busy_port_is_one_clear_error() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert "already in use" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("url", "words"),
    [("nonsense://x", "not a database URL"), ("postgresql://u:secret@127.0.0.1:1/db", "cannot reach the database")],
)
def test_serve_with_a_bad_database_is_one_clear_error(url: str, words: str) -> None:
    result = runner.invoke(app, ["serve", "--port", "0", "--db", url])
    assert result.exit_code == 2
    assert words in result.output
    assert "secret" not in result.output
    assert "Traceback" not in result.output
