"""Blood, death, victory and moving a piece: the effects both Acts (rules.py) and spells
(spells.py) have, below both so that neither imports the other's module.

Section names in comments are the rulebook's.
"""

from __future__ import annotations

from .board import Square, square_name
from .model import BOARD, OVER, REALM, REMOVED, SOLDIERS, WITCH, Position, side_does


# -- blood stones & death ---------------------------------------------------------------------
def lose_blood(state: Position, uid: str, n: int) -> int:
    """Blood Stones: remove up to `n` stones to the supply; at zero the unit dies."""
    u = state.units[uid]
    taken = min(n, u.blood)
    u.blood -= taken
    state.supply += taken
    if u.blood == 0:
        die(state, uid)
    return taken


def gain_blood(state: Position, uid: str, n: int) -> int:
    """Stones come from the supply and never push a card past its maximum."""
    u = state.units[uid]
    given = max(0, min(n, state.content.units[uid].blood_cap - u.blood, state.supply))
    u.blood += given
    state.supply -= given
    return given


def die(state: Position, uid: str) -> None:
    """Death: soldiers and minions enter the Realm; zombified units (and the Witch) leave."""
    u = state.units[uid]
    assert u.square is not None
    del state.at[u.square]
    u.square = None
    u.bound = False
    kind = state.content.units[uid].kind
    if u.zombified or kind == "witch":
        u.where = REMOVED
        state.note("death", f"{state.name(uid)} dies and is removed from the game.")
    else:
        u.where = REALM
        state.note("death", f"{state.name(uid)} dies and enters the Realm as a Phantom.")
    check_victory(state)


def check_victory(state: Position) -> None:
    """Victory: the Soldiers win by killing the Witch (checked first); the Witch when every
    Soldier has been zombified or killed."""
    if state.phase == OVER:
        return
    c = state.content
    if state.units[c.witch_id].where != BOARD:
        winner = SOLDIERS
    elif not any(state.is_active_soldier(uid) for uid in c.soldier_ids):
        winner = WITCH
    else:
        return
    state.phase = OVER
    state.winner = winner
    state.pending = None
    state.grant = None
    # the victory is announced by `announce_end` once the action that caused it is fully logged
    # (a spell's "loses 3 blood" line must not follow "The Witch wins")


def blood_in_play(state: Position) -> tuple[int, int]:
    """The game's score: blood stones on each side's units still in play (zombified Soldiers
    count for the Witch), as `State.scores` reports it."""
    out = [0, 0]
    for uid, u in state.units.items():
        if u.where == BOARD:
            out[SOLDIERS if state.is_active_soldier(uid) else WITCH] += u.blood
    return out[0], out[1]


def announce_end(state: Position) -> None:
    """Log the victory decided during the action just applied, last, with the final score
    explained (the end summary's numbers are blood stones still in play)."""
    if state.phase != OVER or state.winner is None:
        return
    soldiers, witch = blood_in_play(state)
    why = ("the Blood Witch is out of the game" if state.winner == SOLDIERS
           else "no Soldier is left fighting for the Soldiers")
    state.note("over", f"{side_does(state.winner, 'win')}: {why}. The score is the blood stones left on "
                       f"the units in play (it does not decide the winner): the Soldiers {soldiers}, "
                       f"the Witch {witch} (zombified Soldiers count for the Witch).")


# -- movement -----------------------------------------------------------------------------------
def move(state: Position, uid: str, sq: Square) -> None:
    u = state.units[uid]
    assert u.square is not None
    state.note("move", f"{state.name(uid)} moves {square_name(u.square)} -> {square_name(sq)}.")
    del state.at[u.square]
    u.square = sq
    state.at[sq] = uid
