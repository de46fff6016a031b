"""What a seat sees (K57-K60, A32-A36) and hidden-information resampling (spec 4.3).

Public: ownership, castles/ports, every piece's owner and position (a face-down piece still shows
its colour), treasuries, income, supply, gems, purchases and each faction's composition, the
number of cards held. Hidden: the type of a face-down enemy piece (unless the seat saw it face
up before, or spied on it), cards in other hands, committed mercenary cards, the deck order.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bloodforge.core import Rng

from . import people
from .board import AIR, LAND, cls, fname, name, seat_of
from .content import FACTIONS, UNIT_TYPES
from .model import RESERVE, KBase, Piece
from .rules import decider

SHORT = {"infantry": "inf", "cavalry": "cav", "griffin": "grf", "dragon": "drg", "ship": "shp"}


def seat_sees(s: KBase, seat: int | None) -> set[int]:
    """Factions whose pieces `seat` always sees face up: its own, and team-mates' (team_vision)."""
    if seat is None:
        return set()
    mine = set(s.seat_factions[seat])
    if s.game.params.team_vision:
        # allied(s, f, g) is teams[f] == teams[g]: the factions of our factions' teams (asked
        # at every view of the policy and the search's cut-off, so one pass over the four)
        teams = s.teams
        ours = {teams[f] for f in mine}
        mine |= {g for g in range(4) if teams[g] in ours}
    return mine


def visible_type(s: KBase, seat: int | None, p: Piece, mine: set[int], now: set[int]) -> bool:
    if p.faction in mine or p.at == RESERVE or p.id in s.known or p.id in now:
        return True
    return seat is not None and p.id in s.spied[seat]


def observe(s: KBase, seat: int | None, now: set[int], log: list[str]) -> dict[str, Any]:
    mine = seat_sees(s, seat)
    ids = s.content.ids
    pieces = []
    for p in s.pieces.values():
        shown = visible_type(s, seat, p, mine, now)
        row: dict[str, Any] = {"id": p.id, "faction": FACTIONS[p.faction],
                               "at": "reserve" if p.at == RESERVE else ids[p.at],
                               "kind": p.kind if shown else None, "aboard": p.aboard, "merc": p.merc}
        if p.faction in mine:
            row.update(moved=p.moved, combat_move=p.cm, fought=p.fought,
                       attacked=None if p.attacked < 0 else ids[p.attacked])
        pieces.append(row)
    factions = []
    c = s.content
    inc = [0, 0, 0, 0]
    gem = [0, 0, 0, 0]
    for i, o in enumerate(s.owner):
        if o >= 0:
            inc[o] += c.value[i]
            gem[o] += c.gem[i]
    units = c.units.units
    sup = [c.units.mercenary_supply * len(h) for h in s.hands]
    comps: list[Counter[str]] = [Counter(), Counter(), Counter(), Counter()]
    for p in s.pieces.values():
        if not p.merc:
            sup[p.faction] += units[p.kind].supply
            comps[p.faction][p.kind] += 1
    for f in range(4):
        comp = comps[f]
        factions.append({
            "faction": FACTIONS[f], "seat": seat_of(s, f), "team": s.teams[f], "treasury": s.treasury[f],
            "income": inc[f], "supply": sup[f], "gems": gem[f], "cards": len(s.hands[f]),
            "out": s.out[f], "composition": {k: comp[k] for k in UNIT_TYPES if comp[k]},
        })
    hands = {FACTIONS[f]: list(s.hands[f]) for f in sorted(mine)} if seat is not None else {}
    bt = None
    if s.battle is not None:
        b = s.battle
        bt = {"space": ids[b.space], "attacker": FACTIONS[b.att], "defender": FACTIONS[b.dfn], "stage": b.stage,
              "round": b.round, "hits": b.hits, "marked": list(b.marked), "silenced": list(b.silenced),
              "decided": list(b.decided),
              "my_card": [b.card[i] if (b.att, b.dfn)[i] in mine else None for i in (0, 1)]}
    obs: dict[str, Any] = {
        "round": s.round, "phase": s.phase, "active": FACTIONS[s.active], "active_seat": seat_of(s, s.active),
        "seat": seat,
        "order": [FACTIONS[f] for f in s.order], "factions": factions,
        "owner": {ids[i]: (FACTIONS[o] if o >= 0 else None) for i, o in enumerate(s.owner) if not s.content.is_sea[i]},
        "castles": [ids[i] for i, c in enumerate(s.castle) if c], "ports": [ids[i] for i, c in enumerate(s.port) if c],
        "pieces": pieces, "hands": hands, "battle": bt, "fought": [ids[i] for i in s.fought],
        "pending_disband": FACTIONS[s.pending] if s.pending >= 0 else None, "instant": s.instant or None,
        "start_owned": [ids[i] for i in s.start_owned], "new_works": [ids[i] for i in s.new_works],
        "produced": {ids[k]: v for k, v in sorted(s.produced.items())}, "deck_size": len(s.pile),
        "winners": [FACTIONS[f] for f in s.winners], "over": s.over,
        "log": log, "board": board(s, pieces, mine if seat is not None else set()),
    }
    obs["status"] = people.status(s, obs, seat)
    obs["phase_label"] = people.phase_label(s)
    obs["battles"] = people.battles(s, seat)
    return obs


def board(s: KBase, pieces: list[dict[str, Any]], mine: set[int]) -> dict[str, Any]:
    """The browser board contract: stacks per space and faction, castles, ports and owners; the
    seat's own stacks carry their type as `id` (the word `unit` arguments use), its cards are the hand."""
    deciding = decider(s)
    in_battle = s.battle is not None or s.pending >= 0
    groups: dict[tuple[str, str, str], int] = {}
    for piece in pieces:
        if piece["at"] == "reserve":
            continue
        key = (piece["at"], piece["faction"], piece["kind"] or "hidden")
        groups[key] = groups.get(key, 0) + 1
    out_pieces = []
    for (at, fac, k), n in sorted(groups.items()):
        row: dict[str, Any] = {"at": at, "owner": FACTIONS.index(fac), "kind": k, "count": n, "hidden": k == "hidden",
                               "label": f"{n} {SHORT.get(k, k)}"}
        if FACTIONS.index(fac) in mine and FACTIONS.index(fac) == deciding:
            # Only the deciding faction's stacks are clickable (a seat with two factions would
            # otherwise select both factions' cavalry with one click, issue 18 defect 4). In a
            # battle a stack is its unit type (`hit <unit>`); otherwise it is its space, the
            # `from` of `move <from> <to> <unit>`: a click on it selects where the move starts
            # and lights up the destinations instead of offering every move of that type.
            row["id"] = k if in_battle else at
        out_pieces.append(row)
    marks = []
    for i, o in enumerate(s.owner):
        if s.content.is_sea[i]:
            continue
        if o >= 0:
            marks.append({"at": name(s, i), "kind": f"owner_{FACTIONS[o]}", "label": fname(o), "owner": o})
        if s.castle[i]:
            marks.append({"at": name(s, i), "kind": "castle", "label": "castle"})
        if s.port[i]:
            marks.append({"at": name(s, i), "kind": "port", "label": "port"})
    hand: dict[str, int] = {}
    for own in sorted(mine):
        for card in s.hands[own]:
            hand[card] = hand.get(card, 0) + 1
    cards = s.content.cards
    return {"pieces": out_pieces, "marks": marks,
            "hand": [{"id": c, "label": cards[c].name, "kind": "card", "count": n} for c, n in sorted(hand.items())]}


def resample(s: KBase, seat: int | None, rng: Rng) -> None:
    """Give hidden pieces of each enemy faction a random arrangement of that faction's hidden
    types, respecting what the seat knows: air units seen flying, cargo is land (spec 4.3);
    redeal other hands from the cards the seat cannot see."""
    s.terrain = None  # piece types change below (terrain.py)
    s.move_memo = None
    mine = seat_sees(s, seat)
    now: set[int] = set()  # knowledge already includes every stack face up now (updated after each action)
    for f in range(4):
        if f in mine:
            continue
        hidden = [p for p in s.pieces.values()
                  if p.faction == f and not visible_type(s, seat, p, mine, now) and cls(s, p.kind) in (LAND, AIR)]
        if len(hidden) < 2:
            continue
        types = sorted(p.kind for p in hidden)
        move = {k: s.content.unit(k).move for k in set(types)}
        # the most constrained first: cargo (land only), then by the longest move seen; the
        # allowed sets of flyers are nested, so any random pick keeps an assignment possible
        cargo_first = sorted(hidden, key=lambda p: (p.aboard < 0, -s.flown.get(p.id, 0), p.id))
        for p in cargo_first:
            need = s.flown.get(p.id, 0)
            ok = [i for i, k in enumerate(types)
                  if (cls(s, k) == LAND if p.aboard >= 0 else move[k] >= need)]
            p.kind = types.pop(ok[rng.randbelow(len(ok))])
    # hands of others and hidden commitments
    others = [f for f in range(4) if f not in mine]
    pool = list(s.pile)
    for f in others:
        pool += s.hands[f]
    pool.sort()
    rng.shuffle(pool)
    for f in others:
        n = len(s.hands[f])
        s.hands[f] = sorted(pool[:n])
        pool = pool[n:]
    s.pile = sorted(pool)
    b = s.battle
    if b is not None:
        for side, f in ((0, b.att), (1, b.dfn)):
            if f in mine or not b.decided[side] or b.stage in ("reveal",):
                continue
            battle_cards = [c for c in s.hands[f] if s.content.cards[c].timing == "battle"
                            and not (side == 1 and s.content.cards[c].attacker_only)]
            options: list[str | None] = [None, *sorted(set(battle_cards))]
            b.card[side] = rng.choice(options)
    s.dice = []
    s.draws = []
