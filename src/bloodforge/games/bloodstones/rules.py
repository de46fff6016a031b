"""Legal actions and their effects, dispatched by phase, battle step and partial choice.

Action texts (all lower case, areas by id):
  setup      faction <id> | citadel <area> | start <area> | build <unit> <area> | done
  capture    capture <area> ... pay <tile> | done
  undead     undead <from> <to> | done
  main       build <unit> <area>, pay <tile>...   move <area> <unit>..., to <area>, ..., pay <tile>...
             battle <area> <seat> | capture <area>..., pay <tile> (Chaos Horde) | done
  construct  village <area> ... pay <tile> | done
  recovery   place <unit> <area>, pay <tile>... | done (Chaos Horde wiped out)
  battle     withdraw <area> | stay ; substitute <tile> | keep ; casualty <unit> ; retreat <area> ; raise <n>
  any partial choice: cancel
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from bloodforge.core import CANCEL, Action

from . import battle as battles
from . import setup, turn, villages
from .model import Pending, Phase, Position, UnitCounts, new_version
from .movement import group_reach, movable_units, passage_seas, undead_destinations
from .ruleset import MOVES_AS_DRAGON, MOVES_AS_SHIP, MOVES_NOT
from .units import CUTIECORN

_ORDER = attrgetter("kind", "args")


# ==============================================================================================
# legal actions
# ==============================================================================================
def legal_actions(st: Position) -> list[Action]:
    """Sorted by (verb, words), no duplicates. Every action comes from `Ruleset.act`, so equal
    actions are one object and duplicates sit side by side once sorted.

    Listed once per position content (`Position.version`): a `cancel` returns to a position
    whose listing is known already. The main-action listings (most of a game) are built in
    that order directly; the other phases are sorted. The list is kept: read only (the
    engine's `State.legal_actions` hands out copies)."""
    memo = st.legal_memo
    if memo is not None and memo[0] == st.version:
        return memo[1]
    out: list[Action] | None = None
    if st.battle is None and st.phase is Phase.MAIN:
        p = st.pending
        if p is None:
            out = _main_listing(st, st.active)
        elif p.kind == "move":
            out = _move_listing(st, st.active, p)
    if out is None:
        out = _sorted_unique(_legal(st))
    st.legal_memo = (st.version, out)
    return out


def _sorted_unique(acts: list[Action]) -> list[Action]:
    acts.sort(key=_ORDER)
    out: list[Action] = []
    prev = None
    for a in acts:
        if a is not prev:
            out.append(a)
            prev = a
    return out


def _main_listing(st: Position, seat: int) -> list[Action]:
    """Main actions with nothing pending, in text order: battle, build, capture, done, move.
    The same actions as `_main_legal` lists (a test compares them)."""
    ruleset = st.ruleset
    act = ruleset.act
    rank = ruleset.area_rank
    rules = st.rules_of(seat)
    kinds = rules.kinds
    out: list[Action] = []
    contested = turn.contested_areas(st, seat)
    if contested:
        # seats are single digits: their words sort as their numbers
        contested_by_word = sorted(contested, key=lambda c: (rank[c[0]], c[1]))
        out.extend([act("battle", a, s) for a, s in contested_by_word])
    hand = st.hands[seat]
    size = st.hand_size(seat)
    tiles = {}
    for tile in hand:
        k = kinds[tile]
        if k.buildable and k.build_cost is not None and k.build_cost <= size - 1:
            tiles[tile] = k.is_ship
    if st.cutiecorn_free:
        cc = kinds[CUTIECORN]
        if cc.build_cost is not None and cc.build_cost <= size:
            tiles[CUTIECORN] = False
    if tiles:
        land, seas = build_targets(st, seat)
        land.sort(key=rank.__getitem__)
        seas.sort(key=rank.__getitem__)
        acts = ruleset.acts
        for tile in sorted(tiles):
            out.extend(acts("build", tile, seas if tiles[tile] else land))
    if rules.has("captures_villages_as_main_action_once_per_turn_one_tile") and not st.horde_captured:
        targets = turn.capture_affordable(st, seat, [])
        targets.sort(key=rank.__getitem__)
        out.extend([act("capture", a) for a in targets])
    if not contested:
        out.append(act("done"))
    out.extend(_move_starts(st, seat, st.hand_pips(seat)))
    return out


def _move_listing(st: Position, seat: int, p: Pending) -> list[Action]:
    """A move being assembled, in text order: cancel, move (more units of the group, or the
    first unit of another group), pay, to."""
    ruleset = st.ruleset
    act = ruleset.act
    out = [act(CANCEL)]
    if p.group:
        area = p.group_area
        assert area is not None
        avail = movable_units(st, seat, area)
        group = p.group
        for u in sorted(avail):
            if avail[u] > group.get(u, 0):
                out.append(act("move", area, u))
        to = ruleset.to_acts
        out.extend([to[d] for d in group_reach(st, seat)])  # in text order already
        return out
    if not p.paid:
        out.extend(_move_starts(st, seat, st.hand_pips(seat) - p.cost))
    out.extend([act("pay", t) for t in sorted(st.hands[seat])])
    return out


def _legal(st: Position) -> list[Action]:
    act = st.ruleset.act
    if st.battle is not None:
        return _battle_legal(st)
    phase = st.phase
    seat = st.active
    if phase is Phase.MAIN:
        return _main_legal(st, seat)
    if phase is Phase.CONSTRUCT:
        return _pick_and_pay_legal(st, seat, "village", turn.construct_affordable)
    if phase is Phase.CAPTURE:
        return _pick_and_pay_legal(st, seat, "capture", turn.capture_affordable)
    if phase is Phase.UNDEAD:
        acts = [act("undead", src, dst) for src in turn.undead_sources(st, seat)
                for dst in undead_destinations(st, seat, src)]
        return [*acts, act("done")]
    if phase is Phase.FINAL_BATTLES:
        return [act("battle", a, s) for a, s in turn.contested_areas(st, seat)]
    if phase is Phase.SETUP_BUILD:
        return [*(act("build", u, a) for u, a in setup.setup_build_options(st)), act("done")]
    if phase is Phase.PLACE_CITADEL:
        return [act("citadel", a) for a in setup.citadel_options(st)]
    if phase is Phase.PLACE_HORDE:
        return [act("start", a) for a in setup.horde_options(st)]
    if phase is Phase.CHOOSE_FACTION:
        return [act("faction", f) for f in setup.faction_choices(st)]
    if phase is Phase.RECOVER:
        if st.pending is not None:
            return [*_pay_build_legal(st, seat), act(CANCEL)]
        return [*(act("place", u, a) for u, a in recovery_options(st, seat)), act("done")]
    return []


def _battle_legal(st: Position) -> list[Action]:
    act = st.ruleset.act
    b = st.battle
    assert b is not None
    step = b.step
    if step == battles.WITHDRAW:
        return [*(act("withdraw", d) for d in battles.withdraw_options(st, b)), act("stay")]
    if step == battles.SUBSTITUTE:
        seat = st.deciding_seat()
        assert seat is not None
        return [*(act("substitute", t) for t in st.hands[seat]), act("keep")]
    if step == battles.CASUALTY:
        return [act("casualty", u) for u in battles.casualty_choices(st, b)]
    if step == battles.RETREAT:
        loser = b.seat(1 - (b.winner or 0))
        return [act("retreat", d) for d in battles.escape_options(st, loser, b.area, st.units_at(b.area, loser))]
    if step == battles.RAISE:
        return [act("raise", k) for k in range(battles.raise_limit(st, b) + 1)]
    return []


def _pick_and_pay_legal(
    st: Position, seat: int, verb: str, options_fn: Callable[[Position, int, list[int]], list[int]]
) -> list[Action]:
    """One-tile phases (capture, construct): pick areas while the dearest tile could pay, then pay."""
    act = st.ruleset.act
    p = st.pending
    chosen = p.targets if p is not None else []
    acts = [act(verb, a) for a in options_fn(st, seat, chosen)]
    if p is None:
        acts.append(act("done"))
        return acts
    kinds = st.rules_of(seat).kinds
    acts.extend(act("pay", t) for t in st.hands[seat] if kinds[t].pips >= p.cost)
    acts.append(act(CANCEL))
    return acts


def _pay_build_legal(st: Position, seat: int) -> list[Action]:
    act = st.ruleset.act
    return [act("pay", t) for t in st.hands[seat]]


def build_targets(st: Position, seat: int) -> tuple[list[int], list[int]]:
    """(land areas, sea areas) where `seat` may build units now."""
    ruleset = st.ruleset
    board = ruleset.board
    sea = ruleset.sea_list
    neighbours = ruleset.neighbour_list
    rules = st.rules_of(seat)
    if rules.is_horde:
        own = st.areas_with_units(seat)
        land = {a for a in own if not sea[a]}
        seas = {a for a in own if sea[a]}
        kinds = rules.kinds
        for a in own:
            if sea[a]:
                if any(kinds[u].is_ship for u in st.units_at(a, seat) if u != CUTIECORN):
                    land.update(b for b in neighbours[a] if not sea[b] and not st.enemy_units_in(b, seat))
            else:
                seas.update(b for b in neighbours[a] if sea[b])
        land = {a for a in land if board.rules.move_cost.get(board.terrain[a]) is not None
                or seat in st.units.get(a, {})}
        return sorted(land), sorted(seas)
    homes = {a for a, (s, _) in st.villages.items() if s == seat}
    cit = st.citadel_area(seat)
    if cit is not None:
        homes.add(cit)
    seas = {b for a in homes for b in neighbours[a] if sea[b]}
    return sorted(homes), sorted(seas)


def _main_legal(st: Position, seat: int) -> list[Action]:
    act = st.ruleset.act
    p = st.pending
    rules = st.rules_of(seat)
    kinds = rules.kinds
    if p is not None:
        if p.kind == "build":
            return [*_pay_build_legal(st, seat), act(CANCEL)]
        if p.kind == "capture":
            return _pick_and_pay_legal(st, seat, "capture", turn.capture_affordable)
        # move
        acts: list[Action] = [act(CANCEL)]
        if p.group:
            assert p.group_area is not None
            avail = movable_units(st, seat, p.group_area)
            acts.extend(act("move", p.group_area, u) for u, n in avail.items() if n > p.group.get(u, 0))
            acts.extend(act("to", d) for d in group_reach(st, seat))
            return acts
        acts.extend(act("pay", t) for t in st.hands[seat])
        if not p.paid:
            acts.extend(_move_starts(st, seat, st.hand_pips(seat) - p.cost))
        return acts

    acts = []
    hand = st.hands[seat]
    size = st.hand_size(seat)
    land, seas = build_targets(st, seat)
    for tile in hand:
        k = kinds[tile]
        if not k.buildable or k.build_cost is None or k.build_cost > size - 1:
            continue
        acts.extend(st.ruleset.acts("build", tile, seas if k.is_ship else land))
    if st.cutiecorn_free:
        cc = kinds[CUTIECORN]
        if cc.build_cost is not None and cc.build_cost <= size:
            acts.extend(st.ruleset.acts("build", CUTIECORN, land))
    acts.extend(_move_starts(st, seat, st.hand_pips(seat)))
    contested = turn.contested_areas(st, seat)
    acts.extend(act("battle", a, s) for a, s in contested)
    if rules.has("captures_villages_as_main_action_once_per_turn_one_tile") and not st.horde_captured:
        acts.extend(act("capture", a) for a in turn.capture_affordable(st, seat, []))
    if not contested:
        acts.append(act("done"))
    return acts


def _move_starts(st: Position, seat: int, budget: int) -> list[Action]:
    """First unit of a new moving group: only units that could afford at least one step; in
    text order (areas as words, then units).

    Table-driven: how each unit kind moves (`Ruleset.move_classes`), the cheapest land area
    next to each area (`Ruleset.start_costs`) and its sea neighbours are precomputed; the seas
    offering ship passage are only looked for when a land unit could not afford any land
    neighbour."""
    if budget <= 0:
        return []
    ruleset = st.ruleset
    rank = ruleset.area_rank
    fid = st.factions[seat]
    assert fid is not None
    classes = ruleset.move_classes[fid]
    cheapest = ruleset.start_costs[fid]
    sea_nbs = ruleset.sea_neighbours
    neighbours = ruleset.neighbour_list
    move_acts = ruleset.move_acts
    mine: list[tuple[int, int, UnitCounts]] = []
    for area, by_seat in st.units.items():
        if len(by_seat) == 1 and seat in by_seat:  # pinned by enemy units, units may not leave
            mine.append((rank[area], area, by_seat[seat]))
    mine.sort()  # ranks differ: the unit tables are never compared
    passage: set[int] | None = None
    out = []
    for _, area, here in mine:
        land_ok: bool | None = None
        acts = move_acts[area]
        for unit in sorted(here) if len(here) > 1 else here:
            how = classes[unit]
            if how == MOVES_NOT:
                continue
            if how == MOVES_AS_DRAGON:
                ok = bool(neighbours[area])
            elif how == MOVES_AS_SHIP:
                ok = bool(sea_nbs[area])
            else:
                if land_ok is None:
                    c = cheapest[area]
                    if c is not None and c <= budget:
                        land_ok = True
                    else:
                        if passage is None:
                            passage = passage_seas(st, seat)
                        land_ok = any(b in passage for b in sea_nbs[area])
                ok = land_ok
            if ok:
                a = acts.get(unit)
                out.append(a if a is not None else ruleset.act("move", area, unit))
    return out


def recovery_options(st: Position, seat: int) -> list[tuple[str, int]]:
    board = st.ruleset.board
    kinds = st.rules_of(seat).kinds
    size = st.hand_size(seat)
    empty = [a for a in board.area_ids if st.is_empty(a)]
    allowed_land = board.rules.starting_land_units_allowed
    out = []
    for tile in st.hands[seat]:
        k = kinds[tile]
        if not k.buildable or k.build_cost is None or k.build_cost > size - 1:
            continue
        for a in empty:
            if (board.terrain[a] == "sea") == k.is_ship and (k.is_ship or board.terrain[a] in allowed_land):
                out.append((tile, a))
    return out


# ==============================================================================================
# applying actions
# ==============================================================================================
def apply(st: Position, action: Action) -> None:
    kind, args = action.kind, action.args
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise ValueError(f"unhandled action {action}")
    handler(st, args)
    if kind != CANCEL:  # `cancel` restores the number of the position it returns to
        st.version = new_version()


def _begin_pending(st: Position, kind: str) -> Pending:
    """A new compound action, remembering the position it started from for `cancel`."""
    memo = st.legal_memo
    p = Pending(kind, base_version=st.version,
                base_legal=memo[1] if memo is not None and memo[0] == st.version else None)
    st.pending = p
    return p


def _area(x: str) -> int:
    return int(x)


def _faction(st: Position, args: tuple[str, ...]) -> None:
    setup.choose_faction(st, args[0])


def _citadel(st: Position, args: tuple[str, ...]) -> None:
    setup.place_citadel(st, _area(args[0]))


def _start(st: Position, args: tuple[str, ...]) -> None:
    setup.place_horde(st, _area(args[0]))


def _build(st: Position, args: tuple[str, ...]) -> None:
    unit, area = args[0], _area(args[1])
    if st.phase is Phase.SETUP_BUILD:
        setup.setup_build(st, unit, area)
        return
    cost = st.take_for_building(st.active, unit)
    p = _begin_pending(st, "build")  # the version is still the one before this action
    p.unit, p.area, p.cost = unit, area, cost
    if cost == 0:
        _commit_build(st)


_place = _build  # the Chaos Horde's return to the map is paid like a build


def _spend_payment(st: Position) -> tuple[Pending, int]:
    """Committing a compound action: the tiles paid go to the discard pile."""
    p = st.pending
    assert p is not None
    seat = st.active
    for t in p.paid:
        st.send_to_discard(seat, t)
    return p, seat


def _commit_build(st: Position) -> None:
    p, seat = _spend_payment(st)
    assert p.unit is not None
    assert p.area is not None
    st.add_units(p.area, seat, p.unit)
    paid = f" discarding {', '.join(p.paid)}" if p.paid else ""
    st.log(f"{st.seat_label(seat)} builds {p.unit} in area {p.area}{paid}", kind="build", seat=seat, unit=p.unit)
    st.pending = None
    battles.settle_cutiecorn(st)
    if st.phase is Phase.RECOVER:
        turn.enter_capture(st)


def _done(st: Position, args: tuple[str, ...]) -> None:
    del args
    phase = st.phase
    if phase is Phase.SETUP_BUILD:
        setup.finish_setup_building(st)
    elif phase is Phase.CAPTURE:
        turn.enter_undead(st)
    elif phase is Phase.UNDEAD:
        turn.enter_main(st)
    elif phase is Phase.MAIN:
        turn.end_main(st)
    elif phase is Phase.CONSTRUCT:
        turn.draw_phase(st)
    elif phase is Phase.RECOVER:
        st.log(f"{st.seat_label(st.active)} does not return to the map this turn")
        turn.enter_capture(st)


def _pick(st: Position, kind: str, area: int) -> None:
    p = st.pending
    if p is None:
        p = _begin_pending(st, kind)
    p.targets.append(area)
    p.cost += villages.village_cost(st, area)


def _capture(st: Position, args: tuple[str, ...]) -> None:
    _pick(st, "capture", _area(args[0]))


def _village(st: Position, args: tuple[str, ...]) -> None:
    _pick(st, "village", _area(args[0]))


def _move(st: Position, args: tuple[str, ...]) -> None:
    area, unit = _area(args[0]), args[1]
    p = st.pending
    if p is None:
        p = _begin_pending(st, "move")
        p.snapshot = st.share_units()
        p.snapshot_version = st.units_version
        p.snapshot_views = list(st.view_versions)
    p.group_area = area
    p.group[unit] = p.group.get(unit, 0) + 1


def _to(st: Position, args: tuple[str, ...]) -> None:
    dest = _area(args[0])
    seat = st.active
    p = st.pending
    assert p is not None
    assert p.group_area is not None
    cost = group_reach(st, seat)[dest]
    for unit, n in p.group.items():
        st.remove_units(p.group_area, seat, unit, n)
        st.add_units(dest, seat, unit, n)
    p.legs.append({"from": p.group_area, "to": dest, "units": dict(p.group), "cost": cost})
    p.cost += cost
    p.group = {}
    p.group_area = None


def _pay(st: Position, args: tuple[str, ...]) -> None:
    tile = args[0]
    seat = st.active
    p = st.pending
    assert p is not None
    st.hand_remove(seat, tile)
    p.paid.append(tile)
    kinds = st.rules_of(seat).kinds
    if p.kind == "build":
        if len(p.paid) >= p.cost:
            _commit_build(st)
    elif p.kind == "move":
        if p.paid_pips(kinds) >= p.cost:
            _commit_move(st)
    elif p.kind in ("capture", "village"):
        _commit_one_tile(st)


def _commit_move(st: Position) -> None:
    p, seat = _spend_payment(st)
    legs = "; ".join(
        f"{'+'.join(f'{n} {u}' for u, n in sorted(leg['units'].items()))} {leg['from']}->{leg['to']}" for leg in p.legs
    )
    st.log(f"{st.seat_label(seat)} moves {legs} for {p.cost} pips (paid {', '.join(p.paid)})")
    st.pending = None
    battles.settle_cutiecorn(st)


def _commit_one_tile(st: Position) -> None:
    p, seat = _spend_payment(st)
    if p.kind == "capture":
        owners = [villages.capture_village(st, seat, a) for a in p.targets]
        st.log(f"{st.seat_label(seat)} captures {len(owners)} village(s) in area(s) "
               f"{', '.join(map(str, p.targets))} paying {', '.join(p.paid)}", kind="capture", seat=seat,
               villages=len(owners))
        st.pending = None
        if st.phase is Phase.CAPTURE:
            turn.enter_undead(st)
        else:
            st.horde_captured = True
    else:
        for a in p.targets:
            villages.place_village(st, seat, a)
        st.log(f"{st.seat_label(seat)} constructs villages in area(s) {', '.join(map(str, p.targets))} "
               f"paying {', '.join(p.paid)}", kind="villages", seat=seat, villages=len(p.targets))
        st.pending = None
        turn.draw_phase(st)


def _cancel(st: Position, args: tuple[str, ...]) -> None:
    del args
    p = st.pending
    assert p is not None
    seat = st.active
    for t in p.paid:
        st.hand_add(seat, t)
    if p.kind == "build" and p.unit is not None:
        if p.unit == CUTIECORN:
            st.cutiecorn_free = True
        else:
            st.hand_add(seat, p.unit)
    if p.kind == "move" and p.snapshot is not None:
        st.units = p.snapshot
        st.share_units()  # the snapshot may be a clone's too
        st.units_version = p.snapshot_version
        st.view_versions = p.snapshot_views if p.snapshot_views else [new_version() for _ in st.view_versions]
    st.pending = None
    st.version = p.base_version
    if p.base_legal is not None:
        st.legal_memo = (p.base_version, p.base_legal)


def _undead(st: Position, args: tuple[str, ...]) -> None:
    src, dst = _area(args[0]), _area(args[1])
    seat = st.active
    st.remove_units(src, seat, "undead")
    st.add_units(dst, seat, "undead")
    st.undead_moved = {**st.undead_moved, dst: st.undead_moved.get(dst, 0) + 1}  # shared with clones
    st.log(f"{st.seat_label(seat)} moves an Undead from area {src} to area {dst}")
    if not turn.undead_sources(st, seat):
        turn.enter_main(st)


def _battle(st: Position, args: tuple[str, ...]) -> None:
    battles.start_battle(st, _area(args[0]), int(args[1]))
    _after_battle_step(st)


def _after_battle_step(st: Position) -> None:
    if st.battle is None:
        turn.after_battle(st)


def _withdraw(st: Position, args: tuple[str, ...]) -> None:
    assert st.battle is not None
    battles.withdraw(st, st.battle, _area(args[0]))
    _after_battle_step(st)


def _stay(st: Position, args: tuple[str, ...]) -> None:
    del args
    assert st.battle is not None
    st.log(f"{st.seat_label(st.battle.defender)} stands and fights")
    battles.draw_battle_tiles(st, st.battle)


def _substitute(st: Position, args: tuple[str, ...]) -> None:
    assert st.battle is not None
    battles.substitute(st, st.battle, args[0])
    _after_battle_step(st)


def _keep(st: Position, args: tuple[str, ...]) -> None:
    del args
    assert st.battle is not None
    battles.substitute(st, st.battle, None)
    _after_battle_step(st)


def _casualty(st: Position, args: tuple[str, ...]) -> None:
    assert st.battle is not None
    battles.take_casualty(st, st.battle, args[0])
    _after_battle_step(st)


def _retreat(st: Position, args: tuple[str, ...]) -> None:
    assert st.battle is not None
    battles.retreat(st, st.battle, _area(args[0]))
    _after_battle_step(st)


def _raise(st: Position, args: tuple[str, ...]) -> None:
    assert st.battle is not None
    battles.raise_undead(st, st.battle, int(args[0]))
    _after_battle_step(st)


_HANDLERS = {
    "faction": _faction,
    "citadel": _citadel,
    "start": _start,
    "build": _build,
    "place": _place,
    "done": _done,
    "capture": _capture,
    "village": _village,
    "move": _move,
    "to": _to,
    "pay": _pay,
    CANCEL: _cancel,
    "undead": _undead,
    "battle": _battle,
    "withdraw": _withdraw,
    "stay": _stay,
    "substitute": _substitute,
    "keep": _keep,
    "casualty": _casualty,
    "retreat": _retreat,
    "raise": _raise,
}


# ==============================================================================================
# explanations for refused actions
# ==============================================================================================
def explain_illegal(st: Position, action: Action) -> str | None:
    kind, args = action.kind, action.args
    seat = st.deciding_seat()
    if seat is None:
        return "the game is over"
    try:
        if kind == "move" and len(args) == 2:
            area = int(args[0])
            if area not in st.ruleset.board.terrain:
                return f"there is no area {area} on this map"
            if st.enemy_units_in(area, seat) and seat in st.units.get(area, {}):
                return f"units may not leave area {area}: it holds enemy units (fight first)"
            if args[1] not in st.units_at(area, seat):
                return f"you have no {args[1]} in area {area}"
        if kind in ("build", "pay", "substitute") and args:
            tile = args[0]
            if (tile != CUTIECORN and tile not in st.hands[seat] and kind != "build") or \
                    (kind == "build" and tile not in st.hands[seat] and tile != CUTIECORN):
                return f"you hold no {tile} tile"
        if kind == "done" and st.phase is Phase.MAIN and turn.contested_areas(st, seat):
            areas = sorted({a for a, _ in turn.contested_areas(st, seat)})
            return f"all battles must be resolved first (contested area(s): {areas})"
        if kind in ("battle", "village", "capture", "citadel", "start", "to", "withdraw", "retreat") and args:
            area = int(args[0])
            if area not in st.ruleset.board.terrain:
                return f"there is no area {area} on this map"
    except ValueError:
        return f"{' '.join(args)!r} is not a valid area number"
    if st.pending is not None and kind not in ("pay", CANCEL, "move", "to", "capture", "village"):
        return f"finish or cancel the {st.pending.kind} being chosen first"
    return None
