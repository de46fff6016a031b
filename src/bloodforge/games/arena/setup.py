"""Setup (R-SET-1..16): figures, pools, hands, decks, the Environmental; recommendations."""

from __future__ import annotations

from bloodforge.core import Deck

from . import abilities
from .effects import drain
from .environment import env_uid, has_actions
from .environment import setup as setup_environment
from .model import ATTACK, BE, Die, Unit
from .world import World


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
        u.flying = c.flying or (not human and c.rival.flying)  # KW-FLY by nature
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
    for k, boss_id in enumerate(p.boss_ids()):  # several Bosses: each its own side, decks and minions (A60)
        bd = w.content.boss(boss_id)
        side = p.boss_team if teams is not None and p.boss_team is not None else 100 + k
        u = Unit(bd.id, "boss", bd.id, bd.name, side)
        champions = len(seat_champs) + len(p.rivals)
        u.hp = u.max_hp = bd.hp_base + bd.hp_per_champion * champions
        u.flying = bd.flying
        u.pool = [Die(ATTACK), Die(ATTACK), Die(ATTACK), Die(BE)]  # R-SET-10
        b.units[u.uid] = u
        b.decks[f"speed:{u.uid}"] = Deck.shuffled([str(i) for i in range(1, 7)], w.rng)  # R-SET-9
        b.decks[f"actions:{u.uid}"] = Deck.shuffled([a.id for a in bd.actions], w.rng)
        if bd.rot:
            b.decks[f"rot:{u.uid}"] = Deck.shuffled([c.id for c in bd.rot], w.rng)  # R-CMP-9, house
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
    signature = {w.content.boss(x).environmental: x for x in reversed(p.boss_ids())}  # env -> its first Boss
    if p.environmental is not None:
        envs = [p.environmental]
    else:  # R-REC-1: every Boss brings its signature Environmental
        envs = list(dict.fromkeys(e for x in p.boss_ids() if (e := w.content.boss(x).environmental) is not None))
    for env in envs:
        owner = signature.get(env)
        setup_environment(w, env, owner)
        if has_actions(w, env):  # R-SET-13
            b.decks[f"speed:{env_uid(env)}"] = Deck.shuffled([str(i) for i in range(1, 7)], w.rng)
            b.decks[f"envcards:{env}"] = Deck.shuffled([c.id for c in w.content.env_cards], w.rng)
            b.env_speed[env_uid(env)] = [0, 0]
    b.phase = "round"
    b.moved()
    warn_recommendations(w)


def warn_recommendations(w: World) -> None:
    """R-REC-1..3, R-MODE-7: the rulebook's recommendations are defaults and log warnings."""
    p = w.params
    combatants = len(p.seat_champions()) + len(p.rivals) + len(p.boss_ids())
    notes = []
    if combatants < 3:
        notes.append("the rulebook recommends at least 3 combatants")
    if p.mode == "team" and p.boss_ids() and p.boss_team is None:
        notes.append("the rulebook does not recommend a Boss in Team matches")
    if p.mode == "ffa" and not p.boss_ids() and p.players <= 4:
        notes.append("the rulebook recommends one Boss in Free-For-All with 4 or fewer players")
    if p.players == 1 and not p.rivals:
        notes.append("the rulebook asks for at least one Rival in solo play")
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
