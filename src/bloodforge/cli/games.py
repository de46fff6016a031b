"""`bloodforge games`: what can be played and with which parameters."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

import bloodforge


def games_command() -> None:
    table = Table(title="bloodforge games")
    table.add_column("id", style="bold")
    table.add_column("name")
    table.add_column("players")
    table.add_column("parameters")
    table.add_column("summary")
    for info in bloodforge.list_games():
        props = info["parameters"].get("properties", {})
        params = ", ".join(k for k in props if k != "players")
        table.add_row(info["id"], info["name"], f"{info['min_players']}-{info['max_players']}", params, info["summary"])
    Console().print(table)
