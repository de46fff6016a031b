"""Dice pools (R-DICE, R-TURN-2/3, R-ATT-3, R-DMG-2, R-CLN): rolling, categories, supply."""

from __future__ import annotations

from .content import Content, Effect
from .model import ATTACK, BE, TEMP, Die, Unit
from .world import World

_WORDS = {ATTACK: "Attack", TEMP: "Temporary Attack", BE: "Blood Energy"}

#: What the turn's roll and an attack read of a die kind (`die_rows`): the roll line's
#: "<word> <face>" for faces 0-12, an attack die?, the faces' effects of an immediate Special
#: die (None for any other), the kind's word (`die_word`), "<word> die" (why its effects
#: happen), and does its face add to the holder's attack (a Special die of timing `attack`)?
DieRow = tuple[tuple[str, ...], bool, "list[list[Effect]] | None", str, str, bool]

#: content id -> (the content, kept so its id is not reused; kind -> its row)
_ROWS: dict[int, tuple[Content, dict[str, DieRow]]] = {}


def die_rows(w: World) -> dict[str, DieRow]:
    """The game's table of `DieRow`s by die kind: the plain kinds at once, each Special kind
    added by `die_row` when first met. *Why:* every turn's roll read each die's word and each
    Special die's content model (two look-ups per die, a string made per Special die), and
    every attack each Special die's timing (issue 23)."""
    content = w.content
    entry = _ROWS.get(id(content))
    if entry is None or entry[0] is not content:
        if len(_ROWS) > 64:
            _ROWS.clear()
        plain: dict[str, DieRow] = {
            kind: (tuple(f"{word} {face}" for face in range(13)), kind != BE, None, word, f"{word} die", False)
            for kind, word in _WORDS.items()}
        entry = _ROWS[id(content)] = (content, plain)
    return entry[1]


def die_row(w: World, kind: str) -> DieRow:
    """A Special kind's `DieRow`, put in the table (KeyError for a kind the content lacks, as
    `Content.special_die` raises)."""
    spec = w.content.special_die(kind)
    row: DieRow = (tuple(f"{spec.name} {face}" for face in range(13)), False,
                   spec.faces if spec.timing == "immediate" else None, spec.name, f"{spec.name} die",
                   spec.timing == "attack")
    die_rows(w)[kind] = row
    return row


def die_word(w: World, kind: str) -> str:
    """A die kind as players name it ("Temporary Attack", "Bleed"), for log lines."""
    word = _WORDS.get(kind)
    if word is not None:
        return word
    try:
        return w.content.special_die(kind).name
    except KeyError:
        return "Special"


def attack_faces(u: Unit) -> list[int]:
    """Faces of the attack dice rolled this turn (core + Temporary; R-DICE-10)."""
    return [d.face for d in u.pool if d.is_attack and d.face is not None and not d.fresh]


def category_of(faces: list[int]) -> str:
    """R-ATT-3 with A15: a face three or more times is Triples, twice is Doubles."""
    # faces seen once and twice, one pass (a Counter, or `count` per face, costs more for a
    # handful of dice; every roll asks)
    once: set[int] = set()
    twice: set[int] = set()
    for f in faces:
        if f in twice:
            return "triples"
        if f in once:
            twice.add(f)
        else:
            once.add(f)
    return "doubles" if twice else "singles"


def base_damage(u: Unit) -> int:
    """R-DMG-2 / A17: every rolled attack die counts, not only the matched set."""
    return sum(attack_faces(u))


def roll_pool(w: World, u: Unit) -> list[int]:
    """R-TURN-2: roll every die in the pool; nothing is fresh or used any more. (The turn's
    roll, `abilities.roll_and_resolve_d8`, does this in its own pass over the pool; a test
    holds the two equal.)"""
    faces = []
    attack = []  # `attack_faces` after the roll: every die rolled, none fresh
    rigs = w.board.dice
    rng = w.rng
    for d in u.pool:
        sides = d.sides
        rig = rigs.get(sides)
        # `World.roll` of an unrigged die inlined (every turn rolls a pool); a scenario's rigged
        # die, or the error for an impossible one, through it
        face = w.roll(sides) if (rig is not None and rig.rigged) or sides < 1 else 1 + rng.randbelow(sides)
        d.face = face
        d.used = False
        d.fresh = False
        faces.append(face)
        if d.kind in _ATTACK_KINDS:
            attack.append(face)
    u.rolled_category = category_of(attack)
    return faces


_ATTACK_KINDS = (ATTACK, TEMP)  # `Die.is_attack`


def in_use(w: World, kind: str) -> int:
    """Dice of `kind` in the living figures' pools, counted die by die (the reference for
    `Board.in_use`, which `supply_left` reads)."""
    n = 0
    for u in w.board.units.values():  # plain loops
        if u.alive:
            for d in u.pool:
                if d.kind == kind:
                    n += 1
    return n


def counts_in_use(w: World) -> dict[str, int]:
    """`Board.in_use`: the dice in the living figures' pools by kind, counted now if not
    kept (`in_use` for every kind at once)."""
    b = w.board
    counts = b.in_use
    if counts is None:
        counts = {}
        for u in b.units.values():
            if u.alive:
                for d in u.pool:
                    kind = d.kind
                    counts[kind] = counts.get(kind, 0) + 1
        b.in_use = counts
    return counts


def supply_left(w: World, kind: str) -> int:
    """Dice of `kind` still in the shared supply (A13): the supply's size less `in_use`, read
    off the board's kept count (`Board.in_use`)."""
    limits = w.content.rules.supply
    if kind == TEMP:
        total = limits.temp
    elif kind == BE:
        total = limits.be
    elif kind == ATTACK:
        total = limits.attack
    else:
        total = w.content.special_die(kind).supply
    counts = w.board.in_use
    if counts is None:
        counts = counts_in_use(w)
    return total - counts.get(kind, 0)


def _gained(w: World, kind: str, n: int) -> None:
    """`n` dice of `kind` joined a living figure's pool: the kept count follows (if made)."""
    counts = w.board.in_use
    if counts is not None:
        counts[kind] = counts.get(kind, 0) + n


def gain_die(w: World, u: Unit, kind: str, sides: int = 6) -> bool:
    """Add an unrolled die to `u`'s pool (R-TURN-3); False when the supply is out (A13) or the
    unit is a minion (R-MIN-11)."""
    if u.kind == "minion" or not u.alive:
        return False
    if w.params.supply_limits and supply_left(w, kind) <= 0:
        w.log(f"{u.name} would gain a {die_word(w, kind)} die but the supply is out", kind="dice")
        return False
    u.pool.append(Die(kind, sides, None, False, True))
    counts = w.board.in_use  # `_gained`, inlined
    if counts is not None:
        counts[kind] = counts.get(kind, 0) + 1
    return True


def gain_dice(w: World, u: Unit, kind: str, count: int, left: int | None = None) -> int:
    """`gain_die(w, u, kind)` `count` times (the same dice, the same log lines), with the
    supply counted at most once: each die gained takes exactly one from what is left of the
    kind and nothing else changes the pools meanwhile. `left`: `supply_left(w, kind)` when
    the caller knows it already. *Why:* counting the supply reads every die of every figure
    (a Boss's bonus dice asked it once per die, after the bonus test had; issue 23)."""
    if u.kind == "minion" or not u.alive:
        return 0
    limits = w.params.supply_limits
    got = 0
    for _ in range(count):
        if limits:
            if left is None:
                left = supply_left(w, kind)
            if left <= 0:
                w.log(f"{u.name} would gain a {die_word(w, kind)} die but the supply is out", kind="dice")
                continue
            left -= 1
        u.pool.append(Die(kind, 6, None, False, True))
        got += 1
    if got:
        _gained(w, kind, got)
    return got


def lose_die(w: World, u: Unit, kind: str) -> None:
    """A die of `kind` is leaving `u`'s pool (removed, or marked for removal): the board's
    kept count follows; dropped instead when it could not have counted that die (a fallen
    figure's, or none of that kind counted)."""
    b = w.board
    counts = b.in_use
    if counts is not None:
        if u.alive and counts.get(kind, 0) > 0:
            counts[kind] -= 1
        else:
            b.in_use = None


def remove_die(u: Unit, index: int) -> Die:
    """R-RCL-1: a die leaves the pool (core dice never do: R-DICE-1). The caller tells the
    board's kept count (`lose_die`): a unit does not know its board."""
    die = u.pool[index]
    assert die.kind != ATTACK, "core dice can never be removed"
    return u.pool.pop(index)


def be_dice(u: Unit) -> list[int]:
    return [i for i, d in enumerate(u.pool) if d.kind == BE]


def energy_dice_ready(u: Unit) -> list[int]:
    """BE dice that can give energy now (R-BE-2, A23: rolled this turn and not yet used)."""
    return [i for i, d in enumerate(u.pool) if d.kind == BE and d.face is not None and not d.fresh and not d.used]


def gain_energy(w: World, u: Unit, amount: int) -> int:
    """R-BE-1/3/4 with A14: the tracker stays within 0..energy_max."""
    before = u.energy
    u.energy = max(0, min(w.content.rules.energy_max, u.energy + amount))
    return u.energy - before


def cleanup_dice(u: Unit) -> int:
    """R-CLN-1..3 / A27 / A28: after a Doubles or Triples roll, the Temporary dice that counted
    in an attack that dealt damage go back to the supply. Returns how many; the caller takes
    them off the board's kept count (`turns.end_turn`)."""
    if u.rolled_category not in ("doubles", "triples") or not u.dealt_damage:
        return 0
    keep = [d for d in u.pool if not (d.kind == TEMP and d.face is not None and not d.fresh)]
    recalled = len(u.pool) - len(keep)
    u.pool = keep
    return recalled
