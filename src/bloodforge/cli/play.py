"""`bloodforge play`: a game in the terminal, human seats choosing among the legal actions."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

import bloodforge
from bloodforge.agents import Agent, make_agent
from bloodforge.agents.hint import HINT_ITERATIONS, compute_hint
from bloodforge.core import Action, BloodforgeError, State
from bloodforge.core.rng import mix_seed
from bloodforge.match import Driver, Record

from .options import default_players, parse_params, parse_seats, seat_name

console = Console()


class AbandonedError(Exception):
    """The person at the terminal quit."""


class TerminalHuman(Agent):
    """A person at this terminal: shown their seat's view, picks by number or by text."""

    name = "human"

    def select_action(self, state: State) -> Action:
        chosen = ask_human(state, self.seat)
        if chosen is None:
            raise AbandonedError
        return chosen


def play_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="game id, see `bloodforge games`")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seat: Annotated[list[str] | None, typer.Option(
        help="SEAT=AGENT, seats counted from 1, e.g. 1=human 2=greedy (repeatable)")] = None,
    seed: Annotated[int | None, typer.Option(
        help="random seed of the game (default: a fresh one, printed so the game can be played again)")] = None,
    scenario: Annotated[Path | None, typer.Option(help="start from a scenario file")] = None,
    param: Annotated[list[str] | None, typer.Option(help="game parameter KEY=VALUE (repeatable)")] = None,
    save: Annotated[Path | None, typer.Option(help="write the game record here when it ends")] = None,
) -> None:
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        if scenario is not None:
            state = bloodforge.load_scenario(scenario)
            game = state.game
        else:
            params = parse_params(param, players)
            params.setdefault("players", default_players(game_id))
            game = bloodforge.load_game(game_id, seed=seed, **params)
            state = game.new_initial_state()
    except BloodforgeError as err:
        raise typer.BadParameter(str(err)) from None
    names = parse_seats(seat, game.num_players)
    agents: dict[int, Agent] = {
        i: TerminalHuman(i) if n == "human" else make_agent(n, seat=i, seed=mix_seed(seed, "cli", i))
        for i, n in enumerate(names)
    }
    humans = [i for i, n in enumerate(names) if n == "human"]
    again = f" (play it again with --seed {game.seed})" if scenario is None else ""
    console.print(f"[bold]{escape(game.info.name)}[/bold], seed {game.seed}{again}")
    console.print(escape("Seats: " + ", ".join(
        f"{seat_name(state, i)}: {'you' if n == 'human' else f'{n} AI'}" for i, n in enumerate(names))))
    driver = Driver(agents, checked=True)
    shown_log = 0

    def show_log(viewer: int | None) -> None:
        nonlocal shown_log
        log = state.event_log(viewer)
        for line in log[shown_log:]:
            console.print(f"  [dim]{escape(line)}[/dim]")
        shown_log = len(log)

    def echo(st: State, acted: int | None, action: Action) -> None:
        if acted is not None and acted not in humans:
            console.print(f"[cyan]{escape(seat_name(st, acted))}, {names[acted]} AI:[/cyan] {escape(str(action))}")

    try:
        while not state.is_terminal():
            current = driver.next_seat(state)
            show_log(current if current in humans else (humans[0] if humans else None))
            driver.step(state, echo)
    except AbandonedError:
        console.print("Game abandoned.")
        _save(save, state, names)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        _save(save, state, names)
        raise typer.Exit(130) from None
    show_log(humans[0] if humans else None)
    console.print(escape(game.render_text(state.observation(humans[0] if humans else None))))
    print_summary(state, names)
    _save(save, state, names)


def print_summary(state: State, names: list[str]) -> None:
    """Who won, and every seat's score, by name."""
    outcome = state.outcome()
    assert outcome is not None
    winners = ", ".join(f"{seat_name(state, s)} [{names[s]}]" for s in outcome.winners) or "nobody (a draw)"
    console.print("[bold]Game over.[/bold] Winner: " + escape(winners))
    score_name = state.game.info.score_name
    for seat in range(state.num_players):
        mark = "  winner" if seat in outcome.winners else ""
        line = f"  {seat_name(state, seat)} [{names[seat]}]: {outcome.scores[seat]:g} {score_name}{mark}"
        console.print(escape(line))


def _save(path: Path | None, state: State, names: list[str]) -> None:
    if path is None:
        return
    record = Record.of(state, agents=names)
    path.write_text(record.model_dump_json(indent=1), encoding="utf-8")
    console.print(f"record written to {escape(str(path))} (replay it with `bloodforge replay {escape(str(path))}`)")


def whole_map(static: dict[str, Any]) -> list[str]:
    """Every area of an area map with its neighbours (the board's `links`), empty ones too: the
    position's own text shows only where pieces are, and planning a move needs the whole map."""
    board = static.get("board") or {}
    if board.get("geometry") != "areas":
        return []
    areas = [a for a in board.get("areas") or [] if isinstance(a, dict) and "id" in a]
    # neighbours by name without its parenthesised note ("12 (plains)" -> "12")
    short = {str(a["id"]): str(a.get("name") or a["id"]).split(" (")[0] for a in areas}
    neighbours: dict[str, set[str]] = {aid: set() for aid in short}
    for pair in [*(board.get("links") or []), *(board.get("bridges") or [])]:
        if len(pair) >= 2 and str(pair[0]) in neighbours and str(pair[1]) in neighbours:
            neighbours[str(pair[0])].add(str(pair[1]))
            neighbours[str(pair[1])].add(str(pair[0]))

    def order(aid: str) -> tuple[int, int, str]:
        return (0, int(aid), "") if aid.isdigit() else (1, 0, short[aid].lower())

    lines = [f"The whole map ({len(areas)} areas; each with its neighbours):"]
    for a in sorted(areas, key=lambda a: order(str(a["id"]))):
        aid = str(a["id"])
        near = ", ".join(short[n] for n in sorted(neighbours[aid], key=order)) or "none"
        lines.append(f"  {a.get('name') or short[aid]}: {near}")
    return lines


def natural_key(action: Action) -> tuple[str, tuple[tuple[int, int, str], ...]]:
    """Numbers in numeric order (area 9 before area 10) for people reading the list."""
    return (action.kind, tuple((0, int(a), "") if a.isdigit() else (1, 0, a) for a in action.args))


def show_choices(legal: list[Action]) -> None:
    """The legal actions numbered from 1, as people count."""
    width = max(len(str(len(legal))), 2)
    for i, a in enumerate(legal, start=1):
        console.print(f"  [bold]{i:>{width}}[/bold]  {escape(str(a))}")


def pick_number(raw: str, legal: list[Action]) -> Action | str:
    """The action numbered `raw` (1..n) in the list, or why the number is not one of them."""
    number = int(raw)
    if not 1 <= number <= len(legal):
        return f"{number} is out of range (1..{len(legal)}): type a number from the list, or list to see it again"
    return legal[number - 1]


def show_help(state: State, seat: int) -> None:
    """The verbs of the game with their arguments, and the commands of the prompt."""
    console.print(f"[bold]{escape(state.game.info.name)}[/bold]: type a number from the list or an action text.")
    for spec in state.game.grammar().values():
        if not spec.host:
            console.print(f"  {escape(spec.usage()):<28} {escape(spec.help)}")
    console.print("  [bold]map[/bold]    the board again (area maps: every area with its neighbours)")
    console.print("  [bold]list[/bold]   the legal actions   [bold]log[/bold]    the whole log   "
                  "[bold]q[/bold]      quit")
    console.print("  [bold]hint[/bold]   what the strongest AI would play now, and its estimated win chance")
    console.print(f"You are {escape(seat_name(state, seat))}; phase: {escape(state.phase_name())}.")


def show_hint(state: State, seat: int) -> None:
    """What the strongest AI would play for this seat now (from the seat's own view only: the
    search never reads the hidden truth) and its estimated win chance; a fixed budget and a seed
    from the game and the position, so asking again gives the same hint."""
    console.print("[dim]The AI is thinking...[/dim]")
    seed = mix_seed(state.game.seed, "hint", seat, len(state.history))
    try:
        hint = compute_hint(state, seat, iterations=HINT_ITERATIONS, seed=seed)
    except ValueError as err:
        console.print(f"[red]{escape(str(err))}[/red]")
        return
    console.print(f"[yellow]{escape(hint.sentence())}[/yellow]  [dim]({escape(str(hint.action))})[/dim]")


def ask_human(state: State, seat: int) -> Action | None:
    """Show the position and the numbered legal actions; accept a number or an action text."""
    console.print(escape(state.game.render_text(state.observation(seat))))
    legal = sorted(state.legal_actions(seat), key=natural_key)
    show_choices(legal)
    while True:
        try:
            raw = console.input(f"[green]{escape(seat_name(state, seat))}[/green] action (number or text; "
                                "help, hint, map, q): ")
        except EOFError:
            return None
        raw = raw.strip()
        if raw in {"q", "quit", "exit"}:
            return None
        if raw in {"help", "?", "h"}:
            show_help(state, seat)
            continue
        if raw in {"map", "board"}:
            console.print(escape(state.game.render_text(state.observation(seat))))
            for line in whole_map(state.game.static_info()):
                console.print(escape(line), highlight=False)
            continue
        if raw in {"list", "ls"}:
            show_choices(legal)
            continue
        if raw == "hint":
            show_hint(state, seat)
            continue
        if raw == "log":
            for line in state.event_log(seat):
                console.print(f"  [dim]{escape(line)}[/dim]")
            continue
        if raw.isdigit():
            picked = pick_number(raw, legal)
            if isinstance(picked, str):
                console.print(f"[red]{escape(picked)}[/red]")
                continue
            return picked
        try:
            return state.game.parse_action(state, raw, seat)
        except BloodforgeError as err:
            console.print(f"[red]{escape(str(err))}[/red]")

