"""Setup, the six phases of a faction's turn, economy and victory (K13-K37, K93-K110, K127-K137).

Every function here is pure in the engine's sense: it changes the position it is given, draws
chance only from `state.rng` (or a scenario's rigged dice and draws) and logs to `state.events`.
"""

from __future__ import annotations

from bloodforge.core import Action

from . import battle, movement
from .board import (
    allied,
    article,
    cls,
    fid,
    fname,
    gems,
    holdings,
    in_play,
    income,
    name,
    pname,
    stack,
    supply,
    works_in_play,
)
from .content import MOBILE
from .model import RESERVE, KBase, Piece

PHASES = ("purchase", "combat_move", "combat", "noncombat", "place")
BUYABLE = (*MOBILE, "castle", "port")
DONE, HIRE = Action("done"), Action("hire")  # made once: listed at nearly every decision
BUY = {k: Action("buy", (k,)) for k in BUYABLE}
#: actions outside battles after which no piece stands anywhere it did not stand before (they
#: buy, hire, raze, end a phase, disband, desert or spy): with fog of war nothing new can be
#: face up after them, since seen pieces stay known and removing a piece reveals nothing
QUIET = frozenset(("buy", "hire", "raze", "done", "disband", "target"))


# -- setup -----------------------------------------------------------------------------------
def setup(s: KBase, first: int) -> None:
    """K16-K21, T5: 8 territories, 15 crowns, capital castle and the starting units per faction."""
    c = s.content
    start = c.units.start
    for f in range(4):
        for t in c.home[f]:
            s.owner[t] = f
        s.castle[c.capital[f]] = True
        s.treasury[f] = start.crowns
        for kind in MOBILE:
            for _ in range(start.units.get(kind, 0)):
                add_piece(s, f, kind, c.capital[f])
    s.pile = list(c.card_pile)
    s.order = [(first + i) % 4 for i in range(4)]
    s.turn_idx = 0
    start_turn(s)


def add_piece(s: KBase, faction: int, kind: str, at: int) -> Piece:
    p = Piece(s.next_id, faction, kind, at)
    s.next_id += 1
    s.pieces[p.id] = p
    return p


def start_turn(s: KBase) -> None:
    f = s.order[s.turn_idx]
    s.active = f
    s.phase = "purchase"
    for p in s.pieces.values():
        if p.faction == f:
            p.reset()
    s.start_owned = [i for i, o in enumerate(s.owner) if o == f]
    # a sea zone is friendly (A10) unless an enemy piece is there (an enemy ship makes it hostile)
    teams = s.teams
    foes = {p.at for p in s.pieces.values() if p.at >= 0 and teams[p.faction] != teams[f]}
    s.start_seas = [i for i, sea in enumerate(s.content.is_sea) if sea and i not in foes]
    s.produced = {}
    s.new_works = []
    s.fought = []
    s.events.add(f"round {s.round}: {fname(f)} to play", kind="turn")


def team_seats(s: KBase, faction: int) -> list[int]:
    return list(s.team_seats[faction])


# -- who decides ----------------------------------------------------------------------------------
def decider(s: KBase) -> int | None:
    """The faction whose decision the game waits for."""
    if s.over:
        return None
    if s.pending >= 0:
        return s.pending
    if s.battle is not None:
        return battle.battle_decider(s)
    return s.active


# -- purchase ---------------------------------------------------------------------------------------
def can_buy(s: KBase, kind: str, room: int | None = None) -> bool:
    """`room`: income minus supply of the active faction, if the caller has it already."""
    f = s.active
    u = s.content.unit(kind)
    if s.treasury[f] < u.cost:
        return False
    if cls(s, kind) == "common":
        if works_in_play(s, kind) >= u.pool:
            return False
    elif in_play(s, f, kind) >= u.pool:  # K33
        return False
    if room is None:
        room = income(s, f) - supply(s, f)
    return u.supply <= room  # A7


def can_buy_card(s: KBase, room: int | None = None) -> bool:
    f = s.active
    u = s.content.units
    if s.treasury[f] < u.mercenary_cost or not s.pile:
        return False
    if room is None:
        room = income(s, f) - supply(s, f)
    return u.mercenary_supply <= room


def _purchases(s: KBase) -> tuple[list[Action], int]:
    """`buy` actions of the active faction (as `can_buy` decides them) from one pass over the
    pieces, and its income minus supply (room for more units)."""
    f = s.active
    units = s.content.units
    kinds = units.units
    every: dict[str, int] = {}  # pieces per type, every faction (castles and ports are common)
    mine: dict[str, int] = {}  # own pieces per type, mercenary units left out
    sup = units.mercenary_supply * len(s.hands[f])
    for p in s.pieces.values():
        k = p.kind
        every[k] = every.get(k, 0) + 1
        if p.faction == f and not p.merc:
            mine[k] = mine.get(k, 0) + 1
            sup += kinds[k].supply
    room = income(s, f) - sup
    caps = s.content.capital
    out = []
    treasury = s.treasury[f]
    for k in BUYABLE:
        u = kinds[k]
        if treasury < u.cost:
            continue
        if u.cls == "common":
            flags = s.castle if k == "castle" else s.port
            on_map = sum(1 for i, x in enumerate(flags) if x and not (k == "castle" and i in caps))
            if on_map + every.get(k, 0) >= u.pool:
                continue
        elif mine.get(k, 0) >= u.pool:  # K33
            continue
        if u.supply <= room:  # A7
            out.append(BUY[k])
    return out, room


def buy(s: KBase, kind: str) -> None:
    f = s.active
    cost = s.content.unit(kind).cost
    s.treasury[f] -= cost
    p = add_piece(s, f, kind, RESERVE)
    s.known.add(p.id)  # purchases are public (A35)
    s.events.add(f"{fname(f)} buy {article(kind)}", kind="buy", data={"faction": fid(f), "unit": kind, "crowns": cost})


def buy_card(s: KBase) -> None:
    """K128, K131: a random card from the deck; instant cards resolve at once."""
    f = s.active
    cost = s.content.units.mercenary_cost
    s.treasury[f] -= cost
    card = s.draws.pop(0) if s.draws and s.draws[0] in s.pile else s.pile[s.rng.randbelow(len(s.pile))]
    s.pile.remove(card)
    c = s.content.cards[card]
    team = team_seats(s, f)
    if c.timing == "battle":
        s.hands[f].append(card)
        s.hands[f].sort()
        # the data is read with the masked text too: public facts only, never the card
        s.events.add(f"{fname(f)} hire {c.name}", to=team, masked=f"{fname(f)} buy a mercenary card", kind="merc",
                     data={"merc": "hire", "faction": fid(f), "crowns": cost})
        return
    s.events.add(f"{fname(f)} buy a mercenary card: {c.name} (instant)", kind="merc",
                 data={"merc": "hire", "faction": fid(f), "crowns": cost, "card": card, "gain": c.crowns})
    if c.crowns:
        s.treasury[f] += c.crowns
    if c.spies or c.deserters:
        s.instant = card
        if not instant_targets(s):
            s.instant = ""
            s.events.add(f"{c.name} find nothing to do", kind="merc")
    s.pile.append(card)
    s.pile.sort()


def instant_targets(s: KBase) -> list[int]:
    f = s.active
    c = s.content.cards[s.instant]
    if c.spies:
        teams = s.teams
        foes = {p.at for p in s.pieces.values() if teams[p.faction] != teams[f]}  # spaces with an enemy
        return [i for i in range(len(s.content.ids)) if i in foes]
    near: set[int] = set()
    for p in s.pieces.values():
        if p.faction == f and p.at >= 0:
            near.update(s.content.adj[p.at])
    return sorted(i for i in near if any(p.at == i and not allied(s, p.faction, f) and p.aboard < 0
                                         and cls(s, p.kind) != "sea" for p in s.pieces.values()))


def resolve_instant(s: KBase, space: int) -> None:
    f = s.active
    c = s.content.cards[s.instant]
    s.instant = ""
    if c.spies:
        for seat in team_seats(s, f):
            s.spied[seat].update(p.id for p in stack(s, space) if not allied(s, p.faction, f))
        s.events.add(f"{fname(f)} send spies to {pname(s, space)}", kind="merc")
        return
    victims = [p for p in stack(s, space) if p.kind == "infantry" and not allied(s, p.faction, f) and p.aboard < 0]
    if victims:
        v = victims[0]
        s.pieces.pop(v.id)
        battle.forget(s, v.id)
        s.events.add(f"an infantry of {fname(v.faction)} deserts at {pname(s, space)}", kind="merc")
    else:
        s.events.add(f"no infantry deserts at {pname(s, space)}", kind="merc")


def raze_actions(s: KBase) -> list[Action]:
    """A22: the owner may destroy its own castle/port before its combat phase (never a capital)."""
    f = s.active
    out = []
    for t, o in enumerate(s.owner):
        if o != f:
            continue
        if s.castle[t] and t not in s.content.capital:
            out.append(Action("raze", (name(s, t), "castle")))
        if s.port[t]:
            out.append(Action("raze", (name(s, t), "port")))
    return out


# -- placement --------------------------------------------------------------------------------------
def _producer(s: KBase, t: int, kind: str) -> bool:
    f = s.active
    flag = s.port[t] if kind == "ship" else s.castle[t]
    return (flag and s.owner[t] == f and t in s.start_owned and t not in s.new_works
            and s.produced.get(t, 0) < s.content.value[t])


def place_targets(s: KBase, kind: str) -> list[int]:
    """K96-K102, A19, A21."""
    f = s.active
    c = s.content
    if kind in ("castle", "port"):
        flags = s.castle if kind == "castle" else s.port
        return [t for t in s.start_owned if s.owner[t] == f and not flags[t] and (kind == "castle" or c.coastal[t])]
    if kind == "ship":
        others = {p.at for p in s.pieces.values() if p.faction != f}  # spaces with another faction
        out = set()
        for t in s.start_owned:
            if _producer(s, t, "ship"):
                for z in c.adj[t]:
                    if c.is_sea[z] and z not in others:
                        out.add(z)
        return sorted(out)
    teams = s.teams
    foes = {p.at for p in s.pieces.values() if teams[p.faction] != teams[f]}  # spaces with an enemy
    return [t for t in s.start_owned if _producer(s, t, kind) and t not in foes]


def place(s: KBase, kind: str, at: int) -> None:
    f = s.active
    c = s.content
    p = next(p for p in battle_free_reserve(s) if p.kind == kind)
    if kind in ("castle", "port"):
        s.pieces.pop(p.id)
        (s.castle if kind == "castle" else s.port)[at] = True
        s.new_works.append(at)  # a new castle produces from the next turn (A19)
    else:
        if kind == "ship":
            prod = next(t for t in sorted(c.adj[at])
                        if not c.is_sea[t] and t in s.start_owned and _producer(s, t, "ship"))
        else:
            prod = at
        s.produced[prod] = s.produced.get(prod, 0) + 1
        p.at = at
        p.moved = c.unit(kind).move  # placed units do not move this turn
    s.events.add(f"{fname(f)} place {article(kind)} at {pname(s, at)}", kind="place")


def battle_free_reserve(s: KBase) -> list[Piece]:
    return [p for p in s.pieces.values() if p.faction == s.active and p.at == RESERVE]


# -- end of turn -----------------------------------------------------------------------------------
def collect(s: KBase) -> None:
    """Phase 6 (K103, K107): income minus supply (never below zero)."""
    f = s.active
    gain = max(0, income(s, f) - supply(s, f))
    s.treasury[f] += gain
    s.events.add(f"{fname(f)} collect {gain} crowns", kind="income", data={"faction": fid(f), "crowns": gain})


def end_turn(s: KBase) -> None:
    collect(s)
    check_victory(s)
    if s.over:
        return
    for _ in range(5):
        s.turn_idx += 1
        if s.turn_idx == 4:
            s.turn_idx = 0
            s.round += 1
            if s.round > s.game.params.max_rounds:
                end_by_cap(s)
                return
        if not s.out[s.order[s.turn_idx]]:
            break
    start_turn(s)


def ffa(s: KBase) -> bool:
    return s.teams == [0, 1, 2, 3]


def check_victory(s: KBase) -> None:
    """K29, K133-K136, A37-A40."""
    _, count, gem = holdings(s)  # no territory changes hands below
    with_pieces = {p.faction for p in s.pieces.values()}
    for f in range(4):
        if not s.out[f] and not (count[f] > 0 or f in with_pieces):  # alive
            s.out[f] = True
            s.events.add(f"{fname(f)} are wiped out", kind="out", data={"faction": fid(f)})
    live_teams = sorted({s.teams[f] for f in range(4) if not s.out[f]})
    if len(live_teams) == 1:
        finish(s, [f for f in range(4) if s.teams[f] == live_teams[0]], "last standing", "last_standing")
        return
    f = s.active
    if ffa(s):
        g = gem[f]
        if g >= 7 and s.hold[f]:
            finish(s, [f], f"held {g} gems for an entire round", "gems_held")
            return
        s.hold[f] = g >= 7
        return
    team = s.teams[f]
    total = sum(gem[g] for g in range(4) if s.teams[g] == team)
    if total >= 9:
        if not s.game.params.team_hold_round or s.hold[team]:
            finish(s, [g for g in range(4) if s.teams[g] == team], f"{total} gems combined", "team_gems")
            return
        s.hold[team] = True
    for t in live_teams:
        tot = sum(gem[g] for g in range(4) if s.teams[g] == t)
        if tot >= 9 and t != team and not s.game.params.team_hold_round:
            finish(s, [g for g in range(4) if s.teams[g] == t], f"{tot} gems combined", "team_gems")
            return


def finish(s: KBase, winners: list[int], why: str, reason: str) -> None:
    """`reason` names how the game ended for the lab: last_standing, gems_held (FFA), team_gems, round_cap."""
    s.over = True
    s.winners = sorted(winners)
    s.events.add(" and ".join(fname(f) for f in s.winners) + f" win: {why}", kind="victory",
                 data={"winners": [fid(f) for f in s.winners], "reason": reason})


def end_by_cap(s: KBase) -> None:
    """A40 (house): most gems, then most income; ties share."""
    keys: dict[int, tuple[int, int]] = {}
    for t in sorted(set(s.teams)):
        fs = [f for f in range(4) if s.teams[f] == t and not s.out[f]]
        if fs:
            keys[t] = (sum(gems(s, f) for f in fs), sum(income(s, f) for f in fs))
    best = max(keys.values())
    win = [f for f in range(4) if keys.get(s.teams[f]) == best and not s.out[f]]
    s.round = s.game.params.max_rounds
    finish(s, win, f"round limit reached ({best[0]} gems, income {best[1]})", "round_cap")


# -- legal actions and their effects ----------------------------------------------------------------
def legal(s: KBase) -> list[Action]:
    if s.over:
        return []
    if s.pending >= 0:
        return disband_actions(s, s.pending)
    if s.instant:
        return [Action("target", (name(s, t),)) for t in instant_targets(s)]
    if s.battle is not None:
        return battle.battle_actions(s)
    ph = s.phase
    if ph == "purchase":
        out, room = _purchases(s)
        if can_buy_card(s, room):
            out.append(HIRE)
        return out + raze_actions(s) + [DONE]
    if ph == "combat_move":
        return movement.move_actions(s, True) + raze_actions(s) + [DONE]
    if ph == "combat":
        return [Action("fight", (name(s, t),)) for t in battle.contested(s)]
    if ph == "noncombat":
        out = movement.move_actions(s, False)
        out.append(DONE)
        return out
    if ph == "place":
        out = []
        for kind in sorted({p.kind for p in battle_free_reserve(s)}):
            out += [Action("place", (kind, name(s, t))) for t in place_targets(s, kind)]
        out.append(DONE)
        return out
    raise AssertionError(f"unknown phase {ph}")


def disband_actions(s: KBase, f: int) -> list[Action]:
    keys = sorted({("reserve" if p.at < 0 else name(s, p.at), p.kind) for p in s.pieces.values()
                   if p.faction == f and not p.merc and cls(s, p.kind) != "common"})
    return [Action("disband", k) for k in keys]


def apply(s: KBase, a: Action) -> None:
    k = a.kind
    idx = s.content.index
    if k != "move":
        # anything but the mover's own move may change what the map looks like to it (terrain.py)
        s.terrain = None
        s.move_memo = None
    if k == "disband":
        f = s.pending
        at = -1 if a.args[0] == "reserve" else idx[a.args[0]]
        p = next(p for p in s.pieces.values() if p.faction == f and p.at == at and p.kind == a.args[1]
                 and not p.merc)
        s.pieces.pop(p.id)
        for c in [q for q in s.pieces.values() if q.aboard == p.id]:
            s.pieces.pop(c.id)
        battle.forget(s, p.id)
        s.events.add(f"{fname(f)} disband {article(p.kind)} for lack of supply", kind="supply",
                     data={"faction": fid(f), "unit": p.kind})
        battle.after_battle(s)
    elif k == "target":
        resolve_instant(s, idx[a.args[0]])
    elif s.battle is not None:
        battle.apply_battle(s, a)
    elif k == "buy":
        buy(s, a.args[0])
    elif k == "hire":
        buy_card(s)
    elif k == "raze":
        t = idx[a.args[0]]
        (s.castle if a.args[1] == "castle" else s.port)[t] = False
        s.events.add(f"{fname(s.active)} destroy their {a.args[1]} at {pname(s, t)}", kind="raze")
    elif k == "move":
        if not movement.apply_move(s, idx[a.args[0]], idx[a.args[1]], a.args[2], s.phase == "combat_move"):
            return  # nothing new can be face up (apply_move says why)
    elif k == "fight":
        battle.start(s, idx[a.args[0]])
    elif k == "place":
        place(s, a.args[0], idx[a.args[1]])
    elif k == "done":
        _done(s)
    else:
        raise AssertionError(f"unexpected action {a}")
    if k != "move":
        s.terrain = None
        s.move_memo = None
    if k in QUIET and s.battle is None and s.game.params.fog:
        return  # no piece came to stand anywhere: nothing new can be face up (update_knowledge)
    update_knowledge(s)


def _done(s: KBase) -> None:
    ph = s.phase
    if ph == "purchase":
        s.phase = "combat_move"
    elif ph == "combat_move":
        s.phase = "combat"
        battle.after_battle(s)
    elif ph == "noncombat":
        movement.land_or_crash(s)
        s.phase = "place"
    elif ph == "place":
        end_turn(s)


def update_knowledge(s: KBase) -> None:
    """K58-K60: a stack is face up while an enemy stack stands in its space or next to it; every
    seat remembers what it has seen (A36). Only pieces nobody has seen yet are looked at, with
    the teams present per space as bit masks: this runs after every action."""
    known = s.known
    if not s.game.params.fog:
        known.update(s.pieces)
        return
    if known.issuperset(s.pieces):
        return  # every piece has been seen (most positions of a search's rollouts): none to look at
    teams = s.teams
    present = [0] * len(s.content.ids)
    hidden: list[Piece] = []
    for p in s.pieces.values():
        at = p.at
        if at >= 0:
            present[at] |= 1 << teams[p.faction]
            if p.id not in known:
                hidden.append(p)
    if not hidden:
        return
    adj = s.content.adj
    near: dict[int, int] = {}
    for p in hidden:
        at = p.at
        m = near.get(at)
        if m is None:
            m = present[at]
            for n in adj[at]:
                m |= present[n]
            near[at] = m
        if m & ~(1 << teams[p.faction]):  # a team other than the piece's own is here or next door
            known.add(p.id)
