"""The round (R-RND): initiative (R-INI), first-round placement (R-FR), the Immediate phase
(R-IMM), turns (R-TURN) with the players' actions (R-ACT ... R-CLN), and setup (R-SET).

`auto_step` is the game's own next step (pure); `actors`, `legal` and `apply` are the seats'
side. Every `apply` ends with `settle`, which makes the silent phase changes no one decides.
"""

from __future__ import annotations

from bloodforge.core import Action, Deck

from . import abilities, attack, npc
from .content import Attack, InitiativeCard
from .dice import cleanup_dice, energy_dice_ready, gain_energy
from .effects import check_end, drain, finish, walk
from .environment import env_turn, env_uid, has_actions
from .environment import resume as resume_environment
from .environment import setup as setup_environment
from .hexes import Hex, distance, hex_id, neighbours, parse_hex
from .model import ATTACK, BE, Die, Pending, Unit
from .movement import explore, safest
from .world import World

ENV = "env:"


# -- setup ------------------------------------------------------------------------------------
def setup(w: World) -> None:
    """R-SET-1..16: figures, pools, hands and decks; the Environmental's tiles laid."""
    p = w.params
    b = w.board
    teams = p.team_list() if p.mode == "team" else None
    seat_champs = p.seat_champions()
    for i, cid in enumerate([*seat_champs, *p.rivals]):
        human = i < len(seat_champs)
        side = teams[i] if teams is not None else i
        c = w.content.champion(cid)
        u = Unit(cid, "champion" if human else "rival", cid, c.name, side)
        u.seat = i if human else None
        u.hp = u.max_hp = c.hp  # R-SET-5
        u.pool = [Die(ATTACK), Die(ATTACK), Die(ATTACK), Die(BE)]  # R-SET-3
        u.hand = sorted(k.id for k in c.cards)  # R-SET-7
        b.units[u.uid] = u
        for m in c.minions:
            for k in range(m.count):
                _minion(w, u, m.id, m.name, k, m.count, m.hp)
        if not human:
            letters = w.content.rules.skirmish_letters
            start = letters.index(p.skirmish_from)
            deck = [s.letter for s in w.content.skirmish if s.letter in letters[start:start + 12]]
            b.decks[f"skirmish:{u.uid}"] = Deck.shuffled(deck, w.rng)  # R-SET-15
    if p.boss is not None:
        bd = w.content.boss(p.boss)
        side = (p.boss_team if p.boss_team is not None else 100) if teams is not None else 100
        u = Unit(bd.id, "boss", bd.id, bd.name, side)
        champions = len(seat_champs) + len(p.rivals)
        u.hp = u.max_hp = bd.hp_base + bd.hp_per_champion * champions
        u.pool = [Die(ATTACK), Die(ATTACK), Die(ATTACK), Die(BE)]  # R-SET-10
        b.units[u.uid] = u
        b.decks[f"speed:{u.uid}"] = Deck.shuffled([str(i) for i in range(1, 7)], w.rng)  # R-SET-9
        b.decks[f"actions:{u.uid}"] = Deck.shuffled([a.id for a in bd.actions], w.rng)
        for m in bd.minions:
            for k in range(m.count):
                mu = _minion(w, u, m.id, m.name, k, m.count, m.hp)
                mu.alive = m.summoned
    for u in list(b.units.values()):
        if u.kind in ("champion", "rival"):
            abilities.queue(w, u, w.content.champion(u.content_id).setup, u.uid, "setup")  # R-SET-4
    drain(w)
    for u in b.units.values():  # dice gained at setup are simply in the pool
        for d in u.pool:
            d.fresh = False
    env = p.environmental
    if env is None and p.boss is not None:
        env = w.content.boss(p.boss).environmental
    if env is not None:
        owner = p.boss if p.boss is not None and w.content.boss(p.boss).environmental == env else None
        setup_environment(w, env, owner)
        if has_actions(w, env):  # R-SET-13
            b.decks[f"speed:{env_uid(env)}"] = Deck.shuffled([str(i) for i in range(1, 7)], w.rng)
            b.decks[f"envcards:{env}"] = Deck.shuffled([c.id for c in w.content.env_cards], w.rng)
            b.env_speed[env_uid(env)] = [0, 0]
    b.phase = "round"
    warn_recommendations(w)


def warn_recommendations(w: World) -> None:
    """R-REC-1..3, R-MODE-7: the rulebook's recommendations are defaults and log warnings."""
    p = w.params
    combatants = len(p.seat_champions()) + len(p.rivals) + (p.boss is not None)
    notes = []
    if combatants < 3:
        notes.append("at least 3 combatants are recommended (R-REC-3)")
    if p.mode == "team" and p.boss is not None and p.boss_team is None:
        notes.append("a Boss is not recommended in Team matches (R-REC-2)")
    if p.mode == "ffa" and p.boss is None and p.players <= 4:
        notes.append("one Boss is recommended in Free-For-All with 4 or fewer players (R-REC-2)")
    if p.players == 1 and not p.rivals:
        notes.append("the rulebook asks for at least one Rival in solo play (R-MODE-7)")
    for n in notes:
        w.log(f"recommendation: {n}", kind="setup")


def _minion(w: World, owner: Unit, mid: str, name: str, k: int, count: int, hp: int | None) -> Unit:
    uid = f"{mid}{k + 1}" if count > 1 else mid
    m = Unit(uid, "minion", mid, name if count == 1 else f"{name} {k + 1}", owner.side)
    m.summoner = owner.uid
    m.hp = m.max_hp = hp
    m.flying = w.content.minion(mid).flying
    w.board.units[uid] = m
    return m


# -- who acts ------------------------------------------------------------------------------------
def actors(w: World) -> list[int]:
    b = w.board
    if b.phase == "over":
        return []
    if b.pending is not None:
        return [b.pending.seat]
    if b.phase == "pick":
        return sorted(u.seat for u in w.combatants() if u.seat is not None and u.seat not in b.picks)
    if b.phase == "place":
        u = next_to_place(w)
        return [u.seat] if u is not None and u.seat is not None else []
    if b.phase == "turns" and b.active is not None and b.stage in ("act", "target"):
        u = w.unit(b.active)
        return [u.seat] if u.seat is not None else []
    return []


def next_to_place(w: World) -> Unit | None:
    for x in w.board.order:
        u = w.board.units.get(x)
        if u is not None and u.alive and u.hex is None and x not in w.board.done:
            return u
    return None


def next_immediate(w: World) -> Unit | None:
    for x in w.board.order:
        u = w.board.units.get(x)
        if u is None or x in w.board.done or not u.alive or u.kind != "champion" or u.current is None:
            continue
        card = _card(w, u, u.current)
        if card is not None and card.immediate is not None:
            return u
    return None


def next_turn(w: World) -> str | None:
    for x in w.board.order:
        if x in w.board.done:
            continue
        if x.startswith(ENV):
            return x
        u = w.board.units.get(x)
        if u is not None and u.alive and u.hex is not None:
            return x
    return None


def _card(w: World, u: Unit, card_id: str) -> InitiativeCard | None:
    return next((c for c in w.content.champion(u.content_id).cards if c.id == card_id), None)


# -- the game's own steps ------------------------------------------------------------------------
def auto_step(w: World) -> Action | None:
    b = w.board
    if b.phase == "over" or b.pending is not None:
        return None
    if b.phase == "round":
        return Action("round")
    if b.phase == "pick":
        return None if actors(w) else Action("reveal")
    if b.phase == "place":
        u = next_to_place(w)
        if u is not None and u.seat is None:
            return Action("npc", (u.uid, "place", hex_id(npc_start(w, u))))
        return None
    if b.phase == "immediate":
        u = next_immediate(w)
        return Action("immediate", (u.uid,)) if u is not None else None
    if b.phase == "turns":
        if b.active is None:
            x = next_turn(w)
            if x is None:
                return None
            if x.startswith(ENV):
                return Action("env", (x[len(ENV):],))
            u = w.unit(x)
            return Action("roll", (u.uid,)) if u.kind == "champion" else Action("npc", (u.uid, "card"))
        if b.active.startswith(ENV):
            return None
        u = w.unit(b.active)
        if u.is_npc:
            return Action("npc", (u.uid, *npc.next_step(w, u)))
    return None


def apply_auto(w: World, action: Action) -> None:
    b = w.board
    k, a = action.kind, action.args
    if k == "round":
        new_round(w)
    elif k == "reveal":
        reveal(w)
    elif k == "immediate":
        u = w.unit(a[0])
        b.done.append(u.uid)
        assert u.current is not None
        w.log(f"{u.name} resolves the Immediate ability of {u.current}", kind="immediate")
        abilities.use(w, u, f"card:{u.content_id}:{u.current}:immediate")
    elif k == "roll":
        u = w.unit(a[0])
        start_turn(w, u)
        b.stage = "act"
        abilities.roll_and_resolve_d8(w, u)  # R-TURN-1/2, R-D8
        if not u.alive:
            end_turn(w, u)
    elif k == "env":
        env_turn(w, a[0])
    elif k == "npc":
        u = w.unit(a[0])
        if a[1] == "place":
            h = parse_hex(a[2])
            assert h is not None
            place(w, u, h)
        elif a[1] == "card":
            start_turn(w, u)
            b.stage = "card"
            npc.apply_step(w, u, ("card",))
        elif a[1] == "end":
            end_turn(w, u)
        else:
            npc.apply_step(w, u, tuple(a[1:]))
            if not u.alive:
                end_turn(w, u)
    drain(w)  # effects a move left waiting (a Springboard's launch)
    settle(w)


def settle(w: World) -> None:
    """Phase changes nobody decides (no chance, no choice)."""
    b = w.board
    for _ in range(8):
        if b.phase == "over" or b.pending is not None or b.queue:
            return
        if b.phase == "place" and next_to_place(w) is None:
            b.phase, b.done = "immediate", []
        elif b.phase == "immediate" and next_immediate(w) is None:
            b.phase, b.done, b.active = "turns", [], None
        elif b.phase == "turns" and b.active is None and next_turn(w) is None:
            b.phase = "round"
        elif b.phase == "turns" and b.active in b.units and not w.unit(b.active).alive:
            end_turn(w, w.unit(b.active))
        else:
            return


# -- round, initiative, placement ---------------------------------------------------------------------
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
        u.prev_speed = u.speed if u.speed is not None else u.prev_speed
        u.speed = None
        if u.alive and u.kind in ("champion", "rival") and not u.hand:
            u.hand, u.discard = sorted(u.discard), []
    w.log(f"round {b.round} begins", kind="round")


def time_up(w: World) -> None:
    """House limit (`max_rounds`, see Rulings): the side with the most HP left wins."""
    hp: dict[int, int] = {}
    for u in w.combatants():
        hp[u.side] = hp.get(u.side, 0) + (u.hp or 0)
    best = max(hp.values(), default=0)
    w.board.winners = sorted(s for s, v in hp.items() if v == best)
    w.log(f"round limit {w.params.max_rounds} reached: the most HP left decides", kind="over")
    finish(w)


def reveal(w: World) -> None:
    """R-INI-1..12, R-NPC-3, I1/I2: reveal together, NPC Speeds, order with tie-breaks."""
    b = w.board
    for seat, card in sorted(b.picks.items()):
        u = next(x for x in b.units.values() if x.seat == seat)
        u.hand.remove(card)
        u.current = card
        u.speed = _speed(w, u, card)
        w.log(f"{u.name} reveals {card} (Speed {u.speed})", kind="reveal")
    b.picks = {}
    entrants: list[str] = []
    for u in w.combatants():
        if u.kind == "rival":
            if not u.hand:
                u.hand, u.discard = sorted(u.discard), []
            card = w.rng.choice(sorted(u.hand))
            u.hand.remove(card)
            u.current = card
            u.speed = _speed(w, u, card)
            w.log(f"{u.name} reveals a random card: Speed {u.speed} (text ignored)", kind="reveal")
        elif u.kind == "boss":
            drawn = b.decks[f"speed:{u.uid}"].draw(w.rng)
            assert drawn is not None
            u.current = drawn
            u.speed = int(drawn)
            w.log(f"{u.name} reveals Speed card {drawn}", kind="reveal")
        entrants.append(u.uid)
    for key in sorted(b.env_speed):
        env_card = b.decks[f"speed:{key}"].draw(w.rng)
        assert env_card is not None
        prev = b.env_speed[key][0]
        b.env_speed[key] = [int(env_card), prev]
        w.log(f"{w.content.environmental(key[len(ENV):]).name} reveals Speed card {env_card}", kind="reveal")
        entrants.append(key)
    order = initiative_order(w, entrants)
    b.order = order
    b.ranks = {x: i for i, x in enumerate(order)}
    b.done = []
    b.phase = "place" if b.round == 1 else "immediate"
    ask_ally_ties(w)
    if b.pending is None:
        w.log("initiative: " + ", ".join(_name(w, x) for x in b.order), kind="initiative")


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
        w.log("initiative: " + ", ".join(_name(w, x) for x in b.order), kind="initiative")


def _speed(w: World, u: Unit, card_id: str) -> int:
    c = _card(w, u, card_id)
    assert c is not None
    return c.speed


def _name(w: World, x: str) -> str:
    return w.content.environmental(x[len(ENV):]).name if x.startswith(ENV) else w.unit(x).name


def speeds(w: World, x: str) -> tuple[int, int]:
    if x.startswith(ENV):
        s, prev = w.board.env_speed[x]
        return s, prev
    u = w.unit(x)
    return u.speed or 0, u.prev_speed or 0


def initiative_order(w: World, entrants: list[str]) -> list[str]:
    """R-INI-5..8 with TB-INI: ascending Speed; ties by the lower previous Speed; equal or
    missing previous Speeds (always in round 1) roll off with d6, highest first, re-rolling ties."""
    groups: dict[int, list[str]] = {}
    for x in sorted(entrants):
        groups.setdefault(speeds(w, x)[0], []).append(x)
    out: list[str] = []
    for s in sorted(groups):
        g = groups[s]
        if len(g) == 1:
            out += g
            continue
        prevs = {x: speeds(w, x)[1] for x in g}
        if w.board.round == 1 or any(v == 0 for v in prevs.values()):
            out += roll_off(w, g)
            continue
        by_prev: dict[int, list[str]] = {}
        for x in g:
            by_prev.setdefault(prevs[x], []).append(x)
        for pv in sorted(by_prev):
            out += roll_off(w, by_prev[pv]) if len(by_prev[pv]) > 1 else by_prev[pv]
    return out


def roll_off(w: World, tied: list[str]) -> list[str]:
    rolls = {x: w.roll(6) for x in tied}
    w.log("roll-off: " + ", ".join(f"{_name(w, x)} {r}" for x, r in rolls.items()), kind="rolloff")
    out: list[str] = []
    for r in sorted(set(rolls.values()), reverse=True):
        same = [x for x in tied if rolls[x] == r]
        out += roll_off(w, same) if len(same) > 1 else same
    return out


def npc_start(w: World, u: Unit) -> Hex:
    """R-FR-3 / A11: the setup start space, else the nearest free hex to it (ruling)."""
    text = w.content.arena.starts.get(u.uid)
    if text is None:
        text = w.content.boss(u.content_id).start if u.kind == "boss" else w.content.champion(u.content_id).rival.start
    want = parse_hex(text) if text is not None else None
    occupied = w.occupied()
    blocked = w.blocking_tiles()
    free = [h for h in sorted(w.cells) if h not in occupied and h not in blocked]
    if want is None or want not in w.cells:
        free = [h for h in w.central if h not in occupied and h not in blocked] or free
        return free[0]
    return min(free, key=lambda h: (distance(h, want), h))


def place_options(w: World) -> list[Hex]:
    """R-FR-2: any unoccupied space of the central zone (a full zone opens the whole arena)."""
    occupied = w.occupied()
    blocked = w.blocking_tiles()
    free = [h for h in w.central if h not in occupied and h not in blocked]
    return free or [h for h in sorted(w.cells) if h not in occupied and h not in blocked]


def place(w: World, u: Unit, h: Hex) -> None:
    """R-FR-1..3; a Champion's minions appear beside it (house)."""
    u.hex = h
    w.board.done.append(u.uid)
    w.log(f"{u.name} enters the arena at {hex_id(h)}", kind="place")
    for m in w.board.units.values():
        if m.kind == "minion" and m.summoner == u.uid and m.alive and m.hex is None:
            occupied = w.occupied()
            blocked = w.blocking_tiles()
            spots = [n for n in neighbours(h) if n in w.cells and n not in occupied and n not in blocked]
            if not spots:
                spots = sorted((x for x in w.cells if x not in occupied and x not in blocked),
                               key=lambda x: (distance(x, h), x))
            m.hex = spots[0]
            w.log(f"{m.name} appears at {hex_id(m.hex)}", kind="place")


# -- turns -------------------------------------------------------------------------------------------
def start_turn(w: World, u: Unit) -> None:
    b = w.board
    b.active = u.uid
    b.hazard_hits = set()  # once per turn (R-HAZ-4, A56)
    b.npc_plan = {}
    u.dealt_damage = False
    for m in b.units.values():
        m.minion_damage = 0


def end_turn(w: World, u: Unit) -> None:
    """Cleanup (R-CLN-1..5, N15): Temporary dice recalled after Doubles/Triples, the current card
    goes to the discard pile, turn modifiers end."""
    b = w.board
    n = cleanup_dice(u)
    if n:
        w.log(f"{u.name} recalls {n} Temporary Attack {'die' if n == 1 else 'dice'}", kind="cleanup")
    if u.current is not None:
        if u.kind == "boss":
            b.decks[f"speed:{u.uid}"].discard(u.current)
        else:
            u.discard.append(u.current)
        u.current = None
    card = b.revealed.pop(u.uid, None)
    if card is not None:
        b.decks[npc.deck_key(u)].discard(card)
    u.mods = {}
    u.rolled_category = None
    u.dealt_damage = False
    for d in u.pool:
        d.face = None if d.fresh else d.face
    b.done.append(u.uid)
    b.active = None
    b.stage = ""
    b.attack = None
    b.npc_plan = {}
    b.hazard_hits = set()
    for m in b.units.values():
        m.minion_damage = 0
    if u.alive:
        w.log(f"{u.name} ends the turn", kind="turn")


# -- the players' actions ------------------------------------------------------------------------------
def legal(w: World, seat: int) -> list[Action]:
    b = w.board
    if b.pending is not None:
        return [Action("choose", (o,)) for o in b.pending.options]
    if b.phase == "pick":
        u = seat_unit(w, seat)
        return [Action("pick", (c,)) for c in sorted(u.hand)]
    if b.phase == "place":
        return [Action("place", (hex_id(h),)) for h in place_options(w)]
    u = w.unit(str(b.active))
    if b.stage == "target":
        return target_actions(w, u)
    out: list[Action] = [Action("energy", (str(i),)) for i in energy_dice_ready(u)]
    if not u.moved:
        routes = explore(w, u, attack.movement_of(w, u))
        out += [Action("move", (hex_id(h),)) for h in sorted(routes) if h != u.hex]
    if not u.attacked:
        out += [Action("attack", (a.id,)) for a in attack.attack_options(w, u)]
    if u.current is not None and "card" not in u.bonus_used:
        card = _card(w, u, u.current)
        if card is not None and card.bonus is not None:
            out.append(Action("bonus", ("card",)))
    for i, d in enumerate(u.pool):
        if d.is_special and d.face is not None and not d.fresh and not d.used \
                and w.content.special_die(d.kind).timing == "spell" and f"spell{i}" not in u.bonus_used:
            out.append(Action("spell", (str(i),)))
    for p in w.content.champion(u.content_id).pacts:
        if p.id not in u.bonus_used and u.energy >= p.cost:
            out.append(Action("pact", (p.id,)))
    if attack.can_invoke(w, u):
        be = [i for i, d in enumerate(u.pool) if d.kind == BE]
        out += [Action("invoke", (str(i),)) for i in be] if be else [Action("invoke")]
    for m in sorted(b.units.values(), key=lambda m: m.uid):
        if m.kind == "minion" and m.summoner == u.uid and m.alive and m.hex is not None \
                and f"minion:{m.uid}" not in u.bonus_used:
            spec = w.content.minion(m.content_id)
            if spec.movement > 0:
                routes = explore(w, m, spec.movement)
                out += [Action("minion", (m.uid, hex_id(h))) for h in sorted(routes) if h != m.hex]
    out.append(Action("end"))
    return out


def target_actions(w: World, u: Unit) -> list[Action]:
    b = w.board
    assert b.attack is not None
    atk = attack.attack_by_id(w, u, str(b.attack["attack"]))
    chosen = list(b.attack["targets"])
    out = [Action("target", (e.uid,)) for e in sorted(attack.in_range(w, u, atk), key=lambda e: e.uid)
           if e.uid not in chosen]
    if chosen:
        out.append(Action("done"))
    else:
        out.append(Action("cancel"))
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
        w.log(f"you choose {a[0]}", kind="pick", to=seat, masked=f"{u.name} has chosen a card")
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
        w.log(f"{u.name} gains {got} Blood Energy from a die (now {u.energy})", kind="energy")
    elif k == "move":
        h = parse_hex(a[0])
        assert h is not None
        u.moved = True
        walk(w, u, safest(explore(w, u, attack.movement_of(w, u))[h]).path)
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
        w.log(f"{u.name} uses a {spec.name} die showing {d.face}", kind="spell")
        abilities.queue(w, u, spec.faces[(d.face or 1) - 1], u.uid, spec.name, {"die": i, "face": d.face})
        drain(w)
    elif k == "pact":
        p = next(x for x in w.content.champion(u.content_id).pacts if x.id == a[0])
        u.energy -= p.cost  # R-PACT-1, R-BE-4
        u.bonus_used.append(p.id)
        w.log(f"{u.name} pays {p.cost} Blood Energy for {p.name}", kind="pact")
        abilities.use(w, u, f"pact:{u.content_id}:{p.id}")
    elif k == "invoke":
        attack.invoke(w, u, int(a[0]) if a else None)
    elif k == "minion":
        m = w.unit(a[0])
        h = parse_hex(a[1])
        assert h is not None
        u.bonus_used.append(f"minion:{m.uid}")
        walk(w, m, safest(explore(w, m, w.content.minion(m.content_id).movement)[h]).path)
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
