"""Abilities (Initiative cards, Blood Pacts, Spell dice, behaviour cards): who they select and
what they queue (R-IMM-3..6, R-BON, R-PACT, R-INI-2).

An ability is addressed by a reference string (`card:<champion>:<card>:immediate`,
`pact:<champion>:<pact>`) so a waiting decision can name it in JSON.
"""

from __future__ import annotations

from .content import Ability, Content, Effect
from .dice import category_of, die_row, die_rows
from .effects import drain
from .model import ATTACK, BE, TEMP, Pending, QItem, Unit
from .world import World


def ability_by_ref(w: World, ref: str) -> Ability:
    parts = ref.split(":")
    if parts[0] == "card":
        card = next(c for c in w.content.champion(parts[1]).cards if c.id == parts[2])
        ab = card.immediate if parts[3] == "immediate" else card.bonus
        assert ab is not None
        return ab
    if parts[0] == "pact":
        return next(p for p in w.content.champion(parts[1]).pacts if p.id == parts[2]).ability
    raise KeyError(ref)


def source_name(w: World, ref: str) -> str:
    """The printed name of the card or Blood Pact an ability reference points at (log lines
    say "takes 3 (Pinning Shot)", never the id)."""
    parts = ref.split(":")
    champion = w.content.champion(parts[1])
    if parts[0] == "card":
        return next((c.name for c in champion.cards if c.id == parts[2]), parts[2])
    return next((p.name for p in champion.pacts if p.id == parts[2]), parts[2])


def _ability(w: World, ref: str) -> tuple[Ability, str]:
    """`ability_by_ref` and `source_name` of `ref`, looked up once per content and reference
    (every Initiative card, Blood Pact and Skirmish ability used asks: issue 23); a bad
    reference fails as `ability_by_ref` does."""
    content = w.content
    key = (id(content), ref)
    entry = _ABILITIES.get(key)
    if entry is None or entry[0] is not content:
        if len(_ABILITIES) > 4096:
            _ABILITIES.clear()
        entry = _ABILITIES[key] = (content, ability_by_ref(w, ref), source_name(w, ref))
    return entry[1], entry[2]


_ABILITIES: dict[tuple[int, str], tuple[Content, Ability, str]] = {}  # content kept: its id is not reused


def candidates(w: World, owner: Unit, ab: Ability) -> list[Unit]:
    """R-IMM-3..6, A9: 'faster'/'slower' look at this round's order, skipping Environmentals
    and the fallen; an ability that finds nobody misses."""
    if ab.select in ("self", "target"):
        return [owner]
    order = [w.board.units[x] for x in w.board.order if x in w.board.units]
    order = [u for u in order if u.alive and u.is_combatant]
    if owner not in order:
        return []
    i = order.index(owner)
    if ab.select == "faster_enemy":
        return [u for u in order[:i] if w.enemies(owner, u)]
    if ab.select == "slower_enemy":
        return [u for u in order[i + 1:] if w.enemies(owner, u)]
    if ab.select == "next_fastest":
        return order[i - 1: i] if i > 0 else []
    if ab.select == "next_slowest":
        return order[i + 1: i + 2]
    return [u for u in order if u.speed is not None]  # any_character with a Speed (A8)


def decider(w: World, owner: Unit) -> int | None:
    if owner.seat is not None:
        return owner.seat
    fh = w.fastest_human()
    return fh.seat if fh is not None else None


def use(w: World, owner: Unit, ref: str, subject: str | None = None, option: int | None = None) -> None:
    """Start (or continue, once a choice is made) an ability of `owner`."""
    ab, why = _ability(w, ref)
    cands = candidates(w, owner, ab)
    if not cands:
        w.log(f"{owner.name}'s {ab.name or 'ability'} finds no one and misses", kind="ability")
        return
    seat = decider(w, owner)
    if subject is None:
        if len(cands) > 1 and seat is not None:
            w.board.pending = Pending(seat, "select", [u.uid for u in cands], {"owner": owner.uid, "ref": ref})
            return
        subject = cands[0].uid
    if option is None:
        if len(ab.options) > 1 and seat is not None:
            w.board.pending = Pending(seat, "option", [str(i + 1) for i in range(len(ab.options))],
                                      {"owner": owner.uid, "ref": ref, "subject": subject})
            return
        option = 0
    queue(w, owner, ab.options[option], subject, why)
    drain(w)


def queue(w: World, owner: Unit, effects: list[Effect], subject: str, why: str,
          ctx: dict[str, object] | None = None) -> None:
    q = w.board.queue
    uid = owner.uid
    for e in effects:
        # one dict per item ("why" first, then `ctx`'s keys, which win: as `update` made it)
        c: dict[str, object] = {"why": why, **ctx} if ctx else {"why": why}
        q.append(QItem(e, uid, uid if e.who == "self" else subject, c))


_PLAIN = (ATTACK, TEMP, BE)  # the kinds that are not Special dice (`Die.is_special`)
_CATEGORY_WORD = {None: "Singles", "singles": "Singles", "doubles": "Doubles", "triples": "Triples"}


def roll_and_resolve_d8(w: World, u: Unit) -> None:
    """Turn steps 1-2 (R-TURN-1/2, R-D8-1/2, N2/N3): roll the whole pool, then every d8 Special
    die resolves its face (in pool order: with the house dice the order never matters).

    *Why one pass:* every turn of every figure starts here (issue 23: 7 % of a solo ply); the
    roll (`dice.roll_pool`, inlined: the same dice in the same order), the roll line's words
    (a plain die's by table) and the Special dice to resolve are read off the pool at once;
    each kind's words, and a Special die's effects, from the game's table (`dice.die_rows`)."""
    rigs = w.board.dice
    rng = w.rng
    rows = die_rows(w)
    shown: list[str] = []
    attack: list[int] = []
    specials: list[int] = []
    pool = u.pool
    draw = rng.randbelow
    if not rigs:  # the usual case (a scenario's rig queues aside): no rig to read per die
        for d in pool:
            sides = d.sides
            face = 1 + draw(sides) if sides >= 1 else w.roll(sides)  # `World.roll` raises below 1
            d.face = face
            d.used = False
            d.fresh = False
            kind = d.kind
            try:
                row = rows[kind]
            except KeyError:
                row = die_row(w, kind)
            # a face of 1 or more: the table's word unless beyond its 12 faces
            shown.append(row[0][face] if face < 13 else f"{row[3]} {face}")
            if row[1]:
                attack.append(face)
            elif row[2] is not None:  # an immediate Special die: its face resolves below
                specials.append(len(shown) - 1)  # its index in the pool
    else:
        for i, d in enumerate(pool):
            sides = d.sides
            # `World.roll` of an unrigged die inlined; a scenario's rigged die, or the error
            # for an impossible one, through it
            rig = rigs.get(sides)
            face = w.roll(sides) if (rig is not None and rig.rigged) or sides < 1 else 1 + draw(sides)
            d.face = face
            d.used = False
            d.fresh = False
            found = rows.get(d.kind)
            row = found if found is not None else die_row(w, d.kind)
            shown.append(row[0][face] if 0 <= face < 13 else f"{row[3]} {face}")
            if row[1]:
                attack.append(face)
            elif row[2] is not None:  # an immediate Special die: its face resolves below
                specials.append(i)
    category = u.rolled_category = category_of(attack)
    w.events.add_public(f"{u.name} rolls {', '.join(shown)} ({_CATEGORY_WORD[category]})", "roll", None)
    if specials:
        queue_ = w.board.queue
        uid = u.uid
        for i in specials:
            d = pool[i]
            shows = d.face
            assert shows is not None
            row = rows[d.kind]
            faces = row[2]
            assert faces is not None
            for e in faces[shows - 1]:
                queue_.append(QItem(e, uid, uid, {"why": row[4], "die": i, "face": shows}))
    drain(w)
