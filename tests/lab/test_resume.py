"""`--resume`: a stopped lab run goes on from its games log, and ends as the uninterrupted run
would have (the same games, the same early stop); a log holding games is never overwritten,
and a log of another experiment is refused with the reason, the files left as they were."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from bloodforge.cli.main import app

runner = CliRunner()

MATCHUP = ["lab", "matchup", "toy_bids", "--agent", "random", "--agent", "mcts:iterations=3", "--backend", "local"]
SPRT = ["lab", "matchup", "toy_bids", "--agent", "mcts:iterations=40", "--agent", "random", "--games", "80",
        "--sprt", "0.2,0.5", "--sprt-by-seat", "--backend", "local"]


def message(output: str) -> str:
    """The CLI's error text without the panel's borders and line breaks."""
    return " ".join(output.replace("│", " ").split())


def run(args: list[str], out: Path, *extra: str) -> dict:
    result = runner.invoke(app, [*args, "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def games_log(out: Path) -> Path:
    return out.with_name(out.name + ".games.jsonl")


def records_log(out: Path) -> Path:
    return out.with_name(out.name + ".records.jsonl")


def stop_after(out: Path, games: int) -> None:
    """What a run stopped after `games` finished games leaves: its log cut there."""
    for log, head in ((games_log(out), 1), (records_log(out), 0)):
        if log.exists():
            lines = log.read_text().splitlines()
            log.write_text("".join(line + "\n" for line in lines[:head + games]))


def outcomes(doc: dict) -> list[tuple]:
    """What identifies each game and its result (not its wall time)."""
    return [(g["seed"], json.dumps(g["tags"], sort_keys=True), g["agents"], g["returns"], g["digest"])
            for g in doc["games"]]


def test_a_resumed_matchup_plays_only_the_missing_games_and_ends_as_an_uninterrupted_run(tmp_path: Path) -> None:
    whole = run([*MATCHUP, "--games", "6"], tmp_path / "whole.json")
    out = tmp_path / "stopped.json"
    run([*MATCHUP, "--games", "6"], out)
    stop_after(out, 4)
    kept = games_log(out).read_text()
    resumed = run([*MATCHUP, "--games", "6"], out, "--resume")
    assert outcomes(resumed) == outcomes(whole)
    assert resumed["summary"]["pairs"] == whole["summary"]["pairs"]
    assert resumed["run"]["resumed_games"] == 4
    # the logged games were not played again: their lines (wall times included) are untouched
    assert games_log(out).read_text().startswith(kept)
    assert len(games_log(out).read_text().splitlines()) == 1 + 6


def test_resuming_with_more_games_extends_the_run_to_the_longer_run(tmp_path: Path) -> None:
    longer = run([*MATCHUP, "--games", "8"], tmp_path / "longer.json")
    out = tmp_path / "short.json"
    run([*MATCHUP, "--games", "4"], out)
    extended = run([*MATCHUP, "--games", "8"], out, "--resume")
    assert outcomes(extended) == outcomes(longer)
    assert extended["run"]["resumed_games"] == 4


def test_a_resumed_ab_with_more_seeds_fills_each_variant(tmp_path: Path) -> None:
    """Variants log their games variant by variant, so more seeds per variant are missing in
    the middle of the job list, not only at its end."""
    ab = ["lab", "ab", "toy_bids", "--a", "prizes=2", "--b", "prizes=3", "--agents", "random", "--backend", "local"]
    longer = run([*ab, "--games", "5"], tmp_path / "longer.json")
    out = tmp_path / "short.json"
    run([*ab, "--games", "3"], out)
    extended = run([*ab, "--games", "5"], out, "--resume")
    assert outcomes(extended) == outcomes(longer)
    assert extended["summary"] == longer["summary"]
    assert extended["run"]["resumed_games"] == 6
    assert len(games_log(out).read_text().splitlines()) == 1 + 10


def test_a_resumed_sprt_decides_on_the_same_ordered_games(tmp_path: Path) -> None:
    whole = run(SPRT, tmp_path / "whole.json")
    decided = len(whole["games"])
    assert 4 < decided < 80, "the test must stop early for this check to mean anything"
    out = tmp_path / "stopped.json"
    run(SPRT, out)
    stop_after(out, decided - 3)
    resumed = run(SPRT, out, "--resume")
    assert outcomes(resumed) == outcomes(whole)
    assert resumed["summary"]["pairs"][0]["sprt"] == whole["summary"]["pairs"][0]["sprt"]
    # resumed once more: the test had decided on the logged games, nothing is played
    before = games_log(out).read_text()
    again = run(SPRT, out, "--resume")
    assert outcomes(again) == outcomes(whole)
    assert games_log(out).read_text() == before


def test_the_log_of_a_stopped_run_is_never_overwritten_without_resume(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    run([*MATCHUP, "--games", "6"], out)
    # a finished run: its games are in the result document, so the command may run again
    run([*MATCHUP, "--games", "6"], out)
    stop_after(out, 4)
    out.unlink()  # stopped before writing its result document
    before = games_log(out).read_text()
    result = runner.invoke(app, [*MATCHUP, "--games", "6", "--out", str(out)])
    assert result.exit_code != 0
    text = message(result.output)
    assert "holds 4 games of a run that stopped before writing m.json" in text
    assert "--resume" in text
    assert games_log(out).read_text() == before
    assert not out.exists()
    # a result document of another run there does not hold the stopped run's games either
    run([*MATCHUP, "--games", "6", "--seed", "9"], tmp_path / "other.json")
    (tmp_path / "other.json").rename(out)
    result = runner.invoke(app, [*MATCHUP, "--games", "6", "--out", str(out)])
    assert result.exit_code != 0
    assert games_log(out).read_text() == before


def test_resume_refuses_the_log_of_another_experiment_and_changes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    run([*MATCHUP, "--games", "4", "--seed", "5"], out)
    before = games_log(out).read_text()
    for args, said in (
        ([*MATCHUP, "--games", "4", "--seed", "6"], "seed: log 5, now 6"),
        (["lab", "matchup", "toy_bids", "--agent", "random", "--agent", "mcts:iterations=4", "--games", "4",
          "--seed", "5", "--backend", "local"], "agents"),
        ([*MATCHUP, "--games", "2", "--seed", "5"], "no game of this experiment"),
    ):
        result = runner.invoke(app, [*args, "--out", str(out), "--resume"])
        assert result.exit_code != 0, args
        assert said in message(result.output), message(result.output)
        assert games_log(out).read_text() == before


def test_resume_keeps_the_records_one_line_per_logged_game(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    run([*MATCHUP, "--games", "6", "--records"], out)
    # the process stopped after logging game 4 and before writing its record
    stop_after(out, 4)
    records = records_log(out).read_text().splitlines()
    records_log(out).write_text("".join(line + "\n" for line in records[:3]))
    result = runner.invoke(app, [*MATCHUP, "--games", "6", "--out", str(out), "--resume"])
    assert result.exit_code != 0
    assert "resume with --records" in message(result.output)
    doc = run([*MATCHUP, "--games", "6"], out, "--resume", "--records")
    assert doc["run"]["resumed_games"] == 3
    logged = [json.loads(line) for line in games_log(out).read_text().splitlines()[1:]]
    kept = [json.loads(line) for line in records_log(out).read_text().splitlines()]
    assert len(logged) == len(kept) == 6
    assert [(g["index"], g["tags"]) for g in logged] == [(r["meta"]["index"], r["meta"]["tags"]) for r in kept]


def test_a_half_written_last_line_is_dropped_and_its_game_played_again(tmp_path: Path) -> None:
    whole = run([*MATCHUP, "--games", "4"], tmp_path / "whole.json")
    out = tmp_path / "torn.json"
    run([*MATCHUP, "--games", "4"], out)
    lines = games_log(out).read_text().splitlines()
    games_log(out).write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])
    result = runner.invoke(app, [*MATCHUP, "--games", "4", "--out", str(out), "--resume"])
    assert result.exit_code == 0, result.output
    assert "half written" in message(result.output)
    assert outcomes(json.loads(out.read_text())) == outcomes(whole)
    assert all(json.loads(line) for line in games_log(out).read_text().splitlines())


def test_resume_without_a_log_starts_afresh(tmp_path: Path) -> None:
    out = tmp_path / "new.json"
    result = runner.invoke(app, [*MATCHUP, "--games", "2", "--out", str(out), "--resume"])
    assert result.exit_code == 0, result.output
    assert "starting afresh" in message(result.output)
    assert len(json.loads(out.read_text())["games"]) == 2


def test_ctrl_c_keeps_the_finished_games_and_says_how_to_go_on(tmp_path: Path) -> None:
    """A real `bloodforge lab` process interrupted as a user interrupts it (SIGINT), then the
    same command with `--resume`: every game of the first process is kept, the rest played.
    The first run is asked for far more games than it gets to play; the resumed one for a few
    more than were logged (fewer games than asked are fine while every logged game is a job)."""
    out = tmp_path / "long.json"
    command = [sys.executable, "-m", "bloodforge.cli.main", "lab", "matchup", "forts", "--agent", "random",
               "--agent", "random", "--backend", "local", "--out", str(out)]

    def logged() -> int:
        return len(games_log(out).read_text().splitlines()) - 1 if games_log(out).exists() else 0

    # as from a shell: SIGINT at its default (a pytest-xdist worker ignores it, and a child that
    # starts with SIGINT ignored never gets Python's KeyboardInterrupt handler)
    process = subprocess.Popen([*command, "--games", "100000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while logged() < 5:
        assert time.monotonic() < deadline, "five games not logged in two minutes"
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    text = " ".join(err.split())
    assert "--resume goes on with it" in text
    kept = games_log(out).read_text()
    played = logged()
    assert played >= 5
    assert f"keeps the {played} games finished" in text
    assert not out.exists(), "no result document for a stopped run"
    games = 2 * ((played + 5) // 2 + 1)
    finished = subprocess.run([*command, "--games", str(games), "--resume"], capture_output=True, text=True,
                              timeout=600, check=False)
    assert finished.returncode == 0, finished.stderr
    doc = json.loads(out.read_text())
    assert len(doc["games"]) == games
    assert doc["run"]["resumed_games"] == played
    assert games_log(out).read_text().startswith(kept)
