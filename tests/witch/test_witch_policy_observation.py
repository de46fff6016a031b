"""The policy's lean observation (`WitchState.policy_observation`): the same values as the
observation for everything the policy reads, so greedy plays the same games with it (issue 23:
the log's window and the status board were 40% of a greedy decision)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from witch_helpers import new_game

from bloodforge.games.witch.game import WitchState
from bloodforge.games.witch.policy import _last_cast
from bloodforge.lab.selfplay import play_game

#: What only a page reads, left out of the lean observation (the board's pieces, marks and the
#: seat's hand as board tokens go with `board`; the log is cut to its latest cast).
PAGE_ONLY = {"status", "phase_label"}


def positions(seed: int, plies: int = 400) -> list[WitchState]:
    state = new_game(seed).new_initial_state()
    assert isinstance(state, WitchState)
    rnd = random.Random(seed)
    out = [state.clone()]
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(rnd.choice(state.legal_actions()))
        out.append(state.clone())
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_lean_observation_holds_what_the_policy_reads_with_the_same_values(seed: int) -> None:
    casts = 0
    for state in positions(seed):
        for seat in (0, 1):
            full, lean = state.observation(seat), state.policy_observation(seat)
            assert set(full) - set(lean) == PAGE_ONLY
            for key, value in lean.items():
                if key == "log":
                    assert _last_cast(lean) == _last_cast(full)
                    assert len(value) <= 1
                    casts += bool(value)
                elif key == "board":
                    assert value == {k: full["board"][k] for k in value}
                    assert value["width"] == full["board"]["width"]
                else:
                    assert value == full[key], key
    assert casts, "some position must have a cast in its log window for this to mean anything"


def _full(self: WitchState, seat: int) -> dict[str, Any]:
    return self.observation(seat)


@pytest.mark.parametrize("seed", [3, 4])
def test_greedy_plays_the_same_game_with_the_lean_observation(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    lean_record, _ = play_game(new_game(seed), ["greedy", "greedy"], agent_seed=seed)
    monkeypatch.setattr(WitchState, "policy_observation", _full)
    full_record, _ = play_game(new_game(seed), ["greedy", "greedy"], agent_seed=seed)
    assert lean_record.moves == full_record.moves
    assert lean_record.returns == full_record.returns
