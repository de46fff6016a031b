"""Battles (rulebook, Action: Battle; Withdrawal and Retreat Rules; faction powers).

Five steps: the defender may withdraw; both draw Battle tiles (four for the larger force or a
force with a Giant, else three); each may substitute one tile from hand (attacker first, but a
Corsair always decides last after seeing the other side's tiles); the top three tiles plus unit
modifiers give each total; the higher wins, a tie goes to a defending Shield or is fought again.
The victor scores the loser's unit count; the loser loses one unit (all castles and citadels if
it has any) and retreats the rest.
"""

from __future__ import annotations

from bloodforge.core import Bag

from . import queries
from .model import ATTACKER, DEFENDER, Battle, Position, UnitCounts
from .movement import passage_sea
from .units import CITADEL, CUTIECORN, UNDEAD

WITHDRAW, SUBSTITUTE, CASUALTY, RETREAT, RAISE = "withdraw", "substitute", "casualty", "retreat", "raise"


# -- who may go where ---------------------------------------------------------------------------
def can_enter(st: Position, seat: int, unit: str, area: int) -> bool:
    """Whether a unit may end a withdrawal or retreat in `area` (terrain rules only)."""
    terrain = st.ruleset.board.terrain[area]
    rules = st.rules_of(seat)
    k = rules.kinds[unit]
    if k.is_fortification:
        return False
    if k.is_dragon:
        return True
    if k.is_ship:
        return terrain == "sea"
    if terrain == "sea":
        return False
    if k.is_undead:
        return True
    return rules.move_cost.get(terrain) is not None


def escape_options(
    st: Position, seat: int, area: int, units: UnitCounts, *, sea_only: bool = False
) -> dict[int, UnitCounts]:
    """Areas a force may withdraw or retreat to, each with the units able to get there.

    One adjacent area, or a land area reached along a chain of the player's own uncontested
    ships; it must hold some of the player's pieces or be empty, and must not be an area the
    player already withdrew or retreated from this turn.
    """
    board = st.ruleset.board
    banned = st.withdrawn_from[seat]
    movers = {u: n for u, n in units.items() if not st.kind(seat, u).is_fortification}

    def allowed(dest: int) -> bool:
        return dest != area and dest not in banned and (st.has_pieces(dest, seat) or st.is_empty(dest))

    out: dict[int, UnitCounts] = {}

    def offer(dest: int, land_only: bool) -> None:
        if not allowed(dest):
            return
        able = {
            u: n for u, n in movers.items()
            if can_enter(st, seat, u, dest) and not (land_only and st.kind(seat, u).is_ship)
        }
        if able:
            merged = out.setdefault(dest, {})
            merged.update(able)

    if not sea_only:
        for dest in board.neighbours[area]:
            offer(dest, land_only=False)
    if not board.is_sea(area):
        seen: set[int] = set()
        stack = [s for s in board.neighbours[area] if board.is_sea(s) and passage_sea(st, seat, s)]
        seen.update(stack)
        while stack:
            sea = stack.pop()
            for nxt in board.neighbours[sea]:
                if board.is_sea(nxt):
                    if nxt not in seen and passage_sea(st, seat, nxt):
                        seen.add(nxt)
                        stack.append(nxt)
                elif nxt != area:
                    offer(nxt, land_only=True)
    return {d: out[d] for d in sorted(out)}


def _count(st: Position, seat: int, units: UnitCounts, pred: str) -> int:
    return sum(n for u, n in units.items() if (u == CUTIECORN and pred == "cavalry")
               or (u != CUTIECORN and st.kind(seat, u).base == pred))


def withdraw_rights(st: Position, b: Battle) -> tuple[bool, bool]:
    """(may withdraw at all, only by sea) for the defender of battle `b`."""
    att, dfn = b.attacker, b.defender
    a_units = st.units_at(b.area, att)
    d_units = st.units_at(b.area, dfn)
    if any(st.kind(dfn, u).is_fortification for u in d_units):
        return False, False
    if any(u != CUTIECORN and st.kind(att, u).is_dragon for u in a_units):
        return False, False
    if any(u != CUTIECORN and st.kind(dfn, u).is_dragon for u in d_units):
        return True, False
    att_cav = _count(st, att, a_units, "cavalry")
    board = st.ruleset.board
    att_rules = st.rules_of(att)
    ships_near = not board.is_sea(b.area) and any(
        board.is_sea(s) and any(st.kind(att, u).is_ship for u in st.units_at(s, att) if u != CUTIECORN)
        for s in board.neighbours[b.area]
    )
    if ships_near and att_rules.has("attacking_next_to_own_ship_defender_needs_cavalry_or_dragon_to_withdraw"):
        att_cav += 1  # the Corsairs' "notional" cavalry (Cutiecorn rules)
    if _count(st, dfn, d_units, "cavalry") >= att_cav:
        return True, False
    if st.rules_of(dfn).has("withdraw_by_sea_except_against_dragons"):
        return True, True
    return False, False


def withdraw_options(st: Position, b: Battle) -> dict[int, UnitCounts]:
    allowed, sea_only = withdraw_rights(st, b)
    if not allowed:
        return {}
    return escape_options(st, b.defender, b.area, st.units_at(b.area, b.defender), sea_only=sea_only)


# -- the battle steps ---------------------------------------------------------------------------
def start_battle(st: Position, area: int, defender: int) -> None:
    attacker = st.active
    b = Battle(area=area, attacker=attacker, defender=defender)
    b.forces = [sum(st.units_at(area, attacker).values()), sum(st.units_at(area, defender).values())]
    late = [s for s in (ATTACKER, DEFENDER)
            if st.rules_of(b.seat(s)).has("decides_substitution_after_opponent_reveals")]
    b.order = [DEFENDER, ATTACKER] if late == [ATTACKER] else [ATTACKER, DEFENDER]
    st.battle = b
    st.log(f"{st.seat_label(attacker)} attacks {st.seat_label(defender)} in area {area} "
           f"({b.forces[0]} units against {b.forces[1]})", kind="attack", area=area, attacker=attacker,
           defender=defender)
    if withdraw_options(st, b):
        b.step = WITHDRAW
        st.decider = defender
    else:
        draw_battle_tiles(st, b)


def _faction(st: Position, seat: int) -> str:
    fid = st.factions[seat]
    assert fid is not None
    return fid


def tiles_to_draw(st: Position, b: Battle, side: int) -> int:
    seat, enemy = b.seat(side), b.seat(1 - side)
    return queries.tiles_drawn(st.ruleset.facts, _faction(st, seat), st.units_at(b.area, seat),
                               st.units_at(b.area, enemy))


def draw_battle_tiles(st: Position, b: Battle) -> None:
    values = st.ruleset.factions_file.battle_tiles.values
    for side in (ATTACKER, DEFENDER):
        k = tiles_to_draw(st, b, side)
        rig = st.battle_rig[side]
        bag = Bag.of(str(v) for v in values)
        bag.rigged = [str(v) for v in rig[:k]]
        if rig:  # shared with clones: replaced, never changed in place
            st.battle_rig = [rig[k:], st.battle_rig[1]] if side == ATTACKER else [st.battle_rig[0], rig[k:]]
        b.tiles[side] = sorted((int(bag.draw(st.rng)) for _ in range(k)), reverse=True)
        st.log(f"{st.seat_label(b.seat(side))} draws battle tiles {b.tiles[side]}", to=b.seat(side))
    b.subs = [None, None]
    b.decided = [False, False]
    b.revealed = [False, False]
    b.step = SUBSTITUTE
    st.decider = b.seat(b.order[0])


def substitute(st: Position, b: Battle, tile: str | None) -> None:
    side = b.side_of(st.decider if st.decider is not None else st.active)
    seat = b.seat(side)
    if tile is not None:
        st.hand_remove(seat, tile)
        b.subs[side] = tile
        st.log(f"{st.seat_label(seat)} substitutes a {tile} tile", to=seat)
        st.log(f"{st.seat_label(seat)} substitutes a tile from hand")
    else:
        st.log(f"{st.seat_label(seat)} keeps the drawn battle tiles")
    b.decided[side] = True
    first = b.order[0]
    if side == first:
        late_seat = b.seat(b.order[1])
        if st.rules_of(late_seat).has("decides_substitution_after_opponent_reveals"):
            b.revealed[first] = True
            st.log(f"{st.seat_label(seat)} reveals {fighting_values(st, b, first)} to {st.seat_label(late_seat)}")
        st.decider = late_seat
        return
    resolve_fight(st, b)


def fighting_values(st: Position, b: Battle, side: int) -> list[int]:
    """The tiles a side fights with: drawn tiles, the lowest replaced by any substitute."""
    sub = b.subs[side]
    return queries.fighting_values(b.tiles[side], None if sub is None else st.kind(b.seat(side), sub).pips)


def modifier_total(st: Position, b: Battle, side: int) -> int:
    seat, enemy = b.seat(side), b.seat(1 - side)
    return queries.battle_modifier(
        st.ruleset.facts, _faction(st, seat), st.units_at(b.area, seat), st.ruleset.terrain[b.area],
        side == ATTACKER, _faction(st, enemy), st.units_at(b.area, enemy),
    )


def modifier_parts(st: Position, b: Battle, side: int) -> list[tuple[str, int]]:
    """The modifiers `modifier_total` adds up, each with its source (for the battle panel)."""
    seat, enemy = b.seat(side), b.seat(1 - side)
    return queries.battle_modifier_parts(
        st.ruleset.facts, _faction(st, seat), st.units_at(b.area, seat), st.ruleset.terrain[b.area],
        side == ATTACKER, _faction(st, enemy), st.units_at(b.area, enemy),
    )


def resolve_fight(st: Position, b: Battle) -> None:
    top = st.ruleset.factions_file.battle_tiles.count_top
    totals = []
    shown = []
    sides = []  # what everyone now sees of each side: the battle view (observation "battles")
    for side in (ATTACKER, DEFENDER):
        vals = fighting_values(st, b, side)
        mod = modifier_total(st, b, side)
        totals.append(sum(vals[:top]) + mod)
        shown.append(f"{st.seat_label(b.seat(side))} {vals[:top]} {mod:+d} = {totals[-1]}")
        sides.append({"seat": b.seat(side), "tiles": vals, "counted": vals[:top], "substitute": b.subs[side],
                      # sorted: a stack's units keep no order a saved game restores (same digest)
                      "modifiers": sorted([source, value] for source, value in modifier_parts(st, b, side)),
                      "total": totals[-1], "units": dict(sorted(st.units_at(b.area, b.seat(side)).items()))})
    b.totals = totals
    b.revealed = [True, True]
    b.history.append({"tiles": [fighting_values(st, b, s) for s in (0, 1)], "subs": list(b.subs), "totals": totals})
    st.log("Battle tiles revealed: " + "; ".join(shown), kind="reveal", area=b.area, sides=sides)
    # substituted hand tiles are spent whatever happens next
    for side in (ATTACKER, DEFENDER):
        sub = b.subs[side]
        if sub is not None:
            st.send_to_discard(b.seat(side), sub)
    if totals[0] == totals[1]:
        dfn = b.defender
        if queries.defender_wins_ties(st.ruleset.facts, _faction(st, dfn), st.units_at(b.area, dfn)):
            st.log("Tie: the defending Shields win it")
            finish_fight(st, b, DEFENDER)
        else:
            b.fights += 1
            st.log("Tie: the battle is fought again")
            draw_battle_tiles(st, b)
        return
    finish_fight(st, b, ATTACKER if totals[0] > totals[1] else DEFENDER)


def finish_fight(st: Position, b: Battle, winner_side: int) -> None:
    b.winner = winner_side
    b.subs = [None, None]
    winner, loser = b.seat(winner_side), b.seat(1 - winner_side)
    gained = b.forces[1 - winner_side]
    loser_units = st.units_at(b.area, loser)
    if st.rules_of(winner).has("plus_1_vp_per_battle_won"):
        gained += 1
    if CUTIECORN in loser_units:
        gained += 3
        st.remove_units(b.area, loser, CUTIECORN)
        st.add_units(b.area, winner, CUTIECORN)
        st.log(f"{st.seat_label(winner)} takes control of the Cutiecorn")
    st.vp[winner] += gained
    st.log(f"{st.seat_label(winner)} wins the battle in area {b.area} and scores {gained} VP", kind="battle",
           winner=winner, loser=loser, attacker=b.attacker, vp=gained)
    forts = [(u, n) for u, n in st.units_at(b.area, loser).items() if st.kind(loser, u).is_fortification]
    if forts:
        for u, n in forts:
            st.remove_units(b.area, loser, u, n)
            if u == CITADEL:
                st.captured_citadels[winner] += 1
                st.log(f"{st.seat_label(winner)} captures the citadel of {st.seat_label(loser)}")
            else:
                st.send_to_discard(loser, u, n)
                b.eliminated_for_undead += n
                st.log(f"{st.seat_label(loser)} loses {n} {u} (fortifications cannot retreat)",
                       kind="casualty", seat=loser, units={u: n})
        after_casualty(st, b)
        return
    choices = casualty_choices(st, b)
    if len(choices) > 1:
        b.step = CASUALTY
        st.decider = loser
    elif choices:
        take_casualty(st, b, choices[0])
    else:
        after_casualty(st, b)


def casualty_choices(st: Position, b: Battle) -> list[str]:
    loser = b.seat(1 - (b.winner or 0))
    return sorted(u for u in st.units_at(b.area, loser) if u != CUTIECORN)


def take_casualty(st: Position, b: Battle, unit: str) -> None:
    loser = b.seat(1 - (b.winner or 0))
    st.eliminate(b.area, loser, unit)
    b.eliminated_for_undead += 1
    st.log(f"{st.seat_label(loser)} eliminates {unit} as its casualty", kind="casualty", seat=loser, units={unit: 1})
    after_casualty(st, b)


def after_casualty(st: Position, b: Battle) -> None:
    loser = b.seat(1 - (b.winner or 0))
    remaining = st.units_at(b.area, loser)
    if not remaining:
        after_retreat(st, b)
        return
    options = escape_options(st, loser, b.area, remaining)
    if not options:
        lost = dict(remaining)
        for u, n in lost.items():
            st.eliminate(b.area, loser, u, n)
            b.eliminated_for_undead += n
        st.log(f"{st.seat_label(loser)} has nowhere to retreat: {sum(lost.values())} units eliminated",
               kind="casualty", seat=loser, units=lost)
        after_retreat(st, b)
    elif len(options) == 1:
        retreat(st, b, next(iter(options)))
    else:
        b.step = RETREAT
        st.decider = loser


def move_force(st: Position, seat: int, src: int, dest: int, able: UnitCounts) -> int:
    """Move a withdrawing/retreating force; units that cannot enter `dest` are eliminated."""
    lost = 0
    for u, n in sorted(st.units_at(src, seat).items()):  # restored stacks keep no order
        go = min(n, able.get(u, 0))
        if go:
            st.remove_units(src, seat, u, go)
            st.add_units(dest, seat, u, go)
        if n - go:
            st.eliminate(src, seat, u, n - go)
            lost += n - go
    if src not in st.withdrawn_from[seat]:  # shared with clones: replaced, never changed in place
        withdrawn = list(st.withdrawn_from)
        withdrawn[seat] = [*withdrawn[seat], src]
        st.withdrawn_from = withdrawn
    return lost


def retreat(st: Position, b: Battle, dest: int) -> None:
    loser = b.seat(1 - (b.winner or 0))
    options = escape_options(st, loser, b.area, st.units_at(b.area, loser))
    lost = move_force(st, loser, b.area, dest, options[dest])
    b.eliminated_for_undead += lost
    st.log(f"{st.seat_label(loser)} retreats to area {dest}" + (f", losing {lost} units" if lost else ""),
           kind="retreat", seat=loser, dest=dest, lost=lost)
    after_retreat(st, b)


def withdraw(st: Position, b: Battle, dest: int) -> None:
    options = withdraw_options(st, b)
    lost = move_force(st, b.defender, b.area, dest, options[dest])
    st.log(f"{st.seat_label(b.defender)} withdraws from area {b.area} to area {dest}"
           + (f", losing {lost} units" if lost else ""), kind="withdraw", seat=b.defender)
    end_battle(st)


def raise_limit(st: Position, b: Battle) -> int:
    if b.winner is None:
        return 0
    winner = b.seat(b.winner)
    if st.ruleset.board.is_sea(b.area) or not b.eliminated_for_undead or not st.undead_pool[winner]:
        return 0
    if not any(u != CUTIECORN and st.kind(winner, u).is_necromancer for u in st.units_at(b.area, winner)):
        return 0
    return min(b.eliminated_for_undead, st.undead_pool[winner])


def after_retreat(st: Position, b: Battle) -> None:
    if raise_limit(st, b):
        b.step = RAISE
        st.decider = b.seat(b.winner or 0)
        return
    conclude(st, b)


def raise_undead(st: Position, b: Battle, n: int) -> None:
    winner = b.seat(b.winner or 0)
    if n:
        st.undead_pool[winner] -= n
        st.add_units(b.area, winner, UNDEAD, n)
        st.log(f"{st.seat_label(winner)} raises {n} Undead in area {b.area}")
    conclude(st, b)


def conclude(st: Position, b: Battle) -> None:
    if b.winner == ATTACKER:
        att = b.attacker
        dragons = [(u, n) for u, n in st.units_at(b.area, att).items() if u != CUTIECORN and st.kind(att, u).is_dragon]
        for u, n in dragons:
            st.eliminate(b.area, att, u, n)
            st.log(f"{st.seat_label(att)}'s {n} dragon(s) leave the map after the successful attack")
    end_battle(st)


def end_battle(st: Position) -> None:
    st.battle = None
    st.decider = None
    settle_cutiecorn(st)


def settle_cutiecorn(st: Position) -> None:
    """A Cutiecorn alone among another player's units falls under that player's control."""
    candidates = [a for a, by_seat in st.units.items()
                  if len(by_seat) > 1 and any(CUTIECORN in c for c in by_seat.values())]
    for area in sorted(candidates):
        by_seat = st.units[area]
        for seat, counts in list(by_seat.items()):
            if counts == {CUTIECORN: 1} and len(by_seat) > 1:
                others = [s for s in by_seat if s != seat]
                order = st.order
                start = order.index(st.active)
                new_owner = min(others, key=lambda s: (order.index(s) - start) % len(order))
                st.remove_units(area, seat, CUTIECORN)
                st.add_units(area, new_owner, CUTIECORN)
                st.log(f"The Cutiecorn in area {area} falls under the control of {st.seat_label(new_owner)}")
                return
