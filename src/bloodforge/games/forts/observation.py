"""What a seat sees, the static description of the game, and resampling hidden cards.

The map is public (no fog): armies, currency, hand sizes and every played card are open.
Hidden: the cards in other players' hands, the deck's order, and hero cards committed to a
battle until the reveal (others see only how many).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from bloodforge.core import EventLog, Rng

from .content import TerritorySpec
from .describe import cards
from .model import (
    ACTION,
    BEGIN,
    CAV_BONUS,
    CAV_FRESH,
    EMPTY,
    HEROES,
    INDEPENDENT,
    INF_BONUS,
    INF_FRESH,
    OVER,
    PLANNING,
    Model,
    army_counts,
)
from .rules import Config, bribe_cost, bribe_targets, first_over_quota, hero_price, quota_for, tally
from .rules_turn import clock_running

LOG_TAIL = 10


def phase_name(cfg: Config, m: Model) -> str:
    b = m.battle
    if m.phase == OVER:
        return "over"
    if b is not None:
        return f"battle: {b.stage}"
    if first_over_quota(m, cfg.content) is not None:
        return "disband"
    if m.bribery:
        return "bribery"
    return {BEGIN: "turn start", PLANNING: "planning", ACTION: "action"}.get(m.phase, m.phase)


def _owner_json(o: int) -> int | str | None:
    if o == EMPTY:
        return None
    if o == INDEPENDENT:
        return "independent"
    return o


def observe(cfg: Config, m: Model, events: EventLog, seat: int | None, lean: bool = False) -> dict[str, Any]:
    """`seat`'s observation (None: a spectator's). `lean` leaves out what only a page reads
    (the board's pieces and marks, the log, status, phase label, battle records and bribe
    offers): the policy and the evaluation read none of them, and building them was 60% of a
    search rollout's time (`FortsState.policy_observation`)."""
    c = cfg.content
    n = m.players
    counts = tally(m, c)
    territories = []
    for t in range(c.size):
        u = m.units[t]
        inf, cav = army_counts(u)
        territories.append({
            "id": c.ids[t],
            "owner": _owner_json(m.owner[t]),
            "controller": _owner_json(counts.controllers[t]),
            "infantry": inf,
            "cavalry": cav,
            "ready": [u[INF_FRESH] + u[INF_BONUS], u[CAV_FRESH] + u[CAV_BONUS]],
            "fresh": [u[INF_FRESH], u[CAV_FRESH]],
        })
    b = m.battle
    battle: dict[str, Any] | None = None
    if b is not None:
        battle = {
            "attacker": b.attacker,
            "defender": _owner_json(b.defender),
            "from": c.ids[b.origin],
            "to": c.ids[b.target],
            "infantry": b.inf,
            "cavalry": b.cav,
            "stage": b.stage,
            "committed_counts": {str(s): len(cs) for s, cs in b.committed.items()},
            "ready": {str(s): r for s, r in b.ready.items()},
            "revealed": {str(s): sorted(cs) for s, cs in b.committed.items()} if b.revealed else None,
            "my_committed": sorted(b.committed.get(seat, [])) if seat is not None else [],
            "margin": b.margin if b.stage != HEROES else None,
            "loser": b.loser if b.stage != HEROES else None,
        }
    clock = None
    if clock_running(cfg, m, m.turn_seat):
        clock = {"seat": m.turn_seat, "seconds": cfg.planning_seconds}
    hand = sorted(m.hands[seat]) if seat is not None else []
    obs = {
        "seat": seat,
        "players": n,
        "seat_names": cfg.seat_names,
        "phase": phase_name(cfg, m),
        "turn": {"seat": m.turn_seat, "number": m.turn_number, "round": m.round, "max_rounds": cfg.max_rounds,
                 "first_seat": m.first_seat, "planned": m.phase == ACTION},
        "clock": clock,
        "planning_seconds": cfg.planning_seconds,
        "timed_out": m.timed_out,
        "recruited": [c.ids[t] for t in m.recruited],
        "bought": m.bought,
        "territories": territories,
        "homes": [c.ids[t] for t in m.home],
        "currency": list(m.currency),
        "hand_sizes": [len(h) for h in m.hands],
        "hand": [{"id": h, "name": c.heroes[h].name} for h in hand],
        "deck_size": len(m.deck.pile),
        "discards": sorted(m.deck.discards),
        "forts": counts.forts,
        "food": counts.food,
        "quota": [quota_for(m, c, f) for f in counts.food],
        "units": counts.units,
        "income": counts.income,
        "held_since": list(m.held_since),
        "eliminated": list(m.eliminated),
        "battle": battle,
        "bribery": None if m.bribery is None else list(m.bribery),
        "chronicle": None if m.chronicle is None else {
            "id": m.chronicle, "name": c.chronicles[m.chronicle].name, "text": c.chronicles[m.chronicle].text},
        "chronicle_deck_size": len(m.chronicle_deck.pile),
        "hero_price": hero_price(m, c),
        "winners": list(m.winners),
        "end_reason": m.end_reason,
    }
    if lean:
        return obs
    obs["board"] = board_observation(cfg, m, hand)
    obs["log"] = events.tail_for(seat, LOG_TAIL)
    obs["status"] = _status(cfg, m, obs)
    obs["phase_label"] = phase_label(cfg, m)
    obs["battles"] = battle_records(cfg, events, seat)
    obs["bribes"] = bribe_offers(cfg, m, seat)
    return obs


STAGES = {HEROES: "hero cards", "casualties": "choosing losses", "retreat": "retreat", "advance": "advance"}


def phase_label(cfg: Config, m: Model) -> str:
    """The phase as players name it (the page's prompt header), never an id."""
    b = m.battle
    if m.phase == OVER:
        return "Game over"
    if b is not None:
        return f"Battle for {cfg.content.data.territories[b.target].name}: {STAGES.get(b.stage, b.stage)}"
    if first_over_quota(m, cfg.content) is not None:
        return "Disbanding over the food quota"
    if m.bribery:
        return "Bribery"
    return {BEGIN: "Turn start", PLANNING: "Planning", ACTION: "Actions"}.get(m.phase, m.phase.capitalize())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _status(cfg: Config, m: Model, obs: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's public numbers in words (the status board); hero cards' names only to their
    holder, everyone else sees how many."""
    out = []
    d = cfg.content.data
    for s in range(m.players):
        holding = " (holding: a full round wins)" if obs["held_since"][s] is not None else ""
        items = [
            {"label": "Currency", "value": f"{obs['currency'][s]} (+{obs['income'][s]} a turn)",
             "hint": "income: 1 per currency resource controlled"},
            {"label": "Food limit", "value": f"{obs['units'][s]} of {obs['quota'][s]} units",
             "hint": f"{d.food_per_resource} units per food resource controlled"},
            {"label": "Forts", "value": f"{obs['forts'][s]} of {d.forts_to_win}{holding}"},
            {"label": "Hero cards", "value": f"{obs['hand_sizes'][s]} of {d.hand_limit}"},
        ]
        if obs["eliminated"][s]:
            items.append({"label": "Out", "value": "eliminated"})
        entry: dict[str, Any] = {"seat": s, "title": cfg.seat_names[s], "items": items}
        if s == obs["seat"]:
            names = ", ".join(h["name"] for h in obs["hand"]) or "none"
            entry["private"] = [{"label": "Your hero cards", "value": names}]
        out.append(entry)
    return out


def bribe_offers(cfg: Config, m: Model, seat: int | None) -> list[dict[str, Any]]:
    """What each bribe open to `seat` costs and what follows (defect 5, issue 18): the army's
    strength in currency (F46), and how many units `seat` must then disband because the
    bribed army puts it over its food quota (A34), so the page can warn before, not after."""
    if seat is None or not m.bribery or m.bribery[0] != seat:
        return []
    c = cfg.content
    out = []
    for t in bribe_targets(m, c, seat):
        after = m.copy()
        after.owner[t] = seat
        after.touch()
        counts = tally(after, c)
        over = max(0, counts.units[seat] - quota_for(after, c, counts.food[seat]))
        inf, cav = army_counts(m.units[t])
        army = ", ".join(p for p in (f"{inf} infantry" if inf else "", f"{cav} cavalry" if cav else "") if p)
        out.append({"territory": c.ids[t], "name": c.data.territories[t].name, "cost": bribe_cost(m, t),
                    "army": army, "disband": over})
    return out


def battle_records(cfg: Config, events: EventLog, seat: int | None, most: int = 5,
                   horizon: int = 400) -> list[dict[str, Any]]:
    """The last few battles as public records (the page's battle view): each side's army,
    defence bonus, hero cards, die and total from the battle event, the losses, retreats and
    conquest after it. Public events only; `log_index` is the battle line's index among the
    lines `seat` reads. Walks back at most `horizon` events."""
    names = cfg.seat_names
    ids_to_name = {spec.id: spec.name for spec in cfg.content.data.territories}
    heroes = {h.id: h.name for h in cfg.content.data.heroes}

    def who(s: int) -> str:
        return names[s] if s >= 0 else "Independents"

    n = len(events)
    records: list[dict[str, Any]] = []
    readable_after = 0
    after: list[Any] = []
    found: dict[str, Any] = {}
    for i in range(n - 1, max(-1, n - 1 - horizon), -1):
        e = events[i]
        public = e.visible is None
        if public and e.kind == "battle" and e.data:
            found = {"battle": e.data, "index": events.count_for(seat) - readable_after - 1, "event": i,
                     "after": list(after)}
        elif public and e.kind == "reveal" and e.data and found:
            found["cards"] = e.data.get("cards", {})
        elif public and e.kind == "attack" and found:
            records.append(_forts_record(found, who, ids_to_name, heroes, cfg.content.data.die_sides))
            found = {}
            if len(records) == most:
                break
        if public:
            after = [e] if e.kind == "attack" else [e, *after]
        if e.text_for(seat) is not None:
            readable_after += 1
    records.reverse()
    return records


def _forts_record(found: dict[str, Any], who: Any, ids_to_name: dict[str, str],
                  heroes: dict[str, str], die_sides: int) -> dict[str, Any]:
    b = found["battle"]
    a_army, a_hero, a_die, a_total = b["attack"]
    d_army, bonus, d_hero, d_die, d_total = b["defence"]
    att, dfn = b["attacker"], b["defender"]
    cards = found.get("cards", {})
    place = ids_to_name.get(b["target"], b["target"])
    sides = []
    for k, (s, army, hero, die, total) in enumerate(((att, a_army, a_hero, a_die, a_total),
                                                      (dfn, d_army, d_hero, d_die, d_total))):
        side: dict[str, Any] = {"name": f"{who(s)} ({'attacker' if k == 0 else 'defender'})",
                                "rolls": [{"label": f"d{die_sides}", "face": die}],
                                "modifiers": [f"army strength {army}"], "total": str(total)}
        if s >= 0:
            side["seat"] = s
        if k == 1 and bonus:
            side["modifiers"].append(f"defence bonus +{bonus}")
        if hero:
            side["modifiers"].append(f"hero cards +{hero}")
        played = cards.get(str(s), [])
        if played:
            side["tiles"] = [heroes.get(h, h) for h in played]
        losses = []
        for e in found["after"]:
            if e.kind == "losses" and e.data and e.data.get("seat") == s:
                parts = [f"{e.data['infantry']} infantry" if e.data["infantry"] else "",
                         f"{e.data['cavalry']} cavalry" if e.data["cavalry"] else ""]
                losses.append(", ".join(p for p in parts if p))
        if losses:
            side["losses"] = losses
        sides.append(side)
    verdict = b["verdict"]
    if verdict == "attacker wins":
        result = f"{who(att)} won the battle for {place}."
    elif verdict == "defender wins":
        result = f"{who(dfn)} held {place}."
    else:
        result = f"A draw: the attack on {place} is held off, nothing changes."
    for e in found["after"]:
        if e.kind in ("retreat", "conquest"):
            result += f" {e.text[0].upper()}{e.text[1:]}."
    return {"id": f"battle-{found['event']}", "title": f"{who(att)} attacks {place} ({who(dfn)})",
            "log_index": found["index"], "sides": sides, "result": result}


def board_observation(cfg: Config, m: Model, hand: list[str]) -> dict[str, Any]:
    """The browser board contract's pieces and marks: one piece per army; a mark per fort,
    great fort or home, and one for a territory's resources ("$" currency, "f" food)."""
    c = cfg.content
    pieces = []
    marks = []
    for t in range(c.size):
        inf, cav = army_counts(m.units[t])
        o = m.owner[t]
        if inf or cav:
            label = " ".join(p for p in (f"{inf}i" if inf else "", f"{cav}c" if cav else "") if p)
            pieces.append({"at": c.ids[t], "owner": o if o >= 0 else None,
                           "kind": "independent" if o == INDEPENDENT else "army",
                           "label": label, "count": inf + cav, "hidden": False})
        h = m.home_of[t]
        if h != EMPTY:
            marks.append({"at": c.ids[t], "kind": "home", "label": f"{cfg.seat_names[h]} home", "owner": h})
        elif c.fort[t]:
            kind = "great_fort" if c.fort[t] == 2 else "fort"
            marks.append({"at": c.ids[t], "kind": kind, "label": "great fort" if c.fort[t] == 2 else "fort"})
        if c.currency[t] or c.food[t]:
            marks.append({"at": c.ids[t], "kind": "resources", "label": "$" * c.currency[t] + "f" * c.food[t]})
    heroes = c.heroes
    return {
        "pieces": pieces,
        "marks": marks,
        "hand": [{"id": h, "label": heroes[h].name, "kind": "card"} for h in hand],
    }


def static_info(cfg: Config) -> dict[str, Any]:
    c = cfg.content
    d = c.data
    n = cfg.players
    areas = []
    half = _half_cell(d.territories)
    for t, spec in enumerate(d.territories):
        features = [f for f in (
            "home" if spec.home is not None else "", {"fort": "fort", "great": "great fort"}.get(spec.fort, ""),
            f"{spec.currency} currency" if spec.currency else "", f"{spec.food} food" if spec.food else "",
        ) if f]
        areas.append({
            "id": spec.id, "name": f"{spec.name} ({', '.join(features)})" if features else spec.name,
            "label": spec.name,
            "x": spec.x, "y": spec.y, "kind": spec.kind,
            "fort": spec.fort, "currency": spec.currency, "food": spec.food, "home_slot": spec.home,
            "neighbours": [c.ids[x] for x in c.neighbours[t]],
            "polygon": [[round(spec.x + dx * half, 4), round(spec.y + dy * half, 4)]
                        for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))],
        })
    return {
        "title": d.title,
        "house_content": d.house_content,
        "die_sides": d.die_sides,
        "food_per_resource": d.food_per_resource,
        "hero_price": d.hero_price,
        "hand_limit": d.hand_limit,
        "purchases_per_turn": d.purchases_per_turn,
        "forts_to_win": d.forts_to_win,
        "defence_bonus": d.defence_bonus.model_dump(),
        "planning_seconds": cfg.planning_seconds,
        "max_rounds": cfg.max_rounds,
        "heroes": [h.model_dump() for h in d.heroes],
        "chronicles": [k.model_dump() for k in d.chronicles] if cfg.chronicles else [],
        # description cards (describe.py): hero cards, chronicles, units, forts
        "cards": cards(d, cfg.chronicles),
        "board": {
            "geometry": "areas",
            "areas": areas,
            "links": [list(link) for link in d.links],
            "kinds": {"land": {"label": "Land"}, "sea": {"label": "Sea"}},
            "seats": [{"seat": s, "name": cfg.seat_names[s], "colour": cfg.seat_colours[s]} for s in range(n)],
        },
    }


def _half_cell(territories: list[TerritorySpec]) -> float:
    """Half the smallest distance between two territories' points along an axis: square cells
    of that size touch their grid neighbours exactly (the renderer draws shared edges as borders)."""
    xs = sorted({t.x for t in territories})
    ys = sorted({t.y for t in territories})
    gaps = [b - a for v in (xs, ys) for a, b in pairwise(v) if b - a > 1e-9]
    return min(gaps, default=0.1) / 2


def resample_hands(m: Model, seat: int | None, rng: Rng) -> Model:
    """A model consistent with what `seat` saw: other hands and unrevealed commitments redrawn
    from the cards `seat` cannot see, the deck reshuffled, rigged dice forgotten."""
    new = m.copy()
    others = [s for s in range(m.players) if s != seat]
    pool = list(new.deck.pile)
    for s in others:
        pool.extend(new.hands[s])
    b = new.battle
    hidden_commits = b is not None and not b.revealed
    if b is not None and hidden_commits:
        for s in others:
            if s in b.committed:
                pool.extend(b.committed[s])
    pool.sort()
    rng.shuffle(pool)
    for s in others:
        k = len(new.hands[s])
        new.hands[s] = sorted(pool[:k])
        del pool[:k]
        if b is not None and hidden_commits and s in b.committed:
            k = len(b.committed[s])
            b.committed[s] = pool[:k]
            del pool[:k]
    new.deck.pile = pool
    new.dice.rigged = []
    new.chronicle_deck.reshuffle_pile(rng)
    return new
