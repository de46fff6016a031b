"""What a seat may see (observation) and a state consistent with it (resample_hidden).

Public: the map (units face up, villages, citadels), tracks, discard piles, hand and bag sizes,
revealed battle tiles. Private to a seat: its own hand, its own drawn Battle tiles before they
are revealed, its partial choice. Bags have no order to hide (tiles are drawn at random when
drawn), so resampling only redistributes the other players' hands and unrevealed battle tiles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bloodforge.core import Bag, Rng

from .battle import fighting_values, modifier_parts
from .describe import card_id
from .model import Battle, Phase, Position
from .movement import group_reach

#: What only a page reads: left out of the policy's lean observation.
PAGE_ONLY = ("log", "log_size", "board", "status", "phase_label", "battles")


def observe(st: Position, seat: int | None, lean: bool = False) -> dict[str, Any]:
    """`seat`'s observation (None: a spectator's). `lean` is what the policy and the search's
    evaluation read (`BloodstonesState.policy_observation`): the same values without
    `PAGE_ONLY` (the log's tail, the board in the page's contract, the status board, the phase's
    words and the battle records), which were about half of an observation's cost."""
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
    log, log_size = ([], 0) if lean else (st.events.tail_for(seat, 60), st.events.count_for(seat))
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
    if lean:
        for key in PAGE_ONLY:
            obs.pop(key, None)
        return obs
    obs["board"] = _board_view(obs)
    obs["status"] = _status(st, obs)
    obs["phase_label"] = phase_label(st)
    obs["battles"] = battle_records(st, seat)
    return obs


PHASE_LABELS = {
    Phase.CHOOSE_FACTION: "Choosing factions",
    Phase.PLACE_CITADEL: "Placing citadels",
    Phase.PLACE_HORDE: "Placing the Chaos Horde",
    Phase.SETUP_BUILD: "Setup: building",
    Phase.RECOVER: "Chaos Horde returns",
    Phase.CAPTURE: "Capturing villages",
    Phase.UNDEAD: "Moving the Undead",
    Phase.MAIN: "Actions",
    Phase.CONSTRUCT: "Building villages",
    Phase.FINAL_BATTLES: "Final battles",
    Phase.OVER: "Game over",
}
BATTLE_STEPS = {"withdraw": "withdraw or stay", "substitute": "battle tiles", "casualty": "casualty",
                "retreat": "retreat", "raise": "raising Undead"}


def phase_label(st: Position) -> str:
    """The phase as players name it (the page's prompt header), never the phase's id."""
    b = st.battle
    if b is not None:
        return f"Battle in area {b.area}: {BATTLE_STEPS.get(b.step, b.step)}"
    return PHASE_LABELS.get(st.phase, str(st.phase).replace("_", " ").capitalize())


def _status(st: Position, obs: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's public numbers in words (the status board, always on show): VP, regroups,
    hand and bag sizes, villages; the seat's own hand goes only into its own observation."""
    out: list[dict[str, Any]] = []
    for p in obs["players"]:
        s = p["seat"]
        if p["faction"] is None:
            out.append({"seat": s, "title": "faction not chosen yet", "items": []})
            continue
        items = [
            {"label": "VP", "value": str(p["vp"]), "hint": "victory points"},
            {"label": "Regroups", "value": f"{p['regroups']} of {obs['regroup_target']}",
             "hint": "the game ends when a player has regrouped this many times"},
            # the hand size is what a player draws back up to, not a cap ("9 of 6 tiles" read as
            # an error after the setup, where a hand may well hold more)
            {"label": "Hand", "value": f"{plural(p['hand_count'], 'tile')} (refills to {p['hand_limit']})",
             "hint": "a player draws back up to the hand size; tiles beyond it are kept"},
            {"label": "Bag", "value": plural(p["bag_count"], "tile")},
            {"label": "Villages", "value": f"{p['villages_on_map']} on the map, {p['village_supply']} to build"},
        ]
        if p["captured_villages"] or p["captured_citadels"]:
            items.append({"label": "Captured", "value": f"{plural(p['captured_villages'], 'village')}, "
                                                        f"{plural(p['captured_citadels'], 'citadel')}"})
        if p["undead_pool"]:
            items.append({"label": "Undead pool", "value": str(p["undead_pool"])})
        if p["eliminated"]:
            items.append({"label": "Out", "value": "eliminated"})
        entry: dict[str, Any] = {"seat": s, "title": p["faction_name"], "items": items}
        if s == obs["seat"] and obs["hand"] is not None:
            hand = ", ".join(f"{n} {t.replace('_', ' ')}" if n > 1 else t.replace("_", " ")
                             for t, n in obs["hand"].items())
            pips = st.hand_pips(s)
            entry["private"] = [{"label": "Your hand", "value": f"{hand or 'empty'} ({pips} pips)"}]
        out.append(entry)
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def battle_records(st: Position, seat: int | None, most: int = 5, horizon: int = 600) -> list[dict[str, Any]]:
    """The last few finished battles as public records (the page's battle view): both sides'
    tiles, modifiers and totals from the reveal events, the winner and VP from the battle
    event, the losses and retreat after it. Built from the log's public events only (a battle
    is fought in the open once tiles are revealed); `log_index` is the index of the winning
    line among the lines `seat` reads. Walks back at most `horizon` events (search clones)."""
    events = list(st.events)  # a C-level copy of the references
    n = len(events)
    lo = max(0, n - horizon)
    # only the public events a record is made of; cheap comprehensions, as search clones ask
    # for observations all the time
    wanted = [i for i in range(lo, n) if events[i].visible is None and events[i].kind in RECORD_KINDS]
    records: list[dict[str, Any]] = []
    after: list[Any] = []  # casualty and retreat events after the one looked at, newest first
    reveals: list[Any] = []
    found: tuple[int, Any] | None = None
    for i in reversed(wanted):
        e = events[i]
        kind = e.kind
        if kind == "battle" and e.data:
            found, reveals, closing = (i, e), [], after[::-1]
        elif kind == "reveal" and e.data and found is not None:
            reveals.insert(0, e.data)
        elif kind == "attack":
            after = []
            if e.data and found is not None:
                records.append(_memo_record(st, events, seat, found, closing, reveals, e))
                found = None
                if len(records) == most:
                    break
        elif kind in ("casualty", "retreat"):
            after.append(e)
    records.reverse()
    return records


RECORD_KINDS = frozenset({"attack", "reveal", "battle", "casualty", "retreat"})
#: built records by battle event (identity checked: the key's event is kept alive in the value)
_MEMO: dict[tuple[int, int, int | None], tuple[Any, dict[str, Any]]] = {}


def _memo_record(st: Position, events: list[Any], seat: int | None, found: tuple[int, Any],
                 closing: list[Any], reveals: list[Any], attack: Any) -> dict[str, Any]:
    """A battle's record, built once per battle event and its closing events (log events never
    change), with its `log_index` for `seat` counted fresh (the lines `seat` reads before it)."""
    i, event = found
    key = (id(event), len(closing), seat)
    hit = _MEMO.get(key)
    if hit is None or hit[0] is not event:
        if len(_MEMO) > 512:
            _MEMO.clear()
        hidden = sum(1 for e in events[:i] if e.visible is not None and e.masked is None
                     and (seat is None or seat not in e.visible))
        rec = {"event": event, "event_index": i, "index": i - hidden, "after": closing, "reveals": reveals}
        hit = (event, _record(st, rec, attack.data))
        _MEMO[key] = hit
    return hit[1]


def _record(st: Position, rec: dict[str, Any], attack: Mapping[str, Any]) -> dict[str, Any]:
    data = rec["event"].data

    def label(seat: int) -> str:  # the faction's name (the page adds the player's)
        fid = st.factions[seat]
        return st.ruleset.faction_rules(fid).faction.name if fid else f"Player {seat + 1}"

    area = attack["area"]
    fights = rec["reveals"]
    last = fights[-1] if fights else None
    sides = []
    for k, seat in enumerate((attack["attacker"], attack["defender"])):
        side: dict[str, Any] = {"name": f"{label(seat)} ({'attacker' if k == 0 else 'defender'})", "seat": seat}
        if last is not None:
            s = last["sides"][k]
            side["tiles"] = [str(t) for t in s["tiles"]]
            side["counted"] = [str(t) for t in s["counted"]]
            side["modifiers"] = [f"{src.replace('_', ' ')}: {'+' if v >= 0 else ''}{v}" for src, v in s["modifiers"]]
            side["total"] = str(s["total"])
            side["units"] = ", ".join(f"{n} {u.replace('_', ' ')}" for u, n in s["units"].items())
            if s["substitute"]:
                side["substitute"] = f"{s['substitute'].replace('_', ' ')} from hand for the lowest tile"
        losses: dict[str, int] = {}
        for e in rec["after"]:
            if e.kind == "casualty" and e.data and e.data.get("seat") == seat:
                for u, n in e.data["units"].items():
                    losses[u] = losses.get(u, 0) + n
        if losses:
            side["losses"] = [f"{n} {u.replace('_', ' ')}" for u, n in losses.items()]
        sides.append(side)
    result = f"{label(data['winner'])} won (+{data['vp']} VP)."
    for e in rec["after"]:
        if e.kind == "retreat" and e.data:
            result += f" {label(e.data['seat'])} retreated to area {e.data['dest']}."
    if len(fights) > 1:
        result += f" (fought {len(fights)} times: ties are fought again)"
    return {
        "id": f"battle-{rec['event_index']}",  # the same for every seat: the event's place in the log
        "title": f"{label(attack['attacker'])} against {label(attack['defender'])} in area {area}",
        "log_index": rec["index"],
        "sides": sides,
        "result": result,
    }


def _board_view(obs: dict[str, Any]) -> dict[str, Any]:
    """What is on the map now, in the browser's board contract, built from this very observation
    (so it shows nothing the seat may not see): one stack per player and area, villages,
    citadels, the battle and the areas of the partial choice as marks, the seat's own tiles."""
    pieces: list[dict[str, Any]] = []
    marks: list[dict[str, Any]] = []
    faction = {p["seat"]: p["faction"] for p in obs["players"]}
    battle = obs["battle"]
    # At the casualty step the loser's units in the battle area are shown one piece per kind,
    # each named by the word `casualty <unit>` takes: a click on the map picks the casualty.
    split = (str(battle["area"]), str(battle["decider"])) if battle and battle["step"] == "casualty" else None
    for area in obs["areas"]:
        at = str(area["id"])
        for s, units in area["units"].items():
            troops = units if "citadel" not in units else {u: n for u, n in units.items() if u != "citadel"}
            if (at, s) == split:
                for u, n in troops.items():
                    pieces.append({"at": at, "owner": int(s), "kind": "unit", "label": f"{n} {u}".replace("_", " "),
                                   "count": n, "units": {u: n}, "id": u, "card": card_id(faction[int(s)], u)})
            elif troops:
                text = ", ".join([f"{n} {u}" for u, n in troops.items()]).replace("_", " ")
                piece = {"at": at, "owner": int(s), "kind": "stack", "label": text,
                         "count": sum(troops.values()), "units": dict(troops)}
                if len(troops) == 1:
                    piece["card"] = card_id(faction[int(s)], next(iter(troops)))
                pieces.append(piece)
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
        "hand": [{"id": t, "label": t.replace("_", " "), "kind": "tile", "count": n,
                  "card": card_id(faction.get(obs["seat"]), t)} for t, n in hand.items()],
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
    # sorted: a stack's units keep no order a saved game restores (a reloaded table showed the
    # same modifiers in another order)
    parts: list[dict[str, Any]] = [{"source": s, "value": v} for s, v in sorted(modifier_parts(st, b, side))]
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
    st.touch()  # other hands: nothing computed for the position before may be reused
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
