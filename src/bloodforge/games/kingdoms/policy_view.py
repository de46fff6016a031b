"""The part of a seat's observation that the greedy policy reads, built without the rest.

Why: `observation()` also rebuilds the last battles from the log, the board contract, the
status board and the log tail for people; that was two thirds of a greedy self-play game's time
(profile, issue 20 item 11: 20 of 31 s of the policy's time), and the lab's balance runs need
hundreds of games. This view applies the same visibility rule (`observation.visible_type`,
`observation.seat_sees`) to the same fields, so the policy still reads only what the seat may
see; a test checks that every field here equals the full observation's.
"""

from __future__ import annotations

from typing import Any

from .content import FACTIONS
from .model import RESERVE, KBase
from .observation import seat_sees, visible_type


def policy_view(s: KBase, seat: int) -> dict[str, Any]:
    """The observation's `round`, `phase`, `active`, `seat`, `owner`, `castles`, `ports`,
    `pieces`, `battle` (space, attacker, defender, marked, silenced) and, per faction,
    `faction`, `team`, `treasury` and `gems` — exactly as `observation(seat)` gives them."""
    mine = seat_sees(s, seat)
    ids = s.content.ids
    none: set[int] = set()
    pieces = []
    for _, p in sorted(s.pieces.items()):
        row: dict[str, Any] = {"id": p.id, "faction": FACTIONS[p.faction],
                               "at": "reserve" if p.at == RESERVE else ids[p.at],
                               "kind": p.kind if visible_type(s, seat, p, mine, none) else None,
                               "aboard": p.aboard, "merc": p.merc}
        if p.faction in mine:
            row.update(moved=p.moved, combat_move=p.cm, fought=p.fought,
                       attacked=None if p.attacked < 0 else ids[p.attacked])
        pieces.append(row)
    c = s.content
    gem = [0, 0, 0, 0]
    for i, o in enumerate(s.owner):
        if o >= 0:
            gem[o] += c.gem[i]
    factions = [{"faction": FACTIONS[f], "team": s.teams[f], "treasury": s.treasury[f], "gems": gem[f]}
                for f in range(4)]
    bt = None
    if s.battle is not None:
        b = s.battle
        bt = {"space": ids[b.space], "attacker": FACTIONS[b.att], "defender": FACTIONS[b.dfn],
              "marked": list(b.marked), "silenced": list(b.silenced)}
    return {
        "round": s.round, "phase": s.phase, "active": FACTIONS[s.active], "seat": seat,
        "factions": factions, "pieces": pieces, "battle": bt,
        "owner": {ids[i]: (FACTIONS[o] if o >= 0 else None) for i, o in enumerate(s.owner) if not c.is_sea[i]},
        "castles": [ids[i] for i, x in enumerate(s.castle) if x],
        "ports": [ids[i] for i, x in enumerate(s.port) if x],
    }
