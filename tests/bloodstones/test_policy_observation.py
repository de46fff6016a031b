"""The policy's lean observation (`BloodstonesState.policy_observation`): the observation's
values for everything but what only a page reads, so greedy plays the same games with it and
the search's evaluation scores the same positions (issue 23: an observation was a fifth of a
search decision, half of it the log's tail, the status board and the battle records)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bloodforge
from bloodforge.games.bloodstones.game import BloodstonesState
from bloodforge.games.bloodstones.observation import PAGE_ONLY
from bloodforge.lab.selfplay import play_game


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2)])
def test_the_lean_observation_is_the_observation_without_what_only_a_page_reads(players: int, seed: int) -> None:
    state = bloodforge.load_game("bloodstones", players=players, seed=seed).new_initial_state()
    rnd = random.Random(seed)
    battles = 0
    for ply in range(3000):
        if state.is_terminal():
            break
        if ply % 7 == 0:
            for seat in range(players):
                full, lean = state.observation(seat), state.policy_observation(seat)
                assert set(full) - set(lean) == set(PAGE_ONLY)
                assert lean == {k: v for k, v in full.items() if k not in PAGE_ONLY}
                battles += full["battle"] is not None
        state.apply(rnd.choice(state.legal_actions()))
    assert battles, "positions in a battle must be among those compared"


def _full(self: BloodstonesState, seat: int) -> dict[str, Any]:
    return self.observation(seat)


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4)])
def test_greedy_plays_the_same_game_with_the_lean_observation(
    players: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    lean, _ = play_game(bloodforge.load_game("bloodstones", players=players, seed=seed), ["greedy"] * players,
                        agent_seed=seed)
    monkeypatch.setattr(BloodstonesState, "policy_observation", _full)
    full, _ = play_game(bloodforge.load_game("bloodstones", players=players, seed=seed), ["greedy"] * players,
                        agent_seed=seed)
    assert lean.moves == full.moves
    assert lean.returns == full.returns
