"""The Attack action (R-ATT, R-DMG), Invoke Ultimate (R-ULT) and effective attributes (N8)."""

from __future__ import annotations

from .content import CATEGORY_RANK, Attack, Content, Effect
from .dice import die_row, die_rows, gain_die, lose_die, remove_die
from .effects import check_end, damage, drain
from .hexes import Hex, distance, hex_id
from .model import ATTACK, BE, TEMP, QItem, Unit
from .world import World


def attacks_of(w: World, u: Unit) -> list[Attack]:
    if u.kind == "boss":
        return list(w.content.boss(u.content_id).attacks)
    return list(w.content.champion(u.content_id).attacks)


def attack_by_id(w: World, u: Unit, attack_id: str) -> Attack:
    """The figure's attack `attack_id` (the first of equal ids, as a search over the list
    finds it), from a table made once per content and figure (legal actions ask at every
    target step: issue 23). StopIteration when it has none, as that search raised."""
    content = w.content
    key = (id(content), u.kind, u.content_id)
    entry = _ATTACKS.get(key)
    if entry is None or entry[0] is not content:
        table: dict[str, Attack] = {}
        for a in attacks_of(w, u):
            table.setdefault(a.id, a)
        if len(_ATTACKS) > 4096:
            _ATTACKS.clear()
        entry = _ATTACKS[key] = (content, table)
    found = entry[1].get(attack_id)
    if found is None:
        raise StopIteration(attack_id)
    return found


_ATTACKS: dict[tuple[int, str, str], tuple[Content, dict[str, Attack]]] = {}


def available_rank(u: Unit) -> int:
    """R-ATT-3..5: the rolled category, or Triples once the Ultimate is invoked."""
    rank = CATEGORY_RANK.get(u.rolled_category or "singles", 1)
    return 3 if u.invoked else rank


def attack_options(w: World, u: Unit) -> list[Attack]:
    """Every attack of the available category or a lower one (R-ATT-4), in printed order:
    a list of its own for the caller, from a table made once per content, figure and rank
    (legal actions ask after every change of the layout; issue 23)."""
    return list(_options(w, u, available_rank(u)))


def _options(w: World, u: Unit, rank: int) -> tuple[Attack, ...]:
    """`attack_options`' shared table entry (callers must not keep it as their own list)."""
    return _options_entry(w, u, rank)[1]


def _options_entry(w: World, u: Unit, rank: int) -> tuple[Content, tuple[Attack, ...], tuple[str, ...]]:
    """The table entry: (the content, the options, the minion kinds some option attacks from,
    in order of first use)."""
    content = w.content
    key = (id(content), u.kind, u.content_id, rank)
    entry = _OPTIONS.get(key)
    if entry is None or entry[0] is not content:
        if len(_OPTIONS) > 4096:
            _OPTIONS.clear()
        options = tuple(a for a in attacks_of(w, u) if CATEGORY_RANK[a.category] <= rank)
        kinds = tuple(dict.fromkeys(a.origin for a in options if a.origin != "self"))
        entry = _OPTIONS[key] = (content, options, kinds)
    return entry


_OPTIONS: dict[tuple[int, str, str, int], tuple[Content, tuple[Attack, ...], tuple[str, ...]]] = {}


def offered_attacks(w: World, u: Unit) -> list[Attack]:
    """The attacks a player is offered (issue 18 defect 2, "Choosing your target(s)"): those
    with an enemy in range; when none has, a single way to give the Attack action up, which
    by R-ATT-9 resolves nothing but gains 1 bonus die (the rules allow it, so it stays
    offered, worded as what it does). While some attack reaches an enemy, the ones that reach
    nobody are not offered (a house ruling in docs/games/arena.md: trading a sure hit for a
    bonus die is not worth a button that reads like an attack).

    Decided by the nearest enemy per origin (what `in_range` finds, for every attack of one
    origin at once): from the figure's space, and for a summoner that attacks from its
    minions from each kind of them, in the same one pass over the figures (issue 23: asking
    `in_range` per minion attack made the summoners' listing three times as costly)."""
    rank = available_rank(u)
    bonus = u.mods.get("range", 0)
    key = ("offered", w.board.layout, u.uid, rank, bonus)
    table = w.layout_memo()
    found: list[Attack] | None = table.get(key)  # what it reads: the layout, the attacker, its rank and Range
    if found is None:
        _, options, kinds = _options_entry(w, u, rank)
        reach = base_attributes(w, u)[1] + bonus  # `range_of` without the attack's own bonus, once
        reaching = []
        if not kinds:
            nearest = _nearest_enemy(w, u)  # one pass over the figures for every attack from its space
            for a in options:
                if nearest is not None and max(0, reach + a.range_bonus) >= nearest:
                    reaching.append(a)
        else:
            near = _nearest_by_origin(w, u, kinds)
            for a in options:
                n = near[a.origin]
                if n is not None and max(0, reach + a.range_bonus) >= n:
                    reaching.append(a)
        found = reaching or list(options[:1])
        table[key] = found
    return list(found)


def _nearest_by_origin(w: World, u: Unit, kinds: tuple[str, ...]) -> dict[str, int | None]:
    """Hex distance to the nearest damageable enemy on the board from `u`'s space (under
    "self") and from the nearest of its minions of each kind in `kinds` (None: no such
    origin on the board, or no enemy), in one pass over the figures: the minions are the
    origins `origins` lists, the enemies those `in_range` looks at."""
    here = u.hex
    side = u.side
    uid = u.uid
    foes: list[Hex] = []
    spots: dict[str, list[Hex]] = {}
    best: int | None = None
    for e in w.board.units.values():
        at = e.hex
        if at is None or not e.alive:
            continue
        if e.side != side and e.hp is not None:
            foes.append(at)
            if here is not None:
                dq, dr = at[0] - here[0], at[1] - here[1]
                d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if best is None or d < best:
                    best = d
        if e.kind == "minion" and e.summoner == uid and e.content_id in kinds:
            spots.setdefault(e.content_id, []).append(at)
    near: dict[str, int | None] = {"self": best}
    for kind in kinds:
        nearest: int | None = None
        for q, s in spots.get(kind, ()):
            for at in foes:
                dq, dr = at[0] - q, at[1] - s
                d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if nearest is None or d < nearest:
                    nearest = d
        near[kind] = nearest
    return near


def _nearest_enemy(w: World, u: Unit) -> int | None:
    """Hex distance from `u` to its nearest damageable enemy on the board (None: none, or `u`
    is off the board): an attack from `u`'s space has someone in Range exactly when its Range
    reaches this far (what `in_range` finds, for all of a player's attacks at once)."""
    here = u.hex
    if here is None:
        return None
    q, s = here
    side = u.side
    best: int | None = None
    for e in w.board.units.values():
        at = e.hex
        if at is None or not e.alive or e.side == side or e.hp is None:
            continue
        dq, dr = at[0] - q, at[1] - s
        d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if best is None or d < best:
            best = d
    return best


def base_attributes(w: World, u: Unit) -> tuple[int, int, int]:
    """Printed Movement, Range and Targets, looked up once per content and figure kind (every
    Movement, Range and Targets the rules read asks this: issue 23)."""
    content = w.content
    key = (id(content), u.kind, u.content_id)
    found = _BASE.get(key)
    if found is not None and found[0] is content:
        return found[1]
    if u.kind == "boss":
        b = content.boss(u.content_id)
        out = (b.movement, b.range, b.targets)
    elif u.kind == "minion":
        m = content.minion(u.content_id)
        out = (m.movement, m.range, m.targets)
    else:
        c = content.champion(u.content_id)
        out = (c.movement, c.range, c.targets)
    if len(_BASE) > 4096:
        _BASE.clear()
    _BASE[key] = (content, out)  # the content kept: its id is never reused while it is here
    return out


_BASE: dict[tuple[int, str, str], tuple[Content, tuple[int, int, int]]] = {}


def movement_of(w: World, u: Unit) -> int:
    return max(0, base_attributes(w, u)[0] + u.mods.get("movement", 0))


def range_of(w: World, u: Unit, atk: Attack | None) -> int:
    bonus = atk.range_bonus if atk is not None else 0
    return max(0, base_attributes(w, u)[1] + u.mods.get("range", 0) + bonus)


def targets_of(w: World, u: Unit, atk: Attack | None) -> int:
    bonus = atk.targets_bonus if atk is not None else 0
    return max(1, base_attributes(w, u)[2] + u.mods.get("targets", 0) + bonus)


def origins(w: World, u: Unit, atk: Attack) -> list[Hex]:
    """KW-ORIG / R-ATT-12: the attacker's space, or the spaces of its minions named by the attack."""
    if atk.origin == "self":
        return [u.hex] if u.hex is not None else []
    return sorted(m.hex for m in w.board.units.values()
                  if m.alive and m.kind == "minion" and m.summoner == u.uid and m.content_id == atk.origin
                  and m.hex is not None)


def origin_for(w: World, u: Unit, atk: Attack, target: Unit) -> Hex | None:
    assert target.hex is not None
    hexes = origins(w, u, atk)
    if len(hexes) == 1:
        return hexes[0]  # the usual case, an attack from the figure's own space
    at = target.hex
    return min(hexes, key=lambda h: (distance(h, at), h)) if hexes else None


def in_range(w: World, u: Unit, atk: Attack) -> list[Unit]:
    """Damageable enemies within Range of an origin (R-ATT-6..8, no line of sight).

    Memoised by the layout (`Board.layout`: spaces and lives of every figure, so of the
    enemies and of the origins), the attacker, its Range and the attack's origin; sides and
    HP-or-not are fixed in play (a scenario takes a new layout). Legal actions ask this for
    every attack at every step of a turn (issue 23)."""
    r = range_of(w, u, atk)
    units = w.board.units
    table = w.layout_memo()
    key = ("in_range", w.board.layout, u.uid, r, atk.origin)
    uids: list[str] | None = table.get(key)
    if uids is None:
        uids = [e.uid for e in _in_range(w, u, atk, r)]
        table[key] = uids
    return [units[x] for x in uids]


def _in_range(w: World, u: Unit, atk: Attack, r: int) -> list[Unit]:
    hexes = origins(w, u, atk)
    out = []
    side = u.side
    for e in w.board.units.values():  # living enemies with HP (inlined: legal actions ask often)
        at = e.hex
        if at is None or not e.alive or e.side == side or e.hp is None:
            continue
        q, s = at
        for h in hexes:
            dq, dr = h[0] - q, h[1] - s
            if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= r:
                out.append(e)
                break
    return out


def whiff(w: World, u: Unit, atk: Attack) -> None:
    """R-ATT-9: nothing of the attack resolves; the attacker gains 1 bonus die instead."""
    w.log(f"{u.name} gives up the attack: no enemy is in range, so {u.name} gains a bonus die", kind="attack",
          unit=u.uid,
          attack=atk.id, category=atk.category, targets=[], whiff=True)
    u.attacked = True
    w.board.queue.append(QItem(_bonus_die_effect(), u.uid, u.uid, {"why": "no target in range"}))
    drain(w)


def _bonus_die_effect() -> Effect:
    """R-ATT-9's bonus die as an effect: one immutable object made at import (the content's
    models are frozen), not a model validated at every whiff (a player's given-up attack:
    ~0.7 % of a solo playout went to building it; issue 23)."""
    return _BONUS_DIE


_BONUS_DIE = Effect(op="gain_die", amount=1, die="bonus", who="self")


def resolve_attack(w: World, u: Unit, atk: Attack, targets: list[Unit], pref: str | None = None) -> None:
    """R-DMG-1..5 with A18: damage = attack dice + text + modifiers, dealt to each target; then the
    effect text in printed order (self effects once, target effects per target)."""
    u.attacked = True
    # the modifiers, with their sources (for the battle view): [why, amount] pairs as the log's
    # data shows them (the list goes into the data as it is: nothing changes it afterwards)
    parts: list[list[object]] = []
    bonus = 0
    if atk.damage:
        parts.append([atk.name, atk.damage])
        bonus += atk.damage
    mod = u.mods.get("damage", 0) if u.mods else 0
    if mod:
        parts.append(["this turn's bonuses", mod])
        bonus += mod
    # one pass over the rolled dice: the Special dice that add to an attack (in pool order),
    # the attack dice's faces (`base_damage`) and their list for the battle view; no die is
    # rolled here, so this comes before the attack's own damage rolls as before
    base = 0
    dice: list[list[object]] = []
    rows = die_rows(w)  # a Special die's timing and word from the game's table
    for d in u.pool:
        face = d.face
        if face is None or d.fresh:
            continue
        kind = d.kind
        if kind in (ATTACK, TEMP):  # `Die.is_attack`
            base += face
            dice.append(["Attack" if kind == ATTACK else "Temporary", face])
        elif kind != BE:  # `Die.is_special`
            row = rows.get(kind)
            if row is None:
                row = die_row(w, kind)
            if row[5]:  # its timing is `attack`
                parts.append([row[4], face])
                bonus += face
    for e in atk.effects:
        if e.op == "attack_damage":
            n = e.amount + (w.roll(int(e.dice[1:])) if e.dice else 0)
            parts.append([atk.name, n])
            bonus += n
    total = base + bonus
    names = ", ".join([t.name for t in targets])
    w.events.add_public(("{} attacks {} with {} ({}) for {}", u.name, names, atk.name, atk.category, total), "attack",
                        (_ATTACK_KEYS, u.uid, atk.id, atk.name, atk.category, [t.uid for t in targets], total, dice,
                         parts))
    dealt = 0
    fallen: list[Unit] = []
    hurt: list[Unit] = []
    for t in targets:
        got = damage(w, t, total, atk.name, fallen, source=u.uid, how="attack")
        dealt += got
        if got > 0:
            hurt.append(t)
    if fallen:
        check_end(w, fallen)
    if dealt > 0:
        u.dealt_damage = True
    for e in atk.effects:
        if e.op == "attack_damage":
            continue
        subjects = [u] if e.who == "self" else [t for t in targets if t.alive]
        for s in subjects:
            ctx: dict[str, object] = {"why": atk.name, "in_attack": True}
            if pref is not None:
                ctx["pref"] = pref
            if e.op in ("push", "pull", "throw") and s is not u:
                origin = origin_for(w, u, atk, s) if s.hex is not None else None
                if origin is None:
                    continue
                item = QItem(e, u.uid, s.uid, {**ctx, "origin": hex_id(origin)})
                w.board.queue.append(item)
            else:
                w.board.queue.append(QItem(e, u.uid, s.uid, ctx))
    rot(w, u, hurt)
    drain(w)


#: the attack line's data keys (`EventLog.add_public`'s lazy data: a dict only when read)
_ATTACK_KEYS = ("unit", "attack", "attack_name", "category", "targets", "damage", "dice", "parts")


def rot(w: World, u: Unit, hurt: list[Unit]) -> None:
    """House Rot deck (ruling 25): after the attack's own text, one Rot card per Champion or Rival
    the attack damaged and who still stands, in target order; an empty deck reshuffles its
    discards (TB-DECK). The card goes to the face-up discards once its effects are queued."""
    if u.kind != "boss" or not hurt:
        return  # (tested first: no key made for a Rival's or a missed attack)
    deck = w.board.decks.get(f"rot:{u.uid}")
    if deck is None:
        return
    cards = {c.id: c for c in w.content.boss(u.content_id).rot}
    for t in hurt:
        if not t.alive or t.kind not in ("champion", "rival"):
            continue
        card_id = deck.draw(w.rng)
        if card_id is None:
            return
        card = cards[card_id]
        w.log(f"{u.name} deals the Rot card '{card.name}' to {t.name}", kind="rot", unit=u.uid, card=card_id,
              target=t.uid)
        for e in card.effects:
            s = u if e.who == "self" else t
            ctx: dict[str, object] = {"why": card.name, "pref": "temp"}
            if e.op in ("push", "pull", "throw"):
                if u.hex is None or s.hex is None:
                    continue
                ctx["origin"] = hex_id(u.hex)
            w.board.queue.append(QItem(e, u.uid, s.uid, ctx))
        deck.discard(card_id)


def can_invoke(w: World, u: Unit) -> bool:
    """R-ULT-1, A25: affordable, not yet invoked this round, and not after attacking."""
    return not u.invoked and not u.attacked and u.energy >= ultimate_cost(w, u)


def ultimate_cost(w: World, u: Unit) -> int:
    if u.kind == "boss":
        return w.content.boss(u.content_id).ultimate_cost
    return w.content.champion(u.content_id).ultimate_cost


def invoke(w: World, u: Unit, keep: int | None) -> None:
    """R-ULT-1..3: pay, return every BE die but the kept one, Triples become available."""
    u.energy -= ultimate_cost(w, u)
    u.invoked = True
    be = [i for i, d in enumerate(u.pool) if d.kind == BE]
    if keep is None and be:
        keep = be[0]
    for i in sorted((i for i in be if i != keep), reverse=True):
        remove_die(u, i)
        lose_die(w, u, BE)  # `dice.supply_left`'s count follows
    w.events.add_public(f"{u.name} invokes the Ultimate (keeps {1 if be else 0} Blood Energy die)", "ultimate",
                        {"unit": u.uid, "cost": ultimate_cost(w, u)})


def gain_temp(w: World, u: Unit) -> None:
    if gain_die(w, u, TEMP):
        w.events.add_public(f"{u.name} gains a Temporary Attack die", "dice", None)

