"""Starting the game (rulebook, Starting The Game): player order, factions, citadels, first units.

Order: battle-tile draw for first player; factions chosen clockwise from the first player (or
given/drawn by parameters); nine tiles each; citadels placed in reverse player order, each more
than two areas from every other citadel, with five Build Points of units; the Chaos Horde last,
in an area not within two areas of a citadel; then everybody refills to hand size.
"""

from __future__ import annotations

from bloodforge.core import Bag

from .model import Phase, Position
from .params import MIN_PLAYERS_FOR_FACTION
from .turn import draw_to_hand_size, start_first_turn
from .units import CUTIECORN, UNDEAD

CITADEL_MIN_DISTANCE = 3  # "two empty land areas between" = at least three borders apart


def draw_first_player(st: Position) -> int:
    """Each player draws two Battle tiles; highest total goes first; tied leaders draw again."""
    values = st.ruleset.factions_file.battle_tiles.values
    contenders = list(range(st.num_players))
    while True:
        totals = {}
        for seat in contenders:
            bag = Bag.of(str(v) for v in values)
            totals[seat] = int(bag.draw(st.rng)) + int(bag.draw(st.rng))
        st.log("Player order draw: " + ", ".join(f"P{s} {t}" for s, t in totals.items()))
        best = max(totals.values())
        contenders = [s for s in contenders if totals[s] == best]
        if len(contenders) == 1:
            return contenders[0]


def eligible_factions(st: Position) -> list[str]:
    params = st.ruleset.params
    ids = [f.id for f in st.ruleset.factions_file.factions]
    if params.allow_unrecommended:
        return ids
    return [f for f in ids if st.num_players >= MIN_PLAYERS_FOR_FACTION.get(f, 2)]


def begin(st: Position) -> None:
    """Everything from an empty table up to the first decision."""
    first = draw_first_player(st)
    n = st.num_players
    st.order = [(first + i) % n for i in range(n)]
    st.log(f"P{first} plays first")
    params = st.ruleset.params
    if params.factions is not None:
        st.factions = list(params.factions)
        deal_factions(st)
    elif params.choose_factions:
        st.phase = Phase.CHOOSE_FACTION
        st.active = st.order[0]
    else:
        pool = sorted(eligible_factions(st))
        st.rng.shuffle(pool)
        factions = list(st.factions)  # shared with clones: replaced, never changed in place
        for i, seat in enumerate(st.order):
            factions[seat] = pool[i]
        st.factions = factions
        deal_factions(st)


def faction_choices(st: Position) -> list[str]:
    taken = {f for f in st.factions if f}
    return sorted(f for f in eligible_factions(st) if f not in taken)


def choose_faction(st: Position, faction_id: str) -> None:
    factions = list(st.factions)  # shared with clones: replaced, never changed in place
    factions[st.active] = faction_id
    st.factions = factions
    st.log(f"P{st.active} chooses the {st.ruleset.faction_rules(faction_id).faction.name}")
    idx = st.order.index(st.active)
    if idx + 1 < len(st.order):
        st.active = st.order[idx + 1]
    else:
        deal_factions(st)


def deal_factions(st: Position) -> None:
    """Bags filled, nine tiles drawn, supplies set; then citadel placement starts."""
    for seat in range(st.num_players):
        rules = st.rules_of(seat)
        fac = rules.faction
        rigged = st.bags[seat].rigged
        bag = Bag(rules.bag_mix, rigged)
        st.set_bag(seat, bag)
        for _ in range(fac.starting_hand):
            st.hand_add(seat, bag.draw(st.rng))
        st.vp[seat] = fac.starting_vp
        st.village_supply[seat] = fac.villages
        st.undead_pool[seat] = sum(t.count for t in fac.tiles_outside_bag if t.unit == UNDEAD)
    st.cutiecorn_free = st.ruleset.params.cutiecorn
    normal = [s for s in reversed(st.order) if not st.rules_of(s).is_horde]
    hordes = [s for s in st.order if st.rules_of(s).is_horde]
    st.setup_queue = normal + hordes
    next_setup(st)


def next_setup(st: Position) -> None:
    if not st.setup_queue:
        start_first_turn(st)
        return
    seat = st.setup_queue[0]
    st.setup_queue = st.setup_queue[1:]  # shared with clones: replaced, never changed in place
    st.active = seat
    st.phase = Phase.PLACE_HORDE if st.rules_of(seat).is_horde else Phase.PLACE_CITADEL


def _spread_candidates(st: Position, allowed_terrain: tuple[str, ...]) -> list[int]:
    board = st.ruleset.board
    citadels = [a for s in range(st.num_players) if (a := st.citadel_area(s)) is not None]
    free = [a for a in board.area_ids if board.terrain[a] in allowed_terrain and st.is_empty(a)]

    def spread(a: int) -> int:
        if not citadels:
            return 10**6
        d = board.graph.distances_from(a)
        return min(d.get(c, 10**6) for c in citadels)

    scored = {a: spread(a) for a in free}
    ok = [a for a in free if scored[a] >= CITADEL_MIN_DISTANCE]
    if ok or not free:
        return ok
    best = max(scored.values())  # crowded map: the rulebook's spacing cannot hold; keep the widest
    return sorted(a for a in free if scored[a] == best and best >= 1)


def citadel_options(st: Position) -> list[int]:
    return _spread_candidates(st, st.ruleset.board.rules.citadel_allowed)


def horde_options(st: Position) -> list[int]:
    return _spread_candidates(st, st.ruleset.board.rules.starting_land_units_allowed)


def place_citadel(st: Position, area: int) -> None:
    st.add_units(area, st.active, "citadel")
    st.log(f"{st.seat_label(st.active)} places its citadel in area {area}")
    _start_building(st, area)


def place_horde(st: Position, area: int) -> None:
    st.log(f"{st.seat_label(st.active)} chooses area {area} to start in")
    _start_building(st, area)


def _start_building(st: Position, home: int) -> None:
    st.phase = Phase.SETUP_BUILD
    st.setup_home = home
    st.build_points = st.rules_of(st.active).faction.start_build_points


def setup_build_options(st: Position) -> list[tuple[str, int]]:
    seat, home = st.active, st.setup_home
    assert home is not None
    board = st.ruleset.board
    kinds = st.rules_of(seat).kinds
    seas = [a for a in board.neighbours[home] if board.is_sea(a)]
    out: list[tuple[str, int]] = []
    for tile in st.hands[seat]:
        k = kinds[tile]
        if not k.buildable or k.build_cost is None or k.build_cost > st.build_points:
            continue
        if k.is_ship:
            out.extend((tile, s) for s in seas)
        else:
            out.append((tile, home))
    cc_cost = kinds[CUTIECORN].build_cost
    if st.cutiecorn_free and cc_cost is not None and cc_cost <= st.build_points:
        out.append((CUTIECORN, home))
    return sorted(out)


def setup_build(st: Position, unit: str, area: int) -> None:
    seat = st.active
    st.build_points -= st.take_for_building(seat, unit)
    st.add_units(area, seat, unit)
    st.log(f"{st.seat_label(seat)} starts with {unit} in area {area}")


def finish_setup_building(st: Position) -> None:
    seat = st.active
    st.build_points = 0
    st.setup_home = None
    draw_to_hand_size(st, seat)
    next_setup(st)
