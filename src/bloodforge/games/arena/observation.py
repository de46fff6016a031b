"""What a seat sees (spec §6 Hidden information) and hidden-information resampling.

Hidden: other seats' committed Initiative cards before the reveal, and the order of every deck
(Speed, Boss Action, Skirmish, Environmental Action). Everything else is public: the board,
pools and faces, HP, energy, discard piles in order, hand contents (all cards minus the
public discard and current card).
"""

from __future__ import annotations

from typing import Any

from bloodforge.core import Rng

from .hexes import hex_id
from .model import Board
from .world import World


def observe(w: World, seat: int | None) -> dict[str, Any]:
    b = w.board
    units = []
    for u in b.units.values():
        units.append({
            "id": u.uid, "name": u.name, "kind": u.kind, "seat": u.seat, "side": u.side,
            "summoner": u.summoner, "hex": None if u.hex is None else hex_id(u.hex), "alive": u.alive,
            "hp": u.hp, "max_hp": u.max_hp, "energy": u.energy,
            "pool": [{"kind": d.kind, "sides": d.sides, "face": d.face, "used": d.used, "fresh": d.fresh}
                     for d in u.pool],
            "hand": sorted(u.hand), "discard": list(u.discard), "current": u.current,
            "speed": u.speed, "prev_speed": u.prev_speed,
            "picked": u.seat is not None and u.seat in b.picks,
            "moved": u.moved, "attacked": u.attacked, "invoked": u.invoked, "bonus_used": list(u.bonus_used),
            "mods": dict(sorted(u.mods.items())), "rolled": u.rolled_category, "flying": u.flying,
        })
    obs: dict[str, Any] = {
        "round": b.round, "phase": b.phase, "order": list(b.order), "done": list(b.done), "active": b.active,
        "stage": b.stage, "units": units,
        "tiles": [{"id": t.tid, "env": t.env, "hexes": [hex_id(h) for h in t.hexes], "owner": t.owner}
                  for t in b.tiles],
        "pending": None if b.pending is None else {"seat": b.pending.seat, "kind": b.pending.kind,
                                                   "options": list(b.pending.options), "data": dict(b.pending.data)},
        "attack": None if b.attack is None else dict(b.attack),
        "decks": {k: {"size": len(d), "discards": list(d.discards)} for k, d in sorted(b.decks.items())},
        "revealed": dict(sorted(b.revealed.items())),
        "env_speed": {k: list(v) for k, v in sorted(b.env_speed.items())},
        "winners": list(b.winners),
        "my_pick": None if seat is None else b.picks.get(seat),
        "seat": seat,
        "board": board_view(w),
        "log": w.events.tail_for(seat, 12),
    }
    return obs


def board_view(w: World) -> dict[str, Any]:
    """The browser board contract: pieces on hexes, tile marks."""
    pieces = []
    for u in w.board.units.values():
        if u.alive and u.hex is not None:
            label = u.name if u.hp is None else f"{u.name} {u.hp}"
            pieces.append({"at": hex_id(u.hex), "owner": u.seat if u.seat is not None else None,
                           "kind": u.kind, "label": label, "count": 1, "hidden": False, "id": u.uid})
    marks = []
    for t in w.board.tiles:
        name = w.content.environmental(t.env).name
        marks += [{"at": hex_id(h), "kind": t.env, "label": name} for h in t.hexes]
    return {"pieces": pieces, "marks": marks}


def resample(board: Board, seat: int | None, rng: Rng) -> Board:
    """A board consistent with what `seat` saw: others' secret picks redrawn from their hands,
    every deck's order reshuffled, rigged dice forgotten."""
    new = board.copy()
    for s in sorted(new.picks):
        if s == seat:
            continue
        u = next(x for x in new.units.values() if x.seat == s)
        new.picks[s] = rng.choice(sorted(u.hand))
    for k in sorted(new.decks):
        new.decks[k].reshuffle_pile(rng)
    new.dice = {}
    return new
