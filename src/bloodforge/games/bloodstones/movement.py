"""Movement: what a group of units may reach and what it costs (rulebook, Action: Move Units).

A group is a set of units leaving one area together along one path. Every unit pays the cost of
each area it enters, except that each leader carries one other unit free (a carried leader may
carry another: a chain), dragons pay one pip per area, the Cutiecorn never pays, and land units
cross seas free along a chain of their own uncontested ships, paying only for land areas entered.
Units may enter an area holding enemy units but not move on from it.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from .model import Position, UnitCounts
from .units import CUTIECORN


@dataclass(frozen=True, slots=True)
class GroupProfile:
    """How a group pays: counts of paying units by cost class, and what it may enter."""

    paying_normal: int
    paying_dragons: int
    ships: int
    land_units: bool  # non-dragon land units (Cutiecorn included): must end on land, seas by ship only

    @property
    def empty(self) -> bool:
        return self.paying_normal == 0 and self.paying_dragons == 0 and self.ships == 0 and not self.land_units


def group_profile(st: Position, seat: int, group: UnitCounts) -> GroupProfile:
    kinds = st.rules_of(seat).kinds
    leaders = dragons = ships = others = 0
    cutiecorn = False
    for unit, n in group.items():
        if unit == CUTIECORN:
            cutiecorn = True
            continue
        k = kinds[unit]
        if k.is_leader:
            leaders += n
        elif k.is_dragon:
            dragons += n
        elif k.is_ship:
            ships += n
        else:
            others += n
    size = leaders + dragons + ships + others
    free = min(leaders, size - 1) if size else 0
    # Free places go to the dearest movers first: every non-dragon pays at least what a dragon
    # pays for the same area, and one leader must stay uncarried to start the chain.
    free_normal = min(free, others + max(leaders - 1, 0))
    free_dragons = free - free_normal
    return GroupProfile(
        paying_normal=leaders + others - free_normal,
        paying_dragons=dragons - free_dragons,
        ships=ships,
        land_units=(leaders + others) > 0 or cutiecorn,
    )


def passage_sea(st: Position, seat: int, area: int) -> bool:
    """A sea holding one of the mover's ships and no other player's units (ship passage)."""
    by_seat = st.units.get(area)
    if not by_seat or seat not in by_seat or len(by_seat) > 1:
        return False
    kinds = st.rules_of(seat).kinds
    return any(kinds[u].is_ship for u in by_seat[seat] if u != CUTIECORN)


def passage_seas(st: Position, seat: int) -> set[int]:
    """Every sea offering `seat` ship passage now (see `passage_sea`), found in one sweep."""
    kinds = st.rules_of(seat).kinds
    sea = st.ruleset.board.sea_areas
    units = st.units
    out = set()
    for area in sea:
        by_seat = units.get(area)
        if by_seat is not None and len(by_seat) == 1:
            mine = by_seat.get(seat)
            if mine is not None and any(u != CUTIECORN and kinds[u].is_ship for u in mine):
                out.add(area)
    return out


def reachable(
    st: Position, seat: int, source: int, group: UnitCounts, budget: int | None
) -> dict[int, int]:
    """Destinations the whole group may end in, with their cheapest total cost.

    Dijkstra over areas with the entry cost of each area looked up from tables: the faction's
    cost of entering each area, the seas with ship passage and the areas holding other
    players' units (entered but never left) are computed once per search.
    """
    prof = group_profile(st, seat, group)
    if prof.empty:
        return {}
    ruleset = st.ruleset
    area_cost = st.rules_of(seat).area_cost_list
    neighbours = ruleset.neighbour_list
    sea = ruleset.sea_list
    passage = passage_seas(st, seat)
    blocked = {a for a, by_seat in st.units.items() if len(by_seat) > 1 or seat not in by_seat}
    land_units, ships = prof.land_units, prof.ships
    paying_normal, paying_dragons = prof.paying_normal, prof.paying_dragons
    # entry cost of each area, by area id: -2 not looked at yet, -1 may not enter
    enter = [-2] * len(sea)
    limit = budget if budget is not None else 1 << 60
    unreached = limit + 1
    best = [unreached] * len(sea)
    best[source] = 0
    heap = [(0, source)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        cost, a = pop(heap)
        if cost > best[a]:
            continue
        if a != source and a in blocked:
            continue
        for b in neighbours[a]:
            step = enter[b]
            if step == -2:
                if sea[b]:
                    if land_units:
                        step = 0 if b in passage else -1
                    else:
                        step = ships + paying_dragons * (0 if b in passage else 1)
                elif ships:
                    step = -1
                elif land_units:
                    c = area_cost[b]
                    step = -1 if c is None else paying_normal * c + paying_dragons
                else:
                    step = paying_dragons
                enter[b] = step
            if step < 0:
                continue
            total = cost + step
            if total <= limit and total < best[b]:
                best[b] = total
                push(heap, (total, b))
    out: dict[int, int] = {}
    for area, cost in enumerate(best):
        if cost == unreached or area == source:
            continue
        if sea[area]:
            if land_units:
                continue  # only ships and dragons may stay at sea
            if paying_dragons and area in passage:
                # Ship passage is free only along the way: "you still pay the cost of moving
                # into the final area", and a dragon pays one pip for any area, a sea with its
                # own ship included.
                before = [best[b] for b in neighbours[area]
                          if best[b] != unreached and (b == source or b not in blocked)]
                cost = min(before) + ships + paying_dragons
                if cost > limit:
                    continue
        out[area] = cost
    return out


def group_reach(st: Position, seat: int) -> dict[int, int]:
    """Where the group selected in the pending move may go with the pips left in `seat`'s
    hand, and each destination's cost; computed once per position (legal actions, the `to`
    action and the observation all ask)."""
    p = st.pending
    if p is None or p.kind != "move" or not p.group or p.group_area is None:
        return {}
    memo = st.reach_memo
    if memo is not None and memo[0] == len(st.history):
        return memo[1]
    reach = reachable(st, seat, p.group_area, p.group, st.hand_pips(seat) - p.cost)
    st.reach_memo = (len(st.history), reach)
    return reach


def undead_destinations(st: Position, seat: int, source: int) -> list[int]:
    """Undead move phase: up to two land areas at no cost, any terrain, seas only by own ships."""
    board = st.ruleset.board

    def enter(area: int) -> int | None:
        if board.is_sea(area):
            return 0 if passage_sea(st, seat, area) else None
        return 1

    def can_pass(area: int) -> bool:
        return not st.enemy_units_in(area, seat)

    costs = board.graph.cheapest_costs(source, enter, can_pass, 2)
    return sorted(a for a, c in costs.items() if a != source and not board.is_sea(a) and c >= 1)


def movable_units(st: Position, seat: int, area: int) -> UnitCounts:
    """Units of `seat` that may leave `area` now by a Move Units action."""
    if st.enemy_units_in(area, seat):
        return {}
    kinds = st.rules_of(seat).kinds
    return {u: n for u, n in st.units_at(area, seat).items() if u == CUTIECORN or kinds[u].moves_in_main_actions}
