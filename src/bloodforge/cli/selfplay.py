"""`bloodforge selfplay`: many games between agents, optionally on a pool of worker processes."""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import bloodforge
from bloodforge.core import BloodforgeError
from bloodforge.lab.selfplay import expand_agent_names, play_game

from .options import parse_params

console = Console(stderr=True)


def _one(job: tuple[str, int, dict[str, Any], list[str]]) -> dict[str, Any]:
    game_id, seed, params, agents = job
    game = bloodforge.load_game(game_id, seed=seed, **params)
    record, _ = play_game(game, agents)
    return record.to_json()


def selfplay_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    games: Annotated[int, typer.Option(help="number of games")] = 10,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    agents: Annotated[str, typer.Option(help="agent per seat, comma separated; one name fills all")] = "random",
    seed: Annotated[int, typer.Option(help="seed of the first game; game i uses seed+i")] = 0,
    jsonl: Annotated[str | None, typer.Option(help="write one JSON record per game to this file (- = stdout)")] = None,
    workers: Annotated[int, typer.Option(help="worker processes (1 = in this process)")] = 1,
    param: Annotated[list[str] | None, typer.Option(help="game parameter KEY=VALUE (repeatable)")] = None,
) -> None:
    params = parse_params(param, players)
    try:
        if "players" not in params:
            info = next(g for g in bloodforge.list_games() if g["id"] == game_id)
            params["players"] = info["min_players"] if info["min_players"] > 1 else 2
        bloodforge.load_game(game_id, seed=seed, **params)
        names = expand_agent_names([agents], params["players"])
        from bloodforge.agents import agent_names

        unknown = [n for n in names if n not in agent_names()]
        if unknown:
            raise typer.BadParameter(f"unknown agent(s) {unknown}; known: {agent_names()}")
    except (BloodforgeError, ValueError, StopIteration) as err:
        raise typer.BadParameter(str(err) or f"unknown game {game_id!r}") from None
    jobs = [(game_id, seed + i, params, names) for i in range(games)]
    out = None
    if jsonl == "-":
        out = sys.stdout
    elif jsonl:
        out = Path(jsonl).open("w", encoding="utf-8")  # noqa: SIM115 - closed below
    results: list[dict[str, Any]] = []
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=console, transient=False) as progress:
            task = progress.add_task(f"{game_id} self-play", total=games)
            if workers > 1:
                with ProcessPoolExecutor(max_workers=workers) as pool:
                    for rec in pool.map(_one, jobs, chunksize=max(1, games // (workers * 8))):
                        results.append(rec)
                        if out is not None:
                            out.write(json.dumps(rec) + "\n")
                        progress.advance(task)
            else:
                for job in jobs:
                    rec = _one(job)
                    results.append(rec)
                    if out is not None:
                        out.write(json.dumps(rec) + "\n")
                    progress.advance(task)
    finally:
        if out is not None and out is not sys.stdout:
            out.close()
    summarise(results, names)


def summarise(results: list[dict[str, Any]], names: list[str]) -> None:
    n = len(names)
    wins = [0.0] * n
    score_sum = [0.0] * n
    plies = 0
    seconds = 0.0
    for rec in results:
        for i, r in enumerate(rec["returns"]):
            wins[i] += r
            score_sum[i] += rec["scores"][i]
        plies += rec["plies"]
        seconds += rec["seconds"]
    table = Table(title=f"{len(results)} games")
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("win share", justify="right")
    table.add_column("mean score", justify="right")
    for i in range(n):
        table.add_row(str(i), names[i], f"{wins[i] / max(len(results), 1):.3f}",
                      f"{score_sum[i] / max(len(results), 1):.1f}")
    console.print(table)
    by_agent: dict[str, float] = defaultdict(float)
    for i, name in enumerate(names):
        by_agent[name] += wins[i]
    games = max(len(results), 1)
    console.print(f"mean plies {plies / games:.0f}; {plies / max(seconds, 1e-9):.0f} actions/s; "
                  f"{len(results) / max(seconds, 1e-9):.1f} games/s (time inside games)")
