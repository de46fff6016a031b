"""Issue 18, the terminal: a fresh seed per game (printed) unless --seed, numbers out of range
said as such, seats counted from 1 as in the lobby, and the lab's output ignored by git."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bloodforge.cli.main import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def flat(output: str) -> str:
    """The output with rich's line wrapping undone."""
    return " ".join(output.split())


def seed_of(output: str) -> int:
    found = re.search(r"seed (\d+) \(play it again with --seed \1\)", flat(output))
    assert found, output[:500]
    return int(found.group(1))


def test_play_without_seed_uses_a_fresh_seed_each_time_and_prints_it() -> None:
    seeds = set()
    for _ in range(3):
        result = runner.invoke(app, ["play", "witch", "--seat", "2=random"], input="q\n")
        assert "Game abandoned" in result.output
        seeds.add(seed_of(result.output))
    assert len(seeds) == 3  # seed 0 every time was the defect; three equal 31-bit draws never happen


def test_play_with_seed_keeps_it_and_replays_the_same_game() -> None:
    one = runner.invoke(app, ["play", "witch", "--seat", "1=random", "--seat", "2=random", "--seed", "41"])
    two = runner.invoke(app, ["play", "witch", "--seat", "1=random", "--seat", "2=random", "--seed", "41"])
    assert one.exit_code == 0, one.output[-1000:]
    assert seed_of(one.output) == 41
    assert one.output == two.output


@pytest.mark.parametrize("typed", ["99", "0"])
def test_a_number_outside_the_list_is_out_of_range_not_an_unknown_action(typed: str) -> None:
    result = runner.invoke(app, ["play", "witch", "--seat", "2=random", "--seed", "2"], input=f"{typed}\nq\n")
    found = re.search(rf"{typed} is out of range \(1\.\.(\d+)\)", flat(result.output))
    assert found, result.output[-1500:]
    n = int(found.group(1))
    entries = [int(m) for m in re.findall(r"^ +(\d+)  [a-z]", result.output, flags=re.MULTILINE)]
    assert entries[:n] == list(range(1, n + 1))  # the list is numbered 1..n, as the message says
    assert "unknown action" not in result.output


def test_number_one_picks_the_first_action_of_the_list() -> None:
    result = runner.invoke(app, ["play", "witch", "--seat", "2=random", "--seed", "2"], input="1\nq\n")
    first = re.search(r"^\s+1\s{2}(.+)$", result.output, flags=re.MULTILINE)
    assert first, result.output[:1500]
    assert "out of range" not in result.output
    assert "Game abandoned" in result.output


def test_seats_are_counted_from_one_as_in_the_lobby() -> None:
    args = ["play", "witch", "--seat", "1=human", "--seat", "2=greedy", "--seed", "3"]
    result = runner.invoke(app, args, input="q\n")
    assert "Seat 1 (Soldiers): you" in flat(result.output)
    assert "Seat 2 (Witch): greedy AI" in flat(result.output)
    bad = runner.invoke(app, ["play", "witch", "--seat", "3=random"])
    assert bad.exit_code == 2
    assert "seats are 1..2" in flat(bad.output)
    zero = runner.invoke(app, ["play", "witch", "--seat", "0=random"])
    assert zero.exit_code == 2
    assert "seats are 1..2" in flat(zero.output)


def test_lab_results_folder_is_ignored_by_git() -> None:
    """`bloodforge lab ... --out lab-results/...` writes there; git must not offer it for commit."""
    done = subprocess.run(["git", "check-ignore", "-q", "lab-results/study.json"], cwd=ROOT, check=False)
    assert done.returncode == 0


def test_map_shows_every_area_with_its_neighbours_not_only_occupied_ones() -> None:
    """Issue 18: Bloodstones' `map` listed only occupied areas; planning needs the whole map."""
    import bloodforge

    board = bloodforge.load_game("bloodstones", players=2, seed=1).static_info()["board"]
    result = runner.invoke(app, ["play", "bloodstones", "--players", "2", "--seed", "1", "--seat", "2=random"],
                           input="map\nq\n")
    text = flat(result.output)
    assert f"The whole map ({len(board['areas'])} areas" in text
    for area in board["areas"]:
        assert f"{area['name']}:" in text, area["name"]
    near = sorted({int(b) for a, b in board["links"] if a == "0"} | {int(a) for a, b in board["links"] if b == "0"})
    assert f"0 (sea): {', '.join(map(str, near))}" in text
