"""Battles: declaration, secret hero cards, the reveal, the dice and the outcome (F26-F44).

A battle runs in stages kept in `Model.battle`: `heroes` (both sides commit face down, at the
same time), the game's own `reveal` and `roll` steps, then the decisions the outcome may need
(the loser's casualties, the defender's retreat, the attacker's leave-behind), each only when
there is a real choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from bloodforge.core import EventLog, Rng

from .model import (
    ADVANCE,
    CASUALTIES,
    CAV_BONUS,
    CAV_FRESH,
    CAV_SPENT,
    CAVALRY,
    EMPTY,
    HEROES,
    INDEPENDENT,
    INF_BONUS,
    INF_FRESH,
    INF_SPENT,
    RETREAT,
    Battle,
    Model,
    army_counts,
    army_strength,
)
from .queries import casualty_options
from .rules import (
    Config,
    controller,
    counts_text,
    defence_bonus,
    retreat_destinations,
)


@dataclass
class Ctx:
    """One application of an action: the rules' config, the position, its RNG and log."""

    cfg: Config
    m: Model
    rng: Rng
    log: EventLog

    def name(self, seat: int) -> str:
        if seat == INDEPENDENT:
            return "the independent army"
        return (self.cfg.names or self.cfg.seat_names)[seat]

    def tname(self, t: int) -> str:
        return self.cfg.content.names[t]

    def __reduce__(self) -> tuple[type[Ctx], tuple[Config, Model, Rng, EventLog]]:
        """Pickled by its constructor's arguments, the same in both builds (a compiled class
        unpickles through its `__init__`). No position holds one (each application makes its
        own), so this is only for whoever pickles one by hand."""
        return (Ctx, (self.cfg, self.m, self.rng, self.log))


# -- unit bookkeeping -------------------------------------------------------------------------
def take_acting(units: list[int], inf: int, cav: int) -> tuple[int, int]:
    """Use `inf`/`cav` units that may still act, extra actions first (a unit on its extra
    action gains nothing from winning, a fresh one does); they become spent. Returns how many
    of each type acted from fresh."""
    inf_bonus = min(inf, units[INF_BONUS])
    cav_bonus = min(cav, units[CAV_BONUS])
    inf_fresh, cav_fresh = inf - inf_bonus, cav - cav_bonus
    units[INF_BONUS] -= inf_bonus
    units[INF_FRESH] -= inf_fresh
    units[CAV_BONUS] -= cav_bonus
    units[CAV_FRESH] -= cav_fresh
    units[INF_SPENT] += inf
    units[CAV_SPENT] += cav
    return inf_fresh, cav_fresh


def remove_units(units: list[int], inf: int, cav: int) -> None:
    """Remove units of each type, spent ones first (they are worth least now)."""
    for kind_slots, n in (((INF_SPENT, INF_BONUS, INF_FRESH), inf), ((CAV_SPENT, CAV_BONUS, CAV_FRESH), cav)):
        for slot in kind_slots:
            k = min(n, units[slot])
            units[slot] -= k
            n -= k
        if n:
            raise ValueError("removing more units than the army has")


def clear_if_empty(m: Model, t: int) -> None:
    if not any(m.units[t]):
        m.owner[t] = EMPTY


def add_spent(m: Model, t: int, seat: int, inf: int, cav: int) -> None:
    if inf or cav:
        m.owner[t] = seat
        m.units[t][INF_SPENT] += inf
        m.units[t][CAV_SPENT] += cav


# -- declaration and commitments --------------------------------------------------------------
def declare(ctx: Ctx, seat: int, origin: int, target: int, inf: int, cav: int) -> None:
    m, c = ctx.m, ctx.cfg.content
    defender = controller(m, target)
    inf_fresh, cav_fresh = take_acting(m.units[origin], inf, cav)
    b = Battle(seat, defender, origin, target, inf, cav, inf_fresh, cav_fresh)
    for s in (seat, defender):
        if s >= 0 and m.hands[s]:
            b.committed[s] = []
            b.ready[s] = False
    m.battle = b
    held = counts_text(*army_counts(m.units[target]))
    ctx.log.add(
        f"{ctx.name(seat)} attacks {ctx.tname(target)} ({ctx.name(defender)}, {held}) from "
        f"{ctx.tname(origin)} with {counts_text(inf, cav)}",
        kind="attack",
        data={"attacker": seat, "defender": defender, "from": c.ids[origin], "to": c.ids[target],
              "infantry": inf, "cavalry": cav},
    )


def commit_hero(ctx: Ctx, seat: int, card: str) -> None:
    b = ctx.m.battle
    assert b is not None
    ctx.m.hands[seat].remove(card)
    b.committed[seat].append(card)
    hero = ctx.cfg.content.heroes[card]
    ctx.log.add(
        f"{ctx.name(seat)} commits {hero.name} face down", to=seat,
        masked=f"{ctx.name(seat)} commits a hero card face down", kind="hero",
    )


def commit_done(ctx: Ctx, seat: int) -> None:
    b = ctx.m.battle
    assert b is not None
    b.ready[seat] = True
    n = len(b.committed[seat])
    ctx.log.add(f"{ctx.name(seat)} is ready ({n} hero card{'s' if n != 1 else ''} face down)", kind="ready")


def reveal(ctx: Ctx) -> None:
    b = ctx.m.battle
    assert b is not None
    b.revealed = True
    heroes = ctx.cfg.content.heroes
    parts = []
    for s in sorted(b.committed):
        names = ", ".join(heroes[h].name for h in sorted(b.committed[s])) or "nothing"
        parts.append(f"{ctx.name(s)} plays {names}")
    ctx.log.add("hero cards revealed: " + "; ".join(parts), kind="reveal",
                data={"cards": {str(s): sorted(cs) for s, cs in b.committed.items()}})


# -- the roll and its outcome -----------------------------------------------------------------
def _hero_sum(ctx: Ctx, cards: list[str]) -> tuple[int, bool, int, bool]:
    heroes = ctx.cfg.content.heroes
    return (
        sum(heroes[h].strength for h in cards),
        any(heroes[h].wins_draws for h in cards),
        sum(heroes[h].shield for h in cards),
        any(heroes[h].pathfinder for h in cards),
    )


def roll(ctx: Ctx) -> None:
    m, c = ctx.m, ctx.cfg.content
    b = m.battle
    assert b is not None
    sides = c.data.die_sides
    a_cards = b.committed.get(b.attacker, [])
    d_cards = b.committed.get(b.defender, []) if b.defender >= 0 else []
    a_hero, a_tact, a_shield, a_path = _hero_sum(ctx, a_cards)
    d_hero, d_tact, d_shield, _ = _hero_sum(ctx, d_cards)
    a_die = m.dice.roll(ctx.rng, sides)
    d_die = m.dice.roll(ctx.rng, sides)
    a_army = b.inf + 2 * b.cav
    d_army = army_strength(m.units[b.target])
    bonus = defence_bonus(m, c, b.target, b.defender)
    a_total = a_army + a_hero + a_die
    d_total = d_army + bonus + d_hero + d_die
    for card in a_cards + d_cards:
        m.deck.discard(card)
    b.committed = {s: [] for s in b.committed}
    if a_total > d_total or (a_total == d_total and a_tact and not d_tact):
        verdict = "attacker wins"
    elif d_total > a_total or (a_total == d_total and d_tact and not a_tact):
        verdict = "defender wins"
    else:
        verdict = "draw"
    ctx.log.add(
        f"{ctx.name(b.attacker)} {a_army}+{a_hero} heroes+{a_die} die = {a_total} against "
        f"{ctx.name(b.defender)} {d_army}+{bonus} defence+{d_hero} heroes+{d_die} die = {d_total}: {verdict}",
        kind="battle",
        data={"attack": [a_army, a_hero, a_die, a_total], "defence": [d_army, bonus, d_hero, d_die, d_total],
              "verdict": verdict, "attacker": b.attacker, "defender": b.defender, "target": c.ids[b.target]},
    )
    if verdict == "attacker wins":
        m.currency[b.attacker] += 1  # F34, A23
        b.attacker_won = True
        b.pathfinder = a_path
        margin = max(0, a_total - d_total - d_shield)
        inf, cav = army_counts(m.units[b.target])
        if b.defender == INDEPENDENT:
            # A24: an independent army holds nothing else, so its survivors are eliminated too
            m.units[b.target] = [0] * 6
            m.owner[b.target] = EMPTY
            ctx.log.add(f"the independent army of {ctx.tname(b.target)} is destroyed", kind="losses",
                        data={"seat": INDEPENDENT, "infantry": inf, "cavalry": cav})
            after_defender_losses(ctx)
            return
        options = casualty_options(inf, cav, margin)
        if len(options) == 1:
            defender_loses(ctx, *options[0])
        else:
            b.stage, b.loser, b.margin = CASUALTIES, b.defender, margin
    elif verdict == "defender wins":
        margin = max(0, d_total - a_total - a_shield)
        options = casualty_options(b.inf, b.cav, margin)
        if len(options) == 1:
            attacker_loses(ctx, *options[0])
        else:
            b.stage, b.loser, b.margin = CASUALTIES, b.attacker, margin
    else:
        ctx.log.add(f"the attack on {ctx.tname(b.target)} is held off; nothing changes", kind="draw")
        m.battle = None


def choose_losses(ctx: Ctx, seat: int, inf: int, cav: int) -> None:
    b = ctx.m.battle
    assert b is not None
    if seat == b.attacker and not b.attacker_won:
        attacker_loses(ctx, inf, cav)
    else:
        defender_loses(ctx, inf, cav)


def attacker_loses(ctx: Ctx, inf: int, cav: int) -> None:
    """F42, F43: the attacker keeps its territory, loses the margin; survivors stay spent."""
    m = ctx.m
    b = m.battle
    assert b is not None
    if inf or cav:
        remove_units(m.units[b.origin], inf, cav)
        clear_if_empty(m, b.origin)
    ctx.log.add(f"{ctx.name(b.attacker)} loses {counts_text(inf, cav)} at {ctx.tname(b.origin)}", kind="losses",
                data={"seat": b.attacker, "infantry": inf, "cavalry": cav})
    m.battle = None


def defender_loses(ctx: Ctx, inf: int, cav: int) -> None:
    m = ctx.m
    b = m.battle
    assert b is not None
    if inf or cav:
        remove_units(m.units[b.target], inf, cav)
    ctx.log.add(f"{ctx.name(b.defender)} loses {counts_text(inf, cav)} at {ctx.tname(b.target)}", kind="losses",
                data={"seat": b.defender, "infantry": inf, "cavalry": cav})
    after_defender_losses(ctx)


def after_defender_losses(ctx: Ctx) -> None:
    """F36, F37, A18: survivors retreat (the defender chooses per unit when several places
    are open; with one place they all go there; with none they die)."""
    m, c = ctx.m, ctx.cfg.content
    b = m.battle
    assert b is not None
    inf, cav = army_counts(m.units[b.target])
    if inf or cav:
        dests = retreat_destinations(m, c, b.target, b.origin, b.defender)
        if not dests:
            m.units[b.target] = [0] * 6
            ctx.log.add(f"{counts_text(inf, cav)} of {ctx.name(b.defender)} cannot retreat and are eliminated",
                        kind="losses", data={"seat": b.defender, "infantry": inf, "cavalry": cav})
        elif len(dests) == 1:
            m.units[b.target] = [0] * 6
            add_spent(m, dests[0], b.defender, inf, cav)
            ctx.log.add(f"{ctx.name(b.defender)} retreats {counts_text(inf, cav)} to {ctx.tname(dests[0])}",
                        kind="retreat")
        else:
            b.stage = RETREAT
            return
    m.owner[b.target] = EMPTY
    start_advance(ctx)


def retreat_one(ctx: Ctx, kind: str, dest: int) -> None:
    m = ctx.m
    b = m.battle
    assert b is not None
    inf, cav = (0, 1) if kind == CAVALRY else (1, 0)
    remove_units(m.units[b.target], inf, cav)
    add_spent(m, dest, b.defender, inf, cav)
    ctx.log.add(f"{ctx.name(b.defender)} retreats one {kind} to {ctx.tname(dest)}", kind="retreat")
    if not any(m.units[b.target]):
        m.owner[b.target] = EMPTY
        start_advance(ctx)


def start_advance(ctx: Ctx) -> None:
    b = ctx.m.battle
    assert b is not None
    if b.inf + b.cav >= 2:
        b.stage = ADVANCE
    else:
        advance(ctx, None)


def advance(ctx: Ctx, stay: str | None) -> None:
    """F38-F41, A19, A20: the victors move in with an extra action (if they attacked with their
    ordinary action, or always with a Pathfinder); one unit may stay behind, spent."""
    m = ctx.m
    b = m.battle
    assert b is not None
    inf, cav = b.inf, b.cav
    inf_fresh, cav_fresh = b.inf_fresh, b.cav_fresh
    if stay == CAVALRY:
        cav -= 1
        cav_fresh = min(cav_fresh, cav)
    elif stay is not None:
        inf -= 1
        inf_fresh = min(inf_fresh, inf)
    origin = m.units[b.origin]
    origin[INF_SPENT] -= inf
    origin[CAV_SPENT] -= cav
    clear_if_empty(m, b.origin)
    if b.pathfinder:
        inf_fresh, cav_fresh = inf, cav
    target = m.units[b.target]
    m.owner[b.target] = b.attacker
    target[INF_BONUS] += inf_fresh
    target[INF_SPENT] += inf - inf_fresh
    target[CAV_BONUS] += cav_fresh
    target[CAV_SPENT] += cav - cav_fresh
    left = f", leaving one {stay} in {ctx.tname(b.origin)}" if stay else ""
    ctx.log.add(f"{ctx.name(b.attacker)} takes {ctx.tname(b.target)} with {counts_text(inf, cav)}{left}",
                kind="conquest")
    m.battle = None


def heroes_pending(b: Battle) -> bool:
    return b.stage == HEROES and not all(b.ready.values())
