"""Environmentals (R-ENV, R-HAZ, R-EACT): setup, their turns, and Boss minions on their lines."""

from __future__ import annotations

from collections.abc import Sequence

from .content import Content
from .effects import check_end, discard_card, hit_by_tile, place_tile, remove_stacked
from .hexes import Hex, distance, hex_id, parse_hex, rotate
from .model import Unit
from .npc import goal, minion_act
from .world import World


def env_uid(env_id: str) -> str:
    return f"env:{env_id}"


def has_actions(w: World, env_id: str) -> bool:
    return bool(w.content.environmental(env_id).lines)


def setup(w: World, env_id: str, owner: str | None) -> None:
    """R-SET-12..14: lay the Environmental's tiles at their setup anchors."""
    env = w.content.environmental(env_id)
    for anchor in env.placements:
        h = parse_hex(anchor)
        assert h is not None
        place_tile(w, env_id, h, owner, stack=False)


def env_turn(w: World, env_id: str) -> None:
    """R-EACT-2..4, E1: reveal an action card; the Guide lines resolve top to bottom, each once
    for every icon it carries that the card shows (EX-10: a line with A and C resolves twice)."""
    deck = w.board.decks[f"envcards:{env_id}"]
    card_id = deck.draw(w.rng)
    if card_id is None:
        return
    text, tasks = _card_turn(w.content, env_id, card_id)
    w.events.add_public(text, "environment", None)
    b = w.board
    b.active, b.stage = env_uid(env_id), "env"
    b.hazard_hits = set()
    b.tasks = [list(t) for t in tasks]
    deck.discard(card_id)
    resume(w)


def _card_turn(content: Content, env_id: str, card_id: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """What an action card makes of the Environmental's turn: the log line and the Guide
    lines to run, in order (R-EACT-3, E1). A pure function of the content, the
    Environmental and the card, worked out once (every Environmental turn of every game asked:
    the card by a search over the cards, its icons sorted, the lines read; issue 23). The
    first card of that id, as the search found; StopIteration when there is none."""
    key = (id(content), env_id, card_id)
    entry = _CARD_TURNS.get(key)
    if entry is None or entry[0] is not content:
        env = content.environmental(env_id)
        card = next(c for c in content.env_cards if c.id == card_id)
        icons = sorted(card.icons)
        text = card_words(env.name, icons)
        tasks = tuple((line.op, str(line.amount)) for line in env.lines for icon in line.icons if icon in icons)
        if len(_CARD_TURNS) > 1024:
            _CARD_TURNS.clear()
        entry = _CARD_TURNS[key] = (content, text, tasks)  # the content kept: its id is not reused
    return entry[1], entry[2]


_CARD_TURNS: dict[tuple[int, str, str], tuple[Content, str, tuple[tuple[str, str], ...]]] = {}


def card_words(name: str, icons: Sequence[str]) -> str:
    """The log line of an Environmental's turn, in words (R-EACT-2, R-EACT-3): it read "card
    A+B", which told a player nothing (UI audit); the icons are the action card's, and they
    pick the Guide card's lines that resolve."""
    shown = [i.upper() for i in icons]
    both = " and ".join(shown) if len(shown) < 3 else ", ".join(shown[:-1]) + " and " + shown[-1]
    either = " or ".join(shown) if len(shown) < 3 else ", ".join(shown[:-1]) + " or " + shown[-1]
    return f"{name} acts: its action card shows {both}, so the lines marked {either} on its Guide card resolve"


def resume(w: World) -> None:
    """Carry on with the Environmental's lines until one waits for a decision, then end its turn."""
    b = w.board
    assert b.active is not None
    env_id = b.active[len("env:"):]
    while b.tasks and b.pending is None and b.phase != "over":
        op, arg = b.tasks.pop(0)
        if op == "minions_act":
            mine = [u.uid for u in w.living() if u.kind == "minion" and _boss_minion(w, u, env_id)]
            b.tasks[:0] = [["minion", uid] for uid in sorted(mine)]
        elif op == "minion":
            minion_act(w, w.unit(arg))
        else:
            run_line(w, env_id, op, int(arg))
    if b.pending is None and b.phase != "over":
        sp = b.env_speed.get(b.active)
        deck = b.decks.get(f"speed:{b.active}")
        if sp is not None and deck is not None:
            deck.discard(str(sp[0]))
        b.done.append(b.active)
        b.active, b.stage = None, ""
        b.hazard_hits = set()


def run_line(w: World, env_id: str, op: str, amount: int) -> None:
    """One Guide line; everyone it fells falls together (A49)."""
    w.falling = []
    try:
        _run_line(w, env_id, op, amount)
    finally:
        fallen, w.falling = w.falling, None
    if fallen:
        check_end(w, fallen)


def _run_line(w: World, env_id: str, op: str, amount: int) -> None:
    env = w.content.environmental(env_id)
    tiles = [t for t in w.board.tiles if t.env == env_id]
    if op == "rotate":
        for t in tiles:
            before = set(t.hexes)
            t.hexes = list(_turned(w, env_id, t.anchor, t.turns, amount))
            t.turns += amount
            w.board.moved()
            w.events.add_public(f"{env.name} turns", "environment", None)
            remove_stacked(w, t)  # R-ENV-3: a moving tile removes one of its type underneath
            for u in w.living():  # a new list already (no copy of it)
                if u.hex in t.hexes and u.hex not in before:
                    hit_by_tile(w, u, t)  # the hazard moves onto them (R-HAZ-2, E3)
    elif op == "discard_on":
        for t in tiles:
            for u in w.living():  # a new list already (no copy of it)
                if u.hex in t.hexes and not u.is_flying:
                    discard_card(w, u)
    elif op == "hazard_on":
        for t in tiles:
            for u in w.living():  # a new list already (no copy of it)
                if u.hex in t.hexes:
                    hit_by_tile(w, u, t)
    elif op == "spawn":
        spawn(w, env_id)


def _turned(w: World, env_id: str, anchor: Hex, turns: int, amount: int) -> tuple[Hex, ...]:
    """The tile's hexes inside the arena after turning it by `amount` more sixths, sorted.

    *Why a memo:* a rotating Environmental turns every round, and the same few (anchor, turns)
    come back all game and in every playout (issue 23). A pure function of the shape, the
    pivot and the map, keyed by them (the content kept so its id is not reused)."""
    content = w.content
    key = (id(content), env_id, anchor, turns, amount, w.cells)
    entry = _TURNED.get(key)
    if entry is None or entry[0] is not content:
        env = content.environmental(env_id)
        off = parse_hex(env.pivot)
        assert off is not None
        pivot = (anchor[0] + off[0], anchor[1] + off[1])
        cells = w.cells
        hexes = tuple(sorted(h for h in (rotate(h, pivot, amount) for h in _footprint(w, env_id, anchor, turns))
                             if h in cells))
        if len(_TURNED) > 4096:
            _TURNED.clear()
        entry = _TURNED[key] = (content, hexes)
    return entry[1]


_TURNED: dict[tuple[object, ...], tuple[object, tuple[Hex, ...]]] = {}


def _footprint(w: World, env_id: str, anchor: tuple[int, int], turns: int) -> list[tuple[int, int]]:
    """The tile's hexes before this rotation: its shape turned by every rotation so far
    (kept even where it hangs over the wall, so the cone keeps its shape)."""
    env = w.content.environmental(env_id)
    off = parse_hex(env.pivot)
    assert off is not None
    pivot = (anchor[0] + off[0], anchor[1] + off[1])
    out = []
    for s in env.shape:
        o = parse_hex(s)
        assert o is not None
        out.append(rotate((anchor[0] + o[0], anchor[1] + o[1]), pivot, turns))
    return out


def _boss_minion(w: World, m: Unit, env_id: str) -> bool:
    """E2 / R-EACT-5: a Boss's minions act on its own Environmental's lines; with several Bosses
    (A60) another Boss's Environmental does not move them. An Environmental without its Boss
    (R-REC-1) moves every Boss's minions."""
    if m.summoner is None or w.board.units[m.summoner].kind != "boss":
        return False
    owners = {u.uid for u in w.board.units.values()
              if u.kind == "boss" and w.content.boss(u.content_id).environmental == env_id}
    return not owners or m.summoner in owners


def spawn(w: World, env_id: str) -> None:
    """House line: the Boss raises one fallen or unused minion on the free Spawn hex nearest the
    enemy it hunts (most HP, N14's goal); ties by (q, r)."""
    owners = {t.owner for t in w.board.tiles if t.env == env_id}
    for owner_id in sorted(o for o in owners if o is not None):
        boss = w.board.units.get(owner_id)
        if boss is None or not boss.alive:
            continue
        idle = [m for m in w.board.units.values() if m.summoner == boss.uid and m.kind == "minion" and not m.alive
                and m.hex is None]
        if not idle:
            continue
        occupied = w.occupied()
        free = sorted(h for t in w.board.tiles if t.env == env_id for h in t.hexes if h not in occupied)
        if not free:
            continue
        g = goal(w, boss)
        if g is not None and g.hex is not None:
            gh = g.hex
            free.sort(key=lambda h: (distance(h, gh), h))
        m = idle[0]
        m.alive = True
        w.board.in_use = None  # a figure's life changed: `dice.supply_left`'s count is made again
        m.minion_damage = 0
        m.hex = free[0]
        w.board.moved()
        w.log(f"{boss.name} raises {m.name} at {hex_id(free[0])}", kind="spawn", unit=m.uid, summoner=boss.uid)
