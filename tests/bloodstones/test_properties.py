"""Property-based tests (hypothesis): action parser, random action sequences, text round trips."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import bloodforge
from bloodforge.core.errors import ActionSyntaxError, IllegalAction
from bloodforge.games.bloodstones.game import BloodstonesState

from .helpers import check_invariants

GAMES = [
    {"players": 2, "factions": ["dragon_riders", "necromancers"]},
    {"players": 3, "factions": ["corsairs", "hill_folk", "horse_lords"], "cutiecorn": True},
    {"players": 4, "factions": ["chaos_horde", "necromancers", "dragon_riders", "hill_folk"]},
]

_CACHE: dict[tuple[int, int, int], BloodstonesState] = {}


def _position(game_index: int, seed: int, steps: int) -> BloodstonesState:
    """A position `steps` random actions into a game (cached; callers clone)."""
    key = (game_index, seed, steps)
    if key not in _CACHE:
        import random

        st = bloodforge.load_game("bloodstones", seed=seed, **GAMES[game_index]).new_initial_state()
        assert isinstance(st, BloodstonesState)
        rnd = random.Random(seed)
        for _ in range(steps):
            if st.is_terminal():
                break
            st.apply_unchecked(rnd.choice(st.legal_actions()))
        _CACHE[key] = st
    return _CACHE[key].clone()


VERBS = [
    "faction",
    "citadel",
    "start",
    "build",
    "place",
    "pay",
    "move",
    "to",
    "battle",
    "capture",
    "village",
    "undead",
    "withdraw",
    "stay",
    "substitute",
    "keep",
    "casualty",
    "retreat",
    "raise",
    "done",
    "cancel",
    "Build",
    "MOVE",
]
WORDS = hs.one_of(
    hs.sampled_from(VERBS),
    hs.integers(-5, 120).map(str),
    hs.sampled_from(
        [
            "swords",
            "ship",
            "cutiecorn",
            "undead",
            "citadel",
            "resources",
            "007",
            "²",
            "٣",
            "1e3",
            "0x1f",
            "-0",
            "+3",
            "",
            " ",
            "\t",
            "\n",
            "NaN",
        ]
    ),
    hs.text(max_size=8),
)
TEXTS = hs.one_of(hs.text(max_size=40), hs.lists(WORDS, max_size=5).map(" ".join))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=hs.integers(0, 2), steps=hs.sampled_from([0, 9, 40, 150, 400]), text=TEXTS)
def test_parse_action_on_any_text_raises_only_syntax_or_illegal_and_never_changes_state(
    game: int, steps: int, text: str
) -> None:
    st = _position(game, 1, steps)
    before = st.position_digest()
    try:
        action = st.game.parse_action(st, text)
    except (ActionSyntaxError, IllegalAction):
        assert st.position_digest() == before
        return
    assert action in st.legal_actions()
    assert st.position_digest() == before
    try:
        st.apply(text)
    except (ActionSyntaxError, IllegalAction) as err:  # pragma: no cover - would be a bug
        raise AssertionError(f"parsed {text!r} but apply refused: {err}") from err


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=hs.integers(0, 2), seed=hs.integers(0, 50), data=hs.data())
def test_random_action_sequences_keep_invariants(game: int, seed: int, data: Any) -> None:
    st = _position(game, seed, 0)
    for _ in range(120):
        if st.is_terminal():
            break
        actions = st.legal_actions()
        action = data.draw(hs.sampled_from(actions))
        prev = list(st.vp)
        st.apply(action)
        check_invariants(st, prev)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=hs.integers(0, 2), seed=hs.integers(0, 20), steps=hs.integers(0, 500))
def test_every_legal_action_text_round_trips_through_parse_action(
    game: int, seed: int, steps: int
) -> None:
    st = _position(game, seed, steps)
    for action in st.legal_actions():
        parsed = st.game.parse_action(st, str(action))
        assert parsed == action
        assert str(parsed) == str(action)
        upper = st.game.parse_action(st, str(action).upper())
        assert upper == action
