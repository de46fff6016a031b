"""The optional chronicle module (F56; house content, parameter `chronicles`, default off)."""

from __future__ import annotations

from forts_helpers import army, check_invariants, legal_texts, scenario, terr

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.forts.game import FortsState

ON = {"chronicles": True}


def disband_as_needed(state: FortsState) -> None:
    """Famine may put players over quota at a round's start: they disband first."""
    while state.phase_name() == "disband":
        seat = state.actors()[0]
        state.apply(state.legal_actions(seat)[0], seat)


def test_f56_off_by_default_no_chronicle_is_drawn() -> None:
    state = bloodforge.load_game("forts", players=2, seed=1).new_initial_state()
    assert state.observation(None)["chronicle"] is None
    assert not any(e.kind == "chronicle" for e in state.events)


def test_f56_a_chronicle_is_drawn_at_the_start_of_every_round() -> None:
    state = bloodforge.load_game("forts", players=2, seed=1, chronicles=True).new_initial_state()
    assert isinstance(state, FortsState)
    first = state.observation(None)["chronicle"]
    assert first is not None
    assert state.observation(0)["chronicle_deck_size"] == 11
    disband_as_needed(state)
    seat = state.m.turn_seat
    state.apply("end", seat)
    disband_as_needed(state)
    assert state.observation(None)["chronicle"] == first, "the card lasts the whole round"
    state.apply("end", 1 - seat)
    assert state.observation(None)["chronicle_deck_size"] == 10
    assert sum(1 for e in state.events if e.kind == "chronicle") == 2


def test_f56_the_chronicle_deck_order_is_hidden() -> None:
    state = bloodforge.load_game("forts", players=2, seed=1, chronicles=True).new_initial_state()
    piles = set()
    for k in range(8):
        sample = state.resample_hidden(0, Rng(k))
        assert sample.observation(0) == state.observation(0)
        assert isinstance(sample, FortsState)
        piles.add(tuple(sample.m.chronicle_deck.pile))
    assert len(piles) > 1


def test_f41_f56_forced_march_gives_moving_units_another_action() -> None:
    state = scenario({"redhall": army(0, 2)}, params=ON, chronicle="forced_march")
    state.apply("move redhall copperdale 1 0", 0)
    assert terr(state, "copperdale")["ready"] == [1, 0]
    state.apply("move copperdale ashgate 1 0", 0)
    assert terr(state, "ashgate")["ready"] == [0, 0], "one extra action, not more"


def test_f56_harvest_raises_and_famine_lowers_the_quota() -> None:
    harvest = scenario({"redhall": army(0, 3)}, params=ON, chronicle="harvest")
    assert harvest.observation(0)["quota"][0] == 5
    assert "recruit redhall infantry" in legal_texts(harvest)
    famine = scenario({"redhall": army(0, 3)}, params=ON, chronicle="famine")
    assert famine.observation(0)["quota"][0] == 2
    assert famine.phase_name() == "disband"
    famine.apply("disband redhall infantry", 0)
    assert famine.phase_name() == "planning"


def test_f56_mercenary_market_makes_heroes_cheaper() -> None:
    state = scenario({"redhall": army(0, 1)}, params=ON, chronicle="mercenary_market", currency=[2, 0])
    assert state.observation(0)["hero_price"] == 2
    state.apply("buy", 0)
    assert state.observation(0)["currency"][0] == 0


def test_f56_rigged_chronicles_come_up_in_order() -> None:
    state = scenario({"redhall": army(0, 1), "greenhall": army(1, 1)}, params=ON, phase="action",
                     chronicle="quiet_times", rig_chronicles=["harvest"], first_seat=0)
    state.apply("end", 0)
    state.apply("end", 1)
    assert state.observation(None)["chronicle"]["id"] == "harvest"
    assert sorted(state.m.chronicle_deck.discards) == ["quiet_times"]


def test_f56_random_playouts_with_chronicles_keep_every_invariant() -> None:
    for players in (2, 4):
        state = bloodforge.load_game("forts", players=players, seed=3, chronicles=True, max_rounds=12)
        st = state.new_initial_state()
        assert isinstance(st, FortsState)
        rng = Rng(7)
        while not st.is_terminal():
            check_invariants(st)
            seat = rng.choice(st.actors())
            st.apply(rng.choice(st.legal_actions(seat)), seat)
        assert st.m.round >= 1
