"""Issue 23 item 1: speed work must leave every game identical, in all five games.

*Why:* the speed work caches searches and derived views (routes, destinations, fog of war,
occupancy, legal actions inside compound moves) and flattens `clone`; a cache that goes stale
after some mutation would change which actions are legal yet still play a valid-looking game.
Seeded uniformly random games (as `benchmarks/bench_playouts.py` plays them) recorded before that
work (`golden/identical_games.json`) are replayed and compared: the legal action list at every
ply, the chosen action, and at the end the position, the RNG, the history and the log's facts.

The fingerprint hashes the state's JSON itself, not `State.digest()`: the digest is being made
O(1) per entry (a hash chain), and that must not weaken this check. Log *texts* are left out on
purpose (the UI work rewords them); each event's kind, visibility and data are in. The second test
checks that a cached state and a fresh one rebuilt from JSON agree, observations included.

A deliberate rules change regenerates the file (and says so in its commit):

    .venv/bin/python tests/test_identical_games.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import bloodforge
from bloodforge.core import Rng, State

GOLDEN = Path(__file__).parent / "golden" / "identical_games.json"
GAMES = 3  # seeds per setting

# setting name -> (game id, game parameters); the arena has its own, finer file
SETTINGS: dict[str, tuple[str, dict[str, Any]]] = {
    "bloodstones_2": ("bloodstones", {"players": 2}),
    "bloodstones_4": ("bloodstones", {"players": 4}),
    "bloodstones_6": ("bloodstones", {"players": 6}),
    "witch_2": ("witch", {}),
    "forts_2": ("forts", {"players": 2}),
    "forts_3": ("forts", {"players": 3}),
    "forts_4": ("forts", {"players": 4}),
    "kingdoms_2": ("kingdoms", {"players": 2}),
    "kingdoms_4": ("kingdoms", {"players": 4}),
    "arena_1": ("arena", {"players": 1}),
    "arena_6": ("arena", {"players": 6}),
}


def new_state(setting: str, seed: int) -> State:
    game_id, params = SETTINGS[setting]
    return bloodforge.load_game(game_id, seed=seed, **params).new_initial_state()


def final_facts(state: State) -> str:
    """The end of a game as canonical JSON: position, RNG, history and the log without texts."""
    data = state.to_json()
    events = [{k: v for k, v in e.items() if k not in ("text", "masked")} for e in data.pop("events")]
    data["events"] = events
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


def play_fingerprint(setting: str, seed: int) -> dict[str, Any]:
    """One uniformly random game and the hash of everything it showed and ended in."""
    return play_out(new_state(setting, seed), seed)


def play_out(state: State, seed: int) -> dict[str, Any]:
    """Plays `state` to its end uniformly at random (as `bench_playouts.py` does), hashing every
    ply's actor, legal list and choice, then the final facts."""
    rng = Rng(seed)
    h = hashlib.sha256()
    plies = 0
    while not state.is_terminal():
        seat = rng.choice(state.actors())
        legal = state.legal_actions(seat)
        action = rng.choice(legal)
        h.update(f"{seat}|{'/'.join(map(str, legal))}|{action}\n".encode())
        state.apply_unchecked(action, seat)
        plies += 1
    h.update(final_facts(state).encode())
    return {"seed": seed, "plies": plies, "entries": len(state.history), "fingerprint": h.hexdigest()}


def compute() -> dict[str, list[dict[str, Any]]]:
    return {name: [play_fingerprint(name, seed) for seed in range(GAMES)] for name in SETTINGS}


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_issue23_random_games_are_identical_to_the_recorded_ones(name: str) -> None:
    golden = json.loads(GOLDEN.read_text())
    got = [play_fingerprint(name, seed) for seed in range(GAMES)]
    assert got == golden[name]


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_issue23_cached_state_agrees_with_a_fresh_one(name: str) -> None:
    assert_cached_state_agrees(new_state(name, 7), 7, every=11)


def assert_cached_state_agrees(state: State, seed: int, every: int) -> None:
    """Every `every` plies of a random game: a state rebuilt from JSON (no caches) offers the
    same actions and shows the same observations to every seat; a clone played on equals the
    rebuilt state played on the same way, and playing on the clone leaves the original untouched."""
    rng = Rng(seed)
    ply = 0
    while not state.is_terminal():
        seat = rng.choice(state.actors())
        legal = state.legal_actions(seat)
        if ply % every == 0:
            fresh = state.game.state_from_json(state.to_json())
            assert fresh.legal_actions(seat) == legal, f"ply {ply}"
            for viewer in [None, *range(state.num_players)]:
                assert fresh.observation(viewer) == state.observation(viewer), f"ply {ply}, seat {viewer}"
            before = state.to_json()
            twin = state.clone()
            twin.apply_unchecked(legal[ply % len(legal)], seat)
            fresh.apply_unchecked(legal[ply % len(legal)], seat)
            assert twin.to_json() == fresh.to_json(), f"ply {ply}"
            assert state.to_json() == before, f"ply {ply}: playing on a clone changed the original"
        state.apply_unchecked(rng.choice(legal), seat)
        ply += 1


if __name__ == "__main__":
    if "--write" in sys.argv:
        GOLDEN.write_text(json.dumps(compute(), indent=1) + "\n")
        print(f"wrote {GOLDEN}")
