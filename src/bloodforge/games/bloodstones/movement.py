"""Movement: what a group of units may reach and what it costs (rulebook, Action: Move Units).

A group is a set of units leaving one area together along one path. Every unit pays the cost of
each area it enters, except that each leader carries one other unit free (a carried leader may
carry another: a chain), dragons pay one pip per area, the Cutiecorn never pays, and land units
cross seas free along a chain of their own uncontested ships, paying only for land areas entered.
Units may enter an area holding enemy units but not move on from it.
"""

from __future__ import annotations

from .model import Position, UnitCounts
from .units import CUTIECORN

#: How a group pays: (paying_normal, paying_dragons, ships, land_units) - counts of paying
#: units by cost class, and whether it holds non-dragon land units (Cutiecorn included: it must
#: end on land and crosses seas by ship only). A plain tuple: it keys the search caches.
GroupProfile = tuple[int, int, int, bool]


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
    return (leaders + others - free_normal, dragons - free_dragons, ships, (leaders + others) > 0 or cutiecorn)


def _moves_nothing(prof: GroupProfile) -> bool:
    return prof[0] == 0 and prof[1] == 0 and prof[2] == 0 and not prof[3]


def passage_sea(st: Position, seat: int, area: int) -> bool:
    """A sea holding one of the mover's ships and no other player's units (ship passage)."""
    by_seat = st.units.get(area)
    if not by_seat or seat not in by_seat or len(by_seat) > 1:
        return False
    kinds = st.rules_of(seat).kinds
    return any(kinds[u].is_ship for u in by_seat[seat] if u != CUTIECORN)


def passage_seas(st: Position, seat: int) -> set[int]:
    """Every sea offering `seat` ship passage now (see `passage_sea`), found in one sweep once
    per view of the seat (`Position.view_versions`; read only: the answer is shared)."""
    view = st.view_versions[seat]
    memo = st.passage_memo
    if memo is not None and memo[0] == view and memo[1] == seat:
        return memo[2]
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
    st.passage_memo = (view, seat, out)
    return out


def reachable(st: Position, seat: int, source: int, group: UnitCounts, budget: int) -> dict[int, int]:
    """Destinations the whole group may end in, with their cheapest total cost."""
    prof = group_profile(st, seat, group)
    if _moves_nothing(prof):
        return {}
    return _search(st, seat, source, prof[0], prof[1], prof[2], prof[3], budget)


#: entry cost of an area a group may not enter: more than any budget
IMPASSABLE = 1 << 40


def _search(
    st: Position, seat: int, source: int, paying_normal: int, paying_dragons: int, ships: int,
    land_units: bool, budget: int,
) -> dict[int, int]:
    """Dijkstra over areas with a bucket per total cost (costs are small integers up to the
    budget), the entry cost of each area looked up from a table: the group's cost of entering
    each area (`_entry_costs`, once per faction and profile), patched for the seas with ship
    passage; areas holding other players' units are entered but never left.
    The answer lists the areas in text order (the order of the `to` actions)."""
    if budget < 0:
        return {}
    ruleset = st.ruleset
    fid = st.factions[seat]
    assert fid is not None
    neighbours = ruleset.neighbour_list
    sea = ruleset.sea_list
    passage = passage_seas(st, seat)
    enter = _entry_costs(st, fid, paying_normal, paying_dragons, ships, land_units)
    if passage:
        enter = list(enter)
        for b in passage:
            enter[b] = 0 if land_units else ships
    stop = _blocked_areas(st, seat)
    unreached = budget + 1
    # best[b] <= unreached always, so `total < best[b]` also keeps totals within the budget
    best = [unreached] * len(sea)
    best[source] = 0
    buckets: list[list[int]] = [[] for _ in range(unreached)]
    buckets[0].append(source)
    for cost, bucket in enumerate(buckets):
        for a in bucket:  # zero-cost steps append to the bucket being read: they are read too
            if best[a] != cost:
                continue  # reached more cheaply since
            for b in neighbours[a]:
                total = cost + enter[b]
                if total < best[b]:
                    best[b] = total
                    if b not in stop:  # other players' units: entered, never left
                        buckets[total].append(b)
    out: dict[int, int] = {}
    for area in ruleset.area_order:
        cost = best[area]
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
                          if best[b] != unreached and (b == source or b not in stop)]
                cost = min(before) + ships + paying_dragons
                if cost > budget:
                    continue
        out[area] = cost
    return out


def _blocked_areas(st: Position, seat: int) -> set[int]:
    """Areas holding other players' units: `seat`'s groups may enter them but not move on.
    Found once per view of the seat (`Position.view_versions`; read only: shared)."""
    view = st.view_versions[seat]
    memo = st.blocked_memo
    if memo is not None and memo[0] == view and memo[1] == seat:
        return memo[2]
    out = {a for a, by_seat in st.units.items() if len(by_seat) > 1 or seat not in by_seat}
    st.blocked_memo = (view, seat, out)
    return out


def _entry_costs(
    st: Position, fid: str, paying_normal: int, paying_dragons: int, ships: int, land_units: bool
) -> list[int]:
    """What a group of this profile pays to enter each area, by area id (`IMPASSABLE`: may
    not), with no ship passage anywhere; computed once per ruleset, faction and profile."""
    ruleset = st.ruleset
    key = (fid, paying_normal, paying_dragons, ships, land_units)
    table = ruleset.entry_costs.get(key)
    if table is not None:
        return table
    area_cost = ruleset.compiled[fid].area_cost_list
    table = []
    for b, is_sea in enumerate(ruleset.sea_list):
        if is_sea:
            step = IMPASSABLE if land_units else ships + paying_dragons
        elif ships:
            step = IMPASSABLE
        elif land_units:
            c = area_cost[b]
            step = IMPASSABLE if c is None else paying_normal * c + paying_dragons
        else:
            step = paying_dragons
        table.append(step)
    ruleset.entry_costs[key] = table
    return table


#: entries kept in a position's shared search cache before it is emptied
REACH_CACHE_SIZE = 512


def group_reach(st: Position, seat: int) -> dict[int, int]:
    """Where the group selected in the pending move may go with the pips left in `seat`'s
    hand, and each destination's cost (read only: the answer is shared).

    Searched once per seat's view (`Position.view_versions`), source and group profile: the
    answer for a budget holds every smaller budget's too (the cheapest costs within the
    smaller budget are the same), so a turn's later moves from an area, with fewer pips left,
    filter the first search's answer. Legal actions, the `to` action and the observation of
    one position share one answer (`reach_memo`)."""
    p = st.pending
    if p is None or p.kind != "move" or not p.group or p.group_area is None:
        return {}
    memo = st.reach_memo
    if memo is not None and memo[0] == st.version:
        return memo[1]
    prof = group_profile(st, seat, p.group)
    if _moves_nothing(prof):
        reach: dict[int, int] = {}
    else:
        budget = st.hand_pips(seat) - p.cost
        key = (st.view_versions[seat], seat, p.group_area, prof[0], prof[1], prof[2], prof[3])
        cache = st.reach_cache
        hit = cache.get(key)
        if hit is not None and hit[0] >= budget:
            reach = hit[1] if hit[0] == budget else {a: c for a, c in hit[1].items() if c <= budget}
        else:
            if len(cache) >= REACH_CACHE_SIZE:
                cache.clear()
            reach = _search(st, seat, p.group_area, prof[0], prof[1], prof[2], prof[3], budget)
            cache[key] = (budget, reach)
    st.reach_memo = (st.version, reach)
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
