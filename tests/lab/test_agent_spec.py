"""Agent specs as the lab's command line and configs write them: `name:key=value:...`, where a
value is JSON when it parses, and a JSON object or list may hold colons of its own."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bloodforge.lab.jobs import AgentSpec, split_spec


def test_scalar_options_parse_as_before() -> None:
    spec = AgentSpec.parse("mcts:seconds=1:clock=cpu:rollout=greedy")
    assert spec.name == "mcts"
    assert spec.options == {"seconds": 1, "clock": "cpu", "rollout": "greedy"}
    assert spec.label == "mcts:clock=cpu:rollout=greedy:seconds=1"


def test_a_json_object_with_colons_is_one_option() -> None:
    spec = AgentSpec.parse('mcts:seconds=1:policy_options={"retreat":true,"plan_width":5}:clock=cpu')
    assert spec.options == {"seconds": 1, "clock": "cpu", "policy_options": {"retreat": True, "plan_width": 5}}
    # the label is the spec again: objects as compact JSON
    assert spec.label == 'mcts:clock=cpu:policy_options={"plan_width":5,"retreat":true}:seconds=1'
    assert AgentSpec.parse(spec.label) == spec
    # colons inside JSON strings and nested lists stay inside the value
    nested = AgentSpec.parse('mcts:policy_options={"a":[1,{"b":"x:y"}],"c":"]"}')
    assert nested.options == {"policy_options": {"a": [1, {"b": "x:y"}], "c": "]"}}


@pytest.mark.parametrize(("text", "words"), [
    ('mcts:policy_options={"retreat":true', "unclosed }"),
    ("mcts:policy_options=[1,2", "unclosed ]"),
    ('mcts:policy_options={"a:1}', "unclosed quote"),
    ("mcts:policy_options={retreat}", "'{retreat}' is not JSON"),
    ("mcts:seconds", "'seconds' is not key=value"),
    ("oracle:seconds=1", "unknown agent 'oracle'"),
])
def test_a_malformed_spec_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ValueError, match="agent .*" + words.replace("[", r"\[").replace("{", r"\{")
                       .replace("}", r"\}").replace("]", r"\]")):
        AgentSpec.parse(text)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@given(st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True),
                       st.dictionaries(st.text(max_size=5), _json_values, max_size=3), max_size=3))
def test_json_object_options_round_trip_through_the_label(options: dict[str, dict[str, object]]) -> None:
    spec = AgentSpec(name="mcts", options=options)
    again = AgentSpec.parse(spec.label)
    assert again == spec
    assert all(json.loads(json.dumps(v)) == again.options[k] for k, v in options.items())


def test_split_spec_cuts_only_outside_brackets_and_quotes() -> None:
    assert split_spec('a:b={"c":[1,":"]}:d="e:f"') == ["a", 'b={"c":[1,":"]}', 'd="e:f"']
    assert split_spec("plain") == ["plain"]
