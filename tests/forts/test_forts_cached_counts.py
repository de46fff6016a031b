"""Issue 23 (speed): the map's counts are computed once per position and kept on the model.

*Why:* who acts, the legal actions, settling and observations all read `rules.tally`, which the
rules keep on the model (`Model.tally_cache`) and clear when they change the position. A change
that forgot to clear it would leave a seat over the food quota unasked to disband, or a
neighbour's attack offered as a move, and still play a valid-looking game; a move updates the
counts in place of a recount. These tests compare the kept counts with a fresh count at every
position of random games, in clones too.
"""

from __future__ import annotations

import pytest

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.forts.game import FortsState
from bloodforge.games.forts.model import NOT_ASKED, Model
from bloodforge.games.forts.rules import _count, first_over_quota, tally


def fresh_facts(m: Model, state: FortsState) -> tuple[object, ...]:
    """The counts and the seat over its quota, computed from nothing on a copy."""
    copy = m.copy()
    copy.touch()
    counts = _count(copy, state.cfg.content)
    over = first_over_quota(copy, state.cfg.content)
    return counts.controllers, counts.forts, counts.food, counts.income, counts.units, counts.armies, over


def kept_facts(m: Model, state: FortsState) -> tuple[object, ...]:
    counts = tally(m, state.cfg.content)
    over = first_over_quota(m, state.cfg.content)
    assert counts.over != NOT_ASKED
    return counts.controllers, counts.forts, counts.food, counts.income, counts.units, counts.armies, over


@pytest.mark.parametrize("players", [2, 4])
def test_kept_counts_equal_a_fresh_count_at_every_position(players: int) -> None:
    for seed in range(2):
        state = bloodforge.load_game("forts", players=players, seed=seed).new_initial_state()
        assert isinstance(state, FortsState)
        rng = Rng(seed)
        plies = 0
        while not state.is_terminal() and plies < 400:
            seat = rng.choice(state.actors())
            state.legal_actions(seat)  # fills the kept counts, as a playout does
            assert kept_facts(state.m, state) == fresh_facts(state.m, state), f"seed {seed}, ply {plies}"
            before = fresh_facts(state.m, state)
            child = state.clone()
            child.apply_unchecked(rng.choice(child.legal_actions(seat)), seat)
            assert kept_facts(child.m, child) == fresh_facts(child.m, child)
            assert kept_facts(state.m, state) == before, "a clone's action changed its parent's counts"
            state = child
            plies += 1


def test_a_hand_edited_position_is_counted_afresh_by_the_checked_apply() -> None:
    """The public `apply` clears the kept counts first: a tool or test may edit the model."""
    state = bloodforge.load_game("forts", players=2, seed=3).new_initial_state()
    assert isinstance(state, FortsState)
    seat = state.actors()[0]
    state.legal_actions(seat)
    home = state.m.home[seat]
    state.m.units[home][0] += 30  # far over the food quota, without the rules knowing
    state.apply("end", seat)
    assert state.actors() == [seat], "the seat over its quota must disband first"
    assert all(a.kind == "disband" for a in state.legal_actions(seat))
