"""Phases 2 and 4: moving pieces one at a time (K38-K56, K93-K95, rulings A10-A17).

A move names its start, destination and unit type (`move elmwood amberford infantry`); the
engine picks the lowest-numbered piece of that type there that may make the move, so pieces of
a kind stay interchangeable. Paths matter only through friendly spaces (A10), so a destination
is enough: breadth-first distances over the friendly subgraph decide what is reachable.
"""

from __future__ import annotations

from bloodforge.core import Action

from .board import (
    AIR,
    LAND,
    SEA,
    allied,
    article,
    cargo,
    cls,
    fid,
    fname,
    name,
    pname,
    seat_of,
)
from .model import KBase, Piece
from .terrain import Terrain, terrain

#: a piece's space, type and movement flags and whether it is a combat move: all that decides
#: where it may go (the pieces of one group are interchangeable, so one search serves them all)
GroupKey = tuple[int, str, bool, int, bool, bool, bool, bool, bool, int, bool, bool]


def _free_ship(s: KBase, sea: int, faction: int) -> Piece | None:
    cap = s.content.units.ship_capacity
    for _, p in sorted(s.pieces.items()):
        if p.at == sea and p.faction == faction and p.kind == "ship" and not p.fought and len(cargo(s, p)) < cap:
            return p
    return None


def _free_seas(s: KBase, faction: int) -> set[int]:
    """Sea zones where a ship of `faction` has room for one more unit (one pass over the pieces)."""
    load: dict[int, int] = {}
    ships: list[Piece] = []
    for p in s.pieces.values():
        if p.aboard >= 0:
            load[p.aboard] = load.get(p.aboard, 0) + 1
        elif p.faction == faction and p.kind == "ship" and p.at >= 0 and not p.fought:
            ships.append(p)
    cap = s.content.units.ship_capacity
    return {p.at for p in ships if load.get(p.id, 0) < cap}


def _group(p: Piece, combat: bool) -> GroupKey:
    return (p.at, p.kind, p.aboard >= 0, p.moved, p.cm, p.fought, p.walked, p.boarded, p.landed, p.attacked,
            p.merc, combat)


def _reach(s: KBase, ter: Terrain, p: Piece, combat: bool) -> tuple[dict[int, int], tuple[int, ...], list[str]]:
    """Where a piece of `p`'s group may move, with the spaces it spends (0 for boarding and
    landing); the sea zones it may board a ship in if one there has room (asked separately:
    room changes as the faction's own units board); the moves as sort keys (`_key`)."""
    key = _group(p, combat)
    found = ter.dests.get(key)
    if found is not None:
        return found
    dests, seas = _search(s, ter, p, combat)
    ids = s.content.ids
    out = (dests, seas, [_key(ids, p.at, t, p.kind) for t in dests])
    ter.dests[key] = out
    return out


def _search(s: KBase, ter: Terrain, p: Piece, combat: bool) -> tuple[dict[int, int], tuple[int, ...]]:
    c = s.content
    k = cls(s, p.kind)
    out: dict[int, int] = {}
    if p.merc or p.at < 0 or (p.fought and not (k == AIR and not combat and p.cm)):
        return out, ()
    hostile = ter.hostile
    own = ter.own
    alone = ter.alone
    is_sea = c.is_sea
    if k == LAND:
        if p.aboard >= 0:
            # disembark (A13): once, from a ship not stuck in a sea battle
            if p.landed or p.walked or (not combat and p.cm) or hostile[p.at]:
                return out, ()
            for n in c.adj[p.at]:
                if is_sea[n]:
                    continue
                if (combat and hostile[n]) or (not combat and own[n] and alone[n]):
                    out[n] = 0
            return out, ()
        if p.moved or p.boarded or (not combat and p.cm):
            return out, ()
        seas = []
        for n in c.adj[p.at]:
            if is_sea[n]:
                if not hostile[n]:
                    seas.append(n)
            elif (combat and hostile[n]) or (not combat and own[n] and alone[n]):
                out[n] = 1
        return out, tuple(seas)
    move = c.unit(p.kind).move
    if k == AIR:
        if combat:
            if p.moved:
                return out, ()
            d = ter.bfs(s, p.at, move, False)
            f = p.faction
            for t, n in d.items():
                if t == p.at:
                    continue
                target = ter.enemy[t] or (not is_sea[t] and s.owner[t] >= 0 and not allied(s, s.owner[t], f)
                                          and (s.castle[t] or s.port[t]))
                if target and ter.own_landing(s, t, move - n, t):
                    out[t] = n
            return out, ()
        if p.cm:  # land after combat (K94): within the movement left, not where it attacked (K53)
            if p.landed:
                return out, ()
            d = ter.bfs(s, p.at, move - p.moved, False)
            landing = ter.own_landing(s, p.at, move - p.moved, p.attacked)
            return {t: n for t, n in d.items() if t in landing}, ()
        if p.moved:
            return out, ()
        d = ter.bfs(s, p.at, move, False)
        return {t: n for t, n in d.items() if t != p.at and not is_sea[t] and own[t] and alone[t]}, ()
    if k == SEA:
        if p.moved >= move or (not combat and p.cm) or hostile[p.at]:
            return out, ()
        d = ter.bfs(s, p.at, move - p.moved, True)
        for t, n in d.items():
            if t == p.at:
                continue
            if hostile[t]:
                if combat:
                    out[t] = n
            elif alone[t]:
                out[t] = n
        return out, ()
    return out, ()


def destinations(s: KBase, p: Piece, combat: bool) -> dict[int, int]:
    """Where piece `p` may move now, with the spaces it spends (0 for boarding and landing)."""
    dests, seas, _ = _reach(s, terrain(s, p.faction), p, combat)
    out = dict(dests)
    for z in seas:
        if _free_ship(s, z, p.faction) is not None:
            out[z] = 1
    return out


def _key(ids: tuple[str, ...], frm: int, to: int, kind: str) -> str:
    """A move's words joined by NUL: these sort as the word tuples do (no id contains NUL)."""
    return f"{ids[frm]}\0{ids[to]}\0{kind}"


_MOVES: dict[str, Action] = {}


def _move(key: str) -> Action:
    """One `move` action per text, made once: the same moves are listed again and again."""
    a = _MOVES.get(key)
    if a is None:
        frm, to, kind = key.split("\0")
        a = _MOVES[key] = Action("move", (frm, to, kind))
    return a


def move_actions(s: KBase, combat: bool) -> list[Action]:
    f = s.active
    ter = terrain(s, f)
    ids = s.content.ids
    seen: set[GroupKey] = set()
    acts: set[str] = set()
    free: set[int] | None = None
    for p in s.pieces.values():
        if p.faction != f or p.at < 0:
            continue
        key = (p.at, p.kind, p.aboard >= 0, p.moved, p.cm, p.fought, p.walked, p.boarded, p.landed, p.attacked,
               p.merc, combat)
        if key in seen:
            continue
        seen.add(key)
        found = ter.dests.get(key)
        if found is None:
            found = _reach(s, ter, p, combat)
        acts.update(found[2])
        seas = found[1]
        if seas:
            if free is None:
                free = _free_seas(s, f)
            for z in seas:
                if z in free:
                    acts.add(_key(ids, p.at, z, p.kind))
    return [_move(a) for a in sorted(acts)]


def pick(s: KBase, frm: int, to: int, kind: str, combat: bool) -> Piece | None:
    """The lowest-numbered piece of `kind` at `frm` that may move to `to` (pieces of a kind are
    interchangeable, A29), with what it spends; None if none may."""
    f = s.active
    ter = terrain(s, f)
    board: bool | None = None
    for p in s.pieces.values():  # in id order (ids only grow, the dict keeps insertion order)
        if p.faction == f and p.at == frm and p.kind == kind:
            dests, seas, _ = _reach(s, ter, p, combat)
            if to in dests:
                return p
            if to in seas:
                if board is None:
                    board = _free_ship(s, to, f) is not None
                if board:
                    return p
    return None


def apply_move(s: KBase, frm: int, to: int, kind: str, combat: bool) -> None:
    f = s.active
    ter = terrain(s, f)  # nothing moves until the piece, its cost and its entries are known
    p = pick(s, frm, to, kind, combat)
    assert p is not None, "move was checked legal"
    cost = _reach(s, ter, p, combat)[0].get(to, 1)  # not among the destinations: boarding, 1
    c = s.content
    k = cls(s, kind)
    attacking = (combat and ter.hostile[to]) or ter.enemy[to]
    came = _entries(s, ter, p, frm, to, cost)
    if k == LAND and p.aboard >= 0:
        p.aboard = -1
        p.landed = True
    elif k == LAND and c.is_sea[to]:
        ship = _free_ship(s, to, f)
        assert ship is not None
        p.aboard = ship.id
        p.boarded = True
        p.moved = 1
    else:
        p.moved += cost
        if k == LAND:
            p.walked = True
    if combat:
        p.cm = True
    if attacking:
        p.attacked = to
    if k == AIR and combat is False and p.cm:
        p.landed = True
    p.at = to
    p.came = came
    if k == SEA:
        for cg in cargo(s, p):
            cg.at = to
            cg.came = list(came)
    if k == AIR and p.moved >= 2:
        # everyone saw it fly (A36): only a unit with that much movement goes that far in a turn
        s.flown[p.id] = max(p.moved, s.flown.get(p.id, 0))
    team = [seat_of(s, g) for g in range(4) if allied(s, g, f)]
    verb = "attack with" if attacking else "move"
    s.events.add(f"{fname(f)} {verb} {article(kind)} from {pname(s, frm)} to {pname(s, to)}", to=sorted(set(team)),
                 masked=f"{fname(f)} {verb} a unit from {pname(s, frm)} to {pname(s, to)}", kind="move")


def _entries(s: KBase, ter: Terrain, p: Piece, frm: int, to: int, cost: int) -> list[int]:
    """The spaces next to `to` through which a move of `cost` spaces from `frm` may have entered it.

    Boarding and landing (cost 0) and one-space moves enter from `frm`; a longer move names no
    path, so every neighbour of `to` on a legal path of that length counts (K81).
    """
    if cost <= 1:
        return [frm]
    d = ter.bfs(s, frm, cost - 1, cls(s, p.kind) == SEA)
    passable = ter.passable
    return sorted(n for n in s.content.adj[to] if d.get(n) == cost - 1 and (n == frm or passable[n]))


def land_or_crash(s: KBase) -> None:
    """End of phase 4 (A17): air units not standing in an own territory are lost."""
    f = s.active
    for pid, p in sorted(s.pieces.items()):
        if p.faction == f and p.at >= 0 and cls(s, p.kind) == AIR:
            t = p.at
            if s.content.is_sea[t] or s.owner[t] != f or (p.cm and t == p.attacked):
                s.pieces.pop(pid)
                s.known.discard(pid)
                s.flown.pop(pid, None)
                s.events.add(f"{fname(f)} lose {article(p.kind)} that found nowhere to land at {pname(s, t)}",
                             kind="crash", data={"faction": fid(f), "unit": p.kind, "space": name(s, t)})
