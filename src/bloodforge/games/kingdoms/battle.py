"""Phase 3: one battle at a time, step by step (K61-K92, rulings A23-A31).

A battle is a small state machine kept in `Battle.stage`; every step that needs a person's
choice (mercenary card, casualties, stand or retreat, press on or retreat) waits for that seat;
every step without a real choice (one kind of casualty left, no retreat possible) is taken at
once. Dice are rolled in the canonical order of K69: by value, then piece id.
"""

from __future__ import annotations

from typing import Any

from bloodforge.core import Action

from .board import (
    AIR,
    LAND,
    SEA,
    allied,
    article,
    cargo,
    cls,
    fid,
    fname,
    holdings,
    hostile,
    name,
    pname,
    roll,
    seat_of,
)
from .model import Battle, KBase, Piece


def _dice(n: int) -> str:
    """'1 die', '3 dice': log lines are read by people ("roll 1 dice, 0 hit(s)" was not)."""
    return "1 die" if n == 1 else f"{n} dice"


def _hits(n: int) -> str:
    return "1 hit" if n == 1 else f"{n} hits"


CASTLE_ID, PORT_ID = -1, -2  # marks for a defending castle/port chosen as a casualty
WORKS = {CASTLE_ID: "castle", PORT_ID: "port"}


# -- who is where -----------------------------------------------------------------------------
def contested(s: KBase) -> list[int]:
    """Spaces where the active faction must fight this phase (K61), in board order."""
    f = s.active
    teams = s.teams
    team = teams[f]
    units = s.content.units.units
    mine: set[int] = set()
    landing: set[int] = set()
    foes: set[int] = set()
    for p in s.pieces.values():
        at = p.at
        if at < 0:
            continue
        if p.faction == f:
            mine.add(at)
            if units[p.kind].cls == LAND:
                landing.add(at)
        elif teams[p.faction] != team:
            foes.add(at)
    is_sea = s.content.is_sea
    out = []
    for sp in sorted(mine):
        if sp in s.fought:
            continue
        if sp in foes or (not is_sea[sp] and sp in landing and hostile(s, sp, f)):
            out.append(sp)
    return out


def side_pieces(s: KBase, b: Battle, side: int) -> list[Piece]:
    f = b.att if side == 0 else b.dfn
    return [p for p in s.pieces.values() if p.at == b.space and p.faction == f]


def works(s: KBase, b: Battle) -> list[int]:
    """The defender's castle/port still fighting (A23: a castle taken as a casualty is silenced)."""
    if s.content.is_sea[b.space] or s.owner[b.space] != b.dfn:
        return []
    out = []
    if s.castle[b.space] and "castle" not in b.silenced:
        out.append(CASTLE_ID)
    if s.port[b.space] and "port" not in b.silenced:
        out.append(PORT_ID)
    return out


def value(s: KBase, b: Battle, side: int, kind: str) -> int:
    u = s.content.units.units[kind]
    v = u.attack if side == 0 else u.defence
    if v > 0 and b.round == 1 and b.bonus[side]:
        v = min(v + b.bonus[side], 5)
    return v


def unit_word(p: Piece) -> str:
    return f"hired_{p.kind}" if p.merc else p.kind


def strength(s: KBase, b: Battle, side: int) -> int:
    """How many units of a side still have a combat value (condition A, A30)."""
    n = sum(1 for p in side_pieces(s, b, side) if value_of_piece(s, b, side, p) > 0)
    return n + (len(works(s, b)) if side == 1 else 0)


def value_of_piece(s: KBase, b: Battle, side: int, p: Piece) -> int:
    return value(s, b, side, p.kind)


# -- starting a battle ----------------------------------------------------------------------------
def start(s: KBase, space: int) -> None:
    f = s.active
    foes = sorted({p.faction for p in s.pieces.values() if p.at == space and not allied(s, p.faction, f)})
    dfn = foes[0] if foes else s.owner[space]
    has_works = not s.content.is_sea[space] and dfn >= 0 and (s.castle[space] or s.port[space])
    s.events.add(f"{fname(f)} attack {pname(s, space)}" + (f" held by {fname(dfn)}" if dfn >= 0 else " (neutral)"),
                 kind="battle", data={"attacker": fid(f), "defender": fid(dfn), "space": name(s, space)})
    if not foes and not has_works:
        # an empty hostile or neutral territory: taken without dice (A11)
        s.fought.append(space)
        for p in s.pieces.values():
            if p.at == space and p.faction == f:
                p.fought = True
        capture(s, space, f, dfn)
        after_battle(s)
        return
    b = Battle(space, f, dfn)
    s.battle = b
    for p in s.pieces.values():
        if p.at == space:
            s.known.add(p.id)  # a battle shows both sides to everyone (A34)
    b.stage = "merc_att"
    _merc_next(s, b)


def usable_cards(s: KBase, faction: int, side: int) -> list[str]:
    cards = s.content.cards
    return sorted({c for c in s.hands[faction]
                   if cards[c].timing == "battle" and not (side == 1 and cards[c].attacker_only)})


def _merc_next(s: KBase, b: Battle) -> None:
    """Step 1 (K64, A27): each side commits at most one card, hidden until both have decided."""
    if b.stage == "merc_att":
        if not b.decided[0] and usable_cards(s, b.att, 0):
            return
        b.decided[0] = True
        b.stage = "merc_def"
    if b.stage == "merc_def":
        if not b.decided[1] and usable_cards(s, b.dfn, 1):
            return
        b.decided[1] = True
        _reveal(s, b)


def commit(s: KBase, card: str | None) -> None:
    b = s.battle
    assert b is not None
    side = 0 if b.stage == "merc_att" else 1
    f = b.att if side == 0 else b.dfn
    b.card[side] = card
    b.decided[side] = True
    team = [seat_of(s, g) for g in range(4) if allied(s, g, f) and not s.out[g]]
    s.events.add(f"{fname(f)} {'commit ' + s.content.cards[card].name if card else 'play no mercenary card'}",
                 to=team, masked=f"{fname(f)} decide about mercenaries", kind="merc")
    if side == 0:
        b.stage = "merc_def"
        _merc_next(s, b)
    else:
        _reveal(s, b)


def _reveal(s: KBase, b: Battle) -> None:
    for side in (0, 1):
        card = b.card[side]
        if card is None:
            continue
        f = b.att if side == 0 else b.dfn
        c = s.content.cards[card]
        s.hands[f].remove(card)
        s.pile.append(card)  # a used card goes back into the deck (K132); supply drops by 5 (K110)
        s.pile.sort()
        s.events.add(f"{fname(f)} play {c.name}", kind="merc",
                     data={"merc": "play", "faction": fid(f), "card": card,
                           "side": "attacker" if side == 0 else "defender"})
        for kind, n in (("infantry", c.add_infantry), ("cavalry", c.add_cavalry)):
            for _ in range(n):
                p = Piece(s.next_id, f, kind, b.space, merc=True)
                s.next_id += 1
                s.pieces[p.id] = p
                s.known.add(p.id)
        b.bonus[side] += c.first_round_bonus
        b.shield[side] += c.ignore_first_hits
        b.mage[side] += c.mage_dice
        if c.silence_fortifications and side == 0:
            b.silenced = sorted({*b.silenced, "castle", "port"})
    b.stage = "mage"
    _mage(s, b, 0)


def _mage(s: KBase, b: Battle, side: int) -> None:
    """Battle Mage: dice before the first strike; the victims do not strike back."""
    while side < 2:
        if b.mage[side]:
            vals = [3] * b.mage[side]
            faces = dice(s, vals)
            n = sum(1 for f in faces if f <= 3)
            b.mage[side] = 0
            s.events.add(f"the battle mage of {fname(b.att if side == 0 else b.dfn)} scores {_hits(n)}", kind="dice",
                         data={"side": "attacker" if side == 0 else "defender", "dice": len(vals), "hits": n,
                               "faces": faces, "values": vals, "round": 0, "mage": True})
            if _assign(s, b, "mage_def" if side == 0 else "mage_att", n):
                return
        side += 1
    _check_or_strike(s, b)


# -- casualties -------------------------------------------------------------------------------
def _chooser_side(stage: str) -> int:
    return 1 if stage in ("def_hits", "aoo_hits", "mage_def") else 0


def candidates(s: KBase, b: Battle) -> dict[str, list[int]]:
    """Casualty choices of the deciding side by unit word, each with the piece ids in the order
    they are taken (A29: pieces of a kind are interchangeable; a ship goes with its cargo)."""
    side = _chooser_side(b.stage)
    out: dict[str, list[int]] = {}
    for p in side_pieces(s, b, side):
        if p.id in b.marked:
            continue
        if b.stage == "aoo_hits" and cls(s, p.kind) == "common":
            continue
        out.setdefault(unit_word(p), []).append(p.id)
    if "ship" in out:
        out["ship"].sort(key=lambda i: (len(cargo(s, s.pieces[i])), i))
    if side == 1 and b.stage != "aoo_hits":
        for w in works(s, b):
            if w not in b.marked:
                out.setdefault(WORKS[w], []).append(w)
    return out


def _assign(s: KBase, b: Battle, stage: str, n: int) -> bool:
    """Start assigning `n` hits; True if a seat must choose (else all were taken at once)."""
    b.stage = stage
    b.hits = n
    _auto_hits(s, b)
    return b.hits > 0


def _auto_hits(s: KBase, b: Battle) -> None:
    while b.hits > 0:
        cand = candidates(s, b)
        total = sum(len(v) for v in cand.values())
        if total == 0:
            b.hits = 0
            return
        if len(cand) > 1 and b.hits < total:
            return
        word = sorted(cand)[0]
        _log_loss(s, b, word)
        _take(s, b, cand[word][0])


def _log_loss(s: KBase, b: Battle, word: str) -> None:
    """A casualty in the log (chosen or taken by the game), with data for the battle view."""
    side = _chooser_side(b.stage)
    f = b.att if side == 0 else b.dfn
    s.events.add(f"{fname(f)} lose {article(word.replace('_', ' '))}", kind="casualty",
                 data={"faction": fid(f), "unit": word, "side": "attacker" if side == 0 else "defender"})


def dice(s: KBase, values: list[int]) -> list[int]:
    """One die per value in the given (canonical, K69) order: the faces, for the battle view."""
    return [roll(s) for _ in values]


def _take(s: KBase, b: Battle, pid: int) -> None:
    b.hits -= 1
    if b.stage == "def_hits":
        b.marked.append(pid)
        if pid > 0 and s.pieces[pid].kind == "ship":
            b.marked.extend(c.id for c in cargo(s, s.pieces[pid]))
        return
    _remove(s, b, pid)


def _remove(s: KBase, b: Battle, pid: int) -> None:
    if pid < 0:
        b.silenced = sorted({*b.silenced, WORKS[pid]})
        return
    p = s.pieces.pop(pid, None)
    if p is None:
        return
    for c in cargo(s, p):
        s.pieces.pop(c.id, None)  # cargo goes down with its ship (A14)
    forget(s, pid)


def forget(s: KBase, pid: int) -> None:
    s.known.discard(pid)
    s.flown.pop(pid, None)
    for sp in s.spied:
        sp.discard(pid)


def hit(s: KBase, word: str) -> None:
    b = s.battle
    assert b is not None
    pid = candidates(s, b)[word][0]
    _log_loss(s, b, word)
    _take(s, b, pid)
    _auto_hits(s, b)
    if b.hits == 0:
        _after_assign(s, b)


def _after_assign(s: KBase, b: Battle) -> None:
    stage = b.stage
    if stage == "mage_def":
        _mage(s, b, 1)
    elif stage == "mage_att":
        _mage(s, b, 2)
    elif stage == "def_hits":
        _offer_defender_choice(s, b)
    elif stage == "att_hits":
        _end_round(s, b)
    elif stage == "aoo_hits":
        _finish_defender_retreat(s, b)


# -- rounds -------------------------------------------------------------------------------------
def _check_or_strike(s: KBase, b: Battle) -> None:
    if strength(s, b, 0) == 0 or strength(s, b, 1) == 0:
        resolve(s, b)
    else:
        _strike(s, b)


def _ordered_values(s: KBase, b: Battle, side: int, include_marked: bool = True) -> list[int]:
    vals: list[tuple[int, int]] = []
    for p in side_pieces(s, b, side):
        v = value(s, b, side, p.kind)
        if v > 0 and (include_marked or p.id not in b.marked):
            vals.append((v, p.id))
    if side == 1:
        for w in works(s, b):
            v = value(s, b, 1, WORKS[w])
            if v > 0:
                vals.append((v, w))
    vals.sort()
    return [v for v, _ in vals]


def _strike(s: KBase, b: Battle) -> None:
    """Step 2 (K68-K71): the attacker rolls; the defender picks one casualty per hit."""
    vals = _ordered_values(s, b, 0)
    faces = dice(s, vals)
    n = sum(1 for f, v in zip(faces, vals, strict=True) if f <= v)
    if b.round == 1 and b.shield[1]:
        n = max(0, n - b.shield[1])
    s.events.add(f"round {b.round}: {fname(b.att)} roll {_dice(len(vals))}, {_hits(n)}", kind="dice",
                 data={"side": "attacker", "dice": len(vals), "hits": n, "faces": faces, "values": vals,
                       "round": b.round})
    if not _assign(s, b, "def_hits", n):
        _offer_defender_choice(s, b)


def defender_retreats(s: KBase, b: Battle) -> list[int]:
    """A24: one adjacent space friendly to the defender for all its mobile units."""
    movers = [p for p in side_pieces(s, b, 1) if not p.merc and cls(s, p.kind) != "common"]
    if not movers:
        return []
    sea = s.content.is_sea[b.space]
    others = {p.at for p in s.pieces.values() if p.faction != b.dfn}  # spaces with another faction
    out = []
    for n in s.content.adj[b.space]:
        if s.content.is_sea[n] != sea:
            continue
        if sea:
            if n in others:
                continue
        elif s.owner[n] != b.dfn or n in others:
            continue
        out.append(n)
    return out


def attacker_retreats(s: KBase, b: Battle) -> list[int]:
    """K81 (L179), A26: land and sea units together to one adjacent friendly space from which at
    least one attacking unit moved into the battle; for a sea battle that zone must also have
    been friendly when the turn began."""
    attackers = [p for p in side_pieces(s, b, 0) if not p.merc]
    movers = [p for p in attackers if cls(s, p.kind) in (LAND, SEA) and p.aboard < 0]
    if not movers:
        return []
    origins = {n for p in attackers for n in p.came}
    sea = s.content.is_sea[b.space]
    others = {p.at for p in s.pieces.values() if p.faction != b.att}  # spaces with another faction
    out = []
    for n in s.content.adj[b.space]:
        if s.content.is_sea[n] != sea or n not in origins:
            continue
        if n in others:
            continue
        if (sea and n not in s.start_seas) or (not sea and s.owner[n] != b.att):
            continue
        out.append(n)
    return out


def _offer_defender_choice(s: KBase, b: Battle) -> None:
    b.stage = "def_choice"
    if not defender_retreats(s, b):
        stand(s)


def stand(s: KBase) -> None:
    """Step 3 (K75-K77): every defender rolls, those just hit included."""
    b = s.battle
    assert b is not None
    vals = _ordered_values(s, b, 1)
    faces = dice(s, vals)
    n = sum(1 for f, v in zip(faces, vals, strict=True) if f <= v)
    if b.round == 1 and b.shield[0]:
        n = max(0, n - b.shield[0])
    s.events.add(f"round {b.round}: {fname(b.dfn)} roll {_dice(len(vals))}, {_hits(n)}", kind="dice",
                 data={"side": "defender", "dice": len(vals), "hits": n, "faces": faces, "values": vals,
                       "round": b.round})
    for pid in list(b.marked):  # step 4: casualties leave (K78)
        _remove(s, b, pid)
    b.marked = []
    if not _assign(s, b, "att_hits", n):
        _end_round(s, b)


def _end_round(s: KBase, b: Battle) -> None:
    if strength(s, b, 0) == 0 or strength(s, b, 1) == 0:
        resolve(s, b)
        return
    b.stage = "att_choice"
    if not attacker_retreats(s, b) and not air_only(s, b):
        press(s)


def air_only(s: KBase, b: Battle) -> bool:
    ps = [p for p in side_pieces(s, b, 0) if not p.merc]
    return bool(ps) and all(cls(s, p.kind) == AIR for p in ps)


def press(s: KBase) -> None:
    b = s.battle
    assert b is not None
    b.round += 1
    _strike(s, b)


def defender_retreat(s: KBase, to: int) -> None:
    """K72-K74, A25: marked casualties go, the attacker strikes once more, the rest leave."""
    b = s.battle
    assert b is not None
    b.retreat_to = to
    for pid in list(b.marked):
        _remove(s, b, pid)
    b.marked = []
    s.events.add(f"{fname(b.dfn)} retreat from {pname(s, b.space)} to {pname(s, to)}", kind="retreat",
                 data={"side": "defender", "faction": fid(b.dfn), "to": name(s, to)})
    vals = _ordered_values(s, b, 0)
    faces = dice(s, vals)
    n = sum(1 for f, v in zip(faces, vals, strict=True) if f <= v)
    s.events.add(f"attack of opportunity: {_dice(len(vals))}, {_hits(n)}", kind="dice",
                 data={"side": "attacker", "dice": len(vals), "hits": n, "faces": faces, "values": vals,
                       "round": b.round, "opportunity": True})
    if not _assign(s, b, "aoo_hits", n):
        _finish_defender_retreat(s, b)


def _finish_defender_retreat(s: KBase, b: Battle) -> None:
    for p in side_pieces(s, b, 1):
        if p.merc:
            s.pieces.pop(p.id)
        elif cls(s, p.kind) != "common":
            p.at = b.retreat_to
            for c in cargo(s, p):
                c.at = b.retreat_to
    b.silenced = sorted({*b.silenced, "castle", "port"})  # surrendered: the works no longer fight
    resolve(s, b)


def attacker_retreat(s: KBase, to: int | None) -> None:
    """K81, A26: land and sea units to `to`; air units stay until phase 4."""
    b = s.battle
    assert b is not None
    for p in side_pieces(s, b, 0):
        if p.merc:
            s.pieces.pop(p.id)
        elif to is not None and cls(s, p.kind) in (LAND, SEA):
            p.at = to
            for c in cargo(s, p):
                c.at = to
    s.events.add(f"{fname(b.att)} break off the attack on {pname(s, b.space)}"
                 + (f", retreating to {pname(s, to)}" if to is not None else ""), kind="retreat",
                 data={"side": "attacker", "faction": fid(b.att), "to": None if to is None else name(s, to),
                       **ending(s, b, "retreat")})
    _close(s, b)


# -- the end -----------------------------------------------------------------------------------
def resolve(s: KBase, b: Battle) -> None:
    """Step 6 (K80, K82-K85)."""
    att = strength(s, b, 0) > 0
    dfn = strength(s, b, 1) > 0
    sp = b.space
    if att and not dfn:
        land = [p for p in side_pieces(s, b, 0) if not p.merc and cls(s, p.kind) == LAND and p.aboard < 0]
        if not s.content.is_sea[sp] and land:
            for p in side_pieces(s, b, 1):  # a surrendered territory's last pieces cannot stay
                if not p.merc:
                    s.pieces.pop(p.id)
                    forget(s, p.id)
            capture(s, sp, b.att, s.owner[sp], ending(s, b, "attacker"))
        else:
            s.events.add(f"{fname(b.att)} win at {pname(s, sp)}" + ("" if s.content.is_sea[sp] else
                         " but cannot occupy it without land units"), kind="battle", data=ending(s, b, "attacker"))
    elif dfn:
        s.events.add(f"{fname(b.dfn)} hold {pname(s, sp)}", kind="battle", data=ending(s, b, "defender"))
    else:
        s.events.add(f"both sides are destroyed at {pname(s, sp)}; the defender keeps it", kind="battle",
                     data=ending(s, b, "none"))
    _close(s, b)


def ending(s: KBase, b: Battle, outcome: str) -> dict[str, Any]:
    """Log data of the event that ends a battle fought with dice (every such battle has exactly
    one): `outcome` is attacker (the defender is gone), defender (it holds), none (both sides
    destroyed) or retreat (the attacker broke off); `rounds` the rounds fought."""
    return {"attacker": fid(b.att), "defender": fid(b.dfn), "space": name(s, b.space), "outcome": outcome,
            "rounds": b.round}


def _close(s: KBase, b: Battle) -> None:
    for p in list(s.pieces.values()):
        if p.merc and p.at == b.space:
            s.pieces.pop(p.id)  # mercenary units disband after the battle
            forget(s, p.id)
        elif p.at == b.space and p.faction == b.att:
            p.fought = True
    s.fought.append(b.space)
    s.battle = None
    after_battle(s)


def capture(s: KBase, space: int, faction: int, loser: int, battle: dict[str, Any] | None = None) -> None:
    """K82, K87, K88: the territory, its castle/port and gem change hands. `battle`: the
    `ending` data of the battle won (None: taken without dice, A11)."""
    s.owner[space] = faction
    if s.castle[space] or s.port[space]:
        s.new_works.append(space)
    s.events.add(f"{fname(faction)} take {pname(s, space)}" + (f" from {fname(loser)}" if loser >= 0 else ""),
                 kind="capture", data={"faction": fid(faction), "from": fid(loser), "space": name(s, space),
                                       **(battle if battle is not None else {"unopposed": True})})
    if loser >= 0:
        team = s.teams[loser]
        held = sum(1 for i, o in enumerate(s.owner) if o >= 0 and s.teams[o] == team and s.content.gem[i])
        if held < (7 if s.teams == [0, 1, 2, 3] else 9):
            s.hold[team] = False  # the gems were not held for an entire round (A37)


def after_battle(s: KBase) -> None:
    """K108: a faction whose supply now exceeds its income must disband at once (A8)."""
    check_supply(s)
    if s.phase == "combat" and s.pending < 0 and s.battle is None and not contested(s):
        s.phase = "noncombat"


def check_supply(s: KBase) -> None:
    """The first faction (in faction order) with a unit it could disband and more supply than
    income must disband (K108); factions with neither territory nor unit are out. One pass
    over the pieces: this runs after every battle and at the end of every combat move phase."""
    s.pending = -1
    units = s.content.units
    kinds = units.units
    sup = [units.mercenary_supply * len(h) for h in s.hands]
    has_units = [False, False, False, False]
    removable = [False, False, False, False]
    for p in s.pieces.values():
        if not p.merc:
            f = p.faction
            u = kinds[p.kind]
            sup[f] += u.supply
            has_units[f] = True
            if u.cls != "common":
                removable[f] = True
    inc, count, _ = holdings(s)
    for f in range(4):
        if s.out[f]:
            continue
        if removable[f] and sup[f] > inc[f]:
            s.pending = f
            return
        if not has_units[f] and count[f] == 0:
            s.out[f] = True


def battle_actions(s: KBase) -> list[Action]:
    b = s.battle
    assert b is not None
    st = b.stage
    if st in ("merc_att", "merc_def"):
        side = 0 if st == "merc_att" else 1
        f = b.att if side == 0 else b.dfn
        return [Action("merc", (c,)) for c in usable_cards(s, f, side)] + [Action("nomerc")]
    if st in ("def_hits", "att_hits", "aoo_hits", "mage_def", "mage_att"):
        return [Action("hit", (w,)) for w in sorted(candidates(s, b))]
    if st == "def_choice":
        return [Action("stand")] + [Action("retreat", (name(s, n),)) for n in defender_retreats(s, b)]
    if st == "att_choice":
        out = [Action("press")] + [Action("retreat", (name(s, n),)) for n in attacker_retreats(s, b)]
        if air_only(s, b):
            out.append(Action("withdraw"))
        return out
    raise AssertionError(f"battle stage {st} waits for nobody")


def battle_decider(s: KBase) -> int:
    b = s.battle
    assert b is not None
    st = b.stage
    if st in ("merc_def", "def_hits", "aoo_hits", "mage_def", "def_choice"):
        return b.dfn
    return b.att


def apply_battle(s: KBase, action: Action) -> None:
    b = s.battle
    assert b is not None
    k = action.kind
    if k == "merc":
        commit(s, action.args[0])
    elif k == "nomerc":
        commit(s, None)
    elif k == "hit":
        hit(s, action.args[0])
    elif k == "stand":
        stand(s)
    elif k == "press":
        press(s)
    elif k == "withdraw":
        attacker_retreat(s, None)
    elif k == "retreat":
        to = s.content.index[action.args[0]]
        if b.stage == "def_choice":
            defender_retreat(s, to)
        else:
            attacker_retreat(s, to)
    else:
        raise AssertionError(f"unexpected battle action {action}")
