"""What the map looks like to the moving faction, computed once per turn phase and reused.

*Why:* listing moves asks, for every piece, which spaces are hostile, which hold enemies, which
hold another faction, and searches the friendly subgraph breadth-first; random playouts spent
a third of their time on those searches, repeated for each piece and again in `apply`. None of
those facts depends on the moving faction's own pieces: they follow from ownership, castles and
ports and where the *other* factions' pieces stand, and a faction's own move changes none of
them (a move never captures; battles do). So a `Terrain` is built for the active faction once,
kept on the state (`KBase.terrain`) while that faction moves, and dropped by `rules.apply` before
any other action changes the position. Clones share it (its contents are facts of a position
both copies are in); everything it caches is filled lazily and never mutated afterwards.
"""

from __future__ import annotations

from .model import KBase


class Terrain:
    """Per-space facts for one faction, with its breadth-first searches cached.

    `hostile`: entering is a combat move (K39/K40/K54); `enemy`: an enemy piece stands there;
    `alone`: no piece of another faction (allies included) stands there; `passable`: a unit may
    pass through it (A10: friendly and no enemy); `own`: the faction holds the territory.
    """

    __slots__ = ("alone", "dests", "enemy", "faction", "hostile", "landing", "own", "passable", "searches")

    def __init__(self, s: KBase, faction: int) -> None:
        c = s.content
        n = len(c.ids)
        teams = s.teams
        team = teams[faction]
        enemy = [False] * n
        other = [False] * n
        enemy_ship = [False] * n
        for p in s.pieces.values():
            at = p.at
            if at >= 0 and p.faction != faction:
                other[at] = True
                if teams[p.faction] != team:
                    enemy[at] = True
                    if p.kind == "ship" and p.aboard < 0:
                        enemy_ship[at] = True
        owner = s.owner
        foe_owner = [teams[g] != team for g in range(4)]
        foe_owner.append(True)  # owner -1 (neutral) reads the last entry: hostile (K40)
        hostile = [es if sea else foe_owner[o] for sea, o, es in zip(c.is_sea, owner, enemy_ship, strict=True)]
        self.faction = faction
        self.hostile = hostile
        self.enemy = enemy
        self.alone = [not o for o in other]
        self.passable = [not (h or e) for h, e in zip(hostile, enemy, strict=True)]
        self.own = [o == faction for o in owner]
        #: (start, budget, sea only) -> distances (never mutated once stored)
        self.searches: dict[tuple[int, int, bool], dict[int, int]] = {}
        #: (from, budget, excluded space) -> own territories an air unit may land in (A17)
        self.landing: dict[tuple[int, int, int], frozenset[int]] = {}
        #: a piece's space and movement flags, combat or not -> its destinations (boarding a
        #: ship left out: ship room changes as the faction's own units board), the sea zones it
        #: may board in and its moves as sort keys (movement._reach)
        self.dests: dict[tuple[object, ...], tuple[dict[int, int], tuple[int, ...], list[str]]] = {}

    def bfs(self, s: KBase, start: int, budget: int, sea_only: bool) -> dict[int, int]:
        """Distances to every space a unit may enter within `budget`, passing only friendly spaces.

        A hostile space may be entered (it ends the move, K46) but not passed through. The
        returned dict is shared: callers read it, never change it.
        """
        key = (start, budget, sea_only)
        found = self.searches.get(key)
        if found is not None:
            return found
        c = s.content
        adj = c.adj
        is_sea = c.is_sea
        passable = self.passable
        dist = {start: 0}
        frontier = [start]
        d = 0
        while frontier and d < budget:  # level by level: a space at the budget is not expanded
            d += 1
            nxt = []
            for a in frontier:
                if a != start and not passable[a]:
                    continue
                for n in adj[a]:
                    if n not in dist and (not sea_only or is_sea[n]):
                        dist[n] = d
                        nxt.append(n)
            frontier = nxt
        self.searches[key] = dist
        return dist

    def own_landing(self, s: KBase, frm: int, budget: int, exclude: int) -> frozenset[int]:
        """Own territories an air unit at `frm` reaches within `budget` through friendly spaces (A17)."""
        if budget < 0:
            return frozenset()
        key = (frm, budget, exclude)
        found = self.landing.get(key)
        if found is not None:
            return found
        is_sea = s.content.is_sea
        own = self.own
        enemy = self.enemy
        out = frozenset(t for t in self.bfs(s, frm, budget, False)
                        if not is_sea[t] and own[t] and t != exclude and not enemy[t])
        self.landing[key] = out
        return out


def held_terrain(s: KBase) -> Terrain | None:
    """The terrain the state holds now, if any (the position keeps it as an opaque slot)."""
    t = s.terrain
    assert t is None or isinstance(t, Terrain)
    return t


def terrain(s: KBase, faction: int) -> Terrain:
    """The state's terrain for `faction`, built now if it has none for that faction."""
    t = held_terrain(s)
    if t is None or t.faction != faction:
        t = Terrain(s, faction)
        s.terrain = t
    return t
