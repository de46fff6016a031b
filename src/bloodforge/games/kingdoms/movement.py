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
)
from .model import KBase, Piece
from .terrain import Terrain, terrain

#: a piece's space, type and movement flags and whether it is a combat move: all that decides
#: where it may go (the pieces of one group are interchangeable, so one search serves them all)
GroupKey = tuple[int, str, bool, int, bool, bool, bool, bool, bool, int, bool, bool]


def _free_ship(s: KBase, sea: int, faction: int) -> Piece | None:
    cap = s.content.units.ship_capacity
    for p in s.pieces.values():
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
    words = [_key(ids, p.at, t, p.kind) for t in dests]
    for w in words:
        _move(w)  # made now, so that listings read `_MOVES` directly
    out = (dests, seas, words)
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


class MoveMemo:
    """The moving faction's move list, kept up to date move by move.

    *Why:* most moves of a phase change one piece (a ship: its cargo too), and the list is the
    union of what each group of interchangeable pieces may do (`_reach`, cached per terrain);
    counting how many groups offer each move lets `apply_move` patch the union instead of
    listing every piece again, and the sorted list stays as it is while the set of moves does.
    Valid for one position: `ply` is the history length it was made or patched for, and
    anything but a move drops it (`rules.apply`); clones start without one.
    """

    __slots__ = ("actions", "combat", "count", "free", "full", "groups", "ply", "seas", "terrain", "words")

    def __init__(self, s: KBase, ter: Terrain, combat: bool) -> None:
        self.terrain = ter
        self.combat = combat
        self.ply = len(s.history)
        self.groups: dict[int, GroupKey] = {}  # piece id -> its group, own pieces on the map
        self.count: dict[GroupKey, int] = {}  # group -> its pieces
        self.words: dict[str, int] = {}  # move (`_key`) -> groups offering it, boarding left out
        self.seas: dict[GroupKey, tuple[int, ...]] = {}  # groups that may board a ship somewhere
        self.free: set[int] | None = None  # sea zones with a ship with room (None: to find)
        self.actions: list[Action] | None = None  # the sorted `words` (None: to redo)
        self.full: list[Action] | None = None  # with boarding moves (None: to redo)
        f = ter.faction
        groups = self.groups
        count = self.count
        first: dict[GroupKey, Piece] = {}
        land = s.content.units.units
        for p in s.pieces.values():
            if p.faction == f and p.at >= 0:
                if p.aboard < 0 and (p.moved or p.fought or p.boarded or p.merc or (p.cm and not combat)) \
                        and land[p.kind].cls == LAND:
                    continue  # a land unit that may not move again this phase (`_search`); it never will
                key = (p.at, p.kind, p.aboard >= 0, p.moved, p.cm, p.fought, p.walked, p.boarded, p.landed,
                       p.attacked, p.merc, combat)  # _group, inlined: this runs for every piece
                groups[p.id] = key
                n = count.get(key, 0)
                count[key] = n + 1
                if not n:
                    first[key] = p
        dests = ter.dests
        words = self.words
        for key, p in first.items():
            found = dests.get(key)
            if found is None:
                found = _reach(s, ter, p, combat)
            if found[1]:
                self.seas[key] = found[1]
            for w in found[2]:
                words[w] = words.get(w, 0) + 1

    def _join(self, s: KBase, p: Piece, key: GroupKey) -> None:
        self.groups[p.id] = key
        n = self.count.get(key, 0)
        self.count[key] = n + 1
        if n:
            return
        found = self.terrain.dests.get(key)
        if found is None:
            found = _reach(s, self.terrain, p, self.combat)
        seas, words = found[1], found[2]
        if seas:
            self.seas[key] = seas
            self.full = None
        for w in words:
            m = self.words.get(w, 0)
            self.words[w] = m + 1
            if not m:
                self.actions = self.full = None

    def _leave(self, pid: int) -> None:
        key = self.groups.pop(pid)
        n = self.count[key] - 1
        if n:
            self.count[key] = n
            return
        del self.count[key]
        if self.seas.pop(key, None) is not None:
            self.full = None
        for w in self.terrain.dests[key][2]:
            m = self.words[w] - 1
            if m:
                self.words[w] = m
            else:
                del self.words[w]
                self.actions = self.full = None

    def moved(self, s: KBase, pieces: list[Piece], ships: bool) -> None:
        """`pieces` have just moved (`ships`: ship room may have changed)."""
        for p in pieces:
            old = self.groups.get(p.id)
            key = _group(p, self.combat)
            if old is not None and key != old:
                self._leave(p.id)
                self._join(s, p, key)
        if ships:
            self.free = self.full = None
        self.ply = len(s.history) + 1  # the engine records the move next

    def listing(self, s: KBase) -> list[Action]:
        """The sorted move actions (a new list: the caller may extend it)."""
        full = self.full
        if full is not None:
            return list(full)
        acts = self.actions
        if acts is None:
            made = _MOVES
            acts = self.actions = [made[w] for w in sorted(self.words)]
        full = acts
        if self.seas:
            free = self.free
            if free is None:
                free = self.free = _free_seas(s, self.terrain.faction)
            ids = s.content.ids
            extra: set[str] = set()
            for key, seas in self.seas.items():
                for z in seas:
                    if z in free:
                        extra.add(_key(ids, key[0], z, key[1]))
            if extra:
                full = [_move(w) for w in sorted(extra.union(self.words))]
        self.full = full
        return list(full)


def _memo(s: KBase, combat: bool) -> MoveMemo | None:
    """The state's move memo if it is still that of this position."""
    m = s.move_memo
    assert m is None or isinstance(m, MoveMemo)
    if m is None or m.combat != combat or m.terrain is not s.terrain or m.ply != len(s.history):
        return None
    return m


def move_actions(s: KBase, combat: bool) -> list[Action]:
    ter = terrain(s, s.active)
    m = _memo(s, combat)
    if m is None:
        m = s.move_memo = MoveMemo(s, ter, combat)
    return m.listing(s)


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


def apply_move(s: KBase, frm: int, to: int, kind: str, combat: bool) -> bool:
    """Move the piece; True if the move may turn a stack face up (`rules.update_knowledge`).

    Seen pieces stay known (A36) and every position so far had its face-up stacks recorded, so
    only what now stands in `to` or next to it may newly be seen, and only if an enemy piece
    stands there: with none, nothing there faces an enemy it did not face before."""
    f = s.active
    ter = terrain(s, f)  # nothing moves until the piece, its cost and its entries are known
    memo = _memo(s, combat)
    s.move_memo = None
    p = pick(s, frm, to, kind, combat)
    assert p is not None, "move was checked legal"
    cost = _reach(s, ter, p, combat)[0].get(to, 1)  # not among the destinations: boarding, 1
    c = s.content
    k = cls(s, kind)
    attacking = (combat and ter.hostile[to]) or ter.enemy[to]
    came = _entries(s, ter, p, frm, to, cost)
    ships = k == SEA or (k == LAND and (p.aboard >= 0 or c.is_sea[to]))  # ship room changes
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
    moved = [p]
    if k == SEA:
        for cg in cargo(s, p):
            cg.at = to
            cg.came = list(came)
            moved.append(cg)
    if memo is not None and memo.terrain is ter:
        memo.moved(s, moved, ships)
        s.move_memo = memo
    if k == AIR and p.moved >= 2:
        # everyone saw it fly (A36): only a unit with that much movement goes that far in a turn
        s.flown[p.id] = max(p.moved, s.flown.get(p.id, 0))
    verb = "attack with" if attacking else "move"
    who, a, b = fname(f), pname(s, frm), pname(s, to)
    s.events.add(f"{who} {verb} {article(kind)} from {a} to {b}", to=s.team_seats[f],
                 masked=f"{who} {verb} a unit from {a} to {b}", kind="move")
    enemy = ter.enemy
    return enemy[to] or any(enemy[n] for n in c.adj[to])


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
    for pid, p in list(s.pieces.items()):
        if p.faction == f and p.at >= 0 and cls(s, p.kind) == AIR:
            t = p.at
            if s.content.is_sea[t] or s.owner[t] != f or (p.cm and t == p.attacked):
                s.pieces.pop(pid)
                s.known.discard(pid)
                s.flown.pop(pid, None)
                s.events.add(f"{fname(f)} lose {article(p.kind)} that found nowhere to land at {pname(s, t)}",
                             kind="crash", data={"faction": fid(f), "unit": p.kind, "space": name(s, t)})
