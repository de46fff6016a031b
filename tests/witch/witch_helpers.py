"""Helpers for the Blood Stone tests: scenario building and the invariants after every action."""

from __future__ import annotations

from typing import Any

import bloodforge
from bloodforge.games.witch.game import WitchGame, WitchState
from bloodforge.games.witch.model import BOARD, PLACES, REALM, REMOVED, UNPLACED

# A quiet default position: everybody far apart, nobody in anybody's range.
BASE_UNITS: dict[str, Any] = {
    "witch": {"square": "e9"},
    "minion1": {"square": "a9"},
    "minion2": {"square": "b9"},
    "minion3": {"square": "h9"},
    "minion4": {"square": "i9"},
    "archer": {"square": "a1"},
    "spearman": {"square": "e1"},
    "swordsman": {"square": "i1"},
}


def new_game(seed: int = 0, **params: Any) -> WitchGame:
    game = bloodforge.load_game("witch", players=2, seed=seed, **params)
    assert isinstance(game, WitchGame)
    return game


def scenario(
    units: dict[str, Any] | None = None,
    *,
    side: str = "soldiers",
    hands: dict[str, list[str]] | None = None,
    rig: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
    seed: int = 0,
    **position: Any,
) -> WitchState:
    """A position from BASE_UNITS with `units` overriding some of them."""
    placed = dict(BASE_UNITS)
    placed.update(units or {})
    data = {
        "game": "witch",
        "params": params or {},
        "seed": seed,
        "position": {"side": side, "units": placed, "hands": hands or {}, **position},
        "rig": rig,
    }
    state = new_game(seed, **(params or {})).load_scenario(data)
    assert isinstance(state, WitchState)
    return state


def texts(state: WitchState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def check_invariants(state: WitchState) -> None:
    """What must hold after every action of every game."""
    c = state.content
    # Blood stones are on unit cards or in the supply; never created or destroyed.
    on_cards = sum(u.blood for u in state.units.values())
    assert on_cards + state.supply == c.data.blood_stones
    assert state.supply >= 0
    # Every unit is in exactly one place; only units on the board have a square and blood.
    assert set(state.units) == set(c.roster)
    for uid, u in state.units.items():
        assert u.where in PLACES
        if u.where == BOARD:
            assert u.square is not None
            assert state.at[u.square] == uid
            assert 1 <= u.blood <= c.units[uid].blood_cap
            assert c.grid.passable(u.square)
        elif u.where == UNPLACED:
            assert u.square is None
            assert u.blood == c.units[uid].starting_blood
        else:
            assert u.square is None
            assert u.blood == 0
        if u.where == REALM:
            assert not u.zombified
            assert c.units[uid].kind != "witch"
        if u.zombified:
            assert c.units[uid].kind == "soldier"
            assert u.where in {BOARD, REMOVED}
        if u.bound:
            assert state.is_active_soldier(uid)
    assert len(state.at) == sum(1 for u in state.units.values() if u.where == BOARD)
    # Every spell card is in exactly one of: its deck's pile, discard pile, or its side's hand.
    for seat, cards in ((0, c.phantom_deck), (1, c.blood_deck)):
        deck = state.decks[seat]
        # as multisets; sorted lists, not Counters (four Counters and two sums a check were half
        # of the 200-game playout test's time, issue 23 item 5)
        assert sorted([*deck.pile, *deck.discards, *state.hands[seat]]) == sorted(cards)
        assert len(state.hands[seat]) <= (2, 3)[seat]
    # Turn bookkeeping stays within the rules.
    if state.phase == "turn" and state.side == 0:
        assert state.rec.acts_used <= 3 + state.rec.extra_acts
        assert state.rec.spells_used <= 1
    if state.phase == "turn" and state.side == 1:
        assert state.rec.spells_used <= state.game.params.blood_spells_per_turn
        assert state.rec.acts_used == 0
    # Over means decided by the rules or by the turn limit, and nothing is left pending.
    if state.phase == "over":
        assert state.pending is None
        assert state.grant is None
        assert state.current_player is None
        if state.winner is None:
            assert state.turn_number >= state.game.params.max_turns
    else:
        assert state.units[c.witch_id].where == BOARD or state.phase == "place"
