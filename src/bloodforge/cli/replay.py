"""`bloodforge replay`: rebuild a recorded game action by action and check its digest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

import bloodforge
from bloodforge.core import BloodforgeError

console = Console()


def read_records(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
        return data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        pass
    records = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise typer.BadParameter(f"{path}:{i}: not JSON ({err})") from None
    return records


def replay_command(
    file: Annotated[Path, typer.Argument(help="JSONL from `selfplay --jsonl` or a saved record", exists=True)],
    index: Annotated[int, typer.Option(help="which record of the file (0-based)")] = 0,
    seat: Annotated[int | None, typer.Option(help="show the game as this seat sees it (default: spectator)")] = None,
    steps: Annotated[bool, typer.Option(help="print every action as it is replayed")] = False,
) -> None:
    records = read_records(file)
    if not 0 <= index < len(records):
        raise typer.BadParameter(f"{file} holds {len(records)} record(s); index {index} is out of range")
    rec = records[index]
    if "actions" not in rec:
        raise typer.BadParameter("this record has no actions (selfplay writes them with --jsonl)")
    try:
        game = bloodforge.load_game(rec["game"], seed=rec["seed"], **rec["params"])
        state = game.new_initial_state()
        for i, text in enumerate(rec["actions"]):
            if steps:
                console.print(f"{i:>5}  seat {state.current_player}: {text}")
            state.apply(text)
    except BloodforgeError as err:
        raise typer.BadParameter(f"replay failed: {err}") from None
    for line in state.event_log(seat):
        console.print(f"  [dim]{escape(line)}[/dim]")
    console.print(escape(game.render_text(state.observation(seat))))
    expected = rec.get("digest")
    if expected and expected != state.digest():
        console.print(f"[red]digest mismatch[/red]: record {expected}, replay {state.digest()}")
        raise typer.Exit(2)
    verdict = "matches" if expected else "computed"
    console.print(f"replayed {len(rec['actions'])} actions; digest {verdict}: {state.digest()[:16]}")
