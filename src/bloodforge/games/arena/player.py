"""The players' side of a turn: legal actions and their effects (R-ACT, R-BE, R-MOV, R-ATT,
R-BON, R-PACT, R-ULT, R-MIN-5) and the answers to waiting decisions (spec §2.5)."""

from __future__ import annotations

from bloodforge.core import Action

from . import abilities, attack, npc
from .content import Attack
from .dice import energy_dice_ready, gain_energy
from .effects import check_end, drain, walk
from .environment import resume as resume_environment
from .hexes import Hex, hex_id, parse_hex
from .initiative import card_of, settle_tie
from .model import ATTACK, BE, TEMP, Unit
from .movement import routes_to, safest, shared_destinations
from .turns import act, end_turn, place, place_options, settle
from .world import World


def legal(w: World, seat: int) -> list[Action]:
    b = w.board
    if b.pending is not None:
        return [act("choose", o) for o in b.pending.options]
    if b.phase == "pick":
        u = seat_unit(w, seat)
        return [act("pick", c) for c in sorted(u.hand)]
    if b.phase == "place":
        return [act("place", hex_id(h)) for h in place_options(w)]
    u = w.unit(str(b.active))
    if b.stage == "target":
        return target_actions(w, u)
    out: list[Action] = [act("energy", str(i)) for i in energy_dice_ready(u)]
    if not u.moved:
        out += _move_actions(w, u, attack.movement_of(w, u))
    if not u.attacked:
        out += [act("attack", a.id) for a in attack.offered_attacks(w, u)]
    if u.current is not None and "card" not in u.bonus_used:
        card = card_of(w, u, u.current)
        if card is not None and card.bonus is not None:
            out.append(act("bonus", "card"))
    for i, d in enumerate(u.pool):
        if d.kind in _PLAIN_DICE:  # `not d.is_special`, inlined: asked for every die at every step
            continue
        if d.face is not None and not d.fresh and not d.used \
                and w.content.special_die(d.kind).timing == "spell" and f"spell{i}" not in u.bonus_used:
            out.append(act("spell", str(i)))
    for p in w.content.champion(u.content_id).pacts:
        if p.id not in u.bonus_used and u.energy >= p.cost:
            out.append(act("pact", p.id))
    if attack.can_invoke(w, u):
        be = [i for i, d in enumerate(u.pool) if d.kind == BE]
        out += [act("invoke", str(i)) for i in be] if be else [act("invoke")]
    uid = u.uid
    mine = [m for m in b.units.values() if m.kind == "minion" and m.summoner == uid]
    if len(mine) > 1:
        mine.sort(key=_uid_of)  # by id (most Champions have no minions: no sort, no key)
    for m in mine:
        if m.alive and m.hex is not None and f"minion:{m.uid}" not in u.bonus_used:
            spec = w.content.minion(m.content_id)
            if spec.movement > 0:
                out += _move_actions(w, m, spec.movement)
    out.append(act("end"))
    return out


def _uid_of(u: Unit) -> str:
    return u.uid


def _move_actions(w: World, mover: Unit, steps: int) -> list[Action]:
    """The `move <hex>` actions of a Champion (or the `minion <id> <hex>` actions of its
    minion) to every destination but its own space, in `destinations` order.

    *Why a memo:* legal actions list them at every step of a turn and the layout seldom
    changes in between (issue 23: building dozens of actions per call was ~5 % of six-seat
    playouts). Keyed by what `destinations` reads (the layout, the mover, its flying, space
    and Movement), in the layout memo that clones share; callers copy it (`out +=`)."""
    here = mover.hex
    key = ("move_actions", w.board.layout, mover.uid, mover.kind, mover.is_flying, here, steps)
    table = w.layout_memo()
    found: list[Action] | None = table.get(key)
    if found is None:
        ends = shared_destinations(w, mover, steps)
        # the same end hexes (one list object for every position with the same obstacles
        # near the mover) give the same actions: made once per list, mover and space
        minion = mover.kind == "minion"
        by_ends = (id(ends), here, mover.uid if minion else None)
        entry = _BY_ENDS.get(by_ends)
        if entry is not None and entry[0] is ends:
            found = entry[1]
        else:
            if minion:
                uid, made = mover.uid, _MINION_MOVES
                found = [made.get((uid, h)) or _minion_action(uid, h) for h in ends if h != here]
            else:
                moves = _MOVES  # made once per hex (`_move_action`)
                found = [moves.get(h) or _move_action(h) for h in ends if h != here]
            if len(_BY_ENDS) > 8192:
                _BY_ENDS.clear()
            _BY_ENDS[by_ends] = (ends, found)  # the list kept: its id is not reused while here
        if len(table) >= 1024:
            table.clear()
        table[key] = found
    return found


#: (id of a shared end-hex list, the mover's space, a minion's id) -> (that list, the actions)
_BY_ENDS: dict[tuple[int, Hex | None, str | None], tuple[tuple[Hex, ...], list[Action]]] = {}


_PLAIN_DICE = (ATTACK, TEMP, BE)  # the kinds that are not Special dice (`Die.is_special`)
_MOVES: dict[Hex, Action] = {}
_MINION_MOVES: dict[tuple[str, Hex], Action] = {}


def _move_action(h: Hex) -> Action:
    """`move <hex>`, made once per hex (actions are immutable; legal actions list dozens of
    moves at every step of a turn)."""
    a = _MOVES.get(h)
    if a is None:
        a = _MOVES[h] = Action("move", (hex_id(h),))
    return a


def _minion_action(uid: str, h: Hex) -> Action:
    a = _MINION_MOVES.get((uid, h))
    if a is None:
        if len(_MINION_MOVES) > 65536:
            _MINION_MOVES.clear()
        a = _MINION_MOVES[(uid, h)] = Action("minion", (uid, hex_id(h)))
    return a


def target_actions(w: World, u: Unit) -> list[Action]:
    b = w.board
    assert b.attack is not None
    atk = attack.attack_by_id(w, u, str(b.attack["attack"]))
    chosen = list(b.attack["targets"])
    out = [act("target", e.uid) for e in sorted(attack.in_range(w, u, atk), key=lambda e: e.uid)
           if e.uid not in chosen]
    if chosen:
        out.append(act("done"))
    else:
        out.append(act("cancel"))
    return out


def seat_unit(w: World, seat: int) -> Unit:
    return next(u for u in w.board.units.values() if u.seat == seat)


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
    drain(w)  # effects a move left waiting (a Springboard's launch)
    settle(w)


def turn_action(w: World, u: Unit, action: Action) -> None:
    b = w.board
    k, a = action.kind, action.args
    if k == "energy":
        d = u.pool[int(a[0])]
        d.used = True
        got = gain_energy(w, u, d.face or 0)
        w.log(f"{u.name} gains {got} Blood Energy from a die (now {u.energy})", kind="energy", unit=u.uid,
              amount=got)
    elif k == "move":
        h = parse_hex(a[0])
        assert h is not None
        u.moved = True
        walk(w, u, safest(routes_to(w, u, attack.movement_of(w, u), h)).path)
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
        w.log(f"{u.name} uses a {spec.name} die showing {d.face}", kind="spell", unit=u.uid, die=d.kind, face=d.face)
        abilities.queue(w, u, spec.faces[(d.face or 1) - 1], u.uid, spec.name, {"die": i, "face": d.face})
        drain(w)
    elif k == "pact":
        p = next(x for x in w.content.champion(u.content_id).pacts if x.id == a[0])
        u.energy -= p.cost  # R-PACT-1, R-BE-4
        u.bonus_used.append(p.id)
        w.log(f"{u.name} pays {p.cost} Blood Energy for {p.name}", kind="pact", unit=u.uid, pact=p.id, cost=p.cost)
        abilities.use(w, u, f"pact:{u.content_id}:{p.id}")
    elif k == "invoke":
        attack.invoke(w, u, int(a[0]) if a else None)
    elif k == "minion":
        m = w.unit(a[0])
        h = parse_hex(a[1])
        assert h is not None
        u.bonus_used.append(f"minion:{m.uid}")
        walk(w, m, safest(routes_to(w, m, w.content.minion(m.content_id).movement, h)).path)
    elif k == "end":
        end_turn(w, u)
    check_end(w)


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
