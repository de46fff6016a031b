"""Rule variants for the lab's Blood Stone study (docs/games/witch.md, "Lab study"): a cap on
the blood paid for one spell, and the literal reading of `X > dN` (Ruling 2's alternative)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import bloodforge
from bloodforge.core import IllegalAction, State
from bloodforge.games.witch.queries import pass_probability

SCENARIO = Path(bloodforge.__file__).parent / "games" / "witch" / "scenarios" / "worked_example.yaml"


def worked_example(**params: Any) -> State:
    data = yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))
    data["params"] = params
    return bloodforge.load_scenario(data)


def pays(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions() if a.kind == "pay"]


def test_ruling_3_x_up_to_the_die_size_by_default() -> None:
    state = worked_example()
    state.apply("cast manipulate")
    assert pays(state) == ["pay 1", "pay 2", "pay 3", "pay 4"]


def test_variant_blood_payment_cap_limits_x() -> None:
    state = worked_example(blood_payment_cap=2)
    state.apply("cast manipulate")
    assert pays(state) == ["pay 1", "pay 2"]
    with pytest.raises(IllegalAction):
        state.apply("pay 3")


def test_ruling_2_worked_example_passes_when_x_equals_the_roll() -> None:
    state = worked_example()
    state.apply("cast manipulate")
    state.apply("pay 2")  # the die is rigged to 2
    assert any("rolled 2, passes" in t for t in state.event_log(1)[-3:])


def test_variant_blood_chance_greater_fails_when_x_equals_the_roll() -> None:
    state = worked_example(blood_chance="greater")
    state.apply("cast manipulate")
    state.apply("pay 2")  # rolled 2: 2 is not greater than 2
    log = state.event_log(1)
    assert any("rolled 2, fails" in t for t in log[-3:])
    assert not any(a.kind in {"move", "attack"} and a.args[0].startswith("minion") for a in state.legal_actions())


def test_variant_parameters_are_validated() -> None:
    with pytest.raises(bloodforge.core.ParameterError, match="blood_payment_cap"):
        bloodforge.load_game("witch", blood_payment_cap=0)
    with pytest.raises(bloodforge.core.ParameterError, match="blood_chance"):
        bloodforge.load_game("witch", blood_chance="sometimes")


@pytest.mark.parametrize(("blood_chance", "expected"), [("at_least", [0.25, 0.5, 0.75, 1.0]),
                                                        ("greater", [0.0, 0.25, 0.5, 0.75])])
def test_the_chance_shown_and_used_by_agents_follows_the_variant(blood_chance: str, expected: list[float]) -> None:
    """The observation's pass chances (the browser's help) and the exported query the greedy
    policy uses follow `blood_chance`, so under the literal reading nobody counts X = 4 on a d4
    as certain."""
    state = worked_example(blood_chance=blood_chance)
    state.apply("cast manipulate")
    obs = state.observation(1)
    assert obs["blood_chance"] == blood_chance
    assert [obs["pass_chance"][str(x)] for x in range(1, 5)] == expected
    assert [pass_probability("blood", 4, None, x, 0, blood_chance) for x in range(1, 5)] == expected
    # fixed and phantom chances are not blood-paid: the variant leaves them alone
    assert pass_probability("fixed", 4, 3, 0, 0, blood_chance) == 0.75


@pytest.mark.parametrize("blood_chance", ["at_least", "greater"])
@pytest.mark.parametrize("x", [1, 2, 3, 4])
def test_the_rules_roll_agrees_with_the_exported_query(blood_chance: str, x: int) -> None:
    """Over every die face, the rules pass a blood-paid spell exactly as often as the query says."""
    passed = 0
    for roll in range(1, 5):
        data = yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))
        data["params"] = {"blood_chance": blood_chance}
        data["rig"]["dice"] = [roll]
        state = bloodforge.load_scenario(data)
        state.apply("cast manipulate")
        state.apply(f"pay {x}")
        passed += any(f"rolled {roll}, passes" in t for t in state.event_log(1)[-3:])
    assert passed / 4 == pass_probability("blood", 4, None, x, 0, blood_chance)


def test_statistics_count_each_cast_the_blood_paid_and_the_manipulates_at_full_x() -> None:
    """What the lab's study averages per variant (State.statistics): Manipulate paid with
    X = 4 on its d4 (a sure pass under Ruling 2) is counted apart; X = 2 is not."""
    state = worked_example()
    state.apply("cast manipulate")
    state.apply("pay 2")  # rigged roll 2: passes
    stats = state.statistics()
    assert stats["casts.manipulate"] == 1
    assert stats["passes.manipulate"] == 1
    assert stats["x2.manipulate"] == 1
    assert "x_at_die.manipulate" not in stats
    assert stats["blood_paid"] == 2
    sure = worked_example()
    sure.apply("cast manipulate")
    sure.apply("pay 4")
    assert sure.statistics()["x_at_die.manipulate"] == 1
    assert sure.statistics()["blood_paid"] == 4
    literal = worked_example(blood_chance="greater")
    literal.apply("cast manipulate")
    literal.apply("pay 2")  # rolled 2: fails under the literal reading
    assert literal.statistics()["casts.manipulate"] == 1
    assert "passes.manipulate" not in literal.statistics()
