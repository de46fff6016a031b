"""Issue 23 item 1, the players' side of six-seat playouts (fifth session): each speed
structure against the plain computation, on positions of random games as
`benchmarks/bench_playouts.py` plays them.

*Why:* a memo that keeps too much, or a table read instead of a pass over the figures, still
plays plausible games; these checks fail when the structure answers differently from the
rule worked out afresh, or when it stops bounding what it keeps.
"""

from __future__ import annotations

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.world import LAYOUT_MEMO_SIZE


def _random_state(players: int, seed: int) -> tuple[ArenaState, Rng]:
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
    assert isinstance(state, ArenaState)
    return state, Rng(seed)


def test_issue23_layout_memo_keeps_at_most_its_size_and_starts_again() -> None:
    """The layout memo (route searches, move lists, who is in Range) is emptied once it holds
    `LAYOUT_MEMO_SIZE` answers, whoever asks: kept long, old layouts' answers only fed the
    cyclic collector. Every ply of a random six-seat game leaves it within a few entries of
    the size (one access may be followed by a few insertions), and an access at the size
    hands back an empty memo that is still the one clones share."""
    state, rng = _random_state(6, 5)
    largest = 0
    for _ in range(600):
        if state.is_terminal():
            break
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
        if state.route_memo is not None:  # none before the first search
            largest = max(largest, len(state.route_memo[1]))
    assert LAYOUT_MEMO_SIZE // 2 <= largest <= LAYOUT_MEMO_SIZE + 8
    twin = state.clone()
    table = state.layout_memo()
    for i in range(LAYOUT_MEMO_SIZE - len(table)):
        table[("filler", i)] = i
    assert len(state.layout_memo()) == 0
    assert twin.layout_memo() is state.layout_memo()
