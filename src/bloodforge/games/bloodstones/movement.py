"""Movement: what a group of units may reach and what it costs (rulebook, Action: Move Units).

A group is a set of units leaving one area together along one path. Every unit pays the cost of
each area it enters, except that each leader carries one other unit free (a carried leader may
carry another: a chain), dragons pay one pip per area, the Cutiecorn never pays, and land units
cross seas free along a chain of their own uncontested ships, paying only for land areas entered.
Units may enter an area holding enemy units but not move on from it.
"""

from __future__ import annotations

from collections.abc import Callable
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


def enter_cost_fn(st: Position, seat: int, prof: GroupProfile) -> Callable[[int], int | None]:
    board = st.ruleset.board
    terrain = board.terrain
    move_cost = st.rules_of(seat).move_cost

    def enter(area: int) -> int | None:
        t = terrain[area]
        if t == "sea":
            if prof.land_units:
                return 0 if passage_sea(st, seat, area) else None
            dragon_step = 0 if passage_sea(st, seat, area) else 1
            return prof.ships + prof.paying_dragons * dragon_step
        if prof.ships:
            return None
        if prof.land_units:
            c = move_cost.get(t)
            if c is None:
                return None
            return prof.paying_normal * c + prof.paying_dragons
        return prof.paying_dragons

    return enter


def reachable(
    st: Position, seat: int, source: int, group: UnitCounts, budget: int | None
) -> dict[int, int]:
    """Destinations the whole group may end in, with their cheapest total cost."""
    prof = group_profile(st, seat, group)
    if prof.empty:
        return {}
    raw_enter = enter_cost_fn(st, seat, prof)
    enter_memo: dict[int, int | None] = {}
    pass_memo: dict[int, bool] = {}

    def enter(area: int) -> int | None:
        if area not in enter_memo:
            enter_memo[area] = raw_enter(area)
        return enter_memo[area]

    def can_pass(area: int) -> bool:
        if area not in pass_memo:
            pass_memo[area] = not st.enemy_units_in(area, seat)
        return pass_memo[area]

    costs = st.ruleset.board.graph.cheapest_costs(source, enter, can_pass, budget)
    out: dict[int, int] = {}
    board = st.ruleset.board
    for area, cost in costs.items():
        if area == source:
            continue
        if board.is_sea(area) and prof.land_units:
            continue  # only ships and dragons may stay at sea
        if prof.paying_dragons and board.is_sea(area) and passage_sea(st, seat, area):
            # Ship passage is free only along the way: "you still pay the cost of moving into
            # the final area", and a dragon pays one pip for any area, a sea with its own ship
            # included.
            before = [costs[b] for b in board.neighbours[area] if b in costs and (b == source or can_pass(b))]
            cost = min(before) + prof.ships + prof.paying_dragons
            if budget is not None and cost > budget:
                continue
        out[area] = cost
    return out


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
