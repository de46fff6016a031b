"""Blood Stone: the rulebook's component list (issue 20: every section of the rulebook has a test
in docs/games/witch.md's traceability table)."""

from __future__ import annotations

from witch_helpers import check_invariants, new_game, scenario


def test_components_one_witch_four_minions_three_soldiers_42_blood_stones_and_24_spell_cards() -> None:
    """Components: 1 witch, 4 minions, 3 soldiers (archer, spearman, swordsman) with a card each,
    42 blood stones, 16 Blood Spells and 8 Phantom Spells; the box is the whole game."""
    game = new_game(0)
    c = game.content
    kinds = [c.units[u].kind for u in c.roster]
    assert kinds.count("witch") == 1
    assert kinds.count("minion") == 4
    assert [u for u in c.roster if c.units[u].kind == "soldier"] == ["archer", "spearman", "swordsman"]
    state = game.new_initial_state()
    assert state.supply + sum(state.units[u].blood for u in c.roster) == 42
    assert (len(c.blood_deck), len(c.phantom_deck)) == (16, 8)


def test_spell_cards_effect_transfusion_drains_2_from_a_minion_into_the_witch() -> None:
    """Spell Cards - Effect (Transfusion): the Witch drains 2 from her own servant, 100%."""
    state = scenario({"witch": {"square": "e6", "blood": 5}, "minion1": {"square": "e5", "blood": 3}},
                     side="witch", hands={"witch": ["transfusion"]})
    state.apply("cast transfusion")
    state.apply("target minion1")
    assert state.units["minion1"].blood == 1
    assert state.units["witch"].blood == 7
    check_invariants(state)


def test_spell_cards_effect_blood_bolt_costs_x_and_the_target_loses_2() -> None:
    """Spell Cards - Effect (Blood Bolt): X > d4 along a line; on a pass the target loses 2."""
    state = scenario({"witch": {"square": "e6", "blood": 10}, "swordsman": {"square": "e4", "blood": 4}},
                     side="witch", hands={"witch": ["blood_bolt"]}, rig={"dice": [1]})
    state.apply("cast blood_bolt")
    state.apply("target swordsman")
    state.apply("pay 2")
    assert state.units["witch"].blood == 8
    assert state.units["swordsman"].blood == 2
    check_invariants(state)


def test_spell_cards_effect_spirit_mend_gives_a_soldier_1_blood_up_to_his_maximum() -> None:
    """Spell Cards - Effect (Spirit Mend): a Phantom Spell that gives a soldier 1 blood stone."""
    cap = scenario().content.units["swordsman"].blood_cap
    state = scenario({"minion1": "realm", "swordsman": {"square": "e3", "blood": cap - 1}},
                     hands={"soldiers": ["spirit_mend"]})
    state.apply("cast spirit_mend")
    state.apply("target swordsman")
    assert state.units["swordsman"].blood == cap
    check_invariants(state)
