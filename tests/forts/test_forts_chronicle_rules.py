"""The chronicle module's own rules (C1-C10, docs/games/forts.md "Chronicle module rules"),
tested like the base rules: one test (or more) per rule, named after it (issue 20 item 13).
The module is house content (F56 only names it), so its rules are numbered in our docs."""

from __future__ import annotations

from collections import Counter

from forts_helpers import army, legal_texts, scenario, terr

import bloodforge
from bloodforge.core import IllegalAction, Rng
from bloodforge.games.forts.game import FortsState

ON = {"chronicles": True}


def next_round(state: FortsState) -> None:
    """Both players end their turns (2 players, action phase): a new round starts."""
    for seat in (0, 1):
        state.apply("end", seat)


def round_two(chronicle: str, nxt: str, **kw: object) -> FortsState:
    return scenario({"redhall": army(0, 1), "greenhall": army(1, 1)}, params=ON, phase="action",
                    chronicle=chronicle, rig_chronicles=[nxt], first_seat=0, **kw)


def test_c1_the_module_is_off_by_default_and_its_deck_unused() -> None:
    state = bloodforge.load_game("forts", players=2, seed=4).new_initial_state()
    assert isinstance(state, FortsState)
    assert state.m.chronicle is None
    assert state.observation(None)["chronicle_deck_size"] == 0
    assert state.game.static_info()["chronicles"] == []


def test_c2_one_card_is_drawn_face_up_at_the_start_of_each_round_for_everyone() -> None:
    state = round_two("quiet_times", "harvest")
    next_round(state)
    views = [state.observation(s)["chronicle"] for s in (0, 1, None)]
    assert views[0] == views[1] == views[2]
    assert views[0]["id"] == "harvest"
    assert [e.data for e in state.events if e.kind == "chronicle"][-1] is not None
    assert any("Harvest" in line for line in state.event_log(None)[-4:])


def test_c3_a_card_lasts_its_round_and_is_discarded_when_the_next_is_drawn() -> None:
    state = round_two("famine", "harvest", currency=[0, 0])
    state.apply("end", 0)
    assert state.observation(None)["chronicle"]["id"] == "famine", "still the round of the famine"
    state.apply("end", 1)
    assert state.observation(None)["chronicle"]["id"] == "harvest"
    assert state.m.chronicle_deck.discards[-1] == "famine"


def test_c4_the_deck_order_is_hidden_and_the_discards_reshuffle_when_it_runs_out() -> None:
    game = bloodforge.load_game("forts", players=2, seed=3, chronicles=True, max_rounds=40)
    st = game.new_initial_state()
    assert isinstance(st, FortsState)
    total = sum(k.copies for k in st.cfg.content.data.chronicles)
    rng = Rng(11)
    drawn = 0
    while not st.is_terminal() and drawn <= total + 1:
        m = st.m
        held = [m.chronicle] if m.chronicle else []
        assert Counter(m.chronicle_deck.pile + m.chronicle_deck.discards + held) == Counter(
            {k.id: k.copies for k in st.cfg.content.data.chronicles})
        seat = rng.choice(st.actors())
        legal = st.legal_actions(seat)
        ends = [a for a in legal if a.kind in ("end", "act")]
        st.apply(rng.choice(ends or legal), seat)  # short turns: many rounds
        drawn = sum(1 for e in st.events if e.kind == "chronicle")
    assert drawn > total, "more rounds than cards: the discards were reshuffled"
    sample = st.resample_hidden(0, Rng(5))
    assert sample.observation(0) == st.observation(0)


def test_c5_forced_march_gives_units_that_move_one_more_action() -> None:
    state = scenario({"redhall": army(0, 2)}, params=ON, chronicle="forced_march")
    state.apply("move redhall copperdale 1 0", 0)
    assert terr(state, "copperdale")["ready"] == [1, 0]
    state.apply("move copperdale ashgate 1 0", 0)
    assert terr(state, "ashgate")["ready"] == [0, 0], "one more action, not more"


def test_c5_without_forced_march_a_moved_unit_is_spent() -> None:
    state = scenario({"redhall": army(0, 2)}, params=ON, chronicle="quiet_times")
    state.apply("move redhall copperdale 1 0", 0)
    assert terr(state, "copperdale")["ready"] == [0, 0]


def test_c6_famine_lowers_every_quota_by_one_and_forces_disbanding_at_once() -> None:
    state = scenario({"redhall": army(0, 3), "greenhall": army(1, 3)}, params=ON, chronicle="famine")
    assert state.observation(None)["quota"] == [2, 2]
    assert state.phase_name() == "disband"
    assert legal_texts(state, 0) == ["disband redhall infantry"]
    state.apply("disband redhall infantry", 0)
    assert state.phase_name() in ("disband", "planning")


def test_c7_harvest_raises_every_quota_by_two() -> None:
    state = scenario({"redhall": army(0, 3), "greenhall": army(1, 1)}, params=ON, chronicle="harvest")
    assert state.observation(None)["quota"] == [5, 5]
    assert "recruit redhall infantry" in legal_texts(state)


def test_c8_mercenary_market_sets_the_hero_price_for_its_round_only() -> None:
    state = scenario({"redhall": army(0, 1)}, params=ON, chronicle="mercenary_market", currency=[2, 0])
    assert state.observation(0)["hero_price"] == 2
    state.apply("buy", 0)
    assert state.observation(0)["currency"][0] == 0
    after = round_two("mercenary_market", "quiet_times")
    next_round(after)
    assert after.observation(0)["hero_price"] == 3


def test_c9_quiet_times_changes_nothing() -> None:
    quiet = scenario({"redhall": army(0, 2)}, params=ON, chronicle="quiet_times", currency=[3, 0])
    base = scenario({"redhall": army(0, 2)}, currency=[3, 0])
    for key in ("quota", "hero_price", "currency"):
        assert quiet.observation(0)[key] == base.observation(0)[key]
    assert sorted(legal_texts(quiet)) == sorted(legal_texts(base))


def test_c10_a_quota_never_drops_below_zero() -> None:
    # Famine for Red with no food at all (its home taken by Green): quota 0, not -1
    state = scenario({"copperdale": army(0, 1), "redhall": army(1, 1), "greenhall": army(1, 1)},
                     params=ON, chronicle="famine")
    assert state.observation(None)["quota"][0] == 0


def test_c_module_refuses_a_chronicle_in_a_scenario_without_the_module() -> None:
    try:
        scenario({"redhall": army(0, 1)}, chronicle="famine")
    except (ValueError, IllegalAction, bloodforge.core.ScenarioError):
        return
    raise AssertionError("a chronicle without the module was accepted")
