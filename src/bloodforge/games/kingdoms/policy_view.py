"""The part of a seat's observation that the greedy policy reads, built without the rest.

Why: `observation()` also rebuilds the last battles from the log, the board contract, the
status board and the log tail for people; that was two thirds of a greedy self-play game's time
(profile, issue 20 item 11: 20 of 31 s of the policy's time), and the lab's balance runs need
hundreds of games. This view applies the same visibility rule (`observation.visible_type`,
`observation.seat_sees`) to the same fields, so the policy still reads only what the seat may
see; a test checks that every field here equals the full observation's.

It is built at every decision of the search's greedy rollouts (a third of their time before
2026-11-27), so the loop is written for speed: the visibility rule inlined, one dict literal
per row, names by index from tables made once per content (`_names`).
"""

from __future__ import annotations

from typing import Any

from .content import FACTIONS, Content
from .model import RESERVE, KBase
from .observation import seat_sees

#: a faction's name by index, and None for index -1 (nobody's territory)
OWNER_NAMES: tuple[str | None, ...] = (*FACTIONS, None)

#: per content (by identity; the content is kept so that its id is never reused): the space
#: names by index with "reserve" at index -1 (RESERVE), and the land spaces (index, name)
_TABLES: dict[int, tuple[Content, tuple[str, ...], tuple[tuple[int, str], ...], tuple[int, ...]]] = {}


def _names(c: Content) -> tuple[tuple[str, ...], tuple[tuple[int, str], ...], tuple[int, ...]]:
    """Space names with "reserve" last (so `names[RESERVE]` is "reserve"), the land spaces and
    the gem territories' indices, made once per content."""
    got = _TABLES.get(id(c))
    if got is None or got[0] is not c:
        assert RESERVE == -1
        got = _TABLES[id(c)] = (c, (*c.ids, "reserve"),
                                tuple((i, x) for i, x in enumerate(c.ids) if not c.is_sea[i]),
                                tuple(i for i, g in enumerate(c.gem) if g))
    return got[1], got[2], got[3]


def policy_view(s: KBase, seat: int) -> dict[str, Any]:
    """The observation's `round`, `phase`, `active`, `seat`, `owner`, `castles`, `ports`,
    `pieces`, `battle` (space, attacker, defender, marked, silenced) and, per faction,
    `faction`, `team`, `treasury` and `gems` — exactly as `observation(seat)` gives them."""
    mine = seat_sees(s, seat)
    c = s.content
    ids = c.ids
    names, land, gem_spaces = _names(c)
    known = s.known
    spied = s.spied[seat]
    pieces: list[dict[str, Any]] = []
    append = pieces.append
    by_id = s.pieces
    # in id order: the dict is kept so (ids only grow, clones and loaded positions keep the
    # order; model.py), as `observe` lists them
    for i, p in by_id.items():
        f = p.faction
        if f in mine:
            a = p.attacked
            append({"id": i, "faction": FACTIONS[f], "at": names[p.at], "kind": p.kind, "aboard": p.aboard,
                    "merc": p.merc, "moved": p.moved, "combat_move": p.cm, "fought": p.fought,
                    "attacked": None if a < 0 else ids[a]})
        else:
            # observation.visible_type, inlined: a reserve piece, or one seen or spied on
            at = p.at
            shown = at == RESERVE or i in known or i in spied
            append({"id": i, "faction": FACTIONS[f], "at": names[at], "kind": p.kind if shown else None,
                    "aboard": p.aboard, "merc": p.merc})
    owner = s.owner
    gem = [0, 0, 0, 0]
    for i in gem_spaces:
        o = owner[i]
        if o >= 0:
            gem[o] += 1
    teams, treasury = s.teams, s.treasury
    factions = [{"faction": FACTIONS[f], "team": teams[f], "treasury": treasury[f], "gems": gem[f]}
                for f in range(4)]
    bt = None
    if s.battle is not None:
        b = s.battle
        bt = {"space": ids[b.space], "attacker": FACTIONS[b.att], "defender": FACTIONS[b.dfn],
              "marked": list(b.marked), "silenced": list(b.silenced)}
    return {
        "round": s.round, "phase": s.phase, "active": FACTIONS[s.active], "seat": seat,
        "factions": factions, "pieces": pieces, "battle": bt,
        "owner": {x: OWNER_NAMES[owner[i]] for i, x in land},
        "castles": [ids[i] for i, x in enumerate(s.castle) if x],
        "ports": [ids[i] for i, x in enumerate(s.port) if x],
    }
