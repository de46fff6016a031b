"""The `bloodforge` command line: list games, play in the terminal, self-play, replay, serve."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import lab as lab_cmd
from . import odds as odds_cmd
from . import play as play_cmd
from . import replay as replay_cmd
from . import selfplay as selfplay_cmd
from .games import games_command

app = typer.Typer(
    name="bloodforge",
    help="Play five board games faithfully, against people and AI; simulate thousands of games.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)

app.command("games", help="List the games with their player counts and parameters.")(games_command)
app.command("play", help="Play a game in the terminal; AI seats move by themselves.")(play_cmd.play_command)
app.command("selfplay", help="Play many games between agents and summarise them.")(selfplay_cmd.selfplay_command)
app.command("replay", help="Replay a recorded game (JSONL from selfplay, or a record file).")(replay_cmd.replay_command)
app.add_typer(lab_cmd.app, name="lab", help="The designer's lab: matchups, rule-variant A/B, sweeps, HTML reports.")
app.command("odds", help="Exact odds of a battle, from the game's own calculator.")(odds_cmd.odds_command)


@app.command("serve", help="Run the web server (lobby, live tables, AI seats, persistence).")
def serve_command(
    host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    db: Annotated[str | None, typer.Option(help="database URL (default: $DATABASE_URL or a SQLite file)")] = None,
    data_dir: Annotated[Path, typer.Option(help="where the default SQLite file lives")] = Path("bloodforge-data"),
    ai_delay: Annotated[float, typer.Option(help="seconds between AI actions, so people can follow them")] = 0.35,
    ai_budget: Annotated[float, typer.Option(help="seconds an AI may think per action")] = 10.0,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        help="proxies (addresses or networks, comma-separated) whose X-Forwarded-For names the client; "
        "default none: the connection's own address is the client")] = None,
    lab: Annotated[bool, typer.Option(
        help="enable the designer's workbench at /lab (asks for the operator token printed at start, "
        "or $BLOODFORGE_LAB_TOKEN)")] = False,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS", help="with --lab: run the workbench's experiments on this Ray cluster "
        "(e.g. ray://head:10001 or auto) instead of local worker processes")] = None,
) -> None:
    # The server (and SQLAlchemy) load only for `serve`, keeping the other commands quick.
    from bloodforge.server.runner import serve

    from .preflight import check_database, check_port

    if ray and not lab:
        raise typer.BadParameter("--ray runs the workbench's experiments: give --lab too", param_hint="--ray")
    check_port(host, port)
    check_database(db)
    serve(host=host, port=port, db_url=db, data_dir=data_dir, ai_delay=ai_delay, ai_time_budget=ai_budget,
          forwarded_allow_ips=forwarded_allow_ips, lab=lab, **({"lab_ray": ray} if ray else {}))


if __name__ == "__main__":  # pragma: no cover
    app()
