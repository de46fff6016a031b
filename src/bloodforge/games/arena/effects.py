"""The effect vocabulary at work: damage and elimination, hazards, forced movement, tiles.

Effects wait in `board.queue` and resolve in order (R-DMG-1, A18); most resolve at once, the
ones that need a decision (a forced-movement step, a bonus move, a die type) leave a
`Pending` for the seat that decides and resume when it has. Removed dice are marked and purged
when the queue is empty, so queued items can keep pointing at pool indexes.
"""

from __future__ import annotations

from .content import Effect
from .dice import attack_faces, category_of, die_word, gain_dice, gain_die, gain_energy, lose_die, supply_left
from .hexes import Hex, hex_id, parse_hex
from .model import BE, TEMP, Pending, QItem, Tile, Unit
from .movement import explore, harms, safest, step_options, throw_landings
from .world import World

GONE = ""  # kind of a die marked for removal

# Log lines and data keys stored as their parts (`EventLog.add_public`'s lazy text and data:
# put together only when the log is read; issue 23).
_TAKES = "{} takes {} ({})"
_TAKES_LEFT = "{} takes {} ({}), {} HP left"
_DAMAGE_KEYS = ("unit", "amount", "source", "how")
_UNIT_AMOUNT = ("unit", "amount")
_CAUGHT_KEYS = ("unit", "env", "owner")
_FORCED_KEYS = ("unit", "op", "source")
_COLLISION_KEYS = ("unit", "op", "against", "other", "source", "amount")
INTERACTIVE = ("push", "pull", "throw", "move", "reroll")


# -- damage and elimination ------------------------------------------------------------------
def damage(w: World, victim: Unit, amount: int, why: str, batch: list[Unit] | None = None,
           source: str | None = None, how: str = "effect") -> int:
    """Deal `amount` (R-HP-1); minions with HP add it to this turn's tally (R-MIN-7, A52).
    With `batch`, several victims of one event fall together and the caller checks the end.
    `source` (the unit, or `env:<id>`, that dealt it) and `how` (attack, minion, collision,
    hazard, effect) only go into the log's data, for the lab's statistics."""
    if amount <= 0 or not victim.alive or victim.hp is None:
        return 0
    if victim.kind == "minion":
        victim.minion_damage += amount
        w.events.add_public((_TAKES, victim.name, amount, why), "damage",
                            (_DAMAGE_KEYS, victim.uid, amount, source, how))
        if victim.minion_damage >= victim.hp:
            eliminate(w, victim, why, source=source)
        return amount
    hp = victim.hp = victim.hp - amount
    w.events.add_public((_TAKES_LEFT, victim.name, amount, why, hp if hp > 0 else 0), "damage",
                        (_DAMAGE_KEYS, victim.uid, amount, source, how))
    if hp <= 0:
        eliminate(w, victim, why, batch if batch is not None else w.falling, source=source)
    return amount


def eliminate(w: World, u: Unit, why: str, batch: list[Unit] | None = None, source: str | None = None) -> None:
    """R-WIN-2, R-MIN-2, A47, A51: the figure, its minions and its tiles leave at once.
    `source` (who dealt the last blow) only goes into the log's data."""
    if not u.alive:
        return
    u.alive = False
    u.hex = None
    w.board.moved()
    w.board.in_use = None  # its dice leave the supply's count (`dice.supply_left`)
    w.log(f"{u.name} is {'destroyed' if u.kind == 'minion' else 'defeated'} ({why})", kind="eliminated",
          unit=u.uid, minion=u.kind == "minion", source=source, round=w.board.round)
    if u.kind == "minion":
        return
    u.pool = []
    if u.current is not None:
        u.discard.append(u.current)
        u.current = None
    w.board.eliminated.append(u.uid)
    for m in w.board.units.values():
        if m.kind == "minion" and m.summoner == u.uid and m.alive:
            m.alive = False
            m.hex = None
    w.board.tiles = [t for t in w.board.tiles if t.owner != u.uid or u.kind == "boss"]
    w.board.moved()
    if batch is None:
        check_end(w, [u])
    else:
        batch.append(u)


def check_end(w: World, fallen: list[Unit] | None = None) -> None:
    """R-WIN-1/3/4, A48, A49: over when at most one side stands or no human player is left;
    when the last event felled everyone left, the sides that fell in it share the win."""
    if w.board.phase == "over":
        return
    standing: set[int] = set()
    human = False
    for u in w.board.units.values():  # the living combatants' sides, one loop (runs after every action)
        if u.alive and u.kind != "minion":
            standing.add(u.side)
            if u.seat is not None:
                human = True
            if human and len(standing) > 1:
                return  # two sides and a human stand: more figures cannot change that
    if len(standing) > 1 and human:
        return
    sides = sorted(standing)
    if sides:
        w.board.winners = sides
    else:
        w.board.winners = sorted({u.side for u in fallen or []})
    finish(w)


def finish(w: World) -> None:
    w.board.phase = "over"
    w.board.pending = None
    w.board.queue = []
    winners = [u for u in w.board.units.values() if u.is_combatant and u.side in w.board.winners]
    w.log("The match is over: " + (", ".join(u.name for u in winners) or "nobody") + " won", kind="over",
          winners=[u.uid for u in winners], round=w.board.round)


# -- hazards and tiles -------------------------------------------------------------------------
def enter(w: World, u: Unit, h: Hex) -> None:
    """Put `u` on `h` and trigger every hazard there that harms it and has not hit it this turn
    (R-HAZ-2..4). Hazard damage never stops movement (R-COL-8); death does (A33)."""
    u.hex = h
    w.board.moved(u)  # only u's space changed (the next layout record is made from the last)
    for t in list(w.board.tiles):
        if h in t.hexes:
            hit_by_tile(w, u, t)


def hit_by_tile(w: World, u: Unit, t: Tile) -> None:
    if not u.alive or (u.uid, t.tid) in w.board.hazard_hits or not harms(w, t.env, t.owner, u):
        return
    w.board.hazard_hits.add((u.uid, t.tid))
    env = w.content.environmental(t.env)
    w.events.add_public(f"{u.name} is caught by {env.name}", "hazard", (_CAUGHT_KEYS, u.uid, t.env, t.owner))
    src = t.owner if t.owner is not None else f"env:{t.env}"
    for e in env.hazard:
        item = QItem(e, src, u.uid, {"origin": hex_id(t.anchor), "why": env.name, "neutral": t.owner is None})
        if e.op in INTERACTIVE:
            w.board.queue.insert(1 if w.board.queue else 0, item)
        else:
            resolve(w, item)


def place_tile(w: World, env_id: str, anchor: Hex, owner: str | None, stack: bool = True) -> Tile | None:
    """Lay a tile of `env_id` at `anchor`. During play (`stack`) a tile laid on another of the
    same component type removes the bottom one (R-ENV-3); setup and scenarios lay their tiles
    as they are given."""
    env = w.content.environmental(env_id)
    hexes = []
    for off in env.shape:
        o = parse_hex(off)
        assert o is not None
        h = (anchor[0] + o[0], anchor[1] + o[1])
        if h in w.cells:
            hexes.append(h)
    if not hexes:
        return None
    w.board.next_tile += 1
    tile = Tile(f"t{w.board.next_tile}", env_id, anchor, sorted(hexes), owner)
    w.board.tiles.append(tile)
    w.board.moved()
    w.log(f"{env.name} is laid at {hex_id(anchor)}", kind="tile")
    if stack:
        remove_stacked(w, tile)
    for u in list(w.living()):
        if u.hex in tile.hexes:
            hit_by_tile(w, u, tile)
    return tile


def remove_stacked(w: World, top: Tile) -> None:
    """R-ENV-3: an Environmental moved (or laid) on top of another of the same component type
    (flat on flat, solid on solid) removes the bottom one from the Arena, whoever owns either and
    whatever Environmental it is; sharing one space is lying on top of it (ruling 17)."""
    tiles = w.board.tiles
    if len(tiles) == 1 and tiles[0] is top:
        return  # nothing underneath (the usual case: every turn of a rotating tile asks)
    kind = w.content.environmental(top.env).kind
    over = set(top.hexes)
    for t in list(w.board.tiles):
        if t is top or w.content.environmental(t.env).kind != kind or not over & set(t.hexes):
            continue
        w.board.tiles.remove(t)
        w.board.moved()
        w.log(f"{w.content.environmental(t.env).name} under {w.content.environmental(top.env).name} is removed "
              f"from the arena", kind="tile", removed=t.env, by=top.env)


# -- the queue ---------------------------------------------------------------------------------
def drain(w: World) -> None:
    """Resolve queued effects until one waits for a decision or the queue is empty."""
    b = w.board
    if not b.queue:  # the common case: every action and step ends here (issue 23)
        if b.gone:
            purge(w)
        return
    while b.queue and b.pending is None and b.phase != "over":
        head = b.queue[0]
        if resolve(w, head):
            queue = b.queue  # `resolve` may have put a new list there (the match ended)
            if queue and queue[0] is head:  # the usual case: still first
                del queue[0]  # in place: only the board holds its queue (a copy makes its own)
            elif head in queue:  # QItem compares by identity; each item is queued once
                queue.remove(head)
    if not b.queue and b.gone:  # `purge`'s own first test
        purge(w)


def purge(w: World) -> None:
    """Drop dice marked for removal (this runs after every action: only when a die was
    marked since the last purge, `Board.gone`, are the pools read)."""
    if not w.board.gone:
        return
    w.board.gone = False
    for u in w.board.units.values():
        for d in u.pool:
            if d.kind == GONE:
                u.pool = [d for d in u.pool if d.kind != GONE]
                break


def amount_of(w: World, e: Effect, item: QItem) -> int:
    n = e.amount
    if e.dice is not None:
        n += w.roll(int(e.dice[1:]))
    if e.per == "target_special_dice":
        subj = w.board.units.get(item.subj)
        count = 0 if subj is None else sum(1 for d in subj.pool if d.is_special and d.kind != GONE)
        n = e.amount * count
    elif e.per == "face":
        n = e.amount * int(item.ctx.get("face", 0))
    return n


_FORCED = frozenset(("push", "pull", "throw"))


def resolve(w: World, item: QItem) -> bool:
    """Resolve one effect; False when it now waits for a decision (board.pending set)."""
    e = item.effect
    units = w.board.units
    subj = units.get(item.subj)
    if subj is None or not subj.alive:
        return True
    op = e.op
    if op in _FORCED:
        return forced_step(w, item)
    if op == "move":
        return bonus_move(w, item)
    if op == "reroll":
        return reroll(w, subj, item)
    ctx = item.ctx
    why = ctx.get("why", op)
    if type(why) is not str:
        why = str(why)
    # `amount_of` only when a die or a count changes the printed amount (the usual effect
    # has neither: every queued effect asks; issue 23)
    n = e.amount if e.dice is None and e.per is None else amount_of(w, e, item)
    if op == "damage":
        damage(w, subj, n, why, source=item.src, how="hazard" if "neutral" in ctx else "effect")
    elif op == "gain_die":  # the next most common (ops in the order random playouts use them)
        return gain_bonus_dice(w, subj, e.die or "temp", max(1, n), item)
    elif op == "attack_damage":
        if w.board.attack is not None and ctx.get("in_attack"):
            w.board.attack["bonus"] = int(w.board.attack.get("bonus", 0)) + n
        else:
            subj.mods["damage"] = subj.mods.get("damage", 0) + n
    elif op == "heal":
        if subj.hp is not None and subj.max_hp is not None:
            before = subj.hp
            subj.hp = min(subj.max_hp, subj.hp + n)
            if subj.hp > before:
                healed = subj.hp - before
                w.events.add_public(("{} heals {}", subj.name, healed), "heal", (_UNIT_AMOUNT, subj.uid, healed))
    elif op == "energy":
        got = gain_energy(w, subj, n)
        if got:
            w.events.add_public(("{} {} {} Blood Energy", subj.name, "gains" if got > 0 else "loses", abs(got)),
                                "energy", (_UNIT_AMOUNT, subj.uid, got))
    elif op == "drain":
        if subj.energy:
            w.log(f"{subj.name} is drained of {subj.energy} Blood Energy", kind="energy", unit=subj.uid,
                  amount=-subj.energy)
        subj.energy = 0
    elif op == "add_die":
        assert e.die is not None
        spec = w.content.special_die(e.die)
        if gain_die(w, subj, e.die, spec.sides):
            w.events.add_public(f"{subj.name} gains a {spec.name} die", "dice", None)
    elif op == "recall":
        idx = item.ctx.get("die")
        if isinstance(idx, int) and idx < len(subj.pool):
            w.events.add_public(f"{subj.name}'s {die_word(w, subj.pool[idx].kind)} die is recalled", "dice", None)
            lose_die(w, subj, subj.pool[idx].kind)  # `dice.supply_left`'s count follows
            subj.pool[idx].kind = GONE
            w.board.gone = True
    elif op == "steal_temp":
        steal(w, units.get(item.src), subj)
    elif op in ("range", "targets", "movement"):
        subj.mods[op] = subj.mods.get(op, 0) + n
    elif op == "fly":
        subj.mods["flying"] = 1  # ends with the subject's own turn, like every turn modifier (ruling 10)
        w.log(f"{subj.name} has Flying until the end of their own turn", kind="fly", unit=subj.uid)
    elif op == "speed":
        change_speed(w, subj, n)
    elif op == "discard":
        discard_card(w, subj)
    elif op == "place_tile":
        assert e.tile is not None
        assert subj.hex is not None
        src = units.get(item.src)
        place_tile(w, e.tile, subj.hex, src.uid if src is not None else None)
    return True


def reroll_options(u: Unit) -> list[int]:
    """KW-REROLL / A29: dice rolled this turn and not used (energy, spells, an attack made)."""
    out = []
    for i, d in enumerate(u.pool):
        if d.kind == GONE or d.face is None or d.fresh or d.used:
            continue
        if d.is_attack and u.attacked:
            continue
        out.append(i)
    return out


def reroll(w: World, u: Unit, item: QItem) -> bool:
    options = reroll_options(u)
    if not options:
        return True
    chosen = item.ctx.pop("chosen", None)
    if chosen is None:
        if u.seat is not None and len(options) > 1:
            w.board.pending = Pending(u.seat, "reroll", [str(i) for i in options], {"unit": u.uid})
            return False
        attack_dice = [i for i in options if u.pool[i].is_attack]
        pick = min(attack_dice or options, key=lambda i: (u.pool[i].face or 0, i))  # NPCs: the lowest
        chosen = str(pick)
    d = u.pool[int(chosen)]
    before = d.face
    d.face = w.roll(d.sides)
    u.rolled_category = category_of(attack_faces(u))  # A29: the category follows the dice
    w.log(f"{u.name} rerolls a {die_word(w, d.kind)} die: {before} -> {d.face}", kind="dice")
    return True


def gain_bonus_dice(w: World, u: Unit, kind: str, count: int, item: QItem) -> bool:
    """R-DICE-9: a 'bonus die' is the gainer's choice; NPCs take their Skirmish preference."""
    temp_left: int | None = None  # `supply_left(w, TEMP)` once counted (`gain_dice` reuses it)
    if kind == "bonus":
        if w.params.supply_limits:
            temp_left = supply_left(w, TEMP)
            if temp_left <= 0 and supply_left(w, BE) <= 0:
                w.log(f"{u.name} would gain a bonus die but the supply has none", kind="dice")
                return True  # spec 2.5: both answers give nothing, so nobody is asked
        if u.seat is not None and u.kind == "champion":
            if item.ctx.get("chosen") is None:
                w.board.pending = Pending(u.seat, "bonus_die", ["temp", "be"], {"unit": u.uid})
                return False
            kind = str(item.ctx["chosen"])
        else:
            kind = str(item.ctx.get("pref", "temp"))
    real = TEMP if kind == "temp" else BE
    got = gain_dice(w, u, real, count, temp_left if real == TEMP else None)
    if got:
        w.events.add_public(("{} gains {} {} {}", u.name, got, "Temporary Attack" if real == TEMP else "Blood Energy",
                             "die" if got == 1 else "dice"), "dice", None)
    return True


def steal(w: World, thief: Unit | None, victim: Unit) -> None:
    """EXR-3 with A26: only a Temporary Attack die can be stolen; none: the steal misses."""
    for d in victim.pool:
        if d.kind == TEMP:
            if thief is not None and thief.kind != "minion":
                d.kind = GONE
                w.board.in_use = None  # `dice.supply_left`'s count is made again
                w.board.gone = True
                gain_die(w, thief, TEMP)
                w.log(f"{thief.name} steals a Temporary Attack die from {victim.name}", kind="dice")
            return
    w.log(f"{victim.name} has no Temporary Attack die to steal", kind="dice")


def change_speed(w: World, u: Unit, speed: int) -> None:
    """EXR-1 / A7: the new Speed re-sorts the round's order; whoever has already acted in this
    phase keeps its place and does not act again (EX-1: slowed Lienne does not resolve twice)."""
    u.speed = speed
    w.log(f"{u.name}'s Speed becomes {speed}", kind="speed")
    resort(w)


def speed_of(w: World, uid: str) -> int:
    u = w.board.units.get(uid)
    if u is not None:
        return u.speed or 0
    deck = w.board.decks.get(f"speed:{uid}")
    return int(deck.discards[-1]) if deck is not None and deck.discards else 0


def resort(w: World) -> None:
    b = w.board
    if b.phase == "turns":
        done = [x for x in b.order if x in b.done or x == b.active]
        rest = [x for x in b.order if x not in done]
    else:
        done, rest = [], list(b.order)
    rest.sort(key=lambda x: (speed_of(w, x), b.ranks.get(x, 0)))
    b.order = done + rest


def discard_card(w: World, u: Unit) -> None:
    """A12 / R-INI-14: recycle an empty hand first; the card discarded is the slowest in hand
    (ruling: environment turns ask nobody)."""
    if u.kind != "champion" and u.kind != "rival":
        return
    if not u.hand and u.discard:
        u.hand, u.discard = sorted(u.discard), []
        u.prev_speed = None
        if u.current is None:  # this round's card was in the pile: it cannot break next round's tie
            u.played_speed = None
    if not u.hand:
        return
    speeds = {c.id: c.speed for c in w.content.champion(u.content_id).cards}
    card = max(u.hand, key=lambda c: (speeds.get(c, 0), c))
    u.hand.remove(card)
    u.discard.append(card)
    names = {c.id: c.name for c in w.content.champion(u.content_id).cards}
    w.log(f"{u.name} discards {names.get(card, card)}", kind="card")


# -- forced movement ----------------------------------------------------------------------------
def chooser_of(w: World, forcer: Unit | None, subject: Unit) -> tuple[int | None, bool]:
    """Who paths a forced movement and whether it must go the full distance (R-FM-3, TB-FMC,
    F1, F8): a human forcer paths their own (up to X); NPCs and Environmentals push as far as
    possible, pathed by the subject's fastest human opponent (the fastest human for neutral
    movement)."""
    if forcer is not None and forcer.kind == "champion" and forcer.seat is not None:
        return forcer.seat, False
    if forcer is not None and forcer.kind == "minion" and forcer.summoner is not None:
        owner = w.board.units[forcer.summoner]
        if owner.kind == "champion" and owner.seat is not None:
            return owner.seat, False
    # the usual case, NPC forcers: the subject's fastest human opponent
    chooser = _fastest_human_opponent(w, subject) if forcer is not None else w.fastest_human()
    return (chooser.seat if chooser is not None else None), True


def _fastest_human_opponent(w: World, subject: Unit) -> Unit | None:
    """`World.fastest_human_opponent` in one pass over the round's order and one over the
    figures outside it, without making the lists of `humans_in_order`: every step of an
    NPC's push asks, and in solo play (no human enemy of the pushed Champion) it read those
    lists twice, down to the subject itself (issue 23)."""
    b = w.board
    units = b.units
    order = b.order
    side = subject.side
    first: Unit | None = None  # `fastest_human`: the first human of the same reading
    for x in order:
        u = units.get(x)
        if u is not None and u.kind == "champion" and u.alive and u.seat is not None:
            if u.side != side:
                return u
            if first is None:
                first = u
    for u in units.values():
        if u.kind == "champion" and u.alive and u.seat is not None and u.uid not in order:
            if u.side != side:
                return u
            if first is None:
                first = u
    if subject.seat is not None and subject.alive:
        return subject
    if subject.summoner is not None and units[subject.summoner].seat is not None:
        return units[subject.summoner]
    return first


def forced_step(w: World, item: QItem) -> bool:
    e = item.effect
    subj = w.board.units[item.subj]
    forcer = w.board.units.get(item.src)
    if not item.ctx.get("started"):
        amount = amount_of(w, e, item)
        origin_hex = parse_hex(str(item.ctx.get("origin"))) if item.ctx.get("origin") else None
        origin = origin_hex or (forcer.hex if forcer is not None else None)
        if origin is None or amount <= 0 or subj.hex is None:
            return True
        item.ctx.update(left=amount, origin=hex_id(origin), started=True)
    left = int(item.ctx["left"])
    origin = parse_hex(str(item.ctx["origin"]))
    assert origin is not None
    if left <= 0 or subj.hex is None or not subj.alive:
        return True
    seat, full = chooser_of(w, forcer, subj)
    if e.op == "throw":
        return throw(w, item, subj, forcer, origin, left, seat)
    if "chosen" in item.ctx:  # the answer to a question this step asked: its options were kept
        found: list[tuple[Hex, str]] | None = w.layout_memo().get(
            ("step", w.board.layout, subj.uid, subj.hex, origin, e.op))
        options = found if found is not None else step_options(w, subj, origin, e.op)
    else:
        options = step_options(w, subj, origin, e.op)
    if not options:
        return True
    chosen = item.ctx.pop("chosen", None)
    if chosen is None:
        # spec 2.5: one option, nobody to ask, or one outcome: no question, the first option
        # (the outcomes are worked out only when the first two tests leave it open: pure)
        if (len(options) == 1 and full) or seat is None or (
                full and _one_outcome(w, forcer, options, bool(item.ctx.get("neutral")))):
            target, kind = options[0]
        else:
            words = [hex_id(h) for h, _ in options]
            if not full:
                words.append("stop")
            w.board.pending = Pending(seat, "force", words, {"subject": subj.uid, "op": e.op, "left": left})
            # the options kept for the answer (read again then: issue 23), by what they read:
            # the layout (who stands where, the tiles), the subject, its space, the origin, the op
            w.layout_memo()[("step", w.board.layout, subj.uid, subj.hex, origin, e.op)] = options
            return False
    elif chosen == "stop":
        return True
    else:
        parsed = parse_hex(str(chosen))
        assert parsed is not None
        target = parsed
        kind = next(k for h, k in options if h == target)
    if kind == "free":
        w.events.add_public(f"{subj.name} is {e.op}ed to {hex_id(target)}" if e.op != "pull" else
                            f"{subj.name} is pulled to {hex_id(target)}", "forced",
                            (_FORCED_KEYS, subj.uid, e.op, item.src))
        enter(w, subj, target)
        item.ctx["left"] = left - 1
        return int(item.ctx["left"]) <= 0 or not subj.alive
    collide(w, subj, forcer, target, kind, bool(item.ctx.get("neutral")), e.op)
    return True


def _one_outcome(w: World, forcer: Unit | None, options: list[tuple[Hex, str]], neutral: bool) -> bool:
    """Do all `options` have the same `step_outcome`? (the set of them has one member),
    stopping at the first that differs: two free steps always differ (their spaces do), and
    most asked steps have some (issue 23)."""
    first: tuple[object, ...] | None = None
    for h, k in options:
        if k == "free" and first is not None:
            return False  # ("free", h) equals no other option's outcome: the spaces differ
        o = step_outcome(w, forcer, h, k, neutral)
        if first is None:
            first = o
        elif o != first:
            return False
    return True


def step_outcome(w: World, forcer: Unit | None, at: Hex, kind: str, neutral: bool) -> tuple[object, ...]:
    """What a forced step onto `at` does, for spec 2.5: a free step moves the subject there; a
    collision leaves it where it is and hurts the same characters with the same roll whether it
    meets the wall, a solid tile or a figure that takes nothing (three wall hexes: one outcome)."""
    if kind == "free":
        return ("free", at)
    occupant = w.occupant(at) if kind == "figure" else None
    hurt = occupant is not None and occupant.hp is not None and collision_hurts(w, forcer, occupant, neutral)
    return ("collide", collision_override(w, at), occupant.uid if hurt and occupant is not None else None)


def collision_hurts(w: World, forcer: Unit | None, occupant: Unit, neutral: bool) -> bool:
    """R-COL-5/6, TB-ENV: the occupant takes the collision too when it is the forcer's enemy, or
    when nobody forced the move."""
    return neutral or forcer is None or (occupant.uid != forcer.uid and w.enemies(forcer, occupant))


def collision_override(w: World, at: Hex) -> int | None:
    """An Environmental's own collision damage at `at` (R-COL-4), else None (the 1d6)."""
    value = None
    for t in w.board.tiles:
        if at in t.hexes:
            v = w.content.environmental(t.env).collision_damage
            value = v if v is not None else value
    return value


def collide(w: World, subj: Unit, forcer: Unit | None, at: Hex, kind: str, neutral: bool, op: str) -> None:
    """R-COL-1..7, TB-COLDMG (one roll per collision), TB-ENV (neutral: all involved)."""
    occupant = w.occupant(at) if kind == "figure" else None
    env_override = collision_override(w, at)
    amount = env_override if env_override is not None else w.roll(w.content.rules.collision_die)
    what = {"wall": "the Arena wall", "solid": "a solid Environmental"}.get(kind, occupant.name if occupant else kind)
    source = forcer.uid if forcer is not None else None
    w.events.add_public(f"{subj.name} collides with {what} at {hex_id(at)}", "collision",
                        (_COLLISION_KEYS, subj.uid, op, kind, occupant.uid if occupant is not None else None, source,
                         amount))
    victims = [subj]
    if occupant is not None and occupant.hp is not None and collision_hurts(w, forcer, occupant, neutral):
        victims.append(occupant)
    fallen: list[Unit] = []
    for victim in victims:
        damage(w, victim, amount, "collision", fallen, source=source, how="collision")
    if fallen:
        check_end(w, fallen)


def throw(w: World, item: QItem, subj: Unit, forcer: Unit | None, origin: Hex, left: int, seat: int | None) -> bool:
    landings, walled = throw_landings(w, subj, origin, left)
    if not landings:
        return True
    chosen = item.ctx.pop("chosen", None)
    if chosen is None:
        if len(landings) == 1 or seat is None:
            chosen = hex_id(landings[0])
        else:
            w.board.pending = Pending(seat, "force", [hex_id(h) for h in landings],
                                      {"subject": subj.uid, "op": "throw", "left": left})
            return False
    target = parse_hex(str(chosen))
    assert target is not None
    w.log(f"{subj.name} is thrown to {hex_id(target)}", kind="forced", unit=subj.uid, op="throw", source=item.src)
    subj.hex = target  # Flying on the way: no hazards until it lands (KW-THROW, A57)
    w.board.moved()
    enter(w, subj, target)
    if walled and subj.alive:
        collide(w, subj, forcer, target, "wall", bool(item.ctx.get("neutral")), "throw")
    return True


def bonus_move(w: World, item: QItem) -> bool:
    """R-MOV-7: 'move N' outside the Move action; the mover picks a destination or stops."""
    subj = w.board.units[item.subj]
    n = amount_of(w, item.effect, item)
    if subj.hex is None or n <= 0:
        return True
    chosen = item.ctx.pop("chosen", None)
    routes = explore(w, subj, n)
    dests = sorted(h for h in routes if h != subj.hex)
    if chosen is None:
        owner = subj if subj.seat is not None else w.fastest_human()
        if owner is None or owner.seat is None or not dests:
            return True
        w.board.pending = Pending(owner.seat, "move", [*(hex_id(h) for h in dests), "stop"],
                                  {"unit": subj.uid, "amount": n})
        return False
    if chosen == "stop":
        return True
    target = parse_hex(str(chosen))
    assert target is not None
    walk(w, subj, safest(routes[target]).path)
    return True


def walk(w: World, u: Unit, path: tuple[Hex, ...]) -> None:
    """Move along `path`, triggering hazards in order; a death stops it (A32, A33)."""
    start = u.hex
    for h in path:
        enter(w, u, h)
        if not u.alive:
            return
    if path:
        w.events.add_public(f"{u.name} moves {hex_id(start) if start else '-'} -> {hex_id(path[-1])}", "move", None)

