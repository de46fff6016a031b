"""The workbench's sweeps, matchups, plots, process-pool start method and Ray backend (issue 22):
each runs as a job to the end, shows its numbers, and its export reproduces with `lab run`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bloodforge.cli.main import app as cli_app
from bloodforge.lab import report, runner
from bloodforge.lab.jobs import AgentSpec, GameResult, Job, play_job
from bloodforge.lab.runner import run_jobs
from bloodforge.server.workbench import _agent_words, sweep_values

from .conftest import ClientFactory
from .test_workbench import AUTH, TOKEN, wait_done, witch_content

#: A cheap searching agent (a few iterations, short rollouts).
MCTS = "mcts:iterations=2:rollout_depth=2"
#: The Blood Witch's starting blood (a whole number of the one content file).
BLOOD = "content.units.0.starting_blood"


def lab_client(make_client: ClientFactory, url: str, **options: Any) -> Any:
    return make_client(url, lab=True, lab_token=TOKEN, **options)


def save_variant(client: TestClient, name: str = "same") -> int:
    r = client.post("/api/lab/variants", headers=AUTH, json={"game": "witch", "name": name,
                                                              "content": witch_content(client)})
    assert r.status_code == 201, r.text
    vid: int = r.json()["id"]
    return vid


def reproduce(tmp_path: Path, config: str) -> dict[str, Any]:
    path = tmp_path / "exported.json"
    path.write_text(config, encoding="utf-8")
    out = tmp_path / "result.json"
    result = CliRunner().invoke(cli_app, ["lab", "run", str(path), "--out", str(out), "--backend", "local"])
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))["summary"]
    return summary


def test_sweep_plays_each_value_against_the_base_shows_plots_and_reproduces_with_lab_run(
    make_client: ClientFactory, sqlite_url: str, tmp_path: Path
) -> None:
    """Two values of the Witch's starting blood, two games each, in a forkserver pool of two
    workers: a row per value with Wilson intervals and the paired difference against the base,
    a sentence, the plots as PNGs, and an export that `bloodforge lab run` plays identically."""
    with lab_client(make_client, sqlite_url, lab_workers=2) as client:
        assert client.app.state.workbench.settings.lab_start_method == "forkserver"
        vid = save_variant(client)
        body = {"kind": "sweep", "game": "witch", "variant": vid, "agents": ["random"], "games": 2, "seed": 5,
                "sweep": {"path": BLOOD, "start": 14, "stop": 16, "step": 2}}
        r = client.post("/api/lab/experiments", headers=AUTH, json=body)
        assert r.status_code == 202, r.text
        assert r.json()["total"] == 6  # the base and two values, two seeds each
        done = wait_done(client, r.json()["id"])
        assert done["status"] == "done", done
        assert done["done"] == 6
        summary = done["summary"]
        assert summary["sweep"]["values"] == [14, 16]
        assert summary["sweep"]["label"] == "Starting blood"
        names = [v["name"] for v in summary["variants"]]
        assert names == ["base", "Starting blood = 14", "Starting blood = 16"]
        for point in summary["variants"][1:]:
            assert set(point["vs_first"]) == {"0", "1"}
            seat = point["seats"]["0"]
            assert 0 <= seat["low"] <= seat["rate"] <= seat["high"] <= 1
        assert done["sentence"].startswith("Starting blood from 14 to 16: ")
        assert "[" in done["sentence"]
        assert "(base " in done["sentence"]
        plots = client.get(f"/api/lab/experiments/{done['id']}/plots", headers=AUTH)
        assert plots.status_code == 200, plots.text
        listed = plots.json()["plots"]
        assert [p["name"] for p in listed][:2] == ["sweep", "seats"]
        png = client.get(listed[0]["url"], headers=AUTH)
        assert png.headers["content-type"] == "image/png"
        assert png.content.startswith(b"\x89PNG")
        assert client.get(listed[0]["url"]).status_code == 401
        config = client.get(f"/api/lab/experiments/{done['id']}/config", headers=AUTH).text
    again = reproduce(tmp_path, config)
    assert again == {k: v for k, v in summary.items() if k not in ("seat_roles", "sweep")}


def test_sweep_refuses_a_range_or_value_it_cannot_play(make_client: ClientFactory, sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url) as client:
        vid = save_variant(client)
        body: dict[str, Any] = {"kind": "sweep", "game": "witch", "variant": vid, "agents": ["greedy"], "games": 1}
        cases = [
            ({"path": "content.title", "start": 1, "stop": 2, "step": 1}, "not a number"),
            ({"path": "content.units.99.starting_blood", "start": 1, "stop": 2, "step": 1}, "no value"),
            ({"path": BLOOD, "start": 10, "stop": 8, "step": 1}, "below its start"),
            ({"path": BLOOD, "start": 1, "stop": 100, "step": 1}, "at most 21"),
            ({"path": BLOOD, "start": 14.5, "stop": 16, "step": 1}, "whole"),
            ({"path": BLOOD, "start": -4, "stop": -2, "step": 2}, "starting_blood"),  # the models refuse it
        ]
        for sweep, words in cases:
            r = client.post("/api/lab/experiments", headers=AUTH, json={**body, "sweep": sweep})
            assert r.status_code == 422, sweep
            assert words in r.json()["error"]["message"], r.json()
            assert "/tmp" not in r.text
        r = client.post("/api/lab/experiments", headers=AUTH, json=body)
        assert r.status_code == 422  # a sweep without its range
        assert client.app.state.workbench.jobs == {}


def test_sweep_values_land_on_the_end_and_keep_whole_numbers() -> None:
    assert sweep_values(150, 250, 25, integer=True) == [150, 175, 200, 225, 250]
    assert sweep_values(150, 240, 25, integer=True) == [150, 175, 200, 225]
    assert sweep_values(0.1, 0.3, 0.1, integer=False) == [0.1, 0.2, 0.3]


def test_matchup_rotates_seats_shows_the_sprt_verdict_and_reproduces_with_lab_run(
    make_client: ClientFactory, sqlite_url: str, tmp_path: Path
) -> None:
    """Greedy against random on a variant's content with a loose SPRT: the pair's score with its
    interval by seat, the verdict in words, and the export (content inline) replays the same."""
    with lab_client(make_client, sqlite_url, lab_workers=1) as client:
        content = witch_content(client)
        content["content"]["units"][0]["starting_blood"] = 15
        vid = client.post("/api/lab/variants", headers=AUTH,
                          json={"game": "witch", "name": "weaker witch", "content": content}).json()["id"]
        body = {"kind": "matchup", "game": "witch", "variant": vid, "agents": ["random", MCTS], "games": 2, "seed": 2,
                "sprt": {"p0": 0.2, "p1": 0.8, "alpha": 0.3, "beta": 0.3}}
        r = client.post("/api/lab/experiments", headers=AUTH, json=body)
        assert r.status_code == 202, r.text
        assert r.json()["total"] == 2
        done = wait_done(client, r.json()["id"])
        assert done["status"] == "done", done
        pair = done["summary"]["pairs"][0]
        assert pair["b"].startswith("mcts")
        assert set(pair["a_by_seat"]) == {"0", "1"}  # the first agent sat in both seats
        assert "sprt" in pair
        assert done["sentence"].startswith("Random against MCTS (iterations 2, rollout depth 2): score ")
        assert "SPRT: " in done["sentence"]
        assert done["sprt"]["p1"] == 0.8
        plots = client.get(f"/api/lab/experiments/{done['id']}/plots", headers=AUTH).json()["plots"]
        assert [p["name"] for p in plots] == ["matrix", "pairs"]
        config = client.get(f"/api/lab/experiments/{done['id']}/config", headers=AUTH).text
        assert json.loads(config)["content"]["content"]["units"][0]["starting_blood"] == 15
        one = client.post("/api/lab/experiments", headers=AUTH, json={**body, "agents": ["greedy"]})
        assert one.status_code == 422  # a matchup needs two agents
    again = reproduce(tmp_path, config)
    assert again == {k: v for k, v in done["summary"].items() if k != "seat_roles"}


def test_plots_without_matplotlib_say_so_in_words(make_client: ClientFactory, sqlite_url: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with lab_client(make_client, sqlite_url, lab_workers=1) as client:
        vid = save_variant(client)
        r = client.post("/api/lab/experiments", headers=AUTH,
                        json={"game": "witch", "variant": vid, "agents": ["random"], "games": 1})
        done = wait_done(client, r.json()["id"])
        assert done["status"] == "done"
        monkeypatch.setattr(report, "plt", None)
        r = client.get(f"/api/lab/experiments/{done['id']}/plots", headers=AUTH)
        assert r.status_code == 503
        assert "matplotlib" in r.json()["error"]["message"]


def test_process_pool_start_method_is_checked_and_one_worker_is_still_a_process() -> None:
    """The workbench's pool starts workers with the forkserver (its jobs in the sweep test above
    run to the end in it); with a start method even one worker plays in another process, never
    in the server's; a start method this platform lacks is refused before any game."""
    jobs = [Job(index=0, game="witch", params={}, seed=0, agents=[AgentSpec(name="random")] * 2)]
    with pytest.raises(ValueError, match="start method"):
        run_jobs(jobs, backend="process", workers=2, start_method="teleport")
    played_in: list[int] = []
    real = play_job

    def spy(job: Job, keep: bool = False) -> GameResult:
        played_in.append(os.getpid())
        return real(job, keep)

    with mock.patch.object(runner, "play_job", spy), \
            mock.patch.object(runner, "_collect_pool", return_value=[]) as pool:
        assert run_jobs(jobs, backend="process", workers=1, start_method="forkserver") == []
        assert pool.call_count == 1
        run_jobs(jobs, backend="process", workers=1)  # without one: here, as `lab run` always did
    assert played_in == [os.getpid()]


@pytest.mark.slow  # starting a Ray cluster costs ~20 s here, as in tests/lab/test_runner.py
def test_workbench_jobs_run_on_ray_when_given_an_address(make_client: ClientFactory, sqlite_url: str) -> None:
    """`serve --lab --ray ADDRESS`: a local one-CPU Ray cluster started here; the workbench uses
    this process's connection to it and plays the A/B through the lab's Ray backend."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        address = ray.get_runtime_context().gcs_address
        with lab_client(make_client, sqlite_url, lab_ray=address, lab_workers=1) as client:
            assert client.app.state.workbench.backend == "ray"
            vid = save_variant(client)
            r = client.post("/api/lab/experiments", headers=AUTH,
                            json={"game": "witch", "variant": vid, "agents": ["random"], "games": 1, "seed": 3})
            done = wait_done(client, r.json()["id"])
            assert done["status"] == "done", done
            assert done["done"] == 2
        assert ray.is_initialized()  # the workbench leaves a connection it did not open
    finally:
        ray.shutdown()


def test_serve_ray_needs_lab() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--ray", "auto"])
    assert result.exit_code != 0
    assert "--lab" in result.output


def test_the_summary_names_agents_whose_options_hold_json_with_colons() -> None:
    """An agent spec whose option is a JSON object (its colons are not separators) reads as one
    option in the experiment's sentence, not as broken pieces."""
    assert _agent_words("mcts:iterations=200") == "MCTS (iterations 200)"
    words = _agent_words('mcts:clock=cpu:portfolio=[{"shy":true}]:seconds=1')
    assert words == 'MCTS (clock cpu, portfolio [{"shy":true}], seconds 1)'
