"""Golden playthroughs: seeded greedy games pinned move by move with their final digest.

The digest is the whole position's (`State.position_digest`): the moves are pinned already, so
the entries' hash chain (`State.digest`) would add nothing; the position catches a change of
state (or log text) that keeps every move the same.

Any change of behaviour (rules, RNG use, log texts, policy) shows up here as a diff of the
first entry that changed. When the change is intended, regenerate and review the diff:

    FORTS_REGENERATE=1 .venv/bin/python -m pytest tests/forts/test_forts_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import bloodforge
from bloodforge.lab.selfplay import play_game

GOLDEN = Path(__file__).parent / "golden"
CASES = [(2, 7, 0.0), (3, 11, 0.3), (4, 5, 0.0)]


def transcript(players: int, seed: int, timeout_rate: float) -> dict[str, object]:
    game = bloodforge.load_game("forts", players=players, seed=seed)
    record, state = play_game(game, ["greedy"], timeout_rate=timeout_rate)
    return {
        "players": players, "seed": seed, "timeout_rate": timeout_rate,
        "moves": [[seat, text] for seat, text in record.moves],
        "returns": record.returns, "digest": state.position_digest(),
    }


@pytest.mark.parametrize(("players", "seed", "timeout_rate"), CASES)
def test_golden_playthrough(players: int, seed: int, timeout_rate: float) -> None:
    path = GOLDEN / f"forts_{players}p_seed{seed}.json"
    got = transcript(players, seed, timeout_rate)
    if os.environ.get("FORTS_REGENERATE"):
        path.write_text(json.dumps(got, indent=0) + "\n")
    want = json.loads(path.read_text())
    for i, (a, b) in enumerate(zip(want["moves"], got["moves"], strict=False)):
        assert a == b, f"entry {i} changed: was {a}, now {b}"
    assert len(want["moves"]) == len(got["moves"])
    assert want["returns"] == got["returns"]
    assert want["digest"] == got["digest"]
