"""The table's views (issue 18, the UI contract): status board, phase names, description cards,
battle records and the casualty step on the map. Built in Python from the observation, so
these tests check both what is shown and that nothing hidden leaks into it."""

from __future__ import annotations

import random
import re
from pathlib import Path

import bloodforge
from bloodforge.games.bloodstones.game import BloodstonesState
from bloodforge.games.bloodstones.observation import PHASE_LABELS

from .helpers import run

EXAMPLE = Path(bloodforge.__file__).parent / "games" / "bloodstones" / "scenarios" / "worked_example_battle.yaml"
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def _example() -> BloodstonesState:
    st = bloodforge.load_scenario(EXAMPLE)
    assert isinstance(st, BloodstonesState)
    return st


def _fought() -> BloodstonesState:
    """The rulebook's battle, fought: the Horse Lords lost and must choose a casualty."""
    return run(_example(), "battle 27 1", "substitute resources", "substitute ship")


def test_status_board_shows_each_seats_public_numbers_and_the_hand_only_to_its_owner() -> None:
    st = _example()
    mine = st.observation(0)["status"]
    theirs = st.observation(1)["status"]
    spectator = st.observation(None)["status"]
    labels = [i["label"] for i in mine[0]["items"]]
    assert labels[:5] == ["VP", "Regroups", "Hand", "Bag", "Villages"]
    assert mine[0]["title"] == "Dragon Riders"
    assert mine[1]["title"] == "Horse Lords"
    assert mine[0]["private"][0]["value"] == "resources, 2 shields, 2 skirmishers, swords (19 pips)"
    assert "private" not in mine[1]
    assert "private" not in theirs[0]
    assert "ship" in theirs[1]["private"][0]["value"]
    assert all("private" not in e for e in spectator)
    assert mine[1]["items"] == theirs[1]["items"] == spectator[1]["items"]  # public for all
    for entry in mine:
        for item in entry["items"]:
            assert isinstance(item["value"], str)
            assert not SNAKE.search(item["value"])


def test_phase_label_names_every_phase_and_battle_step_for_players() -> None:
    assert all(not SNAKE.search(label) for label in PHASE_LABELS.values())
    st = _example()
    assert st.observation(0)["phase_label"] == "Actions"
    st = _fought()
    assert st.observation(0)["phase_label"] == "Battle in area 27: casualty"


def test_description_cards_cover_every_tile_of_every_faction_with_pips_cost_battle_and_movement() -> None:
    game = _example().game
    info = game.static_info()
    cards = info["cards"]
    for fid, faction in info["factions"].items():
        for unit, facts in faction["units"].items():
            card = cards[f"{fid}.{unit}"]
            stats = dict(card["stats"])
            assert card["text"]
            assert "Movement" in stats
            if facts["base"] != "resources":
                assert "Battle" in stats
                assert "Build cost" in stats
            if facts["base"] not in ("citadel", "undead"):
                assert stats["Pips"] == str(facts["pips"])
    # the data decides: the Hill Folk build castles for 1, the others for 2; only the Hill Folk
    # enter mountains
    assert dict(cards["hill_folk.castle"]["stats"])["Build cost"] == "1 more tile from hand"
    assert dict(cards["horse_lords.castle"]["stats"])["Build cost"] == "2 more tiles from hand"
    assert "may not enter mountains" in dict(cards["horse_lords.swords"]["stats"])["Movement"]
    assert "mountains 3" in dict(cards["hill_folk.swords"]["stats"])["Movement"]
    assert dict(cards["horse_lords.shields"]["stats"])["Battle"] == (
        "+1 when defending; wins tied battles when defending")
    assert dict(cards["horse_lords.siege_engine"]["stats"])["Battle"] == "+2 against castles or citadels"


def test_hand_items_name_their_description_card() -> None:
    st = _example()
    cards = st.game.static_info()["cards"]
    hand = st.observation(0)["board"]["hand"]
    assert hand
    assert all(item["card"] in cards and item["card"].startswith("dragon_riders.") for item in hand)


def test_battle_record_shows_both_sides_tiles_modifiers_totals_losses_and_result() -> None:
    st = _fought()
    record = st.observation(None)["battles"][-1]
    attacker, defender = record["sides"]
    assert attacker["total"] == "16"
    assert defender["total"] == "14"
    assert attacker["counted"] == ["5", "4", "3"]
    assert defender["counted"] == ["5", "4", "3"]
    assert "2 lizardmen: +2" in attacker["modifiers"]
    assert record["result"] == "Dragon Riders won (+2 VP)."
    lines = st.events.texts_for(None)
    assert "wins the battle in area 27" in lines[record["log_index"]]
    run(st, "casualty swords")
    after = st.observation(0)["battles"][-1]
    assert after["id"] == record["id"]  # the same battle, now with its losses
    assert after["sides"][1]["losses"] == ["1 swords"]


def test_battle_record_log_index_counts_the_seats_own_private_lines() -> None:
    st = _fought()
    for seat in (0, 1, None):
        record = st.observation(seat)["battles"][-1]
        assert "wins the battle" in st.events.texts_for(seat)[record["log_index"]]


def test_a_withdrawal_is_no_battle_record() -> None:
    st = _example()
    assert st.observation(0)["battles"] == []


def test_casualty_step_shows_the_losers_units_one_piece_per_kind_each_clickable_by_its_casualty_word() -> None:
    """Defect 3 (issue 18): at the casualty step the map itself offers the choice."""
    st = _fought()
    casualties = {a.args[0] for a in st.legal_actions() if a.kind == "casualty"}
    pieces = [p for p in st.observation(1)["board"]["pieces"] if p["at"] == "27" and p["owner"] == 1]
    assert {p["id"] for p in pieces} == casualties == {"swords", "shields"}
    assert all(p["card"] == f"horse_lords.{p['id']}" for p in pieces)
    # before the casualty step the stack is one piece, without a unit id
    st = _example()
    stack = [p for p in st.observation(1)["board"]["pieces"] if p["at"] == "27" and p["owner"] == 1]
    assert len(stack) == 1
    assert "id" not in stack[0]


def test_terminal_view_names_players_by_their_factions_not_seat_codes() -> None:
    """LOW (issue 18): `bloodforge play bloodstones` showed "P0/P1"."""
    st = _example()
    text = st.game.render_text(st.observation(0))
    assert not re.search(r"\bP\d\b", text)
    assert "Dragon Riders [cavalry, leader, 2 lizardmen]; Horse Lords [shields, swords]" in text


def test_status_board_words_the_hand_size_as_what_a_player_refills_to() -> None:
    """UI audit 2026-11-26: after the setup a hand may hold more than the hand size (the rules
    keep the extra tiles), and "Hand 9 of 6 tiles" read as an error."""
    st = _example()
    hand = next(i for i in st.observation(0)["status"][0]["items"] if i["label"] == "Hand")
    count = st.observation(0)["players"][0]["hand_count"]
    assert hand["value"] == f"{count} tiles (refills to 6)"
    assert " of " not in hand["value"]


def test_a_single_tile_drawn_is_logged_as_one_tile() -> None:
    """UI audit 2026-11-26: the log read "draws 1 tiles"."""
    st = bloodforge.load_game("bloodstones", players=2, seed=0).new_initial_state()
    rng = random.Random(0)
    for _ in range(14):  # seeded random moves: the 14th ends a turn that draws one tile
        seat = st.actors()[0]
        st.apply(rng.choice(st.legal_actions(seat)), seat)
    lines = st.event_log(None)
    assert any(" draws 1 tile (" in line for line in lines), lines[-5:]
    assert not any(" draws 1 tiles" in line for line in lines)
