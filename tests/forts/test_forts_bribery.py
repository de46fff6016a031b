"""Five Forts: the planning minute, timeouts and bribery (F8, F13, F45-F47, A25-A29, T5, T6)."""

from __future__ import annotations

import json

import pytest
from forts_helpers import army, legal_texts, scenario, terr, units_at

import bloodforge
from bloodforge.core import IllegalAction
from bloodforge.lab.selfplay import play_game
from bloodforge.match import Record


def three_players(currency: list[int]) -> bloodforge.core.State:
    """Seat 0 Red (redhall), seat 1 Blue (bluehall), seat 2 Green (greenhall); Blue plans."""
    return scenario(
        {"bluehall": army(1, 1), "stormkeep": army(1, 2, 1), "oatfield": army(1, 1),
         "redhall": army(0, 1), "wheatfield": army(0, 1), "greenhall": army(2, 1), "ryefield": army(2, 1)},
        players=3, turn_seat=1, currency=currency,
    )


def test_f13_f47_t6_timeout_opens_bribery_only_before_the_first_unit_action() -> None:
    state = three_players([5, 0, 5])
    moved = state.clone()
    moved.apply("move oatfield frostwall 1 0", 1)
    with pytest.raises(IllegalAction, match="timeout"):
        moved.apply_timeout(1)
    acted = state.clone()
    acted.apply("act", 1)
    with pytest.raises(IllegalAction, match="timeout"):
        acted.apply_timeout(1)
    with pytest.raises(IllegalAction, match="timeout"):
        state.apply_timeout(0)  # only the planning player's clock runs
    state.apply_timeout(1)
    assert state.moves()[-1] == (None, "timeout 1")
    assert state.phase_name() == "bribery"


def test_f45_a25_the_window_visits_every_other_player_in_turn_order() -> None:
    state = three_players([5, 0, 5])
    state.apply_timeout(1)
    assert state.actors() == [2], "turn order after the late player: Green, then Red"
    assert state.rule_clock(2) is None
    assert "bribe stormkeep" in legal_texts(state)
    assert "pass" in legal_texts(state)
    state.apply("pass", 2)
    assert state.actors() == [0]
    state.apply("bribe stormkeep", 0)
    assert state.actors() == [1], "A28: the late player resumes planning"
    assert state.phase_name() == "planning"
    assert state.rule_clock(1) is None, "one timeout per turn: the clock does not restart"
    with pytest.raises(IllegalAction):
        state.apply_timeout(1)
    assert any(t.startswith("recruit") for t in legal_texts(state, 1)), "planning goes on"


def test_f46_t5_a_bribe_costs_the_armys_strength() -> None:
    state = three_players([3, 0, 4])
    state.apply_timeout(1)
    assert state.actors() == [2]
    assert "bribe stormkeep" in legal_texts(state), "2 infantry + 1 cavalry = 4"
    state.apply("bribe stormkeep", 2)
    assert terr(state, "stormkeep")["owner"] == 2
    assert units_at(state, "stormkeep") == (2, 1)
    assert terr(state, "stormkeep")["ready"] == [0, 0], "A26: bribed units do not act this turn"
    obs = state.observation(0)
    assert obs["currency"] == [3, 0, 0], "paid to the bank (A27)"
    assert "Green bribes Blue's 2 infantry, 1 cavalry at Stormkeep for 4 currency" in state.event_log(0)


def test_t5_with_3_currency_the_4_strength_army_cannot_be_bribed() -> None:
    state = three_players([3, 0, 3])
    state.apply_timeout(1)
    texts = legal_texts(state)
    assert "bribe stormkeep" not in texts
    assert "bribe oatfield" in texts
    with pytest.raises(IllegalAction, match="bribe stormkeep"):
        state.apply("bribe stormkeep", state.actors()[0])


def test_a26_the_home_is_never_bribable() -> None:
    state = three_players([9, 0, 9])
    state.apply_timeout(1)
    assert "bribe bluehall" not in legal_texts(state)


def test_a29_nothing_affordable_closes_the_window_at_once() -> None:
    state = three_players([0, 0, 0])
    state.apply_timeout(1)
    assert state.actors() == [1]
    assert state.phase_name() == "planning"
    assert "the bribery window closes" in state.event_log(None)


def test_a26_bribed_units_count_toward_the_bribers_quota() -> None:
    # Green has 3 units and one food (quota 3): bribing 2 more puts it over, it disbands at once
    state = scenario(
        {"bluehall": army(1, 1), "stormkeep": army(1, 2), "redhall": army(0, 1), "greenhall": army(2, 3)},
        players=3, turn_seat=1, currency=[0, 0, 5],
    )
    state.apply_timeout(1)
    state.apply("bribe stormkeep", 2)
    assert state.actors() == [2]
    assert state.phase_name() == "disband"
    state.apply("disband greenhall infantry", 2)
    state.apply("disband greenhall infantry", 2)
    assert state.actors() == [1]


def test_timeout_record_replays_exactly() -> None:
    state = three_players([5, 0, 5])
    state.apply_timeout(1)
    state.apply("bribe stormkeep", 2)
    state.apply("pass", 0)
    state.apply("end", 1)
    record = Record.from_json(json.loads(json.dumps(Record.of(state).to_json())))
    assert (None, "timeout 1") in record.moves
    assert record.replay().position_digest() == state.position_digest()


def test_selfplay_with_injected_timeouts_opens_bribery_and_replays_exactly() -> None:
    """Self-play has no clock; the driver's seeded `timeout_rate` plays the host."""
    found = False
    for seed in range(6):
        game = bloodforge.load_game("forts", players=3, seed=seed, max_rounds=6)
        record, state = play_game(game, ["greedy"], timeout_rate=0.5)
        timeouts = [m for m in record.moves if m[0] is None and m[1].startswith("timeout")]
        bribes = [m for m in record.moves if m[1].startswith("bribe ")]
        assert record.replay().position_digest() == state.position_digest()
        again, _ = play_game(bloodforge.load_game("forts", players=3, seed=seed, max_rounds=6), ["greedy"],
                             timeout_rate=0.5)
        assert again.moves == record.moves, "seeded timeouts: the same game again"
        if timeouts and bribes:
            found = True
            break
    assert found, "some seeded game had a timeout followed by a bribe"


def test_ai_seats_never_time_out_without_a_host() -> None:
    game = bloodforge.load_game("forts", players=2, seed=1, max_rounds=5)
    record, _ = play_game(game, ["greedy"])
    assert not any(m[1].startswith("timeout") for m in record.moves)
