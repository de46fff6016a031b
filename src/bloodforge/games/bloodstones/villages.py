"""Villages: constructing them (Phase 4) and capturing them (Phase 1, Chaos Horde main action).

Placement: adjacent to one of your villages or your citadel, or to a chain of your units (ships
included) that connects back to them; or as the second village of a plains area. Never where
another player has pieces, never in your citadel's area, never in deserts, mountains or seas.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .model import Position


def village_cost(st: Position, area: int) -> int:
    return st.ruleset.village_costs[area]


def capacity(st: Position, area: int) -> int:
    return st.ruleset.village_capacity[area]


def network(st: Position, seat: int, extra: Iterable[int] = ()) -> set[int]:
    """Areas from which new villages may spread: own villages and citadel, plus unit chains."""
    roots = {a for a, (s, _) in st.villages.items() if s == seat}
    roots.update(extra)
    cit = st.citadel_area(seat)
    if cit is not None:
        roots.add(cit)
    net = set(roots)
    stack = list(roots)
    neighbours = st.ruleset.board.neighbours
    while stack:
        a = stack.pop()
        for b in neighbours[a]:
            if b not in net and seat in st.units.get(b, {}):
                net.add(b)
                stack.append(b)
    return net


def construct_options(st: Position, seat: int, chosen: list[int]) -> list[int]:
    """Areas where one more village may be placed, given the villages already chosen this phase."""
    if st.village_supply[seat] - len(chosen) <= 0:
        return []
    pending = Counter(chosen)
    cit = st.citadel_area(seat)
    wiped_out = cit is None and st.village_count(seat) == 0 and not chosen
    if wiped_out:
        candidates: Iterable[int] = st.ruleset.board.area_ids
    else:
        net = network(st, seat, pending)
        cand: set[int] = set()
        neighbours = st.ruleset.board.neighbours
        for a in net:
            cand.update(neighbours[a])
        cand.update(a for a, (s, _) in st.villages.items() if s == seat)
        cand.update(pending)
        candidates = cand
    out = []
    for a in candidates:
        cap = capacity(st, a)
        if cap <= 0 or a == cit or st.foreign_pieces(a, seat):
            continue
        v = st.villages.get(a)
        have = (v[1] if v else 0) + pending[a]
        if have >= cap:
            continue
        out.append(a)
    return sorted(out)


def capture_options(st: Position, seat: int, chosen: list[int]) -> list[int]:
    """Areas holding another player's village (not yet chosen) where `seat` has units."""
    pending = Counter(chosen)
    out = []
    for a, (owner, n) in st.villages.items():
        if owner != seat and n > pending[a] and seat in st.units.get(a, {}):
            out.append(a)
    return sorted(out)


def place_village(st: Position, seat: int, area: int) -> None:
    v = st.villages.get(area)
    st.villages = {**st.villages, area: (seat, (v[1] if v else 0) + 1)}  # shared with clones
    st.village_supply[seat] -= 1


def capture_village(st: Position, seat: int, area: int) -> int:
    """Take one village; returns the former owner. Captured villages score at the game's end."""
    owner, n = st.villages[area]
    villages = dict(st.villages)  # shared with clones: replaced, never changed in place
    if n > 1:
        villages[area] = (owner, n - 1)
    else:
        del villages[area]
    st.villages = villages
    st.captured_villages[seat] += 1
    return owner
