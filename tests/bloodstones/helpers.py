"""Helpers for the Bloodstones rule tests: concise scenarios, action runs, invariant checks."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import bloodforge
from bloodforge.games.bloodstones.game import BloodstonesState
from bloodforge.games.bloodstones.model import Phase
from bloodforge.games.bloodstones.units import CITADEL, CUTIECORN, UNDEAD

UnitRow = tuple[int, int, Mapping[str, int]]


def scenario_dict(
    factions: Sequence[str],
    *,
    units: Iterable[UnitRow] = (),
    villages: Iterable[tuple[int, ...]] = (),
    hands: Sequence[Mapping[str, int] | None] | None = None,
    players: Sequence[Mapping[str, Any]] | None = None,
    phase: str = "main_actions",
    active: int | None = None,
    order: Sequence[int] | None = None,
    attacker_tiles: Sequence[int] = (),
    defender_tiles: Sequence[int] = (),
    rig_bags: Mapping[int, Sequence[str]] | None = None,
    seed: int = 1,
    position_extra: Mapping[str, Any] | None = None,
    **params: Any,
) -> dict[str, Any]:
    """A scenario dict. units: (area, seat, {unit: n}); villages: (area, seat[, count])."""
    n = len(factions)
    pl: list[dict[str, Any]] = (
        [dict(p) for p in players] if players is not None else [{} for _ in range(n)]
    )
    if hands is not None:
        for seat, h in enumerate(hands):
            if h is not None:
                pl[seat]["hand"] = dict(h)
    position: dict[str, Any] = {
        "phase": phase,
        "players": pl,
        "units": [{"area": a, "seat": s, "units": dict(u)} for a, s, u in units],
        "villages": [
            {"area": v[0], "seat": v[1], "count": v[2] if len(v) > 2 else 1} for v in villages
        ],
    }
    if active is not None:
        position["active"] = active
    if order is not None:
        position["order"] = list(order)
    if position_extra:
        position.update(position_extra)
    rig: dict[str, Any] = {
        "battle": {"attacker": list(attacker_tiles), "defender": list(defender_tiles)}
    }
    if rig_bags:
        rig["bags"] = {int(k): list(v) for k, v in rig_bags.items()}
    return {
        "game": "bloodstones",
        "params": {"players": n, "factions": list(factions), **params},
        "seed": seed,
        "position": position,
        "rig": rig,
    }


def make(factions: Sequence[str], **kw: Any) -> BloodstonesState:
    st = bloodforge.load_scenario(scenario_dict(factions, **kw))
    assert isinstance(st, BloodstonesState)
    return st


def run(st: BloodstonesState, *actions: str) -> BloodstonesState:
    """Apply action texts through the checked `apply`."""
    for a in actions:
        st.apply(a)
    return st


def legal(st: BloodstonesState) -> set[str]:
    return {str(a) for a in st.legal_actions()}


def legal_of(st: BloodstonesState, kind: str) -> set[str]:
    return {str(a) for a in st.legal_actions() if a.kind == kind}


def to_targets(st: BloodstonesState) -> set[int]:
    return {int(a.args[0]) for a in st.legal_actions() if a.kind == "to"}


def position_digest(st: BloodstonesState) -> str:
    """Digest of everything but the action history (what `cancel` must restore)."""
    data = st.to_json()
    del data["history"], data["history_seats"]
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def last_log(st: BloodstonesState, seat: int | None = None) -> str:
    return st.event_log(seat)[-1]


# -- invariants ------------------------------------------------------------------------------
def _add_counts(total: dict[str, int], counts: Mapping[str, int], mix: Mapping[str, int]) -> None:
    for t, c in counts.items():
        if t in mix:
            total[t] = total.get(t, 0) + c


def _off_map_tiles(st: BloodstonesState, seat: int, mix: Mapping[str, int]) -> dict[str, int]:
    """`seat`'s bag tiles that are not on the map: bag, hand, discard, in flight."""
    total: dict[str, int] = {}
    _add_counts(total, st.bags[seat].counts, mix)
    _add_counts(total, st.hands[seat], mix)
    _add_counts(total, st.discards[seat], mix)
    p = st.pending
    if p is not None and seat == st.active:
        _add_counts(total, {t: p.paid.count(t) for t in set(p.paid)}, mix)
        if p.kind == "build" and p.unit is not None:
            _add_counts(total, {p.unit: 1}, mix)
    b = st.battle
    if b is not None and seat in (b.attacker, b.defender):
        sub = b.subs[b.side_of(seat)]
        if sub is not None:
            _add_counts(total, {sub: 1}, mix)
    return total


def check_invariants(
    st: BloodstonesState, prev_vp: Sequence[int] | None = None, *, check_legal: bool = True
) -> None:
    """Every tile, village, Undead and the Cutiecorn accounted for; no land unit at sea; VP
    never fall. *Why one walk over the map:* the playout tests run this after every action of
    98 games, and walking the map once per seat and per count made it most of their time
    (issue 23 item 5); the same sums and the same assertions."""
    board = st.game.board
    n = st.num_players
    if st.factions[0] is None or st.phase is Phase.CHOOSE_FACTION:
        return
    on_map: list[dict[str, int]] = [{} for _ in range(n)]  # seat -> unit -> count on the map
    for area, by_seat in st.units.items():
        sea = board.is_sea(area)
        for seat, counts in by_seat.items():
            tally = on_map[seat]
            for u, c in counts.items():
                assert c > 0
                tally[u] = tally.get(u, 0) + c
                if sea:
                    assert u != CUTIECORN
                    assert u != CITADEL
                    k = st.kind(seat, u)
                    assert k.is_ship or k.is_dragon, f"land unit {u} at sea in {area}"
    total_villages = 0
    on_map_villages = sum(c for _, c in st.villages.values())
    for seat in range(n):
        rules = st.rules_of(seat)
        mix = rules.bag_mix
        tiles = _off_map_tiles(st, seat, mix)
        _add_counts(tiles, on_map[seat], mix)
        assert tiles == mix, f"seat {seat} tiles out of place"
        undead_total = sum(t.count for t in rules.faction.tiles_outside_bag if t.unit == UNDEAD)
        assert on_map[seat].get(UNDEAD, 0) + st.undead_pool[seat] == undead_total
        total_villages += rules.faction.villages
    assert on_map_villages + sum(st.village_supply) + sum(st.captured_villages) == total_villages
    cc = sum(tally.get(CUTIECORN, 0) for tally in on_map)
    if st.game.params.cutiecorn:
        assert (
            cc
            + int(st.cutiecorn_free)
            + int(st.pending is not None and st.pending.unit == CUTIECORN)
            == 1
        )
    else:
        assert cc == 0
        assert not st.cutiecorn_free
    if prev_vp is not None:
        assert all(a >= b for a, b in zip(st.vp, prev_vp, strict=True)), (prev_vp, st.vp)
    if check_legal:
        if not st.is_terminal():
            assert st.legal_actions(), "no legal action before the end"
        else:
            assert st.legal_actions() == []


def deserts_clear(st: BloodstonesState, seat: int) -> bool:
    board = st.game.board
    for area, by_seat in st.units.items():
        if board.terrain[area] == "desert":
            for u in by_seat.get(seat, {}):
                if u == CUTIECORN or not st.kind(seat, u).may_stay_in_desert:
                    return False
    return True


def main_done_uncontested(st: BloodstonesState, seat: int) -> bool:
    return not any(seat in by and len(by) > 1 for by in st.units.values())


def set_hand(st: BloodstonesState, seat: int, hand: Mapping[str, int]) -> None:
    """Swap a seat's hand for `hand`, keeping every tile accounted for (tiles come from the bag)."""
    bag = st.bags[seat]
    for t, c in st.hands[seat].items():
        bag.add(t, c)
    for t, c in hand.items():
        bag.remove(t, c)
    st.hands[seat] = {t: c for t, c in hand.items() if c}


def move_cost(st: BloodstonesState, src: int, units: Mapping[str, int], dest: int) -> int | None:
    """The cost the engine charges to move `units` from `src` to `dest`, or None if it may not."""
    trial = st.clone()
    for u, n in units.items():
        for _ in range(n):
            action = f"move {src} {u}"
            if action not in legal(trial):
                return None
            trial.apply(action)
    if f"to {dest}" not in legal(trial):
        return None
    trial.apply(f"to {dest}")
    assert trial.pending is not None
    return trial.pending.cost


def start_battle(st: BloodstonesState, area: int, defender: int) -> BloodstonesState:
    """`battle area defender`, and `stay` if the defender is offered a withdrawal."""
    st.apply(f"battle {area} {defender}")
    if st.battle is not None and st.battle.step == "withdraw":
        st.apply("stay")
    return st
