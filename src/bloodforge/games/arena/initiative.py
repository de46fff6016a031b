"""A round's start and its initiative (R-RND, R-INI, R-NPC-3, I1/I2, TB-INI, R-INI-9)."""

from __future__ import annotations

from .content import InitiativeCard
from .effects import finish
from .model import Pending, Unit
from .world import World

ENV = "env:"


def new_round(w: World) -> None:
    """R-RND-1..3; per-round limits reset (R-ACT-2, R-BON-1, A2); empty hands recycle (R-INI-14)."""
    b = w.board
    if b.round >= w.params.max_rounds:
        time_up(w)
        return
    b.round += 1
    b.phase, b.picks, b.done, b.active, b.stage = "pick", {}, [], None, ""
    b.order, b.ranks = [], {}
    for u in b.units.values():
        u.moved = u.attacked = u.invoked = False
        u.bonus_used = []
        # R-INI-6 / A4: the tie-break reads the Speed printed on last round's card, not the
        # Speed after Haste/Slow; no card played (first round, eliminated): none
        u.prev_speed, u.played_speed = u.played_speed, None
        u.speed = None
        if u.alive and u.kind in ("champion", "rival") and not u.hand:
            recycle(u)
    w.events.add_public(("Round {} begins", b.round), "round", (_ROUND_KEYS, b.round))  # lazy parts (issue 23)


_ROUND_KEYS = ("round",)


def recycle(u: Unit) -> None:
    """R-INI-14: an empty hand takes the discard pile back. Last round's card leaves the pile
    with it, so a Speed tie now rolls off (R-INI-7, A5): no remembered previous Speed."""
    u.hand, u.discard = sorted(u.discard), []
    u.prev_speed = None


def time_up(w: World) -> None:
    """House limit (`max_rounds`, see Rulings): the side with the most HP left wins."""
    hp: dict[int, int] = {}
    for u in w.combatants():
        hp[u.side] = hp.get(u.side, 0) + (u.hp or 0)
    best = max(hp.values(), default=0)
    w.board.winners = sorted(s for s, v in hp.items() if v == best)
    w.log(f"Round limit {w.params.max_rounds} reached: the most HP left wins", kind="over", round_limit=True,
          round=w.board.round)
    finish(w)


def reveal(w: World) -> None:
    """R-INI-1..12, R-NPC-3, I1/I2: reveal together, NPC Speeds, order with tie-breaks.

    Each entrant's Speeds (`speeds`) and name are taken as it reveals, so the order and its
    log line read no figure, deck or Environmental again (every round of every game: issue
    23); the same draws, in the same order, and the same lines."""
    b = w.board
    units = b.units
    by_seat: dict[int, Unit] = {}
    picks = b.picks
    if picks:
        for x in units.values():  # each seat's figure, the first with that seat (no generator per pick)
            if x.seat is not None and x.seat in picks and x.seat not in by_seat:
                by_seat[x.seat] = x
        for seat in sorted(picks):
            card = picks[seat]
            u = by_seat[seat]
            u.hand.remove(card)
            u.current = card
            named = card_of(w, u, card)
            assert named is not None  # `_speed`'s check
            u.speed = u.played_speed = named.speed
            w.events.add_public(("{} reveals {} (Speed {})", u.name, named.name, u.speed), "reveal", None)
        b.picks = {}
    entrants: list[str] = []
    known: dict[str, tuple[int, int]] = {}
    names: dict[str, str] = {}
    rng = w.rng
    decks = b.decks
    for u in units.values():  # `World.combatants` (nothing here adds or removes a figure)
        if not u.alive or u.kind == "minion":
            continue
        kind = u.kind
        uid = u.uid
        if kind == "boss":
            deck = decks[f"speed:{uid}"]
            drawn = deck.draw(rng)
            assert drawn is not None
            if not deck.discards:  # reshuffled (R-INI-15): last round's card is back in the deck (A6)
                u.prev_speed = None
            u.current = drawn
            u.speed = u.played_speed = int(drawn)
            w.events.add_public(("{} reveals Speed card {}", u.name, drawn), "reveal", None)
            discards = bool(deck.discards)  # `has_discards`: the drawn card is not discarded yet
        else:
            if kind == "rival":
                if not u.hand:
                    recycle(u)
                card = rng.choice(sorted(u.hand))
                u.hand.remove(card)
                u.current = card
                u.speed = u.played_speed = _speed(w, u, card)
                w.events.add_public(("{} reveals a random card: Speed {} (text ignored)", u.name, u.speed), "reveal",
                                    None)
            discards = bool(u.discard)  # `has_discards`
        entrants.append(uid)
        known[uid] = (u.speed or 0, (u.prev_speed or 0) if discards else 0)  # `speeds`
        names[uid] = u.name
    if b.env_speed:
        for key in sorted(b.env_speed):
            env_deck = b.decks[f"speed:{key}"]
            env_card = env_deck.draw(rng)
            assert env_card is not None
            prev = b.env_speed[key][0] if env_deck.discards else 0  # reshuffled: no previous card (A6)
            speed = int(env_card)
            b.env_speed[key] = [speed, prev]
            name = w.content.environmental(key[len(ENV):]).name
            w.events.add_public(("{} reveals Speed card {}", name, env_card), "reveal", None)
            entrants.append(key)
            known[key] = (speed, prev)
            names[key] = name
    order = _order(w, entrants, known, names)
    b.order = order
    b.ranks = {x: i for i, x in enumerate(order)}
    b.done = []
    b.phase = "place" if b.round == 1 else "immediate"
    if w.params.mode == "team":  # `ally_tie_groups`' own first test: no tie to ask outside team play
        ask_ally_ties(w)
    if b.pending is None:
        w.events.add_public("Initiative order: " + ", ".join([names[x] for x in order]), "initiative", None)


def ally_tie_groups(w: World) -> list[list[str]]:
    """R-INI-9 / EXR-2 / I2: team-mates (and their NPC team-mates) with equal Speed choose their
    order; a tie that mixes sides is broken by the normal rules."""
    if w.params.mode != "team":
        return []
    groups: dict[int, list[str]] = {}
    for x in w.board.order:
        if not x.startswith(ENV):
            groups.setdefault(speeds(w, x)[0], []).append(x)
    out = []
    for g in groups.values():
        units = [w.unit(x) for x in g]
        if len(g) > 1 and len({u.side for u in units}) == 1 and any(u.seat is not None for u in units):
            out.append(g)
    return out


def ask_ally_ties(w: World, settled: list[str] | None = None) -> None:
    """Ask the first human of a tied team who goes first, one pick at a time."""
    fixed = list(settled or [])
    for g in ally_tie_groups(w):
        rest = [x for x in g if x not in fixed]
        if len(rest) > 1:
            seat = min(s for x in g if (s := w.unit(x).seat) is not None)
            w.board.pending = Pending(seat, "tie", sorted(rest), {"fixed": fixed})
            return


def settle_tie(w: World, first: str, fixed: list[str]) -> None:
    b = w.board
    group = next(g for g in ally_tie_groups(w) if first in g)
    rest = [x for x in group if x not in fixed and x != first]
    start = min(b.order.index(x) for x in group)
    ordered = [x for x in group if x in fixed] + [first] + rest
    others = [x for x in b.order if x not in group]
    b.order = others[:start] + ordered + others[start:]
    b.ranks = {x: i for i, x in enumerate(b.order)}
    w.log(f"{w.unit(first).name} goes next among the tied team-mates", kind="initiative")
    now = [*fixed, first]
    if len(rest) == 1:
        now.append(rest[0])
    ask_ally_ties(w, now)
    if b.pending is None:
        w.log("Initiative order: " + ", ".join(_name(w, x) for x in b.order), kind="initiative")


def _speed(w: World, u: Unit, card_id: str) -> int:
    c = card_of(w, u, card_id)
    assert c is not None
    return c.speed


def _name(w: World, x: str) -> str:
    return w.content.environmental(x[len(ENV):]).name if x.startswith(ENV) else w.unit(x).name


def speeds(w: World, x: str) -> tuple[int, int]:
    """This round's Speed and the printed Speed of last round's card, 0 when that card is not
    in the discard pile (R-INI-7, A5, A6: a recycled hand, a reshuffled Speed deck)."""
    if x.startswith(ENV):
        s, prev = w.board.env_speed[x]
        return s, prev
    u = w.unit(x)
    return u.speed or 0, (u.prev_speed or 0) if has_discards(w, u) else 0


def has_discards(w: World, u: Unit) -> bool:
    """Is there a card in the character's discard pile (its Speed deck's, for a Boss)?"""
    if u.kind == "boss":
        deck = w.board.decks.get(f"speed:{u.uid}")
        return deck is not None and bool(deck.discards)
    return bool(u.discard)


def initiative_order(w: World, entrants: list[str]) -> list[str]:
    """R-INI-5..8 with TB-INI: ascending Speed; ties by the lower previous Speed; equal or
    missing previous Speeds (always in round 1) roll off with d6, highest first, re-rolling ties."""
    return _order(w, entrants, {x: speeds(w, x) for x in entrants})  # each entrant's once (pure reads)


def _order(w: World, entrants: list[str], known: dict[str, tuple[int, int]],
           names: dict[str, str] | None = None) -> list[str]:
    """`initiative_order` with every entrant's `speeds` given (and `names`, when given, the
    entrants' names for a roll-off's line, as `_name` reads them)."""
    groups: dict[int, list[str]] = {}
    for x in sorted(entrants):
        groups.setdefault(known[x][0], []).append(x)
    out: list[str] = []
    for s in sorted(groups):
        g = groups[s]
        if len(g) == 1:
            out += g
            continue
        prevs = {x: known[x][1] for x in g}
        if w.board.round == 1 or any(v == 0 for v in prevs.values()):
            out += roll_off(w, g, names)
            continue
        by_prev: dict[int, list[str]] = {}
        for x in g:
            by_prev.setdefault(prevs[x], []).append(x)
        for pv in sorted(by_prev):
            out += roll_off(w, by_prev[pv], names) if len(by_prev[pv]) > 1 else by_prev[pv]
    return out


def roll_off(w: World, tied: list[str], names: dict[str, str] | None = None) -> list[str]:
    """TB-INI's d6 roll-off, highest first, ties rolling again. `names`: the entrants' names
    if known (the round's reveal has them: no look-up per figure; issue 23)."""
    rig = w.board.dice.get(6)
    if rig is None or not rig.rigged:  # `World.roll(6)` of an unrigged d6, inlined (the same draw)
        draw = w.rng.randbelow
        rolls = {x: 1 + draw(6) for x in tied}
    else:
        rolls = {x: w.roll(6) for x in tied}
    if names is None:
        words = [f"{_name(w, x)} {r}" for x, r in rolls.items()]
    else:
        words = [f"{names[x]} {r}" for x, r in rolls.items()]
    w.events.add_public("roll-off: " + ", ".join(words), "rolloff", None)
    out: list[str] = []
    for r in sorted(set(rolls.values()), reverse=True):
        same = [x for x in tied if rolls[x] == r]
        out += roll_off(w, same, names) if len(same) > 1 else same
    return out


def card_of(w: World, u: Unit, card_id: str) -> InitiativeCard | None:
    return w.content.initiative_card(u.content_id, card_id)
