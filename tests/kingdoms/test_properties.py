"""Property tests (hypothesis): bad input never changes a position; force texts parse or fail clearly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bloodforge.core import ActionSyntaxError, IllegalAction, ParameterError
from bloodforge.games.kingdoms.queries.odds import parse_force

from .helpers import fresh

STATE = fresh(seed=5)
WORDS = st.sampled_from(["move", "buy", "hit", "fight", "retreat", "place", "disband", "done", "merc", "target",
                         "sylvanhold", "elmwood", "infantry", "dragon", "castle", "reserve", "0", "-1", "x"])


@settings(max_examples=150, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=5))
def test_any_action_text_is_applied_or_refused_without_touching_the_state(words: list[str]) -> None:
    s = STATE.clone()
    before = s.position_digest()
    text = " ".join(words)
    legal = {str(a) for a in s.legal_actions()}
    try:
        s.apply(text)
    except (ActionSyntaxError, IllegalAction):
        assert s.position_digest() == before
        assert text.lower() not in legal
    else:
        assert text.lower() in legal


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789 ,abcdefghijklmnopqrstuvwxyz_", max_size=40))
def test_force_texts_parse_or_fail_with_a_parameter_error(text: str) -> None:
    message = ""
    kinds: list[str] = []
    try:
        kinds = parse_force(text)
    except ParameterError as err:
        message = str(err)
    assert ("force" in message) if message else all(isinstance(k, str) for k in kinds)
