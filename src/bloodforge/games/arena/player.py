"""The players' side of a turn: legal actions and their effects (R-ACT, R-BE, R-MOV, R-ATT,
R-BON, R-PACT, R-ULT, R-MIN-5) and the answers to waiting decisions (spec §2.5)."""

from __future__ import annotations

from bloodforge.core import Action

from . import abilities, attack, npc
from .content import CATEGORY_RANK, Attack, Content
from .dice import energy_dice_ready, gain_energy
from .effects import check_end, drain, walk
from .environment import resume as resume_environment
from .hexes import Hex, hex_id, parse_hex
from .initiative import card_of, settle_tie
from .model import ATTACK, BE, TEMP, Pending, Unit
from .movement import _Grid, destinations, foes_mask, move_mask, move_path, roster
from .turns import act, end_turn, place, place_options, settle
from .world import World


def legal(w: World, seat: int) -> list[Action]:
    b = w.board
    if b.pending is not None:
        return list(choose_actions(b.pending))
    if b.phase == "pick":
        return list(_pick_actions(seat_unit(w, seat).hand))
    if b.phase == "place":
        return [act("place", hex_id(h)) for h in place_options(w)]
    u = w.unit(str(b.active))
    if b.stage == "target":
        return target_actions(w, u)
    return turn_actions(w, u)


def turn_actions(w: World, u: Unit) -> list[Action]:
    """The active figure's actions in its act stage (R-ACT, R-BE, R-MOV, R-ATT, R-BON,
    R-PACT, R-ULT, R-MIN-5), in the order `plain_turn_actions` lists them.

    *Why not that plain listing:* it runs at nearly every ply (issue 23: the players' legal
    actions were ~30 % of six-seat playouts). Here the pool is read in one pass (ready BE
    dice, spells and the BE dice to keep at an invocation), the actions come from tables,
    and a summoner's minions are found once per layout (`_minions_of`) instead of by a pass
    over every figure."""
    b = w.board
    out: list[Action] = []
    spells: list[Action] | None = None
    be: list[int] = []
    energy = _ENERGY
    entry = _CHAMPIONS.get(u.content_id)  # `_champion_table`'s usual case, without its frame
    pacts, ultimate, bonus_cards, has_minions, movement, spell_kinds = \
        entry[1] if entry is not None and entry[0] is w.content else _champion_table(w, u.content_id)
    for i, d in enumerate(u.pool):
        kind = d.kind
        if kind == BE:
            be.append(i)
            if d.face is not None and not d.fresh and not d.used:
                out.append(energy[i] if i < len(energy) else act("energy", str(i)))
        elif kind in spell_kinds and d.face is not None and not d.fresh and not d.used \
                and (_SPELL_TAGS[i] if i < len(_SPELL_TAGS) else f"spell{i}") not in u.bonus_used:
            if spells is None:
                spells = []
            spells.append(_SPELLS[i] if i < len(_SPELLS) else act("spell", str(i)))
    if not u.moved:
        mods = u.mods  # `attack.movement_of`, the printed Movement read off the table
        out += _move_actions(w, u, max(0, movement + mods.get("movement", 0)) if mods else movement)
    # a Champion's minions are those of its card, made at setup (scenarios only change
    # them): most have none, and then no look-up at all
    minions = _minions_of(w, u.uid) if has_minions else ()
    if not u.attacked:
        out += _offered_actions(w, u, minions)
    used = u.bonus_used
    current = u.current
    if current is not None and current in bonus_cards and "card" not in used:
        out.append(_BONUS_CARD)
    if spells is not None:
        out += spells
    energy_now = u.energy
    for pact_id, cost, pact in pacts:
        if pact_id not in used and energy_now >= cost:
            out.append(pact)
    if not u.invoked and not u.attacked and energy_now >= ultimate:  # `attack.can_invoke`
        out += [_INVOKES[i] if i < len(_INVOKES) else act("invoke", str(i)) for i in be] if be else [_INVOKE]
    if minions:
        units = b.units
        for muid, tag, steps in minions:
            if steps > 0 and tag not in used:
                out += _move_actions(w, units[muid], steps)
    out.append(_END)
    return out


def _offered_actions(w: World, u: Unit, minions: tuple[tuple[str, str, int], ...]) -> list[Action]:
    """The `attack <id>` actions of `attack.offered_attacks` (the options with an enemy in
    Range, else the first option), in its order.

    *Why by masks for summoners:* a figure that attacks from its minions asked for the hex
    distance from each origin to every enemy after every change of layout (issue 23:
    `attack._nearest_by_origin` was the largest own time of six-seat listings). Here an
    enemy is within Range R of an origin exactly when the disk of radius R around it meets
    the enemies' spaces (`movement.foes_mask`, read off the layout's record that the
    minions' move listing made already): one `&` per option and origin. The others (one
    pass over the figures is cheaper than a record after a move) and boards the masks
    cannot read go through `offered_attacks`. `minions`: `_minions_of(w, u.uid)` (or
    nothing when its card has none)."""
    rank = 3 if u.invoked else CATEGORY_RANK.get(u.rolled_category or "singles", 1)  # `attack.available_rank`
    content = w.content
    key = (u.kind, u.content_id, rank)
    entry = _OFFERS.get(key)
    if entry is None or entry[0] is not content:
        options = attack.attack_options(w, u)
        entry = (content, any(a.origin != "self" for a in options),
                 tuple((a.origin, a.range_bonus, _ATTACKS.get(a.id) or _attack_action(a.id)) for a in options), {})
        if len(_OFFERS) > 4096:
            _OFFERS.clear()
        _OFFERS[key] = entry
    if entry[1]:
        found = _offered_by_masks(w, u, entry[2], minions)
        if found is not None:
            return found
        attacks = _ATTACKS
        out = []
        for a in attack.offered_attacks(w, u):
            got = attacks.get(a.id)
            out.append(got if got is not None else _attack_action(a.id))
        return out
    # every option attacks from the figure's space: `offered_attacks` reads only the
    # distance to the nearest damageable enemy and the Range bonus of this turn
    mods = u.mods
    bonus = mods.get("range", 0) if mods else 0
    here = u.hex
    nearest: int | None = None
    if here is not None:  # `attack._nearest_enemy`: one pass over the figures
        q, r = here
        side = u.side
        for e in w.board.units.values():
            at = e.hex
            if at is None or not e.alive or e.side == side or e.hp is None:
                continue
            dq, dr = at[0] - q, at[1] - r
            d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if nearest is None or d < nearest:
                nearest = d
    by_reach = entry[3]
    reach_key = (bonus, nearest)
    kept = by_reach.get(reach_key)
    if kept is None:
        reach = attack.base_attributes(w, u)[1] + bonus
        items = entry[2]
        kept = [a for _, extra, a in items if nearest is not None and max(0, reach + extra) >= nearest]
        if not kept and items:  # nobody in Range: the first option (it gives the action up)
            kept = [items[0][2]]
        if len(by_reach) > 256:
            by_reach.clear()
        by_reach[reach_key] = kept
    return kept


def _offered_by_masks(w: World, u: Unit, items: tuple[tuple[str, int, Action], ...],
                      minions: tuple[tuple[str, str, int], ...]) -> list[Action] | None:
    """`_offered_actions` for a summoner by the layout's masks; None when they cannot say
    it (see `movement.foes_mask`; an origin beyond the grid's box)."""
    found = foes_mask(w, u.side)
    if found is None:
        return None
    grid, foes = found
    here = u.hex
    pos = None if here is None else grid.pos(here)
    if here is not None and pos is None:
        return None
    units = w.board.units
    spots: dict[str, list[int]] = {}
    for muid, _, _ in minions:
        m = units[muid]
        at = m.hex
        p = None if at is None else grid.pos(at)
        if p is None:
            return None
        spots.setdefault(m.content_id, []).append(p)
    reach = attack.base_attributes(w, u)[1]
    mods = u.mods
    if mods:
        reach += mods.get("range", 0)
    disk = grid.disk
    out = []
    for origin, bonus, a in items:
        r = max(0, reach + bonus)
        if origin == "self":
            if pos is not None and disk(pos, r) & foes:
                out.append(a)
        else:
            for p in spots.get(origin, ()):
                if disk(p, r) & foes:
                    out.append(a)
                    break
    return out if out else [items[0][2]]


#: (figure kind, its content id, rank) -> (the content it was made from: another content
#: makes the entry again; whether some option attacks
#: from the figure's minions, each option's origin, Range bonus and action in printed order,
#: and for a figure whose options all attack from its space the offered actions by (the
#: Range bonus of this turn, the distance to the nearest damageable enemy or None)).
_OFFERS: dict[tuple[str, str, int], tuple[Content, bool, tuple[tuple[str, int, Action], ...],
                                               dict[tuple[int, int | None], list[Action]]]] = {}


#: What `turn_actions` reads of a Champion's printed card, by content and Champion: its pacts
#: as (id, cost, `pact <id>` action) in printed order, its Ultimate's cost, the ids of its
#: Initiative cards that have a Bonus Action, whether it has minions, its printed Movement,
#: and the kinds of Special dice of the content that are cast as spells.
ChampionTable = tuple[tuple[tuple[str, int, Action], ...], int, frozenset[str], bool, int, frozenset[str]]
_CHAMPIONS: dict[str, tuple[Content, ChampionTable]] = {}


def _champion_table(w: World, champion_id: str) -> ChampionTable:
    """The Champion's `ChampionTable`, made once per content and Champion: kept by the
    Champion's id with the content it was made from, and made again when another content
    asks (a playout asks with one content all along; a key with the content's id cost a
    tuple per listing). *Why:* the act stage's listing looked up the Champion, its current
    card and its Ultimate's cost and made each pact's action at every ply (issue 23).
    Unknown Champions raise StopIteration, as `Content.champion` does."""
    content = w.content
    entry = _CHAMPIONS.get(champion_id)  # by id alone: one content in a process as a rule
    if entry is None or entry[0] is not content:
        champion = content.champion(champion_id)
        table: ChampionTable = (
            tuple((p.id, p.cost, act("pact", p.id)) for p in champion.pacts),
            champion.ultimate_cost,
            frozenset(c.id for c in champion.cards
                      if (card := content.initiative_card(champion_id, c.id)) is not None and card.bonus is not None),
            bool(champion.minions),
            max(0, champion.movement),
            frozenset(d.id for d in [*(d for c in content.champions for d in c.dice),
                                     *(d for b in content.bosses for d in b.dice)]
                      if d.id not in _PLAIN_DICE and content.special_die(d.id).timing == "spell"),
        )
        if len(_CHAMPIONS) > 256:
            _CHAMPIONS.clear()
        entry = _CHAMPIONS[champion_id] = (content, table)
    return entry[1]


def plain_turn_actions(w: World, u: Unit) -> list[Action]:
    """`turn_actions` the plain way, each rule's actions listed by its own pass (kept as the
    reference the fast listing is tested against)."""
    b = w.board
    out: list[Action] = [act("energy", str(i)) for i in energy_dice_ready(u)]
    if not u.moved:
        out += destinations_actions(w, u, attack.movement_of(w, u))
    if not u.attacked:
        out += [act("attack", a.id) for a in attack.offered_attacks(w, u)]
    if u.current is not None and "card" not in u.bonus_used:
        card = card_of(w, u, u.current)
        if card is not None and card.bonus is not None:
            out.append(act("bonus", "card"))
    for i, d in enumerate(u.pool):
        if d.is_special and d.face is not None and not d.fresh and not d.used \
                and w.content.special_die(d.kind).timing == "spell" and f"spell{i}" not in u.bonus_used:
            out.append(act("spell", str(i)))
    for p in w.content.champion(u.content_id).pacts:
        if p.id not in u.bonus_used and u.energy >= p.cost:
            out.append(act("pact", p.id))
    if attack.can_invoke(w, u):
        be = [i for i, d in enumerate(u.pool) if d.kind == BE]
        out += [act("invoke", str(i)) for i in be] if be else [act("invoke")]
    mine = sorted((m for m in b.units.values() if m.kind == "minion" and m.summoner == u.uid), key=_uid_of)
    for m in mine:
        if m.alive and m.hex is not None and f"minion:{m.uid}" not in u.bonus_used:
            spec = w.content.minion(m.content_id)
            if spec.movement > 0:
                out += destinations_actions(w, m, spec.movement)
    out.append(act("end"))
    return out


def destinations_actions(w: World, mover: Unit, steps: int) -> list[Action]:
    """The move actions of `mover` read off `destinations` with no memo (the reference)."""
    here = mover.hex
    if mover.kind == "minion":
        return [act("minion", mover.uid, hex_id(h)) for h in destinations(w, mover, steps) if h != here]
    return [act("move", hex_id(h)) for h in destinations(w, mover, steps) if h != here]


def _minions_of(w: World, uid: str) -> tuple[tuple[str, str, int], ...]:
    """A summoner's minions on the board, sorted by id, each as (its id, the `minion:<id>`
    mark of its move among the bonus actions used, its printed Movement): R-MIN-5 lists
    their moves.

    *Why per roster:* which minions stand on the board (alive, with a space) changes only
    when a figure enters or leaves it (`movement.roster`: one table while only spaces
    change), and most figures have none, so one look-up replaces a pass over every figure
    at nearly every listing (issue 23)."""
    key = ("minions_of", uid)
    table = roster(w)
    found: tuple[tuple[str, str, int], ...] | None = table.get(key)
    if found is None:
        minion = w.content.minion
        found = tuple(sorted((m.uid, "minion:" + m.uid, minion(m.content_id).movement) for m in w.board.units.values()
                             if m.kind == "minion" and m.summoner == uid and m.alive and m.hex is not None))
        table[key] = found
    return found


def _uid_of(u: Unit) -> str:
    return u.uid


def _move_actions(w: World, mover: Unit, steps: int) -> list[Action]:
    """The `move <hex>` actions of a Champion (or the `minion <id> <hex>` actions of its
    minion) to every destination but its own space, in `destinations` order. Callers must
    not change the list (it is shared: they copy it, `out +=`).

    *Why from the end mask:* legal actions list them after nearly every change of layout
    (issue 23: ~14 % of six-seat playouts). The end cells but the mover's own come as one
    int (`movement.move_mask`, its walk kept per obstacles near the mover), and the actions
    are read off it by byte (`_byte_actions`), with no tuple of hexes in between. (The lists
    were also kept by that int, in a process-wide table: its look-up by a tuple holding a
    big int cost about what reading a dozen bytes does, and dropping it measured 1.005x
    solo, 1.012x six seats; eighth session.)"""
    memo = w.layout_memo()
    flying = mover.is_flying
    here = (_MOVES_HERE, w.board.layout, mover.uid, mover.side, flying, steps)
    kept: list[Action] | None = memo.get(here)
    if kept is not None:
        return kept
    found = move_mask(w, mover, steps)
    if found is None:  # a start beyond the grid's box: its one end hex is its own space
        memo[here] = kept = []
        return kept
    grid, mask = found
    acts: list[Action] = []
    if mask:
        uid = mover.uid if mover.kind == "minion" else None
        rows = _byte_actions(grid, uid)
        j0 = ((mask & -mask).bit_length() - 1) >> 3
        for j, v in enumerate((mask >> (j0 << 3)).to_bytes((mask.bit_length() + 7 >> 3) - j0, "little"), j0):
            if v:
                row = rows[j]
                got = row.get(v)
                if got is None:
                    moves = _minion_moves(uid) if uid is not None else _MOVES
                    got = row[v] = tuple(map(moves.__getitem__, grid.byte_hexes(j, v)))
                acts += got
    memo[here] = acts
    return acts


#: The layout memo's key word of `_move_actions`' answers by layout (the mover's space, the
#: spaces and sides of the others and the tiles are the layout's; its side, flying and
#: steps are in the key): the act stage lists them again after every action that moves
#: nobody (energy, pacts, bonus actions: half of a solo turn's listings), and the end
#: mask's key (the walk's obstacles cut to the mover's disk) cost more than this look-up.
_MOVES_HERE = "move_actions"


def _byte_actions(grid: _Grid, uid: str | None) -> list[dict[int, tuple[Action, ...]]]:
    """Per byte of a mask over `grid`, its value -> the move actions (`move <hex>`, or
    `minion <uid> <hex>`) to the hexes of its bits, ascending: filled as values are met."""
    key = (grid.serial, uid)
    rows = _BYTE_ACTIONS.get(key)
    if rows is None:
        if len(_BYTE_ACTIONS) > 256:
            _BYTE_ACTIONS.clear()
        rows = _BYTE_ACTIONS[key] = [{} for _ in range(grid.nbytes)]
    return rows


_BYTE_ACTIONS: dict[tuple[int, str | None], list[dict[int, tuple[Action, ...]]]] = {}


_PLAIN_DICE = (ATTACK, TEMP, BE)  # the kinds that are not Special dice (`Die.is_special`)


class _Moves(dict[Hex, Action]):
    """Hex -> the move action to it, each made at its first use (`act`): the move lists
    are read off it by `map` (issue 23: a `.get(h) or make(h)` per hex cost more than the
    rest of a list built on a miss)."""

    __slots__ = ("uid",)

    def __init__(self, uid: str | None) -> None:
        super().__init__()
        self.uid = uid  # a minion's id (`minion <id> <hex>`), None for `move <hex>`

    def __missing__(self, h: Hex) -> Action:
        a = self[h] = act("move", hex_id(h)) if self.uid is None else act("minion", self.uid, hex_id(h))
        return a


_MOVES = _Moves(None)
_MINION_MOVES: dict[str, _Moves] = {}


def _minion_moves(uid: str) -> _Moves:
    table = _MINION_MOVES.get(uid)
    if table is None:
        if len(_MINION_MOVES) > 1024:
            _MINION_MOVES.clear()
        table = _MINION_MOVES[uid] = _Moves(uid)
    return table


_ENERGY = tuple(act("energy", str(i)) for i in range(16))  # `energy <die>` for the first dice
_SPELLS = tuple(act("spell", str(i)) for i in range(16))  # `spell <die>`
_SPELL_TAGS = tuple(f"spell{i}" for i in range(16))  # a spell cast from die i, among the bonus actions used
_INVOKES = tuple(act("invoke", str(i)) for i in range(16))  # `invoke <BE die kept>`
_INVOKE = act("invoke")
_BONUS_CARD = act("bonus", "card")
_END = act("end")
_DONE = act("done")
_CANCEL = act("cancel")
_ATTACKS: dict[str, Action] = {}


def _attack_action(attack_id: str) -> Action:
    a = _ATTACKS[attack_id] = act("attack", attack_id)
    return a


def _pick_actions(hand: list[str]) -> tuple[Action, ...]:
    """`pick <card>` for each card of a hand, in sorted order, made once per hand (every
    seat's pick listing asked for them again each round: issue 23)."""
    key = tuple(hand)
    found = _PICKS.get(key)
    if found is None:
        if len(_PICKS) > 4096:
            _PICKS.clear()
        found = _PICKS[key] = tuple(act("pick", c) for c in sorted(hand))
    return found


_PICKS: dict[tuple[str, ...], tuple[Action, ...]] = {}


def choose_actions(pending: Pending) -> tuple[Action, ...]:
    """The `choose` actions of a waiting decision (`_choose_actions` of its options)."""
    return _choose_actions(tuple(pending.options))


def _choose_actions(options: tuple[str, ...]) -> tuple[Action, ...]:
    """`choose <option>` for each option of a waiting decision, in its order, made once per
    list of options (a quarter of solo plies answer one, made anew by `act` per option:
    ~1 % of a solo playout; issue 23)."""
    found = _CHOICES.get(options)
    if found is None:
        if len(_CHOICES) > 4096:
            _CHOICES.clear()
        found = _CHOICES[options] = tuple(act("choose", o) for o in options)
    return found


_CHOICES: dict[tuple[str, ...], tuple[Action, ...]] = {}


def target_actions(w: World, u: Unit) -> list[Action]:
    b = w.board
    assert b.attack is not None
    atk = attack.attack_by_id(w, u, str(b.attack["attack"]))
    chosen = b.attack["targets"]
    out = [act("target", e.uid) for e in sorted(attack.in_range(w, u, atk), key=_uid_of) if e.uid not in chosen]
    out.append(_DONE if chosen else _CANCEL)
    return out


def seat_unit(w: World, seat: int) -> Unit:
    """The figure `seat` plays (a plain loop: the generator `next` took twice as long)."""
    for u in w.board.units.values():
        if u.seat == seat:
            return u
    raise StopIteration(f"no figure of seat {seat}")


def apply_seat(w: World, action: Action, seat: int) -> None:
    b = w.board
    k, a = action.kind, action.args
    if k == "choose":
        choose(w, a[0])
    elif k == "pick":
        b.picks[seat] = a[0]
        u = seat_unit(w, seat)
        card = card_of(w, u, a[0])
        w.log(f"you ({u.name}) choose {card.name if card else a[0]}", kind="pick", to=seat,
              masked=f"{u.name} has chosen a card")
    elif k == "place":
        h = parse_hex(a[0])
        assert h is not None
        place(w, seat_unit(w, seat), h)
    else:
        turn_action(w, w.unit(str(b.active)), action)
    if b.queue or b.gone:  # `drain`'s own first test: nothing queued, no die to purge
        drain(w)  # effects a move left waiting (a Springboard's launch)
    # `settle`'s own first test (as `turns.apply_auto`): a living figure's turn is on and
    # nothing waits (most of the seat's actions end so)
    if b.phase == "turns" and b.pending is None and not b.queue and b.active is not None:
        now = b.units.get(b.active)
        if now is None or now.alive:
            return
    settle(w)


def turn_action(w: World, u: Unit, action: Action) -> None:
    b = w.board
    k, a = action.kind, action.args
    if k == "energy":
        d = u.pool[int(a[0])]
        d.used = True
        got = gain_energy(w, u, d.face or 0)
        w.events.add_public(("{} gains {} Blood Energy from a die (now {})", u.name, got, u.energy), "energy",
                            (_ENERGY_KEYS, u.uid, got))
    elif k == "move":
        h = parse_hex(a[0])
        assert h is not None
        u.moved = True
        walk(w, u, move_path(w, u, attack.movement_of(w, u), h))
    elif k == "attack":
        atk = attack.attack_by_id(w, u, a[0])
        if not attack.in_range(w, u, atk):
            attack.whiff(w, u, atk)
        else:
            b.attack = {"attack": atk.id, "targets": [], "max": attack.targets_of(w, u, atk)}
            b.stage = "target"
    elif k == "target":
        assert b.attack is not None
        b.attack["targets"] = [*b.attack["targets"], a[0]]
        if len(b.attack["targets"]) >= int(b.attack["max"]):
            fire(w, u)
    elif k == "done":
        fire(w, u)
    elif k == "cancel":
        b.attack = None
        b.stage = "act"
    elif k == "bonus":
        u.bonus_used.append("card")
        assert u.current is not None
        abilities.use(w, u, f"card:{u.content_id}:{u.current}:bonus")
    elif k == "spell":
        i = int(a[0])
        d = u.pool[i]
        d.used = True
        u.bonus_used.append(f"spell{i}")
        spec = w.content.special_die(d.kind)
        w.events.add_public(("{} uses a {} die showing {}", u.name, spec.name, d.face), "spell",
                            (_SPELL_KEYS, u.uid, d.kind, d.face))
        abilities.queue(w, u, spec.faces[(d.face or 1) - 1], u.uid, spec.name, {"die": i, "face": d.face})
        drain(w)
    elif k == "pact":
        p = next(x for x in w.content.champion(u.content_id).pacts if x.id == a[0])
        u.energy -= p.cost  # R-PACT-1, R-BE-4
        u.bonus_used.append(p.id)
        w.events.add_public(("{} pays {} Blood Energy for {}", u.name, p.cost, p.name), "pact",
                            (_PACT_KEYS, u.uid, p.id, p.cost))
        abilities.use(w, u, f"pact:{u.content_id}:{p.id}")
    elif k == "invoke":
        attack.invoke(w, u, int(a[0]) if a else None)
    elif k == "minion":
        m = w.unit(a[0])
        h = parse_hex(a[1])
        assert h is not None
        u.bonus_used.append(f"minion:{m.uid}")
        walk(w, m, move_path(w, m, w.content.minion(m.content_id).movement, h))
    elif k == "end":
        end_turn(w, u)
    check_end(w)


#: The data keys of the seat's log lines written as parts (`EventLog.add_public`: a line's
#: text and data are put together when it is first read; most lines of a playout never are).
_ENERGY_KEYS = ("unit", "amount")
_SPELL_KEYS = ("unit", "die", "face")
_PACT_KEYS = ("unit", "pact", "cost")


def fire(w: World, u: Unit) -> None:
    b = w.board
    assert b.attack is not None
    atk: Attack = attack.attack_by_id(w, u, str(b.attack["attack"]))
    targets = [w.unit(x) for x in b.attack["targets"]]
    b.stage = "act"
    attack.resolve_attack(w, u, atk, targets)
    b.attack = None


def choose(w: World, option: str) -> None:
    """A waiting decision answered (spec §2.5 and the players' own choices)."""
    b = w.board
    p = b.pending
    assert p is not None
    b.pending = None
    if p.kind in ("force", "move", "bonus_die", "reroll"):
        b.queue[0].ctx["chosen"] = option
        drain(w)
    elif p.kind == "select":
        abilities.use(w, w.unit(str(p.data["owner"])), str(p.data["ref"]), subject=option)
    elif p.kind == "minion_move":
        npc.minion_finish(w, w.unit(str(p.data["unit"])), option)
        resume_environment(w)
    elif p.kind == "tie":
        settle_tie(w, option, list(p.data["fixed"]))
    elif p.kind == "option":
        abilities.use(w, w.unit(str(p.data["owner"])), str(p.data["ref"]), subject=str(p.data["subject"]),
                      option=int(option) - 1)
    else:
        npc.decide(w, w.unit(str(p.data["unit"])), p.kind, option)
