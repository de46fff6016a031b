"""Five Forts: rulings of the specification that no other test named (issue 20: every rule id of
docs/games/forts.md's traceability table has a test that checks it)."""

from __future__ import annotations

from forts_helpers import army, legal_texts, scenario, terr, units_at


def test_a1_only_the_active_player_plans() -> None:
    """A1: planning is the first phase of the active player's turn, not a phase for everyone."""
    state = scenario({"redhall": army(0, 1), "greenhall": army(1, 1)}, currency=[5, 5])
    assert state.phase_name() == "planning"
    assert state.actors() == [0]
    assert legal_texts(state, 1) == []
    assert "recruit redhall infantry" in legal_texts(state, 0)


def test_a4_recruiting_costs_no_currency() -> None:
    """A4: the text names no recruitment price; currency is for heroes and bribes only."""
    state = scenario({"redhall": army(0, 1), "greenhall": army(1, 1)}, currency=[2, 0])
    state.apply("recruit redhall infantry", 0)
    assert units_at(state, "redhall") == (3, 0)
    assert state.observation(0)["currency"][0] == 2


def test_a12_an_attack_takes_any_part_of_one_origins_ready_units() -> None:
    """A12: one origin per attack; the attacker picks any non-empty subset of its ready units."""
    state = scenario({"ironkeep": army(0, 2, 1), "moorland": army(1, 1)}, dice=[6, 1])
    attacks = {t for t in legal_texts(state) if t.startswith("attack ironkeep moorland")}
    assert attacks == {f"attack ironkeep moorland {i} {c}" for i in range(3) for c in range(2) if i + c}
    state.apply("attack ironkeep moorland 1 0", 0)
    assert units_at(state, "moorland") == (1, 0), "the lone victor moved in"
    assert units_at(state, "ironkeep") == (1, 1)
    assert terr(state, "ironkeep")["ready"] == [1, 1], "the units left out of the attack keep their action"
