"""`bloodforge selfplay`: many games between agents, optionally on a pool of worker processes."""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import bloodforge
from bloodforge.agents import agent_names
from bloodforge.core import BloodforgeError
from bloodforge.lab.selfplay import expand_agent_names, play_game
from bloodforge.match import Record
from bloodforge.procpool import watched_pool

from .options import default_players, parse_params

console = Console(stderr=True)

Job = tuple[str, int, dict[str, Any], list[str]]


def _one(job: Job) -> dict[str, Any]:
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
    try:
        params = parse_params(param, players)
        params.setdefault("players", default_players(game_id))
        bloodforge.load_game(game_id, seed=seed, **params)
        names = expand_agent_names([agents], params["players"])
        unknown = [n for n in names if n not in agent_names()]
        if unknown:
            raise typer.BadParameter(f"unknown agent(s) {unknown}; known: {agent_names()}")
    except (BloodforgeError, ValueError) as err:
        raise typer.BadParameter(str(err)) from None
    jobs: list[Job] = [(game_id, seed + i, params, names) for i in range(games)]
    out: IO[str] | None = None
    if jsonl == "-":
        out = sys.stdout
    elif jsonl:
        out = Path(jsonl).open("w", encoding="utf-8")  # noqa: SIM115 - closed below
    results: list[dict[str, Any]] = []
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())

    def keep(rec: dict[str, Any]) -> None:
        results.append(rec)
        if out is not None:
            out.write(json.dumps(rec, separators=(",", ":")) + "\n")

    try:
        with Progress(*columns, console=console, transient=False) as progress:
            task = progress.add_task(f"{game_id} self-play", total=games)
            if workers > 1:
                with watched_pool(workers) as pool:
                    for rec in pool.map(_one, jobs, chunksize=max(1, games // (workers * 8))):
                        keep(rec)
                        progress.advance(task)
            else:
                for job in jobs:
                    keep(_one(job))
                    progress.advance(task)
    finally:
        if out is not None and out is not sys.stdout:
            out.close()
    summarise([Record.from_json(r) for r in results], names)


def summarise(records: list[Record], names: list[str]) -> None:
    n = len(names)
    games = max(len(records), 1)
    wins = [0.0] * n
    score_sum = [0.0] * n
    role_games: dict[str, int] = defaultdict(int)
    role_wins: dict[str, float] = defaultdict(float)
    plies = 0
    seconds = 0.0
    for rec in records:
        returns = rec.returns or [0.0] * n
        scores = rec.scores or [0.0] * n
        roles = rec.roles or [""] * n
        for i in range(n):
            wins[i] += returns[i]
            score_sum[i] += scores[i]
            if roles[i]:
                role_games[roles[i]] += 1
                role_wins[roles[i]] += returns[i]
        plies += rec.plies or 0
        seconds += rec.seconds or 0.0
    table = Table(title=f"{len(records)} games")
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("win share", justify="right")
    table.add_column("mean score", justify="right")
    for i in range(n):
        table.add_row(str(i + 1), names[i], f"{wins[i] / games:.3f}", f"{score_sum[i] / games:.1f}")  # seats from 1
    console.print(table)
    if role_games:
        by_role = Table(title="by faction / side")
        by_role.add_column("plays")
        by_role.add_column("games", justify="right")
        by_role.add_column("win share", justify="right")
        for role in sorted(role_games):
            by_role.add_row(role, str(role_games[role]), f"{role_wins[role] / role_games[role]:.3f}")
        console.print(by_role)
    console.print(f"mean plies {plies / games:.0f}; {plies / max(seconds, 1e-9):.0f} actions/s; "
                  f"{len(records) / max(seconds, 1e-9):.1f} games/s (time inside games)")
