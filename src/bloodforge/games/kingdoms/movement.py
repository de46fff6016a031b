"""Phases 2 and 4: moving pieces one at a time (K38-K56, K93-K95, rulings A10-A17).

A move names its start, destination and unit type (`move elmwood amberford infantry`); the
engine picks the lowest-numbered piece of that type there that may make the move, so pieces of
a kind stay interchangeable. Paths matter only through friendly spaces (A10), so a destination
is enough: breadth-first distances over the friendly subgraph decide what is reachable.
"""

from __future__ import annotations

from collections import deque

from bloodforge.core import Action

from .board import (
    AIR,
    LAND,
    SEA,
    Occupancy,
    allied,
    article,
    cargo,
    cls,
    enemy_in,
    fid,
    fname,
    friendly_passable,
    hostile,
    name,
    occupants,
    pname,
    seat_of,
)
from .model import KBase, Piece


def _bfs(s: KBase, start: int, budget: int, faction: int, sea_only: bool) -> dict[int, int]:
    """Distances to every space a unit may enter within `budget`, passing only friendly spaces.

    A hostile space may be entered (it ends the move, K46) but not passed through.
    """
    c = s.content
    dist = {start: 0}
    q = deque([start])
    while q:
        a = q.popleft()
        if dist[a] >= budget:
            continue
        if a != start and not friendly_passable(s, a, faction):
            continue
        for n in c.adj[a]:
            if n in dist or (sea_only and not c.is_sea[n]):
                continue
            dist[n] = dist[a] + 1
            q.append(n)
    return dist


def _own_landing(s: KBase, frm: int, budget: int, faction: int, exclude: int) -> set[int]:
    """Own territories an air unit at `frm` reaches within `budget` through friendly spaces (A17)."""
    if budget < 0:
        return set()
    d = _bfs(s, frm, budget, faction, False)
    return {t for t in d if not s.content.is_sea[t] and s.owner[t] == faction and t != exclude
            and not enemy_in(s, t, faction)}


def _no_other_faction(s: KBase, space: int, faction: int) -> bool:
    return occupants(s, space) <= {faction}


def _free_ship(s: KBase, sea: int, faction: int) -> Piece | None:
    cap = s.content.units.ship_capacity
    for _, p in sorted(s.pieces.items()):
        if p.at == sea and p.faction == faction and p.kind == "ship" and not p.fought and len(cargo(s, p)) < cap:
            return p
    return None


def destinations(s: KBase, p: Piece, combat: bool) -> dict[int, int]:
    """Where piece `p` may move now, with the spaces it spends (0 for boarding and landing)."""
    f = p.faction
    c = s.content
    k = cls(s, p.kind)
    out: dict[int, int] = {}
    if p.merc or p.at < 0 or (p.fought and not (k == AIR and not combat and p.cm)):
        return out
    if k == LAND:
        if p.aboard >= 0:
            # disembark (A13): once, from a ship not stuck in a sea battle
            if p.landed or p.walked or (not combat and p.cm) or hostile(s, p.at, f):
                return out
            for n in c.adj[p.at]:
                if c.is_sea[n]:
                    continue
                if (combat and hostile(s, n, f)) or (not combat and s.owner[n] == f and _no_other_faction(s, n, f)):
                    out[n] = 0
            return out
        if p.moved or p.boarded or (not combat and p.cm):
            return out
        for n in c.adj[p.at]:
            if c.is_sea[n]:
                if not hostile(s, n, f) and _free_ship(s, n, f) is not None:
                    out[n] = 1
            elif (combat and hostile(s, n, f)) or (not combat and s.owner[n] == f and _no_other_faction(s, n, f)):
                out[n] = 1
        return out
    move = c.unit(p.kind).move
    if k == AIR:
        if combat:
            if p.moved:
                return out
            d = _bfs(s, p.at, move, f, False)
            for t, n in d.items():
                if t == p.at:
                    continue
                target = enemy_in(s, t, f) or (not c.is_sea[t] and s.owner[t] >= 0 and not allied(s, s.owner[t], f)
                                               and (s.castle[t] or s.port[t]))
                if target and _own_landing(s, t, move - n, f, t):
                    out[t] = n
            return out
        if p.cm:  # land after combat (K94): within the movement left, not where it attacked (K53)
            if p.landed:
                return out
            d = _bfs(s, p.at, move - p.moved, f, False)
            return {t: n for t, n in d.items() if t in _own_landing(s, p.at, move - p.moved, f, p.attacked)}
        if p.moved:
            return out
        d = _bfs(s, p.at, move, f, False)
        return {t: n for t, n in d.items() if t != p.at and not c.is_sea[t] and s.owner[t] == f
                and _no_other_faction(s, t, f)}
    if k == SEA:
        if p.moved >= move or (not combat and p.cm) or hostile(s, p.at, f):
            return out
        d = _bfs(s, p.at, move - p.moved, f, True)
        for t, n in d.items():
            if t == p.at:
                continue
            if hostile(s, t, f):
                if combat:
                    out[t] = n
            elif _no_other_faction(s, t, f):
                out[t] = n
        return out
    return out


def _signature(p: Piece) -> tuple[object, ...]:
    return (p.kind, p.aboard >= 0, p.moved, p.cm, p.fought, p.walked, p.boarded, p.landed, p.attacked, p.merc)


def move_actions(s: KBase, combat: bool) -> list[Action]:
    f = s.active
    seen: set[tuple[object, ...]] = set()
    acts: set[tuple[str, str, str]] = set()
    for _, p in sorted(s.pieces.items()):
        if p.faction != f or p.at < 0:
            continue
        key = (p.at, *_signature(p))
        if key in seen:
            continue
        seen.add(key)
        for t in destinations(s, p, combat):
            acts.add((name(s, p.at), name(s, t), p.kind))
    return [Action("move", a) for a in sorted(acts)]


def pick(s: KBase, frm: int, to: int, kind: str, combat: bool) -> Piece | None:
    for _, p in sorted(s.pieces.items()):
        if p.faction == s.active and p.at == frm and p.kind == kind and to in destinations(s, p, combat):
            return p
    return None


def apply_move(s: KBase, frm: int, to: int, kind: str, combat: bool) -> None:
    s.__dict__["_occ"] = Occupancy(s)  # nothing moves until the piece and its cost are known
    try:
        p = pick(s, frm, to, kind, combat)
        assert p is not None, "move was checked legal"
        cost = destinations(s, p, combat)[to]
    finally:
        del s.__dict__["_occ"]
    f = p.faction
    c = s.content
    k = cls(s, kind)
    attacking = (combat and hostile(s, to, f)) or enemy_in(s, to, f)
    came = _entries(s, p, frm, to, cost)
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


def _entries(s: KBase, p: Piece, frm: int, to: int, cost: int) -> list[int]:
    """The spaces next to `to` through which a move of `cost` spaces from `frm` may have entered it.

    Boarding and landing (cost 0) and one-space moves enter from `frm`; a longer move names no
    path, so every neighbour of `to` on a legal path of that length counts (K81).
    """
    if cost <= 1:
        return [frm]
    d = _bfs(s, frm, cost - 1, p.faction, cls(s, p.kind) == SEA)
    return sorted(n for n in s.content.adj[to]
                  if d.get(n) == cost - 1 and (n == frm or friendly_passable(s, n, p.faction)))


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
