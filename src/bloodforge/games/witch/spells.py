"""Spell Cards: casting Blood Spells (the Witch) and Phantom Spells (the Soldiers).

Casting is a compound decision held in `state.pending`: `cast <card>`, then `target <unit or
square>` if the range asks for one, then `pay <X>` if the Chance is paid in blood. The last
step commits: the card leaves the hand, the blood is paid, the die is rolled ("roll first, then
follow the instructions on the card") and the effect happens. Until then `cancel` undoes it all,
because nothing has happened yet.

Chance: "X > d4" passes when X >= the roll. The symbol says "greater than" but the rulebook's
worked example (X = 2 passes on 1 or 2, fails on 3 or 4, "X is not greater than or equal to the
die roll") says greater-or-equal, and the example is the precise statement (see Rulings).
"""

from __future__ import annotations

from bloodforge.core import Action, ScenarioError

from . import effects
from .board import Square
from .content import AllShape, AnywhereShape, Effect, NoShape, SpellCard
from .model import BOARD, OVER, SIDE_NAMES, SOLDIERS, WITCH, Grant, PendingCast, Position, side_does
from .queries import chance_number, passes, strict_chance


def spell_limit(state: Position) -> int:
    """Phantom Spells: use ONE per turn. Blood Spells: the ruled TWO (a parameter)."""
    return 1 if state.side == SOLDIERS else state.params.blood_spells_per_turn


def needs_target(state: Position, pending: PendingCast) -> bool:
    spell = state.content.spells[pending.card]
    return pending.target is None and spell.chooses_target


def needs_pay(spell: SpellCard) -> bool:
    return spell.chance.kind == "blood"


def origins(state: Position, spell: SpellCard) -> list[Square]:
    """Blood Spells reach from the Witch; Phantom Spells from any Soldier still commanded."""
    c = state.content
    if spell.id in c.phantom_deck:
        return [
            sq
            for uid in c.soldier_ids
            if state.is_active_soldier(uid) and (sq := state.units[uid].square)
        ]
    sq = state.units[c.witch_id].square
    return [] if sq is None else [sq]


def unit_targets(state: Position, spell: SpellCard) -> list[str]:
    """Units the spell may affect now, in card order."""
    c = state.content
    wanted = spell.targets
    limit = spell.effect.max_target_blood
    if isinstance(spell.range, AllShape | AnywhereShape):
        found = {uid for uid in c.roster if state.on_board(uid)}
    else:
        reach = c.spell_reach[spell.id]
        assert reach is not None
        found = set()
        for origin in origins(state, spell):
            found.update(reach.units(origin, state.at, c.darkened))
    return [
        uid
        for uid in c.roster
        if uid in found
        and state.tag(uid) in wanted
        and (limit is None or state.units[uid].blood <= limit)
    ]


def square_targets(state: Position, spell: SpellCard) -> list[Square]:
    c = state.content
    if isinstance(spell.range, AnywhereShape):
        return [sq for sq in c.grid.squares() if c.grid.passable(sq) and sq not in state.at]
    reach = c.spell_reach[spell.id]
    assert reach is not None
    found: set[Square] = set()
    for origin in origins(state, spell):
        found.update(reach.free_squares(origin, state.at, c.darkened))
    return sorted(found, key=lambda sq: (sq[1], sq[0]))


def target_words(state: Position, spell: SpellCard) -> list[str]:
    if "square" in spell.targets:
        names = state.content.square_names
        return [names[sq] for sq in square_targets(state, spell)]
    return unit_targets(state, spell)


def pay_options(state: Position, spell: SpellCard) -> range:
    """X from 1 up to the die's size, keeping at least one stone on the Witch's card."""
    if not needs_pay(spell):
        return range(0)
    die = spell.chance.die
    assert die is not None
    blood = state.units[state.content.witch_id].blood
    cap = state.params.blood_payment_cap or die
    return range(1, min(die, cap, blood - 1) + 1)


def castable(state: Position, spell: SpellCard) -> bool:
    if needs_pay(spell) and not pay_options(state, spell):
        return False
    if isinstance(spell.range, NoShape):
        return True
    if "square" in spell.targets:
        return _any_square_target(state, spell)
    return _any_unit_target(state, spell)


def _any_unit_target(state: Position, spell: SpellCard) -> bool:
    """`bool(unit_targets(...))` without listing them: every legal-action list asks it for
    every card in hand, and one target is enough. A board holds a few units, so each unit that
    would do is looked up in the pattern (unblocked patterns) rather than the pattern walked."""
    c = state.content
    wanted = spell.targets
    limit = spell.effect.max_target_blood
    units, kinds = state.units, c.kinds
    fit = []
    for sq, uid in state.at.items():
        u = units[uid]
        kind = kinds[uid]
        if kind == "soldier" and u.zombified:
            kind = "zombified"  # Position.tag
        if kind in wanted and u.where == BOARD and (limit is None or u.blood <= limit):
            fit.append(sq)
    if not fit:
        return False
    if isinstance(spell.range, AllShape | AnywhereShape):
        return True
    reach = c.spell_reach[spell.id]
    assert reach is not None
    if not reach.blocked:
        return any(sq in reach.order[origin] for origin in origins(state, spell) for sq in fit)
    at = state.at
    return any(at[sq] in reach.units(origin, at, c.darkened) for origin in origins(state, spell) for sq in fit)


def _any_square_target(state: Position, spell: SpellCard) -> bool:
    """`bool(square_targets(...))` without listing and sorting them."""
    c = state.content
    if isinstance(spell.range, AnywhereShape):
        return any(c.grid.passable(sq) and sq not in state.at for sq in c.grid.squares())
    reach = c.spell_reach[spell.id]
    assert reach is not None
    return any(next(reach.free_squares(origin, state.at, c.darkened), None) is not None
               for origin in origins(state, spell))


def cast_actions(state: Position) -> list[Action]:
    if state.rec.spells_used >= spell_limit(state):
        return []
    c = state.content
    spells, casts = c.spells, c.actions.cast
    out: list[Action] = []
    for card in sorted(set(state.hands[state.side])):
        if castable(state, spells[card]):
            action = casts.get(card)
            if action is None:
                action = casts[card] = Action("cast", (card,))
            out.append(action)
    return out


def pending_actions(state: Position) -> list[Action]:
    pending = state.pending
    assert pending is not None
    spell = state.content.spells[pending.card]
    if needs_target(state, pending):
        return [Action("target", (w,)) for w in target_words(state, spell)]
    return [Action("pay", (str(x),)) for x in pay_options(state, spell)]


def apply_step(state: Position, action: Action) -> None:
    """One step of the compound cast; the step that leaves nothing to choose commits."""
    if action.kind == "cast":
        pending = PendingCast(action.args[0])
    elif action.kind == "target":
        assert state.pending is not None
        pending = PendingCast(state.pending.card, action.args[0])
    else:
        assert state.pending is not None
        pending = state.pending
    spell = state.content.spells[pending.card]
    if needs_target(state, pending) or (action.kind != "pay" and needs_pay(spell)):
        state.pending = pending
        return
    commit(state, pending, int(action.args[0]) if action.kind == "pay" else 0)


def commit(state: Position, pending: PendingCast, x: int) -> None:
    c = state.content
    spell = c.spells[pending.card]
    die = spell.chance.die
    if die is not None and state.dice.rigged and not 1 <= state.dice.rigged[0] <= die:
        # A scenario's rig that cannot happen: refuse before anything changes.
        raise ScenarioError(f"rigged roll {state.dice.rigged[0]} is impossible on a d{die}")
    seat = state.side
    state.pending = None
    state.hands[seat].remove(spell.id)
    state.decks[seat].discard(spell.id)
    state.rec.spells_used += 1
    if x:
        witch = state.units[c.witch_id]
        witch.blood -= x
        state.supply += x
    passed, roll = _roll(state, spell, x)
    words = [f"{side_does(seat, 'cast')} {spell.name}"]
    if pending.target is not None:
        label = state.name(pending.target) if pending.target in state.units else pending.target
        words.append(f"on {label}")
    if x:
        words.append(f"paying {x} blood")
    if roll is not None:
        verdict = "passes" if passed else "fails"
        words.append(f"({spell.chance.text()}: rolled {roll}, {verdict})")
    state.note(
        "cast", " ".join(words) + ".", roll=roll, passed=passed if roll is not None else None,
        card=spell.id, x=x,
    )
    if passed:
        _effect(state, spell, spell.effect, pending.target, x)
    elif spell.on_fail is not None:
        _effect(state, spell, spell.on_fail, pending.target, x)


def _roll(state: Position, spell: SpellCard, x: int) -> tuple[bool, int | None]:
    chance = spell.chance
    if chance.kind == "always":
        return True, None
    assert chance.die is not None
    value = chance_number(chance.kind, chance.value, x, state.phantoms())
    roll = state.dice.roll(state.rng, chance.die)
    return passes(value, roll, strict_chance(chance.kind, state.params.blood_chance)), roll


def _effect(
    state: Position, spell: SpellCard, effect: Effect, target: str | None, x: int
) -> None:
    c = state.content
    if spell.chooses_target:
        units = [target] if target is not None and target in state.units else []
    elif isinstance(spell.range, NoShape):
        units = []
    else:
        units = unit_targets(state, spell)
    kind = effect.kind
    if kind == "damage":
        for uid in units:
            if state.phase == OVER:
                return
            taken = effects.lose_blood(state, uid, effect.amount)
            state.note("blood", f"{state.name(uid)} loses {taken} blood.")
    elif kind == "heal":
        for uid in units:
            given = effects.gain_blood(state, uid, effect.amount)
            state.note("blood", f"{state.name(uid)} gains {given} blood.")
    elif kind == "drain":
        for uid in units:
            if state.phase == OVER:
                return
            taken = effects.lose_blood(state, uid, effect.amount)
            gained = effects.gain_blood(state, c.witch_id, taken) if state.phase != OVER else 0
            state.note("blood", f"{state.name(uid)} loses {taken} blood; the Witch gains {gained}.")
    elif kind == "zombify":
        for uid in units:
            u = state.units[uid]
            u.zombified, u.bound = True, False
            state.note("zombify", f"{state.name(uid)} is zombified.")
        effects.check_victory(state)
    elif kind == "bind":
        for uid in units:
            state.units[uid].bound = True
            state.note(
                "bind",
                f"{state.name(uid)} is bound: it cannot move during the Soldiers' next turn.",
            )
    elif kind == "teleport":
        assert target is not None
        effects.move(state, c.witch_id, c.squares_by_name[target])
    elif kind == "extra_acts":
        state.rec.extra_acts += effect.amount
        state.note("acts", f"The Soldiers may Act {effect.amount} more time(s) this turn.")
    elif kind == "backlash":
        taken = effects.lose_blood(state, c.witch_id, effect.amount)
        state.note("blood", f"Backlash: the Witch loses {taken} blood.")
    elif kind == "act":
        alive = tuple(u for u in units if state.units[u].where == BOARD)
        if alive and state.phase != OVER:
            acts = set(effect.acts)
            slots = x if effect.units == "x" else effect.units
            state.grant = Grant(
                state.side,
                spell.id,
                alive,
                set(alive) if "move" in acts else set(),
                set(alive) if "attack" in acts else set(),
                slots,
            )
            if slots is not None and slots < len(alive):
                names = ", ".join(state.name(u) for u in alive)  # people's names, never unit ids
                state.note("acts", f"Up to {slots} of {names} may Act.")


def explain_cast(state: Position, card: str) -> str:
    spell = state.content.spells[card]
    if state.rec.spells_used >= spell_limit(state):
        n = spell_limit(state)
        plural = "s" if n != 1 else ""
        return f"the {SIDE_NAMES[state.side]} may use {n} spell{plural} per turn and already have"
    if needs_pay(spell) and not pay_options(state, spell):
        return "the Witch needs at least 2 blood stones to pay X and keep one"
    where = "the Witch" if state.side == WITCH else "any Soldier"
    return f"no unit or square is in {spell.name}'s range from {where} ({', '.join(spell.targets)})"
