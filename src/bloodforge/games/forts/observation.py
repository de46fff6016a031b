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
from .rules import Config, first_over_quota, hero_price, quota_for, tally
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


def observe(cfg: Config, m: Model, events: EventLog, seat: int | None) -> dict[str, Any]:
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
    return {
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
        "board": board_observation(cfg, m, hand),
        "log": events.tail_for(seat, LOG_TAIL),
    }


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
