"""Invariants in random playouts of every faction at 2-6 players, checked after every action."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bloodforge
from bloodforge.games.bloodstones.game import BloodstonesState
from bloodforge.games.bloodstones.model import Phase

from .helpers import check_invariants, deserts_clear, main_done_uncontested

#: The copies (clone, JSON round trip) are checked at every 4th action, the offset varying with
#: the seed, and at every state of a kind (phase, battle step, kinds of legal action) the playout
#: had not copied yet, so every kind a playout meets is copied at least once. Copying at every
#: action was three quarters of the module's 88 CPU-s; the invariants stay checked at every action.
COPY_EVERY = 4
#: Copy checks between two checks of the whole JSON (with the event log): the log only grows, so
#: every event is still serialised and read back at a later check, while serialising it at every
#: check made the playouts quadratic (82 % of the slowest test, issue 23 item 5).
FULL_JSON_EVERY = 4


ALL = ["dragon_riders", "horse_lords", "hill_folk", "necromancers", "corsairs", "chaos_horde"]


def _configs() -> list[tuple[int, int, bool]]:
    """(players, seed, cutiecorn): every faction appears at every player count it can play."""
    out = []
    for players, games in ((2, 32), (3, 28), (4, 24), (5, 8), (6, 6)):
        for i in range(games):
            out.append((players, 1000 * players + i, i % 2 == 1))
    return out


def _params(players: int, seed: int, cutiecorn: bool) -> dict[str, Any]:
    rnd = random.Random(seed)
    if players == 2:
        pool = ALL[:4]
    elif players == 3:
        pool = ALL[:5]
    else:
        pool = list(ALL)
    factions = rnd.sample(pool, players)
    params: dict[str, Any] = {"players": players, "factions": factions, "cutiecorn": cutiecorn}
    return params  # 5-6 players play on the house map "grand" by default


def playout(params: dict[str, Any], seed: int, *, max_actions: int = 6000) -> BloodstonesState:
    """Random legal actions through the checked `apply`, every invariant checked after each."""
    game = bloodforge.load_game("bloodstones", seed=seed, **params)
    st = game.new_initial_state()
    assert isinstance(st, BloodstonesState)
    rnd = random.Random(seed)
    probe = random.Random(-seed)  # its own: the games played do not depend on how often copies are checked
    check_invariants(st)
    actions = st.legal_actions()
    n = copies = 0
    kinds_copied: set[tuple[Any, ...]] = set()
    while not st.is_terminal():
        assert n < max_actions, "game did not end"
        assert actions, "no legal action before the end"
        action = rnd.choice(actions)
        prev_vp = list(st.vp)
        prev_turns = st.turns_taken
        prev_active = st.active
        ending_main = st.phase is Phase.MAIN and st.battle is None and action.kind == "done"
        st.apply(action)
        n += 1
        actions = st.legal_actions()
        check_invariants(st, prev_vp, check_legal=False)
        assert bool(actions) != st.is_terminal(), "legal actions must exist exactly until the end"
        if st.turns_taken != prev_turns:
            assert deserts_clear(st, prev_active), (
                f"units left in a desert after seat {prev_active} drew"
            )
        if ending_main:
            assert main_done_uncontested(st, prev_active)
        kind = (st.phase, st.battle.step if st.battle else None, frozenset(a.kind for a in actions))
        if n % COPY_EVERY == seed % COPY_EVERY or kind not in kinds_copied or st.is_terminal():
            kinds_copied.add(kind)
            copies += 1
            _check_copies(st, game, probe, actions, independence=copies % 2 == 0,
                          events=copies % FULL_JSON_EVERY == 0 or st.is_terminal())
    return st


def _state_json(st: BloodstonesState, *, events: bool) -> dict[str, Any]:
    """`to_json`, without the event log unless asked (`state_from_json` then starts an empty one)."""
    if events:
        return st.to_json()
    data = st.game.record()
    data.update(rng=st.rng.state, history=list(st.history), history_seats=list(st.history_seats),
                position=st._position_json())
    return data


def _check_copies(
    st: BloodstonesState,
    game: bloodforge.Game,
    rnd: random.Random,
    actions: list[Any],
    *,
    independence: bool,
    events: bool,
) -> None:
    """clone() and the JSON round trip give the same state (same JSON, hence same digest); the
    event log is compared by value every action and round-tripped through JSON when `events`."""
    data = _state_json(st, events=events)
    clone = st.clone()
    assert _state_json(clone, events=events) == data
    assert clone.events == st.events
    back = game.state_from_json(data)
    assert _state_json(back, events=events) == data
    assert back.legal_actions() == actions
    if independence and actions:
        clone.apply_unchecked(rnd.choice(actions))
        assert _state_json(st, events=events) == data  # changing the clone leaves the original alone


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed", "cutiecorn"), _configs())
def test_random_playout_keeps_invariants(players: int, seed: int, cutiecorn: bool) -> None:
    st = playout(_params(players, seed, cutiecorn), seed)
    assert st.phase is Phase.OVER
    assert len(st.returns()) == players
    assert abs(sum(st.returns()) - 1.0) < 1e-9


def test_playouts_cover_every_faction_at_every_player_count() -> None:
    seen: dict[int, set[str]] = {}
    for players, seed, cc in _configs():
        seen.setdefault(players, set()).update(_params(players, seed, cc)["factions"])
    assert seen[2] == set(ALL[:4])
    assert seen[3] == set(ALL[:5])
    assert all(seen[p] == set(ALL) for p in (4, 5, 6))
