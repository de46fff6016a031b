"""Scenario positions for Bloodstones (format documented in docs/games/bloodstones.md).

A scenario starts play at the start of, or inside, some player's turn with any pieces on the
map; tiles not placed anywhere else are in the bag, so every faction's 36 tiles stay accounted
for. `rig` fixes the next tiles drawn from bags and battle-tile bags.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bloodforge.core import Bag
from bloodforge.core.errors import ScenarioError, format_validation_error

from . import turn
from .model import Phase, Position
from .units import CITADEL, CUTIECORN, UNDEAD


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerSetup(_Strict):
    hand: dict[str, int] = Field(default_factory=dict)
    discard: dict[str, int] = Field(default_factory=dict)
    bag: dict[str, int] | None = None
    vp: int | None = Field(default=None, ge=0)
    regroups: int = Field(default=0, ge=0)
    captured_villages: int = Field(default=0, ge=0)
    captured_citadels: int = Field(default=0, ge=0)
    village_supply: int | None = Field(default=None, ge=0)
    undead_pool: int | None = Field(default=None, ge=0)


class Placement(_Strict):
    area: int
    seat: int
    units: dict[str, int]


class VillagePlacement(_Strict):
    area: int
    seat: int
    count: int = Field(default=1, ge=1)


class PositionSpec(_Strict):
    order: list[int] | None = None
    active: int | None = None
    phase: Literal["start_of_turn", "capture_villages", "move_undead", "main_actions", "construct_villages"] = (
        "start_of_turn"
    )
    players: list[PlayerSetup] = Field(default_factory=list)
    units: list[Placement] = Field(default_factory=list)
    villages: list[VillagePlacement] = Field(default_factory=list)
    cutiecorn_unclaimed: bool | None = None
    turns_taken: int = Field(default=0, ge=0)
    withdrawn_from: dict[int, list[int]] = Field(default_factory=dict)


class BattleRig(_Strict):
    attacker: list[Literal[2, 3, 4, 5]] = Field(default_factory=list)
    defender: list[Literal[2, 3, 4, 5]] = Field(default_factory=list)


class Rig(_Strict):
    bags: dict[int, list[str]] = Field(default_factory=dict)
    battle: BattleRig = Field(default_factory=BattleRig)


def fill_scenario(st: Position, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> None:
    """Set up the fresh position `st` (made by the game adapter) as the scenario describes."""
    try:
        pos = PositionSpec.model_validate(dict(position))
        rg = Rig.model_validate(dict(rig or {}))
    except ValidationError as err:
        raise ScenarioError(format_validation_error(err, "scenario")) from None
    params = st.ruleset.params
    n = params.players
    if params.factions is None:
        raise ScenarioError("a scenario must name the factions in params.factions")
    if len(pos.players) not in (0, n):
        raise ScenarioError(f"position.players has {len(pos.players)} entries for {n} players")
    st.factions = list(params.factions)
    order = pos.order if pos.order is not None else list(range(n))
    if sorted(order) != list(range(n)):
        raise ScenarioError(f"order {order} must list each seat 0..{n - 1} once")
    st.order = order
    st.active = pos.active if pos.active is not None else order[0]
    if st.active not in range(n):
        raise ScenarioError(f"active seat {st.active} does not exist")
    board = st.ruleset.board
    on_map: list[dict[str, int]] = [{} for _ in range(n)]
    for pl in pos.units:
        if pl.seat not in range(n):
            raise ScenarioError(f"units in area {pl.area}: seat {pl.seat} does not exist")
        if pl.area not in board.terrain:
            raise ScenarioError(f"units: there is no area {pl.area} on map {board.id!r}")
        kinds = st.rules_of(pl.seat).kinds
        for unit, count in pl.units.items():
            if unit not in kinds:
                raise ScenarioError(f"area {pl.area}: {params.factions[pl.seat]} has no unit {unit!r}")
            if count < 0:
                raise ScenarioError(f"area {pl.area}: negative count for {unit}")
            k = kinds[unit]
            sea = board.is_sea(pl.area)
            if (k.is_ship and not sea) or (sea and not (k.is_ship or k.is_dragon)):
                raise ScenarioError(f"area {pl.area} ({board.terrain[pl.area]}): {unit} cannot stand there")
            st.add_units(pl.area, pl.seat, unit, count)
            on_map[pl.seat][unit] = on_map[pl.seat].get(unit, 0) + count
    for seat in range(n):
        fac = st.rules_of(seat).faction
        if on_map[seat].get(CITADEL, 0) > fac.citadels:
            raise ScenarioError(f"seat {seat} ({fac.id}) has at most {fac.citadels} citadel")
    if sum(on_map[s].get(CUTIECORN, 0) for s in range(n)) > (1 if params.cutiecorn else 0):
        raise ScenarioError("the Cutiecorn is only in play with params.cutiecorn and there is one")
    for v in pos.villages:
        if v.seat not in range(n) or v.area not in board.terrain:
            raise ScenarioError(f"village in area {v.area} for seat {v.seat}: no such area or seat")
        cap = board.rules.village_capacity_per_area.get(board.terrain[v.area], 0)
        have = st.villages.get(v.area)
        if have is not None and have[0] != v.seat:
            raise ScenarioError(f"area {v.area} already holds villages of seat {have[0]}")
        total = (have[1] if have else 0) + v.count
        if total > cap:
            raise ScenarioError(f"area {v.area} ({board.terrain[v.area]}) holds at most {cap} villages")
        st.villages = {**st.villages, v.area: (v.seat, total)}
    for seat in range(n):
        _setup_player(st, seat, pos.players[seat] if pos.players else PlayerSetup(), on_map[seat])
    for seat, tiles in rg.bags.items():
        if seat not in range(n):
            raise ScenarioError(f"rig.bags: seat {seat} does not exist")
        bag = st.own_bag(seat)
        need: dict[str, int] = {}
        for t in tiles:
            need[t] = need.get(t, 0) + 1
        for t, c in need.items():
            if bag.count(t) < c:
                raise ScenarioError(f"rig.bags[{seat}] draws {c} {t} but the bag holds {bag.count(t)}")
        bag.rigged = list(tiles)
    st.battle_rig = [list(rg.battle.attacker), list(rg.battle.defender)]
    st.cutiecorn_free = params.cutiecorn and (
        pos.cutiecorn_unclaimed if pos.cutiecorn_unclaimed is not None
        else not any(CUTIECORN in on_map[s] for s in range(n))
    )
    st.turns_taken = pos.turns_taken
    withdrawn = list(st.withdrawn_from)
    for seat, areas in pos.withdrawn_from.items():
        withdrawn[seat] = list(areas)
    st.withdrawn_from = withdrawn
    st.log("Scenario loaded")
    _enter_phase(st, pos.phase)
    st.touch()  # filled in by hand: nothing computed on the way may be reused


def _setup_player(st: Position, seat: int, ps: PlayerSetup, on_map: dict[str, int]) -> None:
    rules = st.rules_of(seat)
    fac = rules.faction
    mix = rules.bag_mix
    for label, tiles in (("hand", ps.hand), ("discard", ps.discard), ("bag", ps.bag or {})):
        for t, c in tiles.items():
            if t not in mix:
                raise ScenarioError(f"seat {seat} {label}: {fac.id} has no {t!r} tiles")
            if c < 0:
                raise ScenarioError(f"seat {seat} {label}: negative count for {t}")
    used: dict[str, int] = {}
    for tiles in (ps.hand, ps.discard, {u: c for u, c in on_map.items() if u in mix}):
        for t, c in tiles.items():
            used[t] = used.get(t, 0) + c
    if ps.bag is None:
        bag = {}
        for t, total in mix.items():
            left = total - used.get(t, 0)
            if left < 0:
                raise ScenarioError(f"seat {seat} uses {used[t]} {t} tiles; {fac.id} has {total}")
            bag[t] = left
    else:
        bag = dict(ps.bag)
        for t, total in mix.items():
            if used.get(t, 0) + bag.get(t, 0) != total:
                raise ScenarioError(
                    f"seat {seat}: {t} tiles in hand, discard, bag and map add up to "
                    f"{used.get(t, 0) + bag.get(t, 0)}, the faction has {total}"
                )
    st.hands[seat] = {t: c for t, c in ps.hand.items() if c}
    st.discards[seat] = {t: c for t, c in ps.discard.items() if c}
    st.set_bag(seat, Bag(bag))
    st.vp[seat] = fac.starting_vp if ps.vp is None else ps.vp
    st.regroups[seat] = ps.regroups
    st.captured_villages[seat] = ps.captured_villages
    st.captured_citadels[seat] = ps.captured_citadels
    on_board = st.village_count(seat)
    st.village_supply[seat] = fac.villages - on_board if ps.village_supply is None else ps.village_supply
    if st.village_supply[seat] < 0:
        raise ScenarioError(f"seat {seat} has {on_board} villages on the map but only {fac.villages}")
    undead_total = sum(t.count for t in fac.tiles_outside_bag if t.unit == UNDEAD)
    st.undead_pool[seat] = undead_total - on_map.get(UNDEAD, 0) if ps.undead_pool is None else ps.undead_pool
    if st.undead_pool[seat] < 0:
        raise ScenarioError(f"seat {seat} has more Undead on the map than exist ({undead_total})")


def _enter_phase(st: Position, phase: str) -> None:
    if phase == "start_of_turn":
        turn.begin_turn(st)
    else:
        st.phase = Phase(phase)
