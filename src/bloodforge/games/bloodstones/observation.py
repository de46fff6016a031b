"""What a seat may see (observation) and a state consistent with it (resample_hidden).

Public: the map (units face up, villages, citadels), tracks, discard piles, hand and bag sizes,
revealed battle tiles. Private to a seat: its own hand, its own drawn Battle tiles before they
are revealed, its partial choice. Bags have no order to hide (tiles are drawn at random when
drawn), so resampling only redistributes the other players' hands and unrevealed battle tiles.
"""

from __future__ import annotations

from typing import Any

from bloodforge.core import Bag, Rng

from .battle import fighting_values, modifier_parts
from .model import Battle, Phase, Position
from .movement import group_reach


def observe(st: Position, seat: int | None) -> dict[str, Any]:
    n = st.num_players
    players = []
    for s in range(n):
        fid = st.factions[s]
        rules = st.ruleset.faction_rules(fid) if fid else None
        players.append({
            "seat": s,
            "faction": fid,
            "faction_name": rules.faction.name if rules else None,
            "vp": st.vp[s],
            "regroups": st.regroups[s],
            "hand_count": st.hand_size(s),
            "hand_limit": rules.faction.hand_size if rules else None,
            "bag_count": len(st.bags[s]),
            "discard": dict(sorted(st.discards[s].items())),
            "villages_on_map": st.village_count(s),
            "village_supply": st.village_supply[s],
            "captured_villages": st.captured_villages[s],
            "captured_citadels": st.captured_citadels[s],
            "undead_pool": st.undead_pool[s],
            "eliminated": st.eliminated[s],
            "citadel_area": st.citadel_area(s),
        })
    areas = []
    for a in sorted(set(st.units) | set(st.villages)):
        v = st.villages.get(a)
        areas.append({
            "id": a,
            "units": {str(s): dict(sorted(c.items())) for s, c in sorted(st.units.get(a, {}).items())},
            "village": None if v is None else {"seat": v[0], "count": v[1]},
        })
    log, log_size = st.events.tail_for(seat, 60), st.events.count_for(seat)
    obs: dict[str, Any] = {
        "game": "bloodstones",
        "seat": seat,
        "map": st.ruleset.board.id,
        "phase": str(st.phase),
        "active": st.active if st.phase is not Phase.OVER else None,
        "current_player": st.deciding_seat(),
        "order": list(st.order),
        "turns_taken": st.turns_taken,
        "regroup_target": st.regroup_target,
        "players": players,
        "areas": areas,
        "hand": dict(sorted(st.hands[seat].items())) if seat is not None else None,
        "build_points": st.build_points,
        "setup_home": st.setup_home,
        "cutiecorn": {"in_play": st.ruleset.params.cutiecorn, "unclaimed": st.cutiecorn_free},
        "pending": _pending_view(st, seat),
        "battle": _battle_view(st, seat),
        "board": None,
        "end_triggered_by": st.end_trigger,
        "game_over": st.phase is Phase.OVER,
        "log": log,
        "log_size": log_size,
    }
    obs["board"] = _board_view(obs)
    return obs


def _board_view(obs: dict[str, Any]) -> dict[str, Any]:
    """What is on the map now, in the browser's board contract, built from this very observation
    (so it shows nothing the seat may not see): one stack per player and area, villages,
    citadels, the battle and the areas of the partial choice as marks, the seat's own tiles."""
    pieces: list[dict[str, Any]] = []
    marks: list[dict[str, Any]] = []
    for area in obs["areas"]:
        at = str(area["id"])
        for s, units in area["units"].items():
            troops = units if "citadel" not in units else {u: n for u, n in units.items() if u != "citadel"}
            if troops:
                text = ", ".join([f"{n} {u}" for u, n in troops.items()]).replace("_", " ")
                pieces.append({"at": at, "owner": int(s), "kind": "stack", "label": text,
                               "count": sum(troops.values()), "units": dict(troops)})
        v = area["village"]
        if v is not None:
            marks.append({"at": at, "kind": "village", "owner": v["seat"], "count": v["count"],
                          "label": f"{v['count']} village(s)"})
    for p in obs["players"]:
        if p["citadel_area"] is not None:
            marks.append({"at": str(p["citadel_area"]), "kind": "citadel", "owner": p["seat"], "label": "citadel"})
    if obs["battle"] is not None:
        marks.append({"at": str(obs["battle"]["area"]), "kind": "battle", "label": "battle"})
    pending = obs["pending"] or {}
    chosen = [pending.get("group_area"), pending.get("area"), *(pending.get("targets") or ())]
    for a in dict.fromkeys(a for a in chosen if a is not None):
        marks.append({"at": str(a), "kind": "chosen", "label": "chosen"})
    hand = obs["hand"] or {}
    return {
        "pieces": pieces,
        "marks": marks,
        "hand": [{"id": t, "label": t.replace("_", " "), "kind": "tile", "count": n} for t, n in hand.items()],
    }


def _pending_view(st: Position, seat: int | None) -> dict[str, Any] | None:
    p = st.pending
    if p is None:
        return None
    view: dict[str, Any] = {"kind": p.kind, "legs": p.legs, "targets": p.targets, "area": p.area}
    if seat == st.active:
        view.update(unit=p.unit, cost=p.cost, paid=p.paid, group_area=p.group_area, group=p.group)
        if p.kind == "move" and p.group and p.group_area is not None:
            # what the selected group may reach with the pips in hand, and at what cost: the
            # player's own arithmetic, shown so that nobody (a player, the UI, an agent) has to
            # try each destination to learn its price
            view["reach"] = {str(d): c for d, c in sorted(group_reach(st, st.active).items())}
    return view


def _battle_view(st: Position, seat: int | None) -> dict[str, Any] | None:
    b = st.battle
    if b is None:
        return None
    sides = []
    for side in (0, 1):
        owner = b.seat(side)
        visible = owner == seat or b.revealed[side]
        sides.append({
            "seat": owner,
            "units_at_start": b.forces[side],
            "tile_count": len(b.tiles[side]),
            "tiles": list(b.tiles[side]) if visible else None,
            "substituted": b.subs[side] is not None if b.decided[side] else None,
            "substitute": b.subs[side] if visible else None,
            "decided": b.decided[side],
            "total": b.totals[side] if all(b.revealed) and b.winner is not None else None,
        })
        sides[-1].update(_counted(st, b, side, visible))
    return {
        "area": b.area,
        "attacker": b.attacker,
        "defender": b.defender,
        "step": b.step,
        "decider": st.decider,
        "fights": b.fights,
        "sides": sides,
        "winner": None if b.winner is None else b.seat(b.winner),
        "previous_fights": b.history,
    }


def _counted(st: Position, b: Battle, side: int, visible: bool) -> dict[str, Any]:
    """What the rules count for `side`: its fighting tiles (the lowest drawn one replaced by a
    substitute), the best `count_top` of them and each modifier with its source, taken from
    the rules' own queries (after a fight, from the fight's record: substitutes are spent)."""
    top = st.ruleset.factions_file.battle_tiles.count_top
    parts: list[dict[str, Any]] = [{"source": s, "value": v} for s, v in modifier_parts(st, b, side)]
    if b.winner is not None and b.history and all(b.revealed):
        fought = b.history[-1]
        tiles = list(fought["tiles"][side])
        modifier = fought["totals"][side] - sum(tiles[:top])
        if sum(p["value"] for p in parts) != modifier:  # units changed since (a casualty)
            parts = [{"source": "modifiers", "value": modifier}]
        return {"fighting": tiles, "counted": tiles[:top], "modifiers": parts, "modifier": modifier,
                "substitute_used": fought["subs"][side]}
    if not visible:
        return {"fighting": None, "counted": None, "modifiers": parts, "modifier": sum(p["value"] for p in parts)}
    tiles = fighting_values(st, b, side)
    return {"fighting": tiles, "counted": tiles[:top], "modifiers": parts,
            "modifier": sum(p["value"] for p in parts)}


def resample(st: Position, seat: int | None, rng: Rng) -> None:
    """Redistribute what `seat` cannot see; the RNG and any rigged future are replaced too."""
    st.rng = Rng(rng.next_u64())
    st.battle_rig = [[], []]
    b = st.battle
    for other in range(st.num_players):
        st.own_bag(other).rigged = []
        if other == seat or st.factions[other] is None:
            continue
        pool = Bag(st.bags[other].counts)
        hand = st.hands[other]
        for t, n in hand.items():
            pool.add(t, n)
        hidden_sub = None
        if b is not None and other in (b.attacker, b.defender):
            side = b.side_of(other)
            sub = b.subs[side]
            if sub is not None and not b.revealed[side]:
                hidden_sub = sub
                pool.add(sub)
        size = sum(hand.values())
        new_hand: dict[str, int] = {}
        for _ in range(size):
            t = pool.draw(st.rng)
            new_hand[t] = new_hand.get(t, 0) + 1
        if hidden_sub is not None and b is not None:
            b.subs[b.side_of(other)] = pool.draw(st.rng)
        st.hands[other] = new_hand
        st.set_bag(other, Bag(pool.counts))
        if b is not None and other in (b.attacker, b.defender):
            side = b.side_of(other)
            if not b.revealed[side] and b.tiles[side]:
                values = Bag.of(str(v) for v in st.ruleset.factions_file.battle_tiles.values)
                b.tiles[side] = sorted((int(values.draw(st.rng)) for _ in b.tiles[side]), reverse=True)
