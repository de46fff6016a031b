"""`bloodforge play`: a game in the terminal, human seats choosing among the legal actions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.core import Action, BloodforgeError, State
from bloodforge.core.rng import mix_seed

from .options import parse_params, parse_seats

console = Console()


def play_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="game id, see `bloodforge games`")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seat: Annotated[list[str] | None, typer.Option(help="SEAT=AGENT, e.g. 0=human 1=greedy (repeatable)")] = None,
    seed: Annotated[int, typer.Option(help="random seed of the game")] = 0,
    scenario: Annotated[Path | None, typer.Option(help="start from a scenario file")] = None,
    param: Annotated[list[str] | None, typer.Option(help="game parameter KEY=VALUE (repeatable)")] = None,
    save: Annotated[Path | None, typer.Option(help="write the game record here when it ends")] = None,
) -> None:
    try:
        if scenario is not None:
            state = bloodforge.load_scenario(scenario)
            game = state.game
        else:
            params = parse_params(param, players)
            if "players" not in params:
                info = next(g for g in bloodforge.list_games() if g["id"] == game_id)
                params["players"] = info["min_players"] if info["min_players"] > 1 else 2
            game = bloodforge.load_game(game_id, seed=seed, **params)
            state = game.new_initial_state()
    except (BloodforgeError, StopIteration) as err:
        raise typer.BadParameter(str(err) or f"unknown game {game_id!r}") from None
    names = parse_seats(seat, game.num_players)
    agents = {i: make_agent(n, seat=i, seed=mix_seed(seed, "cli", i)) for i, n in enumerate(names) if n != "human"}
    humans = [i for i, n in enumerate(names) if n == "human"]
    console.print(f"[bold]{game.info.name}[/bold] seed {seed}; seats: "
                  + ", ".join(f"{i}={n}" for i, n in enumerate(names)))
    shown_log = 0
    try:
        while not state.is_terminal():
            current = state.current_player
            assert current is not None
            viewer = current if current in humans else (humans[0] if humans else None)
            log = state.event_log(viewer)
            for line in log[shown_log:]:
                console.print(f"  [dim]{escape(line)}[/dim]")
            shown_log = len(log)
            if current in agents:
                action = agents[current].select_action(state)
                console.print(f"[cyan]seat {current} ({names[current]}):[/cyan] {action}")
                state.apply(action)
                continue
            chosen = ask_human(state, current)
            if chosen is None:
                console.print("Game abandoned.")
                raise typer.Exit(1)
            state.apply(chosen)
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        raise typer.Exit(130) from None
    for line in state.event_log(humans[0] if humans else None)[shown_log:]:
        console.print(f"  [dim]{escape(line)}[/dim]")
    console.print(escape(game.render_text(state.observation(humans[0] if humans else None))))
    console.print(f"[bold]Game over.[/bold] scores {state.scores()} returns {state.returns()}")
    if save is not None:
        import json

        record = game.record() | {"agents": names, "actions": list(state.history), "digest": state.digest()}
        save.write_text(json.dumps(record, indent=1))
        console.print(f"record written to {save}")


def natural_key(action: Action) -> tuple[str, tuple[tuple[int, int, str], ...]]:
    """Numbers in numeric order (area 9 before area 10) for people reading the list."""
    return (action.kind, tuple((0, int(a), "") if a.isdigit() else (1, 0, a) for a in action.args))


def ask_human(state: State, seat: int) -> Action | None:
    """Show the position and the numbered legal actions; accept a number or an action text."""
    console.print(escape(state.game.render_text(state.observation(seat))))
    legal = sorted(state.legal_actions(), key=natural_key)
    width = max(len(str(len(legal))), 2)
    for i, a in enumerate(legal):
        console.print(f"  [bold]{i:>{width}}[/bold]  {a}")
    while True:
        try:
            raw = console.input(f"[green]seat {seat}[/green] action (number or text, q to quit): ").strip()
        except EOFError:
            return None
        if raw in {"q", "quit", "exit"}:
            return None
        if raw.isdigit() and int(raw) < len(legal):
            return legal[int(raw)]
        try:
            return state.game.parse_action(state, raw)
        except BloodforgeError as err:
            console.print(f"[red]{err}[/red]")
