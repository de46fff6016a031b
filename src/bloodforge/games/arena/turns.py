"""The round's flow (R-RND-2, R-FR, R-IMM, R-TURN, R-CLN): who acts, the game's own steps
(`auto_step`, pure) and their effects, the silent phase changes (`settle`), placement, and the
start and cleanup of every turn."""

from __future__ import annotations

from bloodforge.core import Action

from . import abilities, npc
from .dice import cleanup_dice
from .effects import drain
from .environment import env_turn
from .hexes import Hex, distance, hex_id, neighbours, parse_hex
from .initiative import ENV, card_of, new_round, reveal
from .model import TEMP, Unit
from .world import World

_ACTIONS: dict[str, dict[tuple[str, ...], Action]] = {}


def act(kind: str, *args: str) -> Action:
    """`Action(kind, args)`, made once per text: actions are immutable, and legal actions and
    the game's own steps make the same few hundred over and over (a frozen dataclass is
    slow to build; issue 23). Kept per kind, keyed by the argument tuple the call already
    made (building a `(kind, *args)` key cost as much as the look-up)."""
    table = _ACTIONS.get(kind)
    if table is None:
        table = _ACTIONS[kind] = {}
    a = table.get(args)
    if a is None:
        if len(table) > 65536:
            table.clear()
        a = table[args] = Action(kind, args)
    return a


def actors(w: World) -> list[int]:
    b = w.board
    phase = b.phase
    if phase == "over":
        return []
    pending = b.pending
    if pending is not None:
        return [pending.seat]
    if phase == "turns":  # the usual case first (every ply asks, often several times)
        active = b.active
        if active is not None and b.stage in ("act", "target"):
            seat = b.units[active].seat
            return [seat] if seat is not None else []
        return []
    if phase == "pick":
        picks = b.picks  # `World.combatants` inlined: the living figures that are not minions
        seats = [u.seat for u in b.units.values()
                 if u.alive and u.kind != "minion" and u.seat is not None and u.seat not in picks]
        seats.sort()  # a list sorted in place: no generator (the pick phase asks every ply)
        return seats
    if phase == "place":
        u = next_to_place(w)
        return [u.seat] if u is not None and u.seat is not None else []
    return []


def next_to_place(w: World) -> Unit | None:
    for x in w.board.order:
        u = w.board.units.get(x)
        if u is not None and u.alive and u.hex is None and x not in w.board.done:
            return u
    return None


def next_immediate(w: World) -> Unit | None:
    b = w.board  # the board's fields read once (the immediate phase asks at every step)
    units = b.units
    done = b.done
    for x in b.order:
        u = units.get(x)
        if u is None or x in done or not u.alive or u.kind != "champion" or u.current is None:
            continue
        card = card_of(w, u, u.current)
        if card is not None and card.immediate is not None:
            return u
    return None


def next_turn(w: World) -> str | None:
    b = w.board  # the board's fields read once (every step between two turns asks)
    units = b.units
    done = b.done
    for x in b.order:
        if x in done:
            continue
        if x.startswith(ENV):
            return x
        u = units.get(x)
        if u is not None and u.alive and u.hex is not None:
            return x
    return None


def auto_step(w: World) -> Action | None:
    b = w.board
    phase = b.phase
    if phase == "over" or b.pending is not None:
        return None
    if phase == "turns":  # the usual case first: an NPC's steps are most of the game's own
        active = b.active
        if active is None:
            x = next_turn(w)
            if x is None:
                return None
            if x.startswith(ENV):
                return act("env", x[len(ENV):])
            u = b.units[x]
            return act("roll", u.uid) if u.kind == "champion" else act("npc", u.uid, "card")
        if active.startswith(ENV):
            return None
        u = b.units[active]
        if u.kind == "rival" or u.kind == "boss":  # `Unit.is_npc`
            stage = b.stage
            if stage in _PLAIN_STAGES:  # what `npc.next_step` answers at once, without its tuple
                # by figure and stage: two look-ups by strings, not `act`'s by a tuple (~1 % of
                # a solo ply was hashing and comparing that tuple; issue 23)
                row = _NPC_PLAIN.get(u.uid)
                found = row.get(stage) if row is not None else None
                return found if found is not None else _npc_plain(u.uid, stage)
            return act("npc", u.uid, *npc.next_step(w, u))
        return None
    if phase == "round":
        return act("round")
    if phase == "pick":
        return None if actors(w) else act("reveal")
    if phase == "place":
        entrant = next_to_place(w)
        if entrant is not None and entrant.seat is None:
            return act("npc", entrant.uid, "place", hex_id(npc_start(w, entrant)))
        return None
    if phase == "immediate":
        first = next_immediate(w)
        return act("immediate", first.uid) if first is not None else None
    return None


#: The NPC stages whose step is the stage's own word (`npc.next_step`).
_PLAIN_STAGES = frozenset(("card", "roll", "energy", "invoke", "end"))

#: figure id -> stage -> `act("npc", uid, stage)` for the plain stages (ids come from the
#: content: a few dozen figures in a process)
_NPC_PLAIN: dict[str, dict[str, Action]] = {}


def _npc_plain(uid: str, stage: str) -> Action:
    """`act("npc", uid, stage)`, kept in `_NPC_PLAIN`."""
    if len(_NPC_PLAIN) > 4096:
        _NPC_PLAIN.clear()
    a = _NPC_PLAIN.setdefault(uid, {})[stage] = act("npc", uid, stage)
    return a


def apply_auto(w: World, action: Action) -> None:
    b = w.board
    k, a = action.kind, action.args
    if k == "npc":  # the usual case first
        u = b.units[a[0]]
        step = a[1]
        if step == "place":
            h = parse_hex(a[2])
            assert h is not None
            place(w, u, h)
        elif step == "card":
            start_turn(w, u)
            b.stage = "card"
            npc.apply_step(w, u, ("card",))
        elif step == "end":
            end_turn(w, u)
        else:
            npc.apply_step(w, u, a[1:])
            if not u.alive:
                end_turn(w, u)
    elif k == "round":
        new_round(w)
    elif k == "reveal":
        reveal(w)
    elif k == "immediate":
        u = w.unit(a[0])
        b.done.append(u.uid)
        assert u.current is not None
        card = card_of(w, u, u.current)
        w.events.add_public(f"{u.name} resolves the Immediate ability of {card.name if card else u.current}",
                            "immediate", None)
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
    if b.queue or b.gone:  # `drain`'s own first test: nothing queued, no die to purge
        drain(w)  # effects a move left waiting (a Springboard's launch)
    # `settle`'s own first test (every step ends here): a living figure's turn is on and
    # nothing waits
    if b.phase == "turns" and b.pending is None and not b.queue and b.active is not None:
        now = b.units.get(b.active)
        if now is None or now.alive:
            return
    settle(w)


def settle(w: World) -> None:
    """Phase changes nobody decides (no chance, no choice)."""
    b = w.board
    # the usual case first, what the loop's first pass returns on: a living figure's turn is
    # on and nothing waits (every action and step ends here; issue 23)
    if b.phase == "turns" and b.pending is None and not b.queue and b.active is not None:
        u = b.units.get(b.active)
        if u is None or u.alive:
            return
    for _ in range(8):
        phase = b.phase
        if phase == "over" or b.pending is not None or b.queue:
            return
        if phase == "turns":  # the usual case first (every action and step ends here)
            active = b.active
            if active is None:
                if next_turn(w) is not None:
                    return
                b.phase = "round"
                continue
            u = b.units.get(active)
            if u is None or u.alive:
                return
            end_turn(w, u)
            continue
        if phase == "place" and next_to_place(w) is None:
            b.phase, b.done = "immediate", []
        elif phase == "immediate" and next_immediate(w) is None:
            b.phase, b.done, b.active = "turns", [], None
        else:
            return


def npc_start(w: World, u: Unit) -> Hex:
    """R-FR-3 / A11: the setup start space, else the nearest free hex to it (ruling)."""
    text = w.content.arena.starts.get(u.uid)
    if text is None:
        text = w.content.boss(u.content_id).start if u.kind == "boss" else w.content.champion(u.content_id).rival.start
    want = parse_hex(text) if text is not None else None
    occupied = w.occupied()
    blocked = w.blocking_tiles()
    if want is None or want not in w.cells:
        free = [h for h in w.central if h not in occupied and h not in blocked]
        if not free:
            free = [h for h in _cells_by_distance(w.cells, None) if h not in occupied and h not in blocked]
        return free[0]
    # the free cell with the least (distance, hex): the first free one in that order
    return next(h for h in _cells_by_distance(w.cells, want) if h not in occupied and h not in blocked)


_BY_DISTANCE: dict[tuple[frozenset[Hex], Hex | None], tuple[Hex, ...]] = {}


def _cells_by_distance(cells: frozenset[Hex], want: Hex | None) -> tuple[Hex, ...]:
    """The arena's cells by (hex distance to `want`, hex), or sorted when `want` is None:
    worked out once per map and start space (every NPC's placement in every game asked;
    issue 23)."""
    key = (cells, want)
    found = _BY_DISTANCE.get(key)
    if found is None:
        if len(_BY_DISTANCE) > 256:
            _BY_DISTANCE.clear()
        order = sorted(cells) if want is None else sorted(cells, key=lambda h: (distance(h, want), h))
        found = _BY_DISTANCE[key] = tuple(order)
    return found


def place_options(w: World) -> list[Hex]:
    """R-FR-2: any unoccupied space of the central zone (a full zone opens the whole arena)."""
    occupied = w.occupied()
    blocked = w.blocking_tiles()
    free = [h for h in w.central if h not in occupied and h not in blocked]
    return free or [h for h in _cells_by_distance(w.cells, None) if h not in occupied and h not in blocked]


def place(w: World, u: Unit, h: Hex) -> None:
    """R-FR-1..3; a Champion's minions appear beside it (house)."""
    u.hex = h
    w.board.moved()
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
            w.board.moved()
            w.log(f"{m.name} appears at {hex_id(m.hex)}", kind="place")


def start_turn(w: World, u: Unit) -> None:
    """A turn begins: hazards may hit again (R-HAZ-4, A56), no plan, no damage dealt yet, the
    minions' damage tallies start from 0 (R-MIN-7). Containers are emptied only when they
    hold something and tallies written only when not 0 (an empty set or dict is the same
    whatever object it is: the board's copies never share them; issue 23)."""
    b = w.board
    b.active = u.uid
    if b.hazard_hits:
        b.hazard_hits = set()
    if b.npc_plan:
        b.npc_plan = {}
    u.dealt_damage = False
    for m in b.units.values():
        if m.minion_damage:
            m.minion_damage = 0


def end_turn(w: World, u: Unit) -> None:
    """Cleanup (R-CLN-1..5, N15): Temporary dice recalled after Doubles/Triples, the current card
    goes to the discard pile, turn modifiers end."""
    b = w.board
    # `cleanup_dice` only after Doubles or Triples that dealt damage (its own first test)
    n = cleanup_dice(u) if u.dealt_damage and u.rolled_category is not None else 0
    if n:
        counts = b.in_use  # the recalled dice leave `dice.supply_left`'s count
        if counts is not None:
            if u.alive:
                counts[TEMP] -= n
            else:
                b.in_use = None
        w.events.add_public(("{} recalls {} Temporary Attack {}", u.name, n, "die" if n == 1 else "dice"), "cleanup",
                            None)
    if u.current is not None:
        if u.kind == "boss":
            b.decks[f"speed:{u.uid}"].discard(u.current)
        else:
            u.discard.append(u.current)
        u.current = None
    card = b.revealed.pop(u.uid, None)
    if card is not None:
        b.decks[npc.deck_key(u)].discard(card)
    if u.mods:  # as in `start_turn`: emptied only when it holds something
        u.mods = {}
    u.rolled_category = None
    u.dealt_damage = False
    for d in u.pool:
        if d.fresh:
            d.face = None
    b.done.append(u.uid)
    b.active = None
    b.stage = ""
    b.attack = None
    if b.npc_plan:
        b.npc_plan = {}
    if b.hazard_hits:
        b.hazard_hits = set()
    for m in b.units.values():
        if m.minion_damage:
            m.minion_damage = 0
    if u.alive:
        w.events.add_public(f"{u.name} ends the turn", "turn", None)
