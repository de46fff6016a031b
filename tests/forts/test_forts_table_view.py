"""Five Forts' table views (issue 18, the UI contract): the status board, phase names, the
description cards, the battle record and the bribe offers with their real cost and the
disbanding they force (defect 5)."""

from __future__ import annotations

import re

from forts_helpers import army, scenario

from bloodforge.games.forts.game import FortsState

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def bribery_state() -> FortsState:
    """Blue (seat 1) ran out of time; Green (seat 2, 5 currency, 3 units on one food: quota 3)
    may bribe Blue's 2 infantry in Stormkeep (a great fort with no food of its own)."""
    state = scenario(
        {"bluehall": army(1, 1), "stormkeep": army(1, 2), "redhall": army(0, 1), "greenhall": army(2, 3)},
        players=3, turn_seat=1, currency=[0, 0, 5],
    )
    state.apply_timeout(1)
    return state


def test_defect5_a_bribe_offer_shows_the_armys_strength_as_its_cost_not_the_territorys_income() -> None:
    state = bribery_state()
    offers = state.observation(2)["bribes"]
    assert [o["territory"] for o in offers] == ["stormkeep"]
    assert offers[0]["cost"] == 2  # F46: 2 infantry, strength 2
    assert offers[0]["army"] == "2 infantry"
    assert state.observation(0)["bribes"] == []  # only the seat deciding now is offered
    assert state.observation(None)["bribes"] == []


def test_defect5_a_bribe_that_forces_disbanding_says_so_before_it_is_made() -> None:
    state = bribery_state()
    offer = state.observation(2)["bribes"][0]
    assert offer["disband"] == 2  # 5 units on a quota of 3 (A26, A34)
    state.apply("bribe stormkeep", 2)
    assert state.phase_name() == "disband"  # as announced


def test_a_bribe_within_the_quota_warns_of_nothing() -> None:
    state = scenario(
        {"bluehall": army(1, 1), "stormkeep": army(1, 1), "redhall": army(0, 1), "greenhall": army(2, 1)},
        players=3, turn_seat=1, currency=[0, 0, 5],
    )
    state.apply_timeout(1)
    assert state.observation(2)["bribes"][0]["disband"] == 0


def test_status_board_shows_currency_food_limit_forts_and_hero_count_and_names_cards_only_to_their_holder() -> None:
    state = scenario({"redhall": army(0, 2, 1), "greenhall": army(1, 1)}, currency=[4, 2],
                     hands=[["knight", "squire"], ["tactician"]])
    status = state.observation(0)["status"]
    labels = [i["label"] for i in status[0]["items"]]
    assert labels == ["Currency", "Food limit", "Forts", "Hero cards"]
    values = {i["label"]: i["value"] for i in status[0]["items"]}
    assert values["Currency"].startswith("4 (+")
    assert values["Hero cards"] == "2 of 3"
    assert status[0]["private"] == [{"label": "Your hero cards", "value": "Knight, Squire"}]
    assert "private" not in status[1]
    assert all("private" not in e for e in state.observation(None)["status"])
    theirs = state.observation(1)["status"]
    assert theirs[1]["private"][0]["value"] == "Tactician"
    assert "private" not in theirs[0]


def test_phase_labels_are_words_for_players() -> None:
    state = bribery_state()
    assert state.observation(2)["phase_label"] == "Bribery"
    state = scenario({"redhall": army(0, 2)})
    assert state.observation(0)["phase_label"] == "Planning"
    assert not SNAKE.search(state.observation(0)["phase_label"])


def test_description_cards_cover_every_hero_card_and_both_units() -> None:
    state = scenario({"redhall": army(0, 1)})
    info = state.game.static_info()
    cards = info["cards"]
    for h in info["heroes"]:
        assert h["id"] in cards
        assert cards[h["id"]]["text"]
    assert dict(cards["knight"]["stats"])["Strength"] == "+2"
    assert "win the battle on a draw" in cards["tactician"]["text"]
    assert "2 smaller" in cards["shieldmaiden"]["text"]
    assert dict(cards["cavalry"]["stats"])["Strength"] == "2"
    assert dict(cards["infantry"]["stats"])["Strength"] == "1"


def test_battle_record_shows_army_bonus_heroes_die_totals_losses_and_result() -> None:
    state = scenario({"wheatfield": army(0, 2, 1), "thornwall": army("independent", 2)},
                     currency=[0, 0], dice=[6, 1, 6, 1])
    state.apply("attack wheatfield thornwall 2 1", 0)
    record = state.observation(None)["battles"][-1]
    attacker, defender = record["sides"]
    assert attacker["total"] == "10"  # strength 4 + die 6
    assert attacker["rolls"][0]["face"] == 6
    assert "army strength 4" in attacker["modifiers"]
    assert defender["total"] == "4"  # strength 2 + fort +1 + die 1
    assert "defence bonus +1" in defender["modifiers"]
    assert defender["losses"] == ["2 infantry"]
    assert record["result"].startswith("Red won the battle for Thornwall")
    line = state.event_log(None)[record["log_index"]]
    assert "die =" in line
