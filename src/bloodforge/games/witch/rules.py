"""The rules of Blood Stone: setup, the two kinds of turn, Acts, blood, death and victory.

Section names in comments are the rulebook's. Spells (both decks) are in spells.py; this module
owns the turn structure and calls into spells for `cast`, `target` and `pay`.
"""

from __future__ import annotations

from bloodforge.core import CANCEL, Action, Deck

from . import spells
from .board import Square, square_name
from .effects import announce_end, lose_blood, move
from .model import (
    BOARD,
    HAND_LIMIT,
    OVER,
    PLACE,
    SIDE_NAMES,
    SOLDIER_ACTS,
    SOLDIERS,
    TURN,
    UNPLACED,
    WITCH,
    Position,
    TurnRecord,
    UnitState,
    side_does,
)

END = Action("end")
DONE = Action("done")


# -- setup (PREPARATION 4-8) -------------------------------------------------------------------
def setup(state: Position, preset: bool) -> None:
    """Blood on the cards, decks shuffled, then either placement or the preset layout."""
    c = state.content
    for uid in c.roster:
        state.units[uid] = UnitState(uid, UNPLACED, None, c.units[uid].starting_blood)
    state.supply = c.data.blood_stones - sum(u.blood for u in state.units.values())
    state.decks = [Deck.shuffled(c.phantom_deck, state.rng), Deck.shuffled(c.blood_deck, state.rng)]
    state.note("setup", f"Blood stones placed on the cards; {state.supply} stay in the supply.")
    if preset:
        for uid in c.roster:
            place(state, uid, c.squares_by_name[c.data.board.preset[uid]], quiet=True)
        state.note("setup", "Pieces stand on the content's preset squares.")
        begin_battle(state)
    else:
        state.phase = PLACE
        state.side = placement_side(state)


def next_to_place(state: Position) -> str | None:
    """Step 6 then step 7: the Witch places her pieces, then the Soldier player places his."""
    for uid in state.content.roster:
        if state.units[uid].where == UNPLACED:
            return uid
    return None


def placement_side(state: Position) -> int:
    uid = next_to_place(state)
    return SOLDIERS if uid is not None and state.content.units[uid].kind == "soldier" else WITCH


def start_zone(state: Position, uid: str) -> tuple[Square, ...]:
    c = state.content
    return c.soldier_start if c.units[uid].kind == "soldier" else c.witch_start


def place(state: Position, uid: str, sq: Square, quiet: bool = False) -> None:
    u = state.units[uid]
    u.where, u.square = BOARD, sq
    state.at[sq] = uid
    if not quiet:
        state.note("place", f"{state.name(uid)} is placed on {square_name(sq)}.")


def begin_battle(state: Position) -> None:
    """Step 8 / THE BATTLE: the Soldiers take the first turn."""
    state.phase = TURN
    state.side = SOLDIERS
    state.turn_number = 1
    state.rec = TurnRecord()
    start_turn(state)


# -- turn flow ----------------------------------------------------------------------------------
def start_turn(state: Position) -> None:
    """Drawing & Discarding: draw up to the hand limit before doing anything else.

    The Soldiers draw Phantom Spells only once a Phantom (a unit in the Realm) exists.
    """
    seat = state.side
    state.note("turn", f"Turn {state.turn_number}: the {SIDE_NAMES[seat]}.")
    if seat == SOLDIERS and state.phantoms() == 0:
        return
    hand, deck = state.hands[seat], state.decks[seat]
    drawn: list[str] = []
    while len(hand) < HAND_LIMIT[seat]:
        card = deck.draw(state.rng)
        if card is None:
            break
        hand.append(card)
        drawn.append(card)
    if drawn:
        what = "Phantom Spell" if seat == SOLDIERS else "Blood Spell"
        names = ", ".join(state.content.spells[c].name for c in drawn)
        plural = "s" if len(drawn) != 1 else ""
        state.note(
            "draw",
            f"{side_does(seat, 'draw')} {len(drawn)} {what}{plural}.",
            seat=seat,
            private=f"You draw {names}.",
        )


def end_turn(state: Position) -> None:
    seat = state.side
    whose = "their" if seat == SOLDIERS else "her"
    state.note("end", f"{side_does(seat, 'end')} {whose} turn.")
    if seat == SOLDIERS:
        for uid in state.content.soldier_ids:
            state.units[uid].bound = False
    if state.turn_number >= state.params.max_turns:
        state.phase = OVER
        state.winner = None
        state.note(
            "over",
            f"House rule: the turn limit ({state.params.max_turns}) is reached; "
            "the game is a draw.",
        )
        return
    state.side = 1 - seat
    state.turn_number += 1
    state.rec = TurnRecord()
    start_turn(state)


# -- movement & attacks -------------------------------------------------------------------------
def destinations(state: Position, uid: str) -> list[Square]:
    """Moving: up to the card's movement in orthogonal steps, through free passable squares."""
    u = state.units[uid]
    steps = state.content.units[uid].movement
    if steps <= 0 or u.square is None or u.bound:
        return []
    # breadth first, as SquareGrid.reachable walks it (the order of the moves follows it)
    at = state.at
    opened = state.content.open_neighbours
    start = u.square
    seen = {start}
    out: list[Square] = []
    frontier = [start]
    for _ in range(steps):
        reached = []
        for sq in frontier:
            for nxt in opened[sq]:
                if nxt not in seen and nxt not in at:
                    seen.add(nxt)
                    reached.append(nxt)
        if not reached:
            break
        out.extend(reached)
        frontier = reached
    return out


def attack_targets(state: Position, uid: str) -> list[str]:
    """Attacking & Range: any unit in the card's range, friends included."""
    reach = state.content.attack_reach[uid]
    u = state.units[uid]
    if reach is None or u.square is None:
        return []
    return [t for t in reach.units(u.square, state.at, state.content.darkened) if t != uid]


def attack(state: Position, uid: str, target: str) -> None:
    state.note("attack", f"{state.name(uid)} attacks {state.name(target)}.")
    lose_blood(state, target, 1)


# -- legal actions ----------------------------------------------------------------------------
def legal_actions(state: Position) -> list[Action]:
    if state.phase == OVER:
        return []
    if state.phase == PLACE:
        uid = next_to_place(state)
        assert uid is not None
        names = state.content.square_names
        return [
            Action("place", (uid, names[sq])) for sq in start_zone(state, uid) if sq not in state.at
        ]
    if state.pending is not None:
        return [*spells.pending_actions(state), Action(CANCEL)]
    if state.grant is not None:
        return grant_actions(state)
    out: list[Action] = []
    if state.side == SOLDIERS:
        if acts_left(state) > 0:
            for uid in state.content.soldier_ids:
                if state.is_active_soldier(uid):
                    out.extend(
                        _unit_acts(
                            state, uid, uid not in state.rec.moved, uid not in state.rec.attacked
                        )
                    )
    else:
        wid = state.content.witch_id
        if wid not in state.rec.moved:
            out.extend(_unit_acts(state, wid, True, False))
    out.extend(spells.cast_actions(state))
    discards = state.content.actions.discard
    for card in sorted(set(state.hands[state.side])):
        action = discards.get(card)
        if action is None:
            action = discards[card] = Action("discard", (card,))
        out.append(action)
    out.append(END)
    return out


def acts_left(state: Position) -> int:
    return SOLDIER_ACTS + state.rec.extra_acts - state.rec.acts_used


def _unit_acts(state: Position, uid: str, may_move: bool, may_attack: bool) -> list[Action]:
    c = state.content
    out: list[Action] = []
    if may_move:
        dests = destinations(state, uid)
        if dests:
            moves = c.actions.move.get(uid)
            if moves is None:
                moves = c.actions.move[uid] = {sq: Action("move", (uid, w)) for sq, w in c.square_names.items()}
            out.extend([moves[sq] for sq in dests])
    if may_attack:
        targets = attack_targets(state, uid)
        if targets:
            attacks = c.actions.attack.get(uid)
            if attacks is None:
                attacks = c.actions.attack[uid] = {t: Action("attack", (uid, t)) for t in c.roster}
            out.extend([attacks[t] for t in targets])
    return out


def grant_actions(state: Position) -> list[Action]:
    """Acting with a spell (Manipulate and the like): each granted Act at most once, then `done`."""
    g = state.grant
    assert g is not None
    out: list[Action] = []
    for uid in g.units:
        if state.on_board(uid) and g.may_act(uid):
            out.extend(_unit_acts(state, uid, uid in g.can_move, uid in g.can_attack))
    out.append(DONE)
    return out


# -- applying actions ---------------------------------------------------------------------------
def apply(state: Position, action: Action) -> None:
    was_over = state.phase == OVER
    _apply(state, action)
    if not was_over:
        announce_end(state)  # a victory decided by this action, logged after all its lines


def _apply(state: Position, action: Action) -> None:
    kind, args = action.kind, action.args
    c = state.content
    if kind == "place":
        place(state, args[0], c.squares_by_name[args[1]])
        if next_to_place(state) is None:
            begin_battle(state)
        else:
            state.side = placement_side(state)
    elif kind == CANCEL:
        state.pending = None
    elif kind in {"cast", "target", "pay"}:
        spells.apply_step(state, action)
        _after_grant_step(state)
    elif kind == "move":
        move(state, args[0], c.squares_by_name[args[1]])
        _record_act(state, args[0], "move")
    elif kind == "attack":
        attack(state, args[0], args[1])
        _record_act(state, args[0], "attack")
    elif kind == "discard":
        state.hands[state.side].remove(args[0])
        state.decks[state.side].discard(args[0])
        name = c.spells[args[0]].name
        state.note("discard", f"{side_does(state.side, 'discard')} {name}.")
    elif kind == "done":
        state.grant = None
    elif kind == "end":
        end_turn(state)
    else:  # pragma: no cover - the grammar admits no other verb
        raise AssertionError(f"unhandled action {action}")


def _record_act(state: Position, uid: str, act: str) -> None:
    g = state.grant
    if g is not None:
        (g.can_move if act == "move" else g.can_attack).discard(uid)
        if uid not in g.started:
            g.started.add(uid)
            if g.slots is not None:
                g.slots -= 1
        _after_grant_step(state)
        return
    (state.rec.moved if act == "move" else state.rec.attacked).add(uid)
    if state.side == SOLDIERS:
        state.rec.acts_used += 1


def _after_grant_step(state: Position) -> None:
    """A grant ends by itself once none of its units has an Act left (or the game ended)."""
    g = state.grant
    if g is None:
        return
    if state.phase == OVER or not any(
        state.on_board(uid) and g.may_act(uid) and (uid in g.can_move or uid in g.can_attack)
        for uid in g.units
    ):
        state.grant = None


# -- explanations for refused actions -----------------------------------------------------------
def explain_illegal(state: Position, action: Action) -> str | None:
    """Say which rule refuses a well-formed action, in the rulebook's words where possible."""
    kind, args = action.kind, action.args
    if state.phase == PLACE and kind != "place":
        return "the pieces are being placed (PREPARATION steps 6-7); use `place <unit> <square>`"
    if state.pending is not None and kind not in {"target", "pay", CANCEL}:
        step = "target" if spells.needs_target(state, state.pending) else "pay"
        return f"a spell is being cast: choose `{step}` or `cancel`"
    if state.grant is not None and kind not in {"move", "attack", "done"}:
        spell = state.content.spells[state.grant.spell].name
        return f"units are Acting by {spell}: move, attack or `done`"
    if kind == "attack" and len(args) == 2 and args[1] in state.units:
        where = state.units[args[1]].where
        if where != BOARD:
            return f"the target {args[1]} is not on the board ({where})"
        if args[1] == args[0]:
            return "a unit cannot attack itself"
    if kind in {"move", "attack"} and args and args[0] in state.units:
        return _explain_act(state, kind, args[0])
    if kind == "place" and args and args[0] in state.units:
        uid = args[0]
        if state.units[uid].where != UNPLACED:
            return f"{uid} is already placed"
        if next_to_place(state) != uid:
            return f"pieces are placed in card order; next is {next_to_place(state)}"
        return f"{args[1]} is not a free {SIDE_NAMES[placement_side(state)]} Start tile"
    if kind in {"cast", "discard"} and args and args[0] not in state.hands[state.side]:
        owner = "Soldiers'" if state.side == SOLDIERS else "Witch's"
        return f"{args[0]} is not in the {owner} hand"
    if kind == "cast":
        return spells.explain_cast(state, args[0])
    return None


def _explain_act(state: Position, kind: str, uid: str) -> str | None:
    c = state.content
    u = state.units[uid]
    if u.where != BOARD:
        return f"{uid} is not on the board ({u.where})"
    g = state.grant
    if g is not None:
        if uid not in g.units:
            return f"{c.spells[g.spell].name} lets only {', '.join(g.units)} Act"
        if not g.may_act(uid):
            return f"{c.spells[g.spell].name}: no more units may start Acting"
        left = g.can_move if kind == "move" else g.can_attack
        if uid not in left:
            return f"{uid} may not {kind} again under {c.spells[g.spell].name}"
    elif state.side == SOLDIERS:
        if c.units[uid].kind != "soldier":
            return f"the Soldier player Acts only with soldiers, not with {uid}"
        if u.zombified:
            return f"{uid} is zombified: the Soldier player can never Act with it again"
        if acts_left(state) <= 0:
            return "all Acts of this turn are used (up to 3 per turn)"
        done = state.rec.moved if kind == "move" else state.rec.attacked
        if uid in done:
            return f"{uid} has already {'moved' if kind == 'move' else 'attacked'} this turn"
    else:
        if uid != c.witch_id:
            return "on the Witch's turn only the Witch Acts; other units need a spell (Manipulate)"
        if kind == "attack":
            return "the Witch can't attack like other units"
        if uid in state.rec.moved:
            return "the Witch has already moved this turn"
    if kind == "move":
        if u.bound:
            return f"{uid} is bound and cannot move this turn"
        return (
            f"not a square {uid} can reach (movement {c.units[uid].movement}, "
            "orthogonal steps through free, undarkened squares)"
        )
    if c.attack_reach[uid] is None:
        return f"{uid} has no attack"
    return f"not a unit in {uid}'s attack range"
