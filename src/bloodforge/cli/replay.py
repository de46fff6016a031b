"""`bloodforge replay`: rebuild a recorded game entry by entry and check its digest."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from bloodforge.match import ReplayError, read_records

from .options import seat_name

console = Console()


def replay_command(
    file: Annotated[Path, typer.Argument(help="a record (`play --save`) or JSONL from `selfplay --jsonl`")],
    index: Annotated[int, typer.Option(help="which record of the file (0-based)")] = 0,
    seat: Annotated[int | None, typer.Option(
        help="show the game as this seat (counted from 1) sees it (default: spectator)")] = None,
    steps: Annotated[bool, typer.Option(help="print every entry as it is replayed")] = False,
) -> None:
    try:
        records = read_records(file)
    except ReplayError as err:
        raise typer.BadParameter(str(err), param_hint="FILE") from None
    if not 0 <= index < len(records):
        raise typer.BadParameter(f"{file} holds {len(records)} record(s); index {index} is out of range")
    rec = records[index]
    try:
        state = rec.initial_state()
        if seat is not None and not 1 <= seat <= state.num_players:
            raise typer.BadParameter(f"seats are 1..{state.num_players}", param_hint="--seat")
        viewer = None if seat is None else seat - 1
        for i, state in enumerate(rec.states()):
            if steps and i > 0:
                who, text = rec.moves[i - 1]
                label = "game" if who is None else seat_name(state, who)
                console.print(f"{i - 1:>5}  {escape(label)}: {escape(text)}")
    except ReplayError as err:
        raise typer.BadParameter(f"replay failed: {err}") from None
    for line in state.event_log(viewer):
        console.print(f"  [dim]{escape(line)}[/dim]")
    console.print(escape(state.game.render_text(state.observation(viewer))))
    # the record's own kind of digest: older records keep the whole position's
    got = rec.digest_of(state) if rec.digest else state.digest()
    if rec.digest and rec.digest != got:
        console.print(f"[red]digest mismatch[/red] ({rec.kind_of_digest}): record {rec.digest[:16]}, "
                      f"replay {got[:16]}")
        raise typer.Exit(2)
    verdict = f"matches ({rec.kind_of_digest})" if rec.digest else "computed (chain)"
    console.print(f"replayed {len(rec.moves)} entries; digest {verdict}: {got[:16]}")
