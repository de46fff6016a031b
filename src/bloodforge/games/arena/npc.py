"""Bosses and Rivals, exactly as spec §2.3 (N1-N15) with the tie-breaks of §2.10.

The planning functions are pure (the engine asks for the next NPC step without changing the
state); `apply_step` carries a step out. A decision the rules give to the fastest human player
(N10 residual ties, N11 and N14 destination ties) becomes a `Pending` for that seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .abilities import queue, roll_and_resolve_d8
from .attack import (
    base_attributes,
    gain_temp,
    invoke,
    movement_of,
    origins,
    resolve_attack,
    ultimate_cost,
)
from .content import Attack, BossCard, Content, SkirmishCard
from .effects import damage, drain, walk
from .hexes import Hex, distance, hex_id, parse_hex
from .model import BE, Pending, Unit
from .movement import (
    Route,
    _Grid,
    _grid,
    destinations,
    end_mask,
    explore,
    explore_within,
    nearest_safe,
    safe_routes,
    safe_steps,
    search_key,
    shared_destinations,
    shortest,
)
from .world import World


# -- N1: behaviour cards ------------------------------------------------------------------------
def deck_key(u: Unit) -> str:
    return f"actions:{u.uid}" if u.kind == "boss" else f"skirmish:{u.uid}"


def reveal_card(w: World, u: Unit) -> None:
    """N1 (R-NPC-4/5, R-RIV-1/2, TB-DECK): reveal and resolve the top behaviour card now."""
    card = w.board.decks[deck_key(u)].draw(w.rng)
    if card is None:
        return
    w.board.revealed[u.uid] = card
    if u.kind == "boss":
        bc = _boss_card(w.content, u.content_id, card)
        w.events.add_public(f"{u.name} reveals Boss Action '{bc.name}'", "npc_card", None)
        queue(w, u, bc.effects, u.uid, bc.name, {"pref": "temp"})
    else:
        sc = skirmish_card(w, card)
        w.events.add_public(f"{u.name} reveals Skirmish card {sc.letter} '{sc.name}'", "npc_card", None)
        pref = "be" if sc.die_pref == "be" else "temp"
        queue(w, u, sc.bonus, u.uid, sc.name, {"pref": pref})
        if sc.special:
            queue(w, u, w.content.champion(u.content_id).rival.special, u.uid, "special", {"pref": pref})
    drain(w)


def skirmish_card(w: World, letter: str) -> SkirmishCard:
    """The Skirmish card `letter` (the first of equal letters, as a search over the list finds
    it), from a table made once per content: an NPC's every step asks for its card's side or
    die preference (issue 23). StopIteration when there is none, as that search raised."""
    content = w.content
    entry = _SKIRMISH.get(id(content))
    if entry is None or entry[0] is not content:
        table: dict[str, SkirmishCard] = {}
        for c in content.skirmish:
            table.setdefault(c.letter, c)
        if len(_SKIRMISH) > 64:
            _SKIRMISH.clear()
        entry = _SKIRMISH[id(content)] = (content, table)  # the content kept: its id is not reused
    found = entry[1].get(letter)
    if found is None:
        raise StopIteration(letter)
    return found


_SKIRMISH: dict[int, tuple[Content, dict[str, SkirmishCard]]] = {}


def _boss_card(content: Content, boss: str, card: str) -> BossCard:
    """The Boss Action card `card` of `boss` (the first of equal ids, as a search over the
    cards finds it), from a table made once per content and Boss: every Boss turn and target
    step asks (issue 23). StopIteration when there is none, as that search raised."""
    key = (id(content), boss)
    entry = _BOSS_CARDS.get(key)
    if entry is None or entry[0] is not content:
        table: dict[str, BossCard] = {}
        for c in content.boss(boss).actions:
            table.setdefault(c.id, c)
        if len(_BOSS_CARDS) > 256:
            _BOSS_CARDS.clear()
        entry = _BOSS_CARDS[key] = (content, table)  # the content kept: its id is not reused
    found = entry[1].get(card)
    if found is None:
        raise StopIteration(card)
    return found


_BOSS_CARDS: dict[tuple[int, str], tuple[Content, dict[str, BossCard]]] = {}


def target_rule(w: World, u: Unit) -> str:
    """R-TGT-8: a Boss Action card's targeting rule (its card from the table), else most HP."""
    card = w.board.revealed.get(u.uid)
    if u.kind == "boss" and card is not None:
        return _boss_card(w.content, u.content_id, card).target
    return "most_hp"


# -- N4-N8 ----------------------------------------------------------------------------------------
def gain_all_energy(w: World, u: Unit) -> int:
    """N4 (R-NPC-6): every rolled BE die gives its energy once."""
    total = 0
    top = 0
    for d in u.pool:
        if d.kind == BE and d.face is not None and not d.fresh and not d.used:
            d.used = True
            # `gain_energy` inlined (R-BE-1/3/4, A14: the tracker stays within 0..energy_max)
            if not top:
                top = w.content.rules.energy_max
            before = u.energy
            u.energy = max(0, min(top, before + d.face))
            total += u.energy - before
    return total


def chosen_attack(w: World, u: Unit, invoked: bool | None = None) -> Attack:
    """N7 (TB6, R-RIV-3): the highest available category; a Rival's side from its card."""
    inv = u.invoked if invoked is None else invoked
    cat = "triples" if inv else (u.rolled_category or "singles")
    side = "left"
    if u.kind != "boss":
        card = w.board.revealed.get(u.uid)
        if card is not None:
            side = skirmish_card(w, card).side
    # looked up once per content, figure, category and side: every NPC step asks (issue 23)
    content = w.content
    key = (id(content), u.kind, u.content_id, cat, side)
    entry = _CHOSEN.get(key)
    if entry is None or entry[0] is not content:
        if u.kind == "boss":
            found = content.boss(u.content_id).attack(cat)
        else:
            found = content.champion(u.content_id).attack(cat, side)
        if len(_CHOSEN) > 4096:
            _CHOSEN.clear()
        entry = _CHOSEN[key] = (content, found)
    return entry[1]


_CHOSEN: dict[tuple[int, str, str, str, str], tuple[Content, Attack]] = {}


class Attrs:
    """An NPC's effective Movement, Range and Targets for one attack (N8). A plain slotted
    class: every NPC step makes one (a frozen dataclass is several times slower to build)."""

    __slots__ = ("from_minion", "movement", "range", "targets")

    def __init__(self, movement: int, range: int, targets: int, from_minion: bool) -> None:
        self.movement = movement
        self.range = range
        self.targets = targets
        self.from_minion = from_minion

    def __reduce__(self) -> tuple[type[Attrs], tuple[int, int, int, bool]]:
        """Pickled by its constructor's arguments: a class compiled by mypyc (README, "Compiled
        build") unpickles through its `__init__` called without arguments otherwise."""
        return (Attrs, (self.movement, self.range, self.targets, self.from_minion))


def attributes(w: World, u: Unit, atk: Attack) -> Attrs:
    """N8 with TB9: an attack originating from a minion gives no movement for targeting.

    Without turn modifiers (the usual case) the answer depends on the figure and the attack
    only, so it is made once per content, figure and attack and shared (callers only read
    an `Attrs`): every NPC step asks (issue 23)."""
    mods = u.mods
    if not mods:
        key = (id(atk), u.kind, u.content_id)
        entry = _ATTRS.get(key)
        if entry is not None and entry[0] is atk and entry[1] is w.content:
            return entry[2]
        found = _attributes(w, u, atk, mods)
        if len(_ATTRS) > 4096:
            _ATTRS.clear()
        _ATTRS[key] = (atk, w.content, found)  # both kept: their ids are not reused while here
        return found
    return _attributes(w, u, atk, mods)


def _attributes(w: World, u: Unit, atk: Attack, mods: dict[str, int]) -> Attrs:
    from_minion = atk.origin != "self"
    # `movement_of`, `range_of` and `targets_of` over one lookup of the printed values (every
    # NPC step asks: issue 23); the same sums and bounds
    movement, range_, targets = base_attributes(w, u)
    return Attrs(0 if from_minion else max(0, movement + mods.get("movement", 0)),
                 max(0, range_ + mods.get("range", 0) + atk.range_bonus),
                 max(1, targets + mods.get("targets", 0) + atk.targets_bonus), from_minion)


_ATTRS: dict[tuple[int, str, str], tuple[Attack, Content, Attrs]] = {}


def foes(w: World, u: Unit) -> list[Unit]:
    """Damageable enemies on the board (TB1): `living`, `enemies` and `damageable` in one
    pass (every NPC step asks; issue 23)."""
    side = u.side
    return [e for e in w.board.units.values() if e.alive and e.hex is not None and e.side != side and e.hp is not None]


def _within(spots: list[Hex], h: Hex, reach: int) -> bool:
    """Is `h` within `reach` of one of `spots`? (hex distance inlined)"""
    q, r = h
    for s in spots:
        dq, dr = s[0] - q, s[1] - r
        if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= reach:
            return True
    return False


def accessible(w: World, u: Unit, atk: Attack, a: Attrs, routes: Iterable[Hex]) -> list[Unit]:
    """N9 (R-TGT-1, A35): some reachable end hex (hazards allowed) puts the enemy in Range.
    `routes`: the end hexes (`movement.destinations`: no route needs working out here)."""
    spots = origins(w, u, atk) if a.from_minion else list(routes)
    out = []
    reach = a.range
    for e in foes(w, u):  # hex distance inlined: every NPC step asks this
        if e.hex is None:
            continue
        q, r = e.hex
        for h in spots:
            dq, dr = h[0] - q, h[1] - r
            if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= reach:
                out.append(e)
                break
    return out


def reachable_foes(w: World, u: Unit, atk: Attack, a: Attrs) -> list[Unit]:
    """`accessible` over `destinations(w, u, a.movement)`: the enemies some reachable end hex
    puts in Range (N9).

    *Why a memo:* an NPC asks this when it decides whether to invoke, again for its target
    step, and again when a tie is handed to a player, while the layout stays the same (issue
    23). Keyed by what it reads: the layout (who stands where and lives, so the foes and the
    minions an attack originates from), the NPC, its flying, space, Movement and Range, and
    the attack's origin; sides and having HP at all are fixed in play. Stored as unit ids in
    the layout memo that clones share."""
    key = ("access", w.board.layout, u.uid, u.is_flying, u.hex, a.movement, a.range, a.from_minion, atk.origin)
    table = w.layout_memo()
    uids: list[str] | None = table.get(key)
    if uids is None:
        if a.from_minion or u.hex is None:
            uids = [e.uid for e in accessible(w, u, atk, a, () if a.from_minion else destinations(w, u, a.movement))]
        else:
            uids = _reachable_by_walking(w, u, a)
        if len(table) >= 1024:
            table.clear()
        table[key] = uids
    units = w.board.units
    return [units[x] for x in uids]


def _reachable_by_walking(w: World, u: Unit, a: Attrs) -> list[str]:
    """`accessible` over `destinations` for an attack from the NPC's own space, with the
    search only when hex distances leave it open: an enemy within Range of the start is in
    (the start is an end hex), one farther than Movement + Range is out (no end hex lies
    farther than Movement from the start); only those in between need the reachable hexes."""
    found, inside = _by_distance(u, a, foes(w, u))
    if None in inside:
        reach = _Reach(w, u, a)
        for i, e in enumerate(found):
            if inside[i] is None:
                inside[i] = reach.test(e)
    return [e.uid for e, ok in zip(found, inside, strict=True) if ok]


def _by_distance(u: Unit, a: Attrs, found: list[Unit]) -> tuple[list[Unit], list[bool | None]]:
    """N9 by hex distance alone, per foe of `found`: True within Range of the NPC's start
    (the start is an end hex), False farther than Movement + Range (no end hex lies farther
    than Movement from it), None in between (only the end hexes can tell)."""
    assert u.hex is not None
    oq, or_ = u.hex
    # hex distances doubled (|dq| + |dr| + |dq + dr| is always even): no division per hex
    reach2, far2 = 2 * a.range, 2 * (a.movement + a.range)
    inside: list[bool | None] = []
    for e in found:
        assert e.hex is not None  # `foes` reads figures on the board
        dq, dr = e.hex[0] - oq, e.hex[1] - or_
        d2 = abs(dq) + abs(dr) + abs(dq + dr)
        inside.append(True if d2 <= reach2 else False if d2 > far2 else None)
    return found, inside


class _Reach:
    """N9 for a foe that hex distances leave open (`_by_distance` None): some end hex within
    Range of it, the end hexes as a mask (`movement.end_mask`, asked at the first such foe)
    `&` the foe's disk of radius Range. The walk's ends are cells, and the start, the one end
    that may not be, is out of Range of every foe still open. Made and read within one
    call (never kept, never pickled)."""

    __slots__ = ("a", "got", "read", "u", "w")

    def __init__(self, w: World, u: Unit, a: Attrs) -> None:
        self.w = w
        self.u = u
        self.a = a
        self.got: tuple[_Grid, int] | None = None
        self.read = False

    def test(self, e: Unit) -> bool:
        assert e.hex is not None
        if not self.read:
            self.got = end_mask(self.w, self.u, self.a.movement)
            self.read = True
        got = self.got
        p = got[0].pos(e.hex) if got is not None else None
        if got is not None and p is not None:
            return bool(got[1] & got[0].disk(p, self.a.range))
        # beyond the grid's box (scenarios): the end hexes one by one
        return _near_any(shared_destinations(self.w, self.u, self.a.movement), e.hex, 2 * self.a.range)


def target_tier(w: World, u: Unit, atk: Attack, a: Attrs, rule: str) -> list[Unit]:
    """`best_tier(w, u, reachable_foes(w, u, atk, a), rule)`: the N9 candidates' best N10
    tier, with the end hexes read only for the foes that can still be in it.

    *Why:* the target step's reach test needed the end hexes whenever some foe stood
    between Range and Movement + Range of the NPC, even when the foe it prefers stood in
    Range already (a third of those reads in solo playouts; issue 23). Here the foes that
    hex distances do not rule out are taken in the order of preference (non-minions
    first): the first that is reachable fixes the best key, and only the foes tied with it
    are read further. The same tier: the first reachable in that order has the least key of
    the reachable ones, and every reachable one with that key is in, sorted by id as
    `best_tier` sorts a tie."""
    if a.from_minion or u.hex is None:
        return best_tier(w, u, reachable_foes(w, u, atk, a), rule)
    # (no look-up of `reachable_foes`' memo here: only its minion and off-board branches,
    # which return above, are ever asked for, so an attack from the NPC's space never hit it)
    # `foes` and `_by_distance` in one pass, split into non-minions and minions (preferred in
    # that order: R-MIN-10, TB2), the foes ruled out by hex distance left out at once: one
    # foe, in Range of the start, is the usual answer (issue 23)
    assert u.hex is not None
    oq, or_ = u.hex
    reach2, far2 = 2 * a.range, 2 * (a.movement + a.range)  # doubled hex distances
    side = u.side
    heroes: list[tuple[Unit, bool | None]] = []
    minions: list[tuple[Unit, bool | None]] = []
    for e in w.board.units.values():
        at = e.hex
        if at is None or not e.alive or e.side == side or e.hp is None:
            continue
        dq, dr = at[0] - oq, at[1] - or_
        d2 = abs(dq) + abs(dr) + abs(dq + dr)
        if d2 > far2:
            continue
        (minions if e.kind == "minion" else heroes).append((e, True if d2 <= reach2 else None))
    reach: _Reach | None = None
    for group in (heroes, minions):
        if not group:
            continue
        if len(group) == 1:
            e, ok = group[0]
            if ok is None:
                # the one foe left open: a safe route toward it answers N9 and is the move
                # step's answer too (kept for it); else the end hexes tell
                if _safe_toward(w, u, a, e):
                    return [e]
                if reach is None:
                    reach = _Reach(w, u, a)
                ok = reach.test(e)
            if ok:
                return [e]
            continue
        keyed = sorted((preference(w, u, e, rule), i) for i, (e, _) in enumerate(group))
        best: tuple[int, ...] | None = None
        tier: list[Unit] = []
        for k, i in keyed:
            if best is not None and k != best:
                break
            e, ok = group[i]
            if ok is None:
                ok = _safe_toward(w, u, a, e)  # as for one foe above
                if not ok:
                    if reach is None:
                        reach = _Reach(w, u, a)
                    ok = reach.test(e)
            if ok:
                best = k
                tier.append(e)
        if tier:
            return tier if len(tier) == 1 else sorted(tier, key=lambda e: e.uid)
    return []


def any_reachable(w: World, u: Unit, atk: Attack, a: Attrs) -> bool:
    """`bool(reachable_foes(w, u, atk, a))` with the end hexes read only when no foe stands
    in Range of the NPC's start and some foe is not ruled out by hex distance (N6's test of
    the Ultimate's attack at every NPC's energy step; issue 23)."""
    if a.from_minion or u.hex is None:
        return bool(reachable_foes(w, u, atk, a))
    # (no look-up of `reachable_foes`' memo: see `target_tier`)
    # `foes` and `_by_distance` in one pass: a foe in Range of the start answers at once
    assert u.hex is not None
    oq, or_ = u.hex
    reach2, far2 = 2 * a.range, 2 * (a.movement + a.range)  # doubled hex distances
    side = u.side
    open_: list[Unit] = []
    for e in w.board.units.values():
        at = e.hex
        if at is None or not e.alive or e.side == side or e.hp is None:
            continue
        dq, dr = at[0] - oq, at[1] - or_
        d2 = abs(dq) + abs(dr) + abs(dq + dr)
        if d2 <= reach2:
            return True
        if d2 <= far2:
            open_.append(e)
    if not open_:
        return False
    reach = _Reach(w, u, a)
    return any(reach.test(e) for e in open_)


def _near_any(spots: Iterable[Hex], at: Hex, reach2: int) -> bool:
    """Is one of `spots` within half of `reach2` (a doubled hex distance) of `at`?"""
    q, r = at
    for h in spots:  # a plain loop: `any` over a generator cost a third more
        dq, dr = h[0] - q, h[1] - r
        if abs(dq) + abs(dr) + abs(dq + dr) <= reach2:
            return True
    return False


def wants_invoke(w: World, u: Unit) -> bool:
    """N6 (R-NPC-7, TB5)."""
    if u.invoked or u.attacked or u.energy < ultimate_cost(w, u) or u.rolled_category == "triples":
        return False
    atk = chosen_attack(w, u, invoked=True)
    a = attributes(w, u, atk)
    return any_reachable(w, u, atk, a)


def preference(w: World, u: Unit, e: Unit, rule: str) -> tuple[int, ...]:
    """N10 order key (smaller is preferred): most HP, ties to the slowest (R-TGT-2/3, TB7);
    Boss Action cards may change the rule (R-TGT-8)."""
    hp = e.hp if e.hp is not None else 0
    pos = w.position(e)
    if rule == "least_hp":
        return (hp, -pos)
    if rule == "nearest":
        assert u.hex is not None
        assert e.hex is not None
        return (distance(u.hex, e.hex), -hp, -pos)
    return (-hp, -pos)


def best_tier(w: World, u: Unit, cands: list[Unit], rule: str) -> list[Unit]:
    """Non-minions first, then minions with HP (R-MIN-10, TB2); the best by `preference`,
    with every candidate still tied (a tie left means the fastest human picks, GR-3)."""
    pool = [e for e in cands if e.kind != "minion"] or [e for e in cands if e.kind == "minion"]
    if len(pool) <= 1:
        return pool  # none, or one: its own best tier (a tie needs two; the usual case)
    keys = {e.uid: preference(w, u, e, rule) for e in pool}
    best = min(keys.values())
    return sorted((e for e in pool if keys[e.uid] == best), key=lambda e: e.uid)


def move_options(u: Unit, t: Unit, a: Attrs, routes: dict[Hex, list[Route]]) -> list[tuple[Hex, Route]]:
    """N11: no move if in Range; else the shortest safe destinations; else the shortest unsafe
    ones with the fewest hazard tiles (TB4). `routes`: `explore`'s table, or at least its end
    hexes within Range of `t` (`explore_within`: only those are read)."""
    assert u.hex is not None
    assert t.hex is not None
    if a.from_minion or distance(u.hex, t.hex) <= a.range:
        return []
    tq, tr = t.hex
    reach2 = 2 * a.range  # hex distance inlined and doubled: every NPC move step asks this
    ok = {h: rs for h, rs in routes.items()
          if abs(h[0] - tq) + abs(h[1] - tr) + abs(h[0] - tq + h[1] - tr) <= reach2}
    safe = {h: s for h, rs in ok.items() if (s := safe_steps(rs)) is not None}
    if safe:
        low = min(safe.values())
        return [(h, next(r for r in ok[h] if not r.tiles and r.steps == low)) for h in sorted(safe) if safe[h] == low]
    if not ok:
        return []
    best = {h: shortest(rs) for h, rs in ok.items()}
    low_len = min(r.steps for r in best.values())
    keep = {h: r for h, r in best.items() if r.steps == low_len}
    low_tiles = min(len(r.tiles) for r in keep.values())
    return [(h, r) for h, r in sorted(keep.items()) if len(r.tiles) == low_tiles]


def move_toward(w: World, u: Unit, a: Attrs, t: Unit) -> list[tuple[Hex, Route]]:
    """`move_options` over `explore_within` toward `t` (N11), memoised: the move step asks it,
    again when a tie is handed to a player and again when the answer comes back, with the
    layout unchanged (issue 23). Keyed by what the search reads (`movement.search_key`: the
    mover, its space, Movement, hazard hits this turn and the layout, so `t`'s space too) plus
    the target and the Range and origin of the attack."""
    assert t.hex is not None
    key = _toward_key(w, u, a, t)
    table = w.layout_memo()
    found: list[tuple[Hex, Route]] | None = table.get(key)
    if found is None:
        # no move when in Range (`move_options`' first test, before any search); a safe end
        # within Range by the plain walk that stops at the first step finding one; else the
        # Pareto search (`movement.nearest_safe`)
        assert u.hex is not None
        if a.from_minion or distance(u.hex, t.hex) <= a.range:
            found = []
        else:
            found = nearest_safe(w, u, a.movement, t.hex, a.range)
            if found is None:
                found = move_options(u, t, a, explore_within(w, u, a.movement, t.hex, a.range))
        if len(table) >= 1024:
            table.clear()
        table[key] = found
    return found


def _toward_key(w: World, u: Unit, a: Attrs, t: Unit) -> tuple[Any, ...]:
    """`move_toward`'s memo key: what its answer reads (see there)."""
    return ("toward", t.uid, a.range, a.from_minion, *search_key(w, u, a.movement))


def _safe_toward(w: World, u: Unit, a: Attrs, t: Unit) -> bool:
    """N9 for a foe `t` out of Range of the NPC's start (and not from a minion) by a safe
    route: True when `move_toward(w, u, a, t)` is `nearest_safe`'s answer and that is not
    None (kept in the layout memo under `move_toward`'s key); False when that cannot tell
    (no safe end hex in Range of `t`, or a start or target beyond the grid's box), and then
    the caller reads the end hexes as before.

    *Why:* the target step's reach test walked the NPC's end hexes (`end_mask`), and when
    the foe it found was out of Range the move step that follows walked again for the same
    foe (`nearest_safe`, 0.09 of each a solo ply; issue 23, ninth session). A safe end hex
    in Range of `t` is an end hex of the walk (the safe walk's stops hold the plain walk's,
    its ends stand on no figure's space) within Range of `t`: N9 says yes, and the move
    step finds its answer kept. *Why the same answer as `move_toward`:* that function,
    for a foe out of Range and an attack from the NPC's own space, answers `nearest_safe`
    whenever it is not None; the layout memo's key is its own."""
    assert u.hex is not None
    assert t.hex is not None
    key = _toward_key(w, u, a, t)
    table = w.layout_memo()
    found: list[tuple[Hex, Route]] | None = table.get(key)
    if found is not None:
        return bool(found)
    grid = _grid(w.cells)
    if grid.pos(u.hex) is None or grid.pos(t.hex) is None:
        return False  # beyond the box (scenarios): the plain reading
    found = nearest_safe(w, u, a.movement, t.hex, a.range)
    if found is None:
        return False
    if len(table) >= 1024:
        table.clear()
    table[key] = found
    return True


def goal(w: World, u: Unit) -> Unit | None:
    """N14 goal: the damageable enemy with most HP (non-minions first; ties to the slowest)."""
    tier = best_tier(w, u, foes(w, u), "most_hp")
    return tier[-1] if tier else None


def approach_options(w: World, u: Unit, routes: dict[Hex, list[Route]]) -> list[tuple[Hex, Route]]:
    """N14 destination (TB3): safe hexes first, strictly closer to the goal, then fewest steps;
    else any hex the same way with fewest hazard tiles; else stay.

    *Why a memo:* an idle NPC asks this when it idles, again when a tie is handed to a player
    and again when the answer comes, all on one layout (issue 23). The answer reads only the
    NPC's space, the goal's and the routes table, which `explore` shares and nobody changes:
    keyed by the layout, the NPC, its space, the goal and its space and the table's identity
    (the table kept with the answer, so its id is not reused while the entry lives)."""
    g = goal(w, u)
    if g is None or g.hex is None or u.hex is None:
        return []
    key = ("approach", w.board.layout, u.uid, u.hex, g.uid, g.hex, id(routes))
    table = w.layout_memo()
    entry: tuple[dict[Hex, list[Route]], list[tuple[Hex, Route]]] | None = table.get(key)
    if entry is None or entry[0] is not routes:
        if len(table) >= 1024:
            table.clear()
        entry = table[key] = (routes, _approach(u.hex, g.hex, routes))
    return list(entry[1])


def approach_safe(w: World, u: Unit, movement: int) -> list[tuple[Hex, Route]] | None:
    """`approach_options(w, u, explore(w, u, movement))` when the safe routes decide it (a
    safe end hex strictly closer to the goal, or no goal), read off `movement.safe_routes`
    without the Pareto search; None when the answer needs the unsafe routes (then the caller
    asks `approach_options`). The same choice as `_approach`'s first branch: the safe hexes
    nearest the goal, then the fewest steps, each with its tile-free route."""
    g = goal(w, u)
    if g is None or g.hex is None or u.hex is None:
        return []
    # an idle NPC asks, again when the tie goes to a player and again with the answer, on one
    # layout: memoised by what it reads (the search's key and the goal's space)
    key = ("approach_safe", g.hex, *search_key(w, u, movement))
    table = w.layout_memo()
    found: tuple[list[tuple[Hex, Route]] | None] | None = table.get(key)
    if found is None:
        found = table[key] = (_approach_safe(w, u, movement, u.hex, g.hex),)
    return None if found[0] is None else list(found[0])


def _approach_safe(w: World, u: Unit, movement: int, at: Hex, goal_at: Hex) -> list[tuple[Hex, Route]] | None:
    """`approach_safe` worked out."""
    safe = safe_routes(w, u, movement)
    if not safe:
        return None
    gq, gr = goal_at
    dist = {h: abs(h[0] - gq) + abs(h[1] - gr) + abs(h[0] - gq + h[1] - gr) for h in safe}  # doubled
    d = min(dist.values())
    if d >= 2 * distance(at, goal_at):
        return None
    cands = [h for h in safe if dist[h] == d]
    low = min(safe[h].steps for h in cands)
    return [(h, safe[h]) for h in sorted(cands) if safe[h].steps == low]


def _approach(at: Hex, goal_at: Hex, routes: dict[Hex, list[Route]]) -> list[tuple[Hex, Route]]:
    """`approach_options` from `at` toward a goal on `goal_at` over the end hexes `routes`."""
    here = distance(at, goal_at)
    gq, gr = goal_at
    # every end hex's distance to the goal, once (each was asked up to three times)
    dist = {h: (abs(h[0] - gq) + abs(h[1] - gr) + abs(h[0] - gq + h[1] - gr)) // 2 for h in routes}
    safe = {h: s for h, rs in routes.items() if (s := safe_steps(rs)) is not None}
    if safe:
        d = min(dist[h] for h in safe)
        if d < here:
            cands = [h for h in safe if dist[h] == d]
            low = min(safe[h] for h in cands)
            return [(h, next(r for r in routes[h] if not r.tiles and r.steps == low))
                    for h in sorted(cands) if safe[h] == low]
    near = min(dist.values())
    if near >= here:
        return []
    best = {h: shortest(rs) for h, rs in routes.items() if dist[h] == near}
    fewest = min((r.steps, len(r.tiles)) for r in best.values())
    return [(h, r) for h, r in sorted(best.items()) if (r.steps, len(r.tiles)) == fewest]


def extra_targets(w: World, u: Unit, atk: Attack, a: Attrs, first: Unit) -> list[Unit]:
    """N12 (R-TGT-7, TB8): after moving, up to Targets-1 more enemies in Range, non-minions
    first, most HP, ties to the slowest."""
    if a.targets <= 1:
        return []  # no room for more (what the slice below leaves; the rest is pure)
    spots = origins(w, u, atk)
    near = [e for e in foes(w, u) if e.uid != first.uid and e.hex is not None and _within(spots, e.hex, a.range)]
    near.sort(key=lambda e: (e.kind == "minion", *preference(w, u, e, "most_hp"), e.uid))
    return near[: a.targets - 1]


# -- the NPC turn as steps ------------------------------------------------------------------------
def _remember(w: World, u: Unit, stage: str, found: list[Any]) -> None:
    """Keep what `next_step` worked out (the target stage's tied tier, the move stage's
    options) for the step's own apply, which asked for it again (`ask`, `move_npc`).

    *Why:* the engine asks for a step and applies it at once, on the same position; the
    apply recomputed the chosen attack, its attributes and the tier or the options (the
    tier without any memo: a second reach test; issue 23). One entry on the state, never
    copied by `clone`, taken (and dropped) by the next `_recall`, and valid only for the
    same board object, layout token, log length, figure, its space and stage: any action
    or step in between logs a line or makes a new board or layout, so a stale answer is
    never read (tests/arena/test_arena_auto_speed3.py checks every use against the plain
    computation)."""
    b = w.board
    w.__dict__["_npc_step"] = (b, b.layout, len(w.events), u.uid, u.hex, stage, found)


def _recall(w: World, u: Unit, stage: str) -> list[Any] | None:
    """What `_remember` kept for this figure's `stage` on this very position, else None;
    the entry is dropped either way (read at most once)."""
    m: tuple[Any, ...] | None = w.__dict__.pop("_npc_step", None)
    if m is None:
        return None
    b = w.board
    if m[0] is b and m[1] == b.layout and m[2] == len(w.events) and m[3] == u.uid and m[4] == u.hex \
            and m[5] == stage:
        found: list[Any] = m[6]
        return found
    return None


def next_step(w: World, u: Unit) -> tuple[str, ...]:
    """The NPC's next step as action words (pure)."""
    stage = w.board.stage
    if stage in ("card", "roll", "energy", "invoke", "end"):
        return (stage,)
    atk = chosen_attack(w, u)
    a = attributes(w, u, atk)
    if stage == "target":
        tier = target_tier(w, u, atk, a, target_rule(w, u))
        if not tier:
            return ("idle",)
        if len(tier) > 1:
            _remember(w, u, "target", tier)  # for `ask`, the step that follows
            return ("ask",)
        return ("target", tier[0].uid)
    if stage == "move":
        t = w.board.units.get(str(w.board.npc_plan.get("target")))
        if t is not None and t.alive and t.hex is not None:
            if u.hex is not None and (a.from_minion or distance(u.hex, t.hex) <= a.range):
                opts = []  # N11: in Range already (as move_options says, without a route search)
            else:
                opts = move_toward(w, u, a, t)
            if opts:
                _remember(w, u, "move", opts)  # for `move_npc` or `ask`, the step that follows
                return ("move", hex_id(opts[0][0])) if len(opts) == 1 else ("ask",)
        stage = "attack"
    if stage == "attack":
        targets = final_targets(w, u, atk, a)
        return ("attack", ",".join([t.uid for t in targets])) if targets else ("idle",)
    raise AssertionError(f"unknown NPC stage {stage!r}")


def final_targets(w: World, u: Unit, atk: Attack, a: Attrs) -> list[Unit]:
    """N12 with N13: the planned target if still alive and in Range, else a fresh pick from
    the current hex with Movement 0."""
    spots = origins(w, u, atk)
    t = w.board.units.get(str(w.board.npc_plan.get("target")))
    if t is None or not t.alive or t.hex is None or not _within(spots, t.hex, a.range):
        here = [e for e in foes(w, u) if e.hex is not None and _within(spots, e.hex, a.range)]
        tier = best_tier(w, u, here, target_rule(w, u))
        if not tier:
            return []
        t = tier[0]
    return [t, *extra_targets(w, u, atk, a, t)]


def apply_step(w: World, u: Unit, words: tuple[str, ...]) -> None:
    step = words[0]
    b = w.board
    if step == "card":
        reveal_card(w, u)
        b.stage = "roll"
    elif step == "roll":
        roll_and_resolve_d8(w, u)
        b.stage = "energy"
    elif step == "energy":
        got = gain_all_energy(w, u)
        if got:
            w.events.add_public(("{} gains {} Blood Energy (now {})", u.name, got, u.energy), "energy",
                                (_UNIT_AMOUNT, u.uid, got))
        b.stage = "invoke" if wants_invoke(w, u) else "target"
    elif step == "invoke":
        invoke(w, u, None)
        b.stage = "target"
    elif step == "target":
        b.npc_plan = {"target": words[1]}
        w.events.add_public(f"{u.name} targets {w.label(words[1])}", "npc", None)
        b.stage = "move"
    elif step == "ask":
        ask(w, u)
    elif step == "move":
        h = parse_hex(words[1])
        assert h is not None
        move_npc(w, u, h)
    elif step == "attack":
        atk = chosen_attack(w, u)
        targets = [w.unit(x) for x in words[1].split(",")]
        b.stage = "end"
        pref = "temp"
        card = b.revealed.get(u.uid)
        if u.kind == "rival" and card is not None:
            pref = "be" if skirmish_card(w, card).die_pref == "be" else "temp"
        resolve_attack(w, u, atk, targets, pref)
    elif step == "idle":
        idle(w, u)


_UNIT_AMOUNT = ("unit", "amount")  # the energy line's data keys (lazy data: `EventLog.add_public`)


def ask(w: World, u: Unit) -> None:
    """Hand a tie to the fastest human player (R-TGT-5, GR-3, spec §2.5)."""
    b = w.board
    fh = w.fastest_human()
    if b.stage == "target":
        tier: list[Unit] | None = _recall(w, u, "target")
        if tier is None:
            atk = chosen_attack(w, u)
            tier = target_tier(w, u, atk, attributes(w, u, atk), target_rule(w, u))
        options = [e.uid for e in tier]
        kind = "npc_target"
    elif b.stage == "move":
        opts: list[tuple[Hex, Route]] | None = _recall(w, u, "move")
        if opts is None:
            atk = chosen_attack(w, u)
            t = w.unit(str(b.npc_plan["target"]))
            assert t.hex is not None
            opts = move_toward(w, u, attributes(w, u, atk), t)
        options = [hex_id(h) for h, _ in opts]
        kind = "npc_move"
    else:
        movement = movement_of(w, u)
        found = approach_safe(w, u, movement)
        if found is None:
            found = approach_options(w, u, explore(w, u, movement))
        options = [hex_id(h) for h, _ in found]
        kind = "npc_approach"
    if fh is None or fh.seat is None:
        decide(w, u, kind, options[0])  # no human left: the first option (spec §2.5)
        return
    w.events.add_public(f"{fh.name} decides for {u.name}", "npc", None)
    b.pending = Pending(fh.seat, kind, options, {"unit": u.uid})


def decide(w: World, u: Unit, kind: str, option: str) -> None:
    """The fastest human's answer to an `ask`."""
    b = w.board
    if kind == "npc_target":
        b.npc_plan = {"target": option}
        w.events.add_public(f"{u.name} targets {w.label(option)}", "npc", None)
        b.stage = "move"
    elif kind == "npc_move":
        h = parse_hex(option)
        assert h is not None
        move_npc(w, u, h)
    else:
        h = parse_hex(option)
        assert h is not None
        movement = movement_of(w, u)
        found = approach_safe(w, u, movement)
        if found is None:
            found = approach_options(w, u, explore(w, u, movement))
        walk(w, u, dict(found)[h].path)
        b.stage = "end"


def move_npc(w: World, u: Unit, h: Hex) -> None:
    opts: list[tuple[Hex, Route]] | None = _recall(w, u, "move")  # the step asked just now
    if opts is None:
        atk = chosen_attack(w, u)
        t = w.unit(str(w.board.npc_plan["target"]))
        assert t.hex is not None
        opts = move_toward(w, u, attributes(w, u, atk), t)
    route = dict(opts)[h]
    u.moved = True
    walk(w, u, route.path)
    w.board.stage = "attack"


def idle(w: World, u: Unit) -> None:
    """N14 (R-TGT-9, TB13, TB3): no attack; 1 Temporary Attack die; move toward the goal."""
    b = w.board
    w.log(f"{u.name} can reach no enemy: it gains a Temporary Attack die and advances", kind="npc")
    gain_temp(w, u)
    if u.moved or not u.alive:
        b.stage = "end"
        return
    movement = movement_of(w, u)
    opts = approach_safe(w, u, movement)  # without the Pareto search when the safe routes decide
    if opts is None:
        opts = approach_options(w, u, explore(w, u, movement))
    u.moved = True
    if len(opts) == 1:
        walk(w, u, opts[0][1].path)
        b.stage = "end"
    elif len(opts) > 1:
        b.stage = "approach"
        ask(w, u)
    else:
        b.stage = "end"


# -- Boss minions on Environmental lines (E2) ------------------------------------------------------
def minion_plan(w: World, m: Unit) -> tuple[Unit, list[tuple[Hex, Route]]] | None:
    """E2: a Boss minion's target (N9/N10, its own attributes) and move options (N11)."""
    if not m.alive or m.hex is None:
        return None
    spec = w.content.minion(m.content_id)
    routes = explore(w, m, spec.movement)
    cands = [e for e in foes(w, m) if e.hex is not None and any(distance(h, e.hex) <= spec.range for h in routes)]
    tier = best_tier(w, m, cands, "most_hp")
    if not tier:
        return None  # no access: a minion takes no N14 die and stays
    t = tier[0]
    return t, move_options(m, t, Attrs(spec.movement, spec.range, spec.targets, False), routes)


def minion_act(w: World, m: Unit) -> None:
    """E2: a Boss minion moves and attacks by N9-N12; a destination tie goes to the fastest
    human player like any NPC's (N11b/c)."""
    plan = minion_plan(w, m)
    if plan is None:
        return
    t, opts = plan
    fh = w.fastest_human()
    if len(opts) > 1 and fh is not None and fh.seat is not None:
        w.board.pending = Pending(fh.seat, "minion_move", [hex_id(h) for h, _ in opts], {"unit": m.uid})
        w.log(f"{fh.name} decides for {m.name}", kind="npc")
        return
    if opts:
        walk(w, m, opts[0][1].path)
    minion_strike(w, m, t)


def minion_finish(w: World, m: Unit, option: str) -> None:
    plan = minion_plan(w, m)
    if plan is None:
        return
    t, opts = plan
    h = parse_hex(option)
    routes = dict(opts)
    if h is not None and h in routes:
        walk(w, m, routes[h].path)
    minion_strike(w, m, t)


def minion_strike(w: World, m: Unit, t: Unit) -> None:
    spec = w.content.minion(m.content_id)
    if not m.alive or m.hex is None or t.hex is None or distance(m.hex, t.hex) > spec.range:
        return
    w.log(f"{m.name} attacks {t.name}", kind="attack", unit=m.uid, minion=True, targets=[t.uid], damage=spec.damage)
    damage(w, t, spec.damage, m.name, source=m.uid, how="minion")

