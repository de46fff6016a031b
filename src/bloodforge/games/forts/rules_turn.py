"""Turns: who acts, what is legal, and applying every action (F1-F25, F45-F47).

A turn is the game's own `begin` step (victory check, income, units refreshed), the planning
phase (recruit, buy a hero, then the first unit action or `act` ends it, on the clock), the
action phase, `end`. Out of turn: both sides of a battle, a bribery window after a timeout,
and anyone over their food quota, who must disband at once.
"""

from __future__ import annotations

from bisect import insort

from bloodforge.core import Action

from . import rules_battle as rb
from .content import Content
from .model import (
    ACTION,
    ADVANCE,
    BEGIN,
    CASUALTIES,
    CAV_BONUS,
    CAV_FRESH,
    CAV_SPENT,
    CAVALRY,
    EMPTY,
    HEROES,
    INF_BONUS,
    INF_FRESH,
    INF_SPENT,
    INFANTRY,
    OVER,
    PLANNING,
    RETREAT,
    Model,
    Tally,
    army_counts,
)
from .queries import casualty_options
from .rules import (
    Config,
    bribe_cost,
    bribe_targets,
    can_draw_hero,
    counts_text,
    first_over_quota,
    forced_march,
    forts_of,
    hero_price,
    live_seats,
    quota_for,
    quota_of,
    retreat_destinations,
    strength_of,
    tally,
    units_of,
)
from .rules_battle import Ctx


# -- who acts ---------------------------------------------------------------------------------
def actors(cfg: Config, m: Model) -> list[int]:
    if m.phase == OVER:
        return []
    b = m.battle
    if b is not None:
        if b.stage == HEROES:
            return sorted(s for s, r in b.ready.items() if not r)
        if b.stage == CASUALTIES:
            return [b.loser]
        if b.stage == RETREAT:
            return [b.defender]
        return [b.attacker]
    s = first_over_quota(m, cfg.content)
    if s is not None:
        return [s]
    if m.phase == BEGIN:
        return []
    if m.bribery:
        return [m.bribery[0]]
    return [m.turn_seat]


def automatic(cfg: Config, m: Model) -> Action | None:
    if m.phase == OVER:
        return None
    b = m.battle
    if b is not None:
        if b.stage != HEROES or not all(b.ready.values()):
            return None
        if not b.revealed and any(b.committed.values()):
            return Action("reveal")
        return Action("roll")
    if m.phase == BEGIN and first_over_quota(m, cfg.content) is None:
        return Action("begin")
    return None


def clock_running(cfg: Config, m: Model, seat: int) -> bool:
    """The planning minute runs for `seat` (F8, F13): its planning phase, no unit action yet,
    no timeout yet this turn, nothing else waited for."""
    return (
        cfg.planning_seconds > 0 and m.phase == PLANNING and seat == m.turn_seat and not m.timed_out
        and m.battle is None and not m.bribery and first_over_quota(m, cfg.content) is None
    )


# -- legal actions ----------------------------------------------------------------------------
def legal(cfg: Config, m: Model, seat: int) -> list[Action]:
    c = cfg.content
    b = m.battle
    if b is not None:
        if b.stage == HEROES:
            return [Action("hero", (h,)) for h in sorted(set(m.hands[seat]))] + [_COMMIT]
        if b.stage == CASUALTIES:
            if seat == b.attacker and not b.attacker_won:
                inf, cav = b.inf, b.cav
            else:
                inf, cav = army_counts(m.units[b.target])
            return [Action.of("lose", i, k) for i, k in casualty_options(inf, cav, b.margin)]
        if b.stage == RETREAT:
            inf, cav = army_counts(m.units[b.target])
            dests = retreat_destinations(m, c, b.target, b.origin, b.defender)
            kinds = [k for k, n in ((INFANTRY, inf), (CAVALRY, cav)) if n]
            return [Action("retreat", (k, c.ids[d])) for k in kinds for d in dests]
        if b.stage == ADVANCE:
            out = [Action("advance")]
            if b.inf:
                out.append(Action("stay", (INFANTRY,)))
            if b.cav:
                out.append(Action("stay", (CAVALRY,)))
            return out
    if first_over_quota(m, c) == seat:
        out = []
        for t in range(c.size):
            if m.owner[t] == seat:
                inf, cav = army_counts(m.units[t])
                if inf:
                    out.append(Action("disband", (c.ids[t], INFANTRY)))
                if cav:
                    out.append(Action("disband", (c.ids[t], CAVALRY)))
        return out
    if m.bribery:
        return [Action("bribe", (c.ids[t],)) for t in bribe_targets(m, c, seat)] + [_PASS]
    out = []
    if m.phase == PLANNING:
        out.extend(_recruits(cfg, m, seat))
        if _may_buy(cfg, m, seat):
            out.append(_BUY)
        out.append(_ACT)
    out.extend(unit_actions(cfg, m, seat))
    out.append(_END)
    return out


_COMMIT, _PASS, _BUY, _ACT, _END = Action("commit"), Action("pass"), Action("buy"), Action("act"), Action("end")


def _recruits(cfg: Config, m: Model, seat: int) -> list[Action]:
    """F19-F23, A3: each controlled fort once per turn, within the food quota."""
    c = cfg.content
    counts = tally(m, c)
    room = quota_for(m, c, counts.food[seat]) - counts.units[seat]
    if room <= 0:
        return []
    out = []
    ctl = counts.controllers
    for t in range(c.size):
        if c.fort[t] and ctl[t] == seat and t not in m.recruited:
            out.append(Action("recruit", (c.ids[t], INFANTRY)))
            if c.fort[t] == 2:
                out.append(Action("recruit", (c.ids[t], CAVALRY)))
    return out


def _may_buy(cfg: Config, m: Model, seat: int) -> bool:
    d = cfg.content.data
    return (
        m.bought < d.purchases_per_turn and m.currency[seat] >= hero_price(m, cfg.content)
        and len(m.hands[seat]) < d.hand_limit and can_draw_hero(m)
    )


def unit_actions(cfg: Config, m: Model, seat: int) -> list[Action]:
    """F15-F18, A12, A13: any units that may still act, from one territory to a neighbour."""
    c = cfg.content
    made = c.tables.unit_actions
    counts = tally(m, c)
    ctl = counts.controllers
    armies, neighbours = m.units, c.neighbours
    out: list[Action] = []
    for t in counts.armies[seat]:
        u = armies[t]
        inf, cav = u[INF_FRESH] + u[INF_BONUS], u[CAV_FRESH] + u[CAV_BONUS]
        if not inf and not cav:
            continue
        for n in neighbours[t]:
            key = (t, n, inf, cav)
            pair = made.get(key)
            if pair is None:
                pair = made[key] = _splits(c.ids[t], c.ids[n], inf, cav)
            who = ctl[n]
            out.extend(pair[0] if who in (seat, EMPTY) else pair[1])
    return out


def _splits(origin: str, target: str, inf: int, cav: int) -> tuple[list[Action], list[Action]]:
    """Every (move, attack) of `i` of `inf` infantry and `k` of `cav` cavalry, at least one unit."""
    pairs = [(str(i), str(k)) for i in range(inf + 1) for k in range(cav + 1) if i or k]
    return ([Action("move", (origin, target, i, k)) for i, k in pairs],
            [Action("attack", (origin, target, i, k)) for i, k in pairs])


# -- applying ---------------------------------------------------------------------------------
def apply(ctx: Ctx, action: Action, seat: int | None) -> None:
    m, c = ctx.m, ctx.cfg.content
    kind, args = action.kind, action.args
    if seat is None:
        if kind == "begin":
            begin(ctx)
        elif kind == "reveal":
            rb.reveal(ctx)
        elif kind == "roll":
            rb.roll(ctx)
        else:
            raise ValueError(f"{action} is not one of the game's own steps")
    elif kind == "hero":
        rb.commit_hero(ctx, seat, args[0])
    elif kind == "commit":
        rb.commit_done(ctx, seat)
    elif kind == "lose":
        rb.choose_losses(ctx, seat, int(args[0]), int(args[1]))
    elif kind == "retreat":
        rb.retreat_one(ctx, args[0], c.index[args[1]])
    elif kind == "advance":
        rb.advance(ctx, None)
    elif kind == "stay":
        rb.advance(ctx, args[0])
    elif kind == "disband":
        disband(ctx, seat, c.index[args[0]], args[1])
    elif kind == "bribe":
        bribe(ctx, seat, c.index[args[0]])
    elif kind == "pass":
        assert m.bribery is not None
        m.bribery.pop(0)
        ctx.log.add(f"{ctx.name(seat)} does not bribe", kind="bribery", data={"seat": seat})
        prune_bribery(ctx)
    elif kind == "recruit":
        recruit(ctx, seat, c.index[args[0]], args[1])
    elif kind == "buy":
        buy(ctx, seat)
    elif kind == "act":
        m.phase = ACTION
        ctx.log.add(f"{ctx.name(seat)} ends planning", kind="phase")
    elif kind in ("move", "attack"):
        if m.phase == PLANNING:
            m.phase = ACTION  # F12: the first unit action ends planning
        origin, target, inf, cav = c.index[args[0]], c.index[args[1]], int(args[2]), int(args[3])
        if kind == "move":
            move(ctx, seat, origin, target, inf, cav)
        else:
            rb.declare(ctx, seat, origin, target, inf, cav)
    elif kind == "end":
        ctx.log.add(f"{ctx.name(seat)} ends the turn", kind="phase")
        m.phase = BEGIN
    else:
        raise ValueError(f"unexpected action {action}")
    counts = m.tally_cache
    if counts is not None and kind != "move":  # a move brings its counts up to date itself
        # the position changed: its map too, unless the action never touches owners, unit
        # totals or eliminations (the counts stay; the turn or chronicle may have changed)
        m.tally_cache = counts.same_map() if kind in _MAP_KEPT else None
    settle(ctx)


#: actions that change no territory's owner or unit total and eliminate nobody (an attack only
#: marks its units spent until the roll)
_MAP_KEPT = frozenset({"begin", "reveal", "hero", "commit", "buy", "act", "end", "pass", "attack"})


def move(ctx: Ctx, seat: int, origin: int, target: int, inf: int, cav: int) -> None:
    m = ctx.m
    counts = m.tally_cache
    held_target = m.owner[target] == seat
    inf_fresh, cav_fresh = rb.take_acting(m.units[origin], inf, cav)
    m.units[origin][INF_SPENT] -= inf
    m.units[origin][CAV_SPENT] -= cav
    rb.clear_if_empty(m, origin)
    rb.add_spent(m, target, seat, inf, cav)
    if forced_march(m, ctx.cfg.content):
        # the chronicle's extra action: units that moved with their ordinary action may act again
        u = m.units[target]
        u[INF_SPENT] -= inf_fresh
        u[INF_BONUS] += inf_fresh
        u[CAV_SPENT] -= cav_fresh
        u[CAV_BONUS] += cav_fresh
    if counts is not None:
        m.tally_cache = _after_move(m, ctx.cfg.content, counts, seat, origin, target, held_target)
    ctx.log.add(f"{ctx.name(seat)} moves {counts_text(inf, cav)} from {ctx.tname(origin)} to {ctx.tname(target)}",
                kind="move")


def _after_move(m: Model, c: Content, counts: Tally, seat: int, origin: int, target: int,
                held_target: bool) -> Tally:
    """The counts after `seat` moved units from `origin` to `target` (the most common change
    of the map), from the counts before: only those two territories can change hands, and no
    seat's unit total changes. `held_target`: `seat` had units in `target` before."""
    ctl, forts, food, income = counts.controllers, counts.forts, counts.food, counts.income
    changed: list[tuple[int, int]] = []
    if m.owner[origin] == EMPTY:
        h = m.home_of[origin]
        now = h if h != EMPTY and not m.eliminated[h] else EMPTY
        if ctl[origin] != now:
            changed.append((origin, now))
    if ctl[target] != seat:
        changed.append((target, seat))
    if changed:
        ctl, forts, food, income = list(ctl), list(forts), list(food), list(income)
        for t, now in changed:
            was = ctl[t]
            if was >= 0:
                forts[was] -= 1 if c.fort[t] else 0
                food[was] -= c.food[t]
                income[was] -= c.currency[t]
            if now >= 0:
                forts[now] += 1 if c.fort[t] else 0
                food[now] += c.food[t]
                income[now] += c.currency[t]
            ctl[t] = now
    armies = counts.armies
    left = m.owner[origin] != seat
    if left or not held_target:
        mine = [t for t in armies[seat] if t != origin] if left else list(armies[seat])
        if not held_target:
            insort(mine, target)
        armies = list(armies)
        armies[seat] = mine
    return Tally(ctl, forts, food, income, counts.units, armies)


def recruit(ctx: Ctx, seat: int, t: int, kind: str) -> None:
    m, c = ctx.m, ctx.cfg.content
    room = quota_of(m, c, seat) - units_of(m, seat)
    if kind == CAVALRY:
        inf, cav = 0, 1
    else:
        inf, cav = min(2 if c.fort[t] == 2 else 1, room), 0
    m.recruited.append(t)
    m.owner[t] = seat
    m.units[t][INF_FRESH] += inf  # A5: recruits may act this turn
    m.units[t][CAV_FRESH] += cav
    ctx.log.add(f"{ctx.name(seat)} recruits {counts_text(inf, cav)} at {ctx.tname(t)}", kind="recruit",
                data={"seat": seat, "territory": c.ids[t], "infantry": inf, "cavalry": cav})


def buy(ctx: Ctx, seat: int) -> None:
    m, c = ctx.m, ctx.cfg.content
    card = m.deck.draw(ctx.rng)
    assert card is not None
    m.currency[seat] -= hero_price(m, c)
    m.bought += 1
    m.hands[seat].append(card)
    m.hands[seat].sort()
    ctx.log.add(f"{ctx.name(seat)} buys {c.heroes[card].name} (a hero card)", to=seat,
                masked=f"{ctx.name(seat)} buys a hero card", kind="buy",
                data={"seat": seat})  # public like the masked face: never the card


def disband(ctx: Ctx, seat: int, t: int, kind: str) -> None:
    m = ctx.m
    rb.remove_units(m.units[t], 1 if kind == INFANTRY else 0, 1 if kind == CAVALRY else 0)
    rb.clear_if_empty(m, t)
    ctx.log.add(f"{ctx.name(seat)} is over the food quota and disbands one {kind} at {ctx.tname(t)}",
                kind="disband", data={"seat": seat, "territory": ctx.cfg.content.ids[t], "unit": kind})


# -- bribery (F45-F47, A25-A29) ---------------------------------------------------------------
def open_bribery(ctx: Ctx, late: int) -> None:
    m = ctx.m
    m.timed_out = True
    order = [(late + k) % m.players for k in range(1, m.players)]
    m.bribery = [s for s in order if not m.eliminated[s]]
    ctx.log.add(f"{ctx.name(late)}'s planning minute ran out: the others may bribe {ctx.name(late)}'s armies",
                kind="timeout", data={"seat": late})
    prune_bribery(ctx)


def prune_bribery(ctx: Ctx) -> None:
    """Skip seats that cannot afford any bribe (A29); close the window when nobody is left."""
    m = ctx.m
    while m.bribery and not bribe_targets(m, ctx.cfg.content, m.bribery[0]):
        m.bribery.pop(0)
    if not m.bribery:
        if m.bribery is not None:
            ctx.log.add("the bribery window closes", kind="bribery")
        m.bribery = None


def bribe(ctx: Ctx, seat: int, t: int) -> None:
    m = ctx.m
    assert m.bribery is not None
    cost = bribe_cost(m, t)
    late = m.owner[t]
    m.currency[seat] -= cost
    u = m.units[t]
    inf, cav = army_counts(u)
    m.units[t] = [0, 0, inf, 0, 0, cav]  # A26: bribed units do not act this turn
    m.owner[t] = seat
    ctx.log.add(f"{ctx.name(seat)} bribes {ctx.name(late)}'s {counts_text(inf, cav)} at {ctx.tname(t)} "
                f"for {cost} currency", kind="bribe",
                data={"briber": seat, "territory": ctx.cfg.content.ids[t], "late": late, "cost": cost,
                      "infantry": inf, "cavalry": cav})
    m.bribery.pop(0)
    prune_bribery(ctx)


# -- turn start, control changes, the end -----------------------------------------------------
def begin(ctx: Ctx) -> None:
    """The start of a turn: the next live seat, the round count, the cap, victory (F1, A30),
    income (F10, A6) and refreshed units (F15)."""
    m, cfg = ctx.m, ctx.cfg
    c = cfg.content
    wrapped = False
    if m.turn_number == 0:
        seat = m.first_seat
        while m.eliminated[seat]:
            seat = (seat + 1) % m.players
        m.round = max(m.round, 1)
    else:
        seat = m.turn_seat
        while True:
            seat = (seat + 1) % m.players
            wrapped = wrapped or seat == m.first_seat
            if not m.eliminated[seat]:
                break
        if wrapped:
            m.round += 1
    new_round = m.turn_number == 0 or wrapped
    m.turn_number += 1
    m.turn_seat = seat
    if m.round > cfg.max_rounds:
        end_by_cap(ctx)
        return
    if new_round and cfg.chronicles and c.chronicle_deck:
        draw_chronicle(ctx)
    if check_victory(ctx):
        return
    counts = tally(m, c)
    gain = counts.income[seat]
    m.currency[seat] += gain
    armies = m.units
    for t in counts.armies[seat]:
        u = armies[t]
        armies[t] = [u[0] + u[1] + u[2], 0, 0, u[3] + u[4] + u[5], 0, 0]
    m.recruited = []
    m.bought = 0
    m.timed_out = False
    m.phase = PLANNING
    ctx.log.add(f"round {m.round}, turn {m.turn_number}: {ctx.name(seat)} plans (+{gain} currency)",
                kind="turn", data={"seat": seat, "round": m.round, "turn": m.turn_number, "income": gain})


def draw_chronicle(ctx: Ctx) -> None:
    """F56 (optional module): the round's event replaces the last one."""
    m, c = ctx.m, ctx.cfg.content
    if m.chronicle is not None:
        m.chronicle_deck.discard(m.chronicle)
    m.chronicle = m.chronicle_deck.draw(ctx.rng)
    if m.chronicle is not None:
        card = c.chronicles[m.chronicle]
        ctx.log.add(f"chronicle of round {m.round}: {card.name} ({card.text})", kind="chronicle",
                    data={"chronicle": card.id})


def check_victory(ctx: Ctx) -> bool:
    m, c = ctx.m, ctx.cfg.content
    live = live_seats(m)
    due = m.turn_number - len(live)
    qualified = [s for s in live if m.held_since[s] is not None and m.held_since[s] <= due]  # type: ignore[operator]
    if not qualified:
        return False
    key = {s: (forts_of(m, c, s), -(m.held_since[s] or 0)) for s in qualified}
    best = max(key.values())
    winners = [s for s in qualified if key[s] == best]
    finish(ctx, winners, f"held {c.data.forts_to_win} forts for a round", "forts")
    return True


def end_by_cap(ctx: Ctx) -> None:
    m, c = ctx.m, ctx.cfg.content
    m.round = ctx.cfg.max_rounds  # the round that would have begun is not played
    live = live_seats(m)
    key = {s: (forts_of(m, c, s), strength_of(m, s)) for s in live}
    best = max(key.values())
    finish(ctx, [s for s in live if key[s] == best], f"round cap ({ctx.cfg.max_rounds} rounds): most forts",
           "cap")


def finish(ctx: Ctx, winners: list[int], reason: str, end: str) -> None:
    """`end` names how the game ended for the log's data: forts, cap or last_standing."""
    m = ctx.m
    m.phase = OVER
    m.winners = sorted(winners)
    m.end_reason = reason
    m.bribery = None
    names = " and ".join(ctx.name(s) for s in m.winners)
    ctx.log.add(f"game over: {names} win{'s' if len(m.winners) == 1 else ''} ({reason})", kind="over",
                data={"winners": m.winners, "end": end})


def settle(ctx: Ctx) -> None:
    """After every action: eliminations (A33), the last player standing, and the 5-fort
    holdings (A30), which change whenever control changes, in or out of turn."""
    m, c = ctx.m, ctx.cfg.content
    if m.phase == OVER or m.battle is not None:
        return
    units = tally(m, c).units
    out, owner, home = m.eliminated, m.owner, m.home
    for s in range(m.players):
        if not out[s] and units[s] == 0 and owner[home[s]] not in (EMPTY, s):
            m.eliminated[s] = True
            m.touch()
            for card in m.hands[s]:
                m.deck.discard(card)
            m.hands[s] = []
            ctx.log.add(f"{ctx.name(s)} has no units and has lost their home: {ctx.name(s)} is out",
                        kind="eliminated", data={"seat": s})
            if m.bribery is not None and s in m.bribery:
                m.bribery.remove(s)
            if s == m.turn_seat and m.phase in (PLANNING, ACTION):
                m.phase = BEGIN
                m.bribery = None
    if out.count(False) == 1:
        finish(ctx, live_seats(m), "last player standing", "last_standing")
        return
    forts = tally(m, c).forts
    to_win = c.data.forts_to_win
    held = m.held_since
    for s in range(m.players):
        if not out[s] and forts[s] >= to_win:
            if held[s] is None:
                held[s] = m.turn_number
                ctx.log.add(f"{ctx.name(s)} holds {c.data.forts_to_win} forts", kind="forts",
                            data={"seat": s, "holds": True})
        elif held[s] is not None:
            held[s] = None
            ctx.log.add(f"{ctx.name(s)} no longer holds {c.data.forts_to_win} forts", kind="forts",
                        data={"seat": s, "holds": False})
