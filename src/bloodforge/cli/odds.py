"""`bloodforge odds GAME`: exact battle odds from the game's own calculator."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console

import bloodforge
from bloodforge.core import BloodforgeError

from .options import default_players, parse_params

console = Console()


def odds_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="game id, see `bloodforge games`")],
    attacker: Annotated[str, typer.Option(help="the attacking force, in the game's words")],
    defender: Annotated[str, typer.Option(help="the defending force, in the game's words")],
    option: Annotated[list[str] | None, typer.Option(help="battle option KEY=VALUE (repeatable)")] = None,
    param: Annotated[list[str] | None, typer.Option(help="game parameter KEY=VALUE (repeatable)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of a table")] = False,
) -> None:
    options: dict[str, str] = {}
    for pair in option or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{pair!r}: expected KEY=VALUE", param_hint="--option")
        options[key.strip()] = value.strip()
    try:
        params = parse_params(param, None)
        params.setdefault("players", default_players(game_id))
        game = bloodforge.load_game(game_id, **params)
        result = game.battle_odds(attacker, defender, options)
    except BloodforgeError as err:
        raise typer.BadParameter(str(err)) from None
    if result is None:
        raise typer.BadParameter(f"{game.info.name} has no battle-odds calculator", param_hint="GAME")
    if as_json:
        typer.echo(json.dumps(result, indent=1, sort_keys=True))
    else:
        console.print(game.render_odds(result), markup=False)
