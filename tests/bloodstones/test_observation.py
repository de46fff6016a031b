"""What each seat sees: no other seat's hand, tiles, bag or RNG; resample_hidden; determinism."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.bloodstones.game import BloodstonesState
from bloodforge.games.bloodstones.observation import observe

from .helpers import check_invariants, make, run, start_battle

PARAMS = [
    {"players": 2, "factions": ["dragon_riders", "horse_lords"]},
    {"players": 3, "factions": ["corsairs", "necromancers", "hill_folk"], "cutiecorn": True},
    {"players": 4, "factions": ["chaos_horde", "corsairs", "horse_lords", "dragon_riders"]},
]


def _positions(params: dict[str, Any], seed: int, every: int = 23) -> Iterator[BloodstonesState]:
    """Positions along a random game, including every battle step."""
    st = bloodforge.load_game("bloodstones", seed=seed, **params).new_initial_state()
    assert isinstance(st, BloodstonesState)
    rnd = random.Random(seed)
    n = 0
    while not st.is_terminal():
        if n % every == 0 or st.battle is not None:
            yield st
        st.apply(rnd.choice(st.legal_actions()))
        n += 1
    yield st


def _keys(obj: Any) -> Iterator[str]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from _keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _keys(v)


def _twin_with_other_secrets(
    st: BloodstonesState, seat: int | None, rnd: random.Random
) -> BloodstonesState:
    """The same position with everything `seat` may not know changed (hands, bags, RNG, tiles)."""
    twin = st.clone()
    twin.rng = Rng(rnd.getrandbits(64))
    b = twin.battle
    for other in range(twin.num_players):
        if other == seat or twin.factions[other] is None:
            continue
        hand, bag = twin.hands[other], twin.bags[other]
        for t in list(hand):  # swap hand tiles for bag tiles of another type where possible
            swap = next((x for x in sorted(bag.counts) if x != t), None)
            if swap is not None:
                twin.hand_remove(other, t)
                bag.remove(swap)
                twin.hand_add(other, swap)
                bag.add(t)
        if b is not None and other in (b.attacker, b.defender):
            side = b.side_of(other)
            if not b.revealed[side] and b.tiles[side]:
                b.tiles[side] = [5 if v != 5 else 2 for v in b.tiles[side]]
            sub = b.subs[side]
            if sub is not None and not b.revealed[side]:
                swap = next((x for x in sorted(bag.counts) if x != sub), None)
                if swap is not None:
                    bag.remove(swap)
                    bag.add(sub)
                    b.subs[side] = swap
    return twin


@pytest.mark.parametrize("params", PARAMS)
def test_observation_hides_other_hands_tiles_bags_and_rng(params: dict[str, Any]) -> None:
    rnd = random.Random(5)
    checked = 0
    for st in _positions(params, 11):
        for seat in [None, *range(st.num_players)]:
            obs = st.observation(seat)
            keys = set(_keys(obs))
            assert not keys & {"rng", "bags", "bag", "hands", "battle_rig", "rigged", "snapshot"}
            if seat is None:
                assert obs["hand"] is None
            else:
                assert obs["hand"] == dict(sorted(st.hands[seat].items()))
            twin = _twin_with_other_secrets(st, seat, rnd)
            assert observe(twin, seat) == obs
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("params", PARAMS)
def test_event_log_has_no_other_seats_private_lines(params: dict[str, Any]) -> None:
    for st in _positions(params, 12, every=200):
        for seat in [None, *range(st.num_players)]:
            for line in st.event_log(seat):
                m = re.match(
                    r"P(\d+) .*(draws battle tiles|substitutes an? (?!tile from hand)\w+ tile)",
                    line,
                )
                if m:
                    assert seat is not None, line
                    assert int(m.group(1)) == seat, line
    # the private lines exist for their owner
    assert any(
        "draws battle tiles" in line for s in range(st.num_players) for line in st.event_log(s)
    )


def test_observation_hides_unrevealed_battle_tiles_and_substitute() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(22, 0, {"swords": 2}), (22, 1, {"swords": 1})],
        hands=[{"resources": 1}, {"skirmishers": 1}],
        attacker_tiles=[4, 3, 3, 2],
        defender_tiles=[5, 3, 2],
    )
    start_battle(st, 22, 1)
    run(st, "substitute resources")
    mine, theirs = st.observation(0)["battle"]["sides"], st.observation(1)["battle"]["sides"]
    assert mine[0]["tiles"] == [4, 3, 3, 2]
    assert mine[0]["substitute"] == "resources"
    assert mine[1]["tiles"] is None
    assert theirs[0]["tiles"] is None
    assert theirs[0]["substitute"] is None
    assert theirs[0]["substituted"] is True  # that a tile was swapped in is seen at the table
    assert st.observation(None)["battle"]["sides"][0]["tiles"] is None
    run(st, "keep")
    assert st.observation(1)["battle"] is None or st.observation(1)["battle"]["sides"][0]["tiles"]


@pytest.mark.parametrize("params", PARAMS)
def test_resample_hidden_keeps_what_seat_sees_and_varies_other_hands(
    params: dict[str, Any],
) -> None:
    varied = 0
    for st in _positions(params, 13, every=37):
        if st.is_terminal():
            continue
        for seat in range(st.num_players):
            samples = [st.resample_hidden(seat, Rng(k)) for k in range(6)]
            for new in samples:
                assert new.observation(seat) == st.observation(seat)
                check_invariants(new, check_legal=False)
            for other in range(st.num_players):
                if (
                    other != seat
                    and len({str(sorted(s.hands[other].items())) for s in samples}) > 1
                ):
                    varied += 1
    assert varied > 10


@pytest.mark.parametrize("params", PARAMS)
def test_determinism_same_seed_and_actions_same_digest_and_history_replays(
    params: dict[str, Any],
) -> None:
    game = bloodforge.load_game("bloodstones", seed=21, **params)
    st = game.new_initial_state()
    rnd = random.Random(3)
    for _ in range(400):
        if st.is_terminal():
            break
        st.apply(rnd.choice(st.legal_actions()))
    again = bloodforge.load_game("bloodstones", seed=21, **params).new_initial_state()
    for text in st.history:
        again.apply(text)
    assert again.position_digest() == st.position_digest()
    other_seed = bloodforge.load_game("bloodstones", seed=22, **params).new_initial_state()
    assert other_seed.position_digest() != game.new_initial_state().position_digest()


def test_determinism_scenario_replay() -> None:
    from .test_worked_examples import EXAMPLE

    st = bloodforge.load_scenario(EXAMPLE)
    run(
        st,
        "battle 27 1",
        "substitute resources",
        "substitute ship",
        "casualty shields",
        "retreat 26",
    )  # type: ignore[arg-type]
    fresh = bloodforge.load_scenario(EXAMPLE)
    for text in st.history:
        fresh.apply(text)
    assert fresh.position_digest() == st.position_digest()


@pytest.mark.parametrize("params", PARAMS[:2])
def test_a_selected_group_shows_its_player_every_destination_with_the_cost_the_move_charges(
    params: dict[str, Any],
) -> None:
    """Action: Move Units: the pips a group pays depend on the areas it enters. The mover's
    observation names each destination of the selected group with that cost: exactly the legal
    `to` actions, each charging what it says, and nobody else sees it (it bounds the hand's pips)."""
    checked = 0
    for st in _positions(params, seed=5, every=1):
        p = st.pending
        if p is None or p.kind != "move" or not p.group:
            continue
        seat = st.active
        reach = st.observation(seat)["pending"]["reach"]
        assert {int(d) for d in reach} == {int(a.args[0]) for a in st.legal_actions() if a.kind == "to"}
        for dest, cost in reach.items():
            after = st.clone()
            before = after.pending.cost
            after.apply(f"to {dest}")
            assert after.pending.cost - before == cost
        for other in [None, *range(st.num_players)]:
            if other != seat:
                pending = st.observation(other)["pending"]
                assert pending is None or "reach" not in pending
        checked += 1
    assert checked >= 3
