"""Parsing of the options shared by several commands (game parameters, seats)."""

from __future__ import annotations

import json
from typing import Any

import typer

import bloodforge
from bloodforge.agents import agent_names
from bloodforge.core import State, UnknownGame


def parse_params(pairs: list[str] | None, players: int | None) -> dict[str, Any]:
    """`--param key=value` pairs; values are JSON when they parse as JSON, else plain strings."""
    params: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise typer.BadParameter(f"{pair!r}: expected key=value", param_hint="--param")
        key, raw = pair.split("=", 1)
        key = key.strip().replace("-", "_")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw.split(",") if key == "factions" else raw
        params[key] = value
    if players is not None:
        params["players"] = players
    return params


def parse_seats(specs: list[str] | None, players: int) -> list[str]:
    """`--seat 1=human --seat 2=greedy`: an agent name (or 'human') for every seat.

    Seats are numbered from 1 here as in every text a player reads (the lobby, the table page,
    `play`); only data (the JSON API, record files) uses 0-based seat indices."""
    known = agent_names()
    seats = ["greedy"] * players
    seats[0] = "human"
    for spec in specs or []:
        if "=" not in spec:
            raise typer.BadParameter(f"{spec!r}: expected SEAT=AGENT, e.g. 1=human", param_hint="--seat")
        idx, name = spec.split("=", 1)
        try:
            number = int(idx)
        except ValueError:
            raise typer.BadParameter(f"{spec!r}: seat must be a number", param_hint="--seat") from None
        if not 1 <= number <= players:
            raise typer.BadParameter(f"{spec!r}: seats are 1..{players}", param_hint="--seat")
        name = name.strip()
        if name != "human" and name not in known:
            raise typer.BadParameter(
                f"{spec!r}: unknown agent {name!r}; use human or one of {', '.join(known)}", param_hint="--seat"
            )
        seats[number - 1] = name
    return seats


def seat_name(state: State, seat: int) -> str:
    """"Seat 1 (Soldiers)": a seat as people count it (from 1), with its role when it has one."""
    roles = state.seat_roles()
    role = roles[seat] if 0 <= seat < len(roles) else ""
    return f"Seat {seat + 1}" + (f" ({role})" if role else "")


def default_players(game_id: str) -> int:
    """The smallest sensible table of a game (two when the game can be played alone)."""
    for info in bloodforge.list_games():
        if info["id"] == game_id:
            return int(info["min_players"]) if info["min_players"] > 1 else 2
    known = ", ".join(g["id"] for g in bloodforge.list_games())
    raise UnknownGame(f"unknown game {game_id!r}; games: {known}")
