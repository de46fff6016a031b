"""Long random playouts with the invariants checked after every action, and the agents."""

from __future__ import annotations

import pytest
from witch_helpers import check_invariants, new_game

from bloodforge.agents import make_agent
from bloodforge.core import Rng
from bloodforge.games.witch.model import BOARD, SOLDIERS, WITCH
from bloodforge.lab.selfplay import play_game

PARAM_MIX = [
    {},
    {"setup": "preset"},
    {"blood_spells_per_turn": 1},
    {"setup": "preset", "max_turns": 30},
]


@pytest.mark.slow
def test_random_playouts_keep_every_invariant_after_every_action() -> None:
    """200 games: blood stones conserved, each unit in one place, cards conserved, ..."""
    outcomes = {0: 0, 1: 0, None: 0}
    for seed in range(200):
        params = PARAM_MIX[seed % len(PARAM_MIX)]
        game = new_game(seed, **params)
        state = game.new_initial_state()
        check_invariants(state)
        rng = Rng(seed)
        plies = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal
            # Sometimes cancel a partial choice, to exercise it too.
            cancel = [a for a in legal if a.is_cancel]
            action = cancel[0] if cancel and rng.random() < 0.2 else rng.choice(legal)
            state.apply(action)
            check_invariants(state)
            plies += 1
            assert plies < 5000, "a game must end (turn limit)"
        assert sum(state.returns()) == pytest.approx(1.0)
        outcomes[state.winner] += 1
        witch_alive = state.units["witch"].where == BOARD
        soldiers_left = any(state.is_active_soldier(s) for s in state.content.soldier_ids)
        if state.winner == SOLDIERS:
            assert not witch_alive
        elif state.winner == WITCH:
            assert witch_alive
            assert not soldiers_left
        else:
            assert witch_alive
            assert soldiers_left
    assert outcomes[SOLDIERS], outcomes
    assert outcomes[None], outcomes


def test_random_agent_never_cancels_when_it_has_something_else() -> None:
    state = new_game(3).new_initial_state()
    agent = make_agent("random", seat=0, seed=1)
    for _ in range(500):
        if state.is_terminal():
            break
        seat = state.current_player
        assert seat is not None
        agent.seat = seat
        action = agent.select_action(state)
        assert not action.is_cancel
        state.apply(action)


def _score(names: list[str], seat: int, seeds: range) -> float:
    total = 0.0
    for seed in seeds:
        record, _ = play_game(new_game(seed), names, agent_seed=seed)
        total += record.returns[seat]
    return total / len(seeds)


@pytest.mark.slow
def test_heuristic_beats_random_as_the_soldiers() -> None:
    assert _score(["greedy", "random"], SOLDIERS, range(8)) >= 0.9


@pytest.mark.slow
def test_heuristic_beats_random_as_the_witch() -> None:
    assert _score(["random", "greedy"], WITCH, range(8)) >= 0.6


def test_regression_anchor_legal_action_counts_of_the_preset_opening() -> None:
    """Pinned counts (perft depth 1 and 2 over the first two Acts): a change means the rules
    or the content changed and must be deliberate."""
    state = new_game(0, setup="preset").new_initial_state()
    first = state.legal_actions()
    second = 0
    for action in first:
        twin = state.clone()
        twin.apply(action)
        second += len(twin.legal_actions())
    # Archer on d1: 7 squares within 2 free orthogonal steps (e2, f2 are taken); spearman on e2:
    # 8 moves and the swordsman in reach; swordsman on f2: 8 moves and the spearman; `end`.
    assert sorted(str(a) for a in first if a.args[:1] == ("archer",)) == [
        "move archer b1", "move archer c1", "move archer c2", "move archer d2",
        "move archer d3", "move archer e1", "move archer f1",
    ]  # fmt: skip
    assert (len(first), second) == (26, 500)
