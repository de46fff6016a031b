"""The turn sequence (rulebook, Playing The Game; Ending The Game).

Capture Villages, Move Undead, Main Actions, Construct Villages, Draw Tiles — phases in which a
player can do nothing are passed over automatically. Drawing from an empty bag is a Regroup:
discards go back in the bag and villages score, until the regroup target is met. When every
player has regrouped enough, remaining battles are fought in player order, villages captured for
free, and the game scored.
"""

from __future__ import annotations

from . import villages
from .model import Phase, Position
from .movement import undead_destinations
from .queries import end_of_game_bonus
from .units import CUTIECORN


def start_first_turn(st: Position) -> None:
    st.active = st.order[0]
    st.log("The game begins")
    begin_turn(st)


def begin_turn(st: Position) -> None:
    seat = st.active
    st.withdrawn_from = [[] for _ in range(st.num_players)]
    st.undead_moved = {}
    st.horde_captured = False
    st.pending = None
    st.decider = None
    rules = st.rules_of(seat)
    if rules.is_horde and not st.areas_with_units(seat):
        if not recovery_possible(st):
            st.eliminated = [e or s == seat for s, e in enumerate(st.eliminated)]  # shared with clones
            st.log(f"{st.seat_label(seat)} has been wiped out and has no empty area to return to: eliminated")
            end_turn(st)
            return
        st.phase = Phase.RECOVER
        return
    enter_capture(st)


def recovery_possible(st: Position) -> bool:
    return any(st.is_empty(a) for a in st.ruleset.board.area_ids)


def enter_capture(st: Position) -> None:
    seat = st.active
    rules = st.rules_of(seat)
    if not rules.is_horde and st.hands[seat] and capture_affordable(st, seat, []):
        st.phase = Phase.CAPTURE
        return
    enter_undead(st)


def capture_affordable(st: Position, seat: int, chosen: list[int]) -> list[int]:
    spent = sum(villages.village_cost(st, a) for a in chosen)
    limit = st.max_tile_pips(seat)
    return [a for a in villages.capture_options(st, seat, chosen) if spent + villages.village_cost(st, a) <= limit]


def undead_sources(st: Position, seat: int) -> list[int]:
    out = []
    for area in st.areas_with_units(seat):
        n = st.units_at(area, seat).get("undead", 0) - st.undead_moved.get(area, 0)
        if n > 0 and not st.enemy_units_in(area, seat) and undead_destinations(st, seat, area):
            out.append(area)
    return sorted(out)


def enter_undead(st: Position) -> None:
    if undead_sources(st, st.active):
        st.phase = Phase.UNDEAD
        return
    enter_main(st)


def enter_main(st: Position) -> None:
    st.phase = Phase.MAIN


def contested_areas(st: Position, seat: int) -> list[tuple[int, int]]:
    """(area, other seat) pairs where `seat` shares an area with another player's units."""
    out: list[tuple[int, int]] = []
    for area, by_seat in st.units.items():
        if seat in by_seat and len(by_seat) > 1:
            out.extend((area, s) for s in by_seat if s != seat)
    return sorted(out)


def construct_affordable(st: Position, seat: int, chosen: list[int]) -> list[int]:
    spent = sum(villages.village_cost(st, a) for a in chosen)
    limit = st.max_tile_pips(seat)
    return [a for a in villages.construct_options(st, seat, chosen) if spent + villages.village_cost(st, a) <= limit]


def end_main(st: Position) -> None:
    seat = st.active
    if not st.rules_of(seat).is_horde and st.hands[seat] and construct_affordable(st, seat, []):
        st.phase = Phase.CONSTRUCT
        return
    draw_phase(st)


def draw_phase(st: Position) -> None:
    seat = st.active
    desert_attrition(st, seat)
    draw_to_hand_size(st, seat)
    st.turns_taken += 1
    if st.end_trigger is None:
        alive = [s for s in range(st.num_players) if not st.eliminated[s]]
        if all(st.regroups[s] >= st.regroup_target for s in alive):
            st.end_trigger = seat
            st.log(f"Every player has regrouped {st.regroup_target} times: {st.seat_label(seat)} triggers the end")
        elif st.ruleset.params.max_rounds is not None and st.turns_taken >= st.ruleset.params.max_rounds * len(alive):
            st.end_trigger = seat
            st.log(f"House rule: {st.ruleset.params.max_rounds} rounds played, the end is triggered")
    end_turn(st)


def desert_attrition(st: Position, seat: int) -> None:
    board = st.ruleset.board
    # areas sorted too: the units table keeps no order a saved game restores
    for area in sorted(st.areas_with_units(seat)):
        if board.terrain[area] != "desert":
            continue
        # sorted: a stack's units keep no order a saved game restores (a reloaded game logged
        # its desert losses in another order than the live one)
        for unit, n in sorted(st.units_at(area, seat).items()):
            if unit == CUTIECORN or not st.kind(seat, unit).may_stay_in_desert:
                st.eliminate(area, seat, unit, n)
                st.log(f"{st.seat_label(seat)} loses {n} {unit} in the desert of area {area}")


def draw_to_hand_size(st: Position, seat: int) -> None:
    rules = st.rules_of(seat)
    need = rules.faction.hand_size - st.hand_size(seat)
    bag = st.own_bag(seat)
    drawn = 0
    while need > 0:
        if not bag:
            if not any(st.discards[seat].values()):
                break
            regroup(st, seat)
        st.hand_add(seat, bag.draw(st.rng))
        need -= 1
        drawn += 1
    if drawn:
        st.log(f"{st.seat_label(seat)} draws {drawn} tile{'' if drawn == 1 else 's'} ({len(bag)} left in the bag)")


def regroup(st: Position, seat: int) -> None:
    bag = st.own_bag(seat)
    for tile, n in st.discards[seat].items():
        bag.add(tile, n)
    st.discards[seat] = {}
    if st.regroups[seat] < st.regroup_target:
        gained = st.village_count(seat)
        st.vp[seat] += gained
        st.log(f"{st.seat_label(seat)} regroups and scores {gained} VP for villages", kind="regroup",
               seat=seat, vp=gained)
    else:
        st.log(f"{st.seat_label(seat)} regroups (no more village scoring)")
    st.regroups[seat] += 1


def end_turn(st: Position) -> None:
    st.pending = None
    st.decider = None
    if st.end_trigger is not None:
        if st.phase is not Phase.FINAL_BATTLES:
            trigger = st.end_trigger
            idx = st.order.index(trigger)
            st.final_queue = [st.order[(idx + i) % len(st.order)] for i in range(1, len(st.order) + 1)]
        next_final(st)
        return
    idx = st.order.index(st.active)
    for step in range(1, len(st.order) + 1):
        seat = st.order[(idx + step) % len(st.order)]
        if not st.eliminated[seat]:
            st.active = seat
            begin_turn(st)
            return
    finish_game(st)


def next_final(st: Position) -> None:
    while st.final_queue:
        seat = st.final_queue[0]
        st.final_queue = st.final_queue[1:]  # shared with clones: replaced, never changed in place
        if st.eliminated[seat]:
            continue
        st.active = seat
        st.phase = Phase.FINAL_BATTLES
        st.withdrawn_from = [[] for _ in range(st.num_players)]
        if contested_areas(st, seat):
            return
        draw_to_hand_size(st, seat)
    finish_game(st)


def after_battle(st: Position) -> None:
    """Called when a battle ends: in the final round, move on once the player's battles are done."""
    if st.phase is Phase.FINAL_BATTLES and not contested_areas(st, st.active):
        draw_to_hand_size(st, st.active)
        next_final(st)


def finish_game(st: Position) -> None:
    st.phase = Phase.OVER
    st.decider = None
    for seat in st.order:
        if st.eliminated[seat]:
            continue
        taken = 0
        for area in sorted(st.villages):
            owner, n = st.villages[area]
            if owner != seat and seat in st.units.get(area, {}):
                for _ in range(n):
                    villages.capture_village(st, seat, area)
                taken += n
        if taken:
            st.log(f"{st.seat_label(seat)} captures {taken} villages at the end of the game", kind="capture",
                   seat=seat, villages=taken)
    for seat in range(st.num_players):
        fid = st.factions[seat]
        assert fid is not None
        bonus = end_of_game_bonus(st.ruleset.facts, fid, st.captured_villages[seat], st.captured_citadels[seat])
        st.end_bonus[seat] = bonus
        st.vp[seat] += bonus
    st.log("Final scores: " + ", ".join(f"{st.seat_label(s)} {st.vp[s]} VP" for s in range(st.num_players)))
