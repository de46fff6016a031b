"""What the page shows people (issue 18, browser contract): the status board, the phase in
words, battle records, card descriptions, piece ids per deciding faction, names in the log and
the map's drawing."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import bloodforge
from bloodforge.games.kingdoms import drawing
from bloodforge.games.kingdoms.content import DATA_DIR, load_content

from .helpers import fresh, play, scenario
from .test_battle import attack

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def words(value: Any) -> list[str]:
    """Every string inside a JSON-like value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [w for v in value.values() for w in words(v)]
    if isinstance(value, list):
        return [w for v in value for w in words(v)]
    return []


def test_status_board_has_crowns_income_supply_gems_for_every_seat_and_both_factions_of_a_seat() -> None:
    s = fresh(players=2)
    obs = s.observation(0)
    status = obs["status"]
    assert [e["seat"] for e in status] == [0, 1]
    assert status[0]["title"] == "Elves and Dwarves"
    line = {i["label"]: i["value"] for i in status[0]["items"]}
    assert line["Elves"] == "15 crowns · income 15 · supply 3 of 15 · 1 gem · 0 cards"
    assert "Dwarves" in line
    assert line["Team gems"] == "2 of 9"
    # the reminder that a seat commands two factions is the owner's
    assert any(i["label"] == "You command" for i in status[0]["private"])
    assert "private" not in status[1]
    four = fresh(players=4).observation(2)["status"]
    assert {i["label"] for i in four[2]["items"]} == {"Crowns", "Income", "Supply", "Gems", "Cards"}


def test_status_board_shows_mercenary_cards_to_their_owner_only() -> None:
    s = scenario({"active": "elves", "hands": {"elves": ["spies", "sellswords"]}})
    mine = s.observation(0)["status"][0]
    assert sorted(i["card"] for i in mine["private"]) == ["sellswords", "spies"]
    for seat in (1, 2, 3, None):
        theirs = s.observation(seat)["status"][0]
        assert "private" not in theirs
        assert "Sellswords" not in json.dumps(theirs)


def test_phase_label_is_in_player_words_never_a_phase_id() -> None:
    s = fresh()
    labels = set()
    for _ in range(60):
        obs = s.observation(s.current_player)
        labels.add(obs["phase_label"])
        assert "_" not in obs["phase_label"], obs["phase_label"]
        legal = s.legal_actions()
        if not legal:
            break
        s.apply(legal[-1], s.current_player)  # 'done' ends each phase
    assert "Round 1 · Elves: combat move" in labels
    assert "Round 1 · Elves: buy units" in labels


def test_battle_record_has_both_sides_dice_hits_losses_and_result() -> None:
    # T3 dice: the elves' 2 infantry and a cavalry hit twice, the humans' 3 infantry miss
    s = attack([("cavalry", 1), ("infantry", 2)], [("infantry", 3)], [1, 2, 3, 6, 6, 6])
    while s.battle is not None and s.legal_actions():
        play(s, str(s.legal_actions()[0]))
    for seat in (0, 1, None):
        battles = s.observation(seat)["battles"]
        assert battles, seat
        b = battles[-1]
        assert b["title"] == "Elves attack Amberford held by Humans"
        att, dfn = b["sides"]
        assert att["name"] == "Elves (attacker)"
        assert dfn["name"] == "Humans (defender)"
        first = [(r["face"], r["hit"]) for r in att["rolls"][:3]]
        assert first == [(1, True), (2, False), (3, True)]
        assert att["rolls"][0]["label"] == "round 1: hits on 1 or less"
        assert [r["face"] for r in dfn["rolls"][:3]] == [6, 6, 6]
        assert dfn["losses"] != ["none"]
        assert b["result"]
        assert isinstance(b["log_index"], int)
        log = s.event_log(seat)
        assert log[b["log_index"]] == b["result"]
        for w in words(b):
            assert not SNAKE.search(w), w


def test_each_die_says_in_words_what_it_needed_to_hit() -> None:
    """UI audit: which die hit was shown by colour and a tooltip only; each roll carries the
    number it needed ("Round 1: hits on 3 or less", T3: a die hits on its unit's value or less),
    which the page writes beside the dice."""
    s = attack([("cavalry", 1), ("infantry", 2)], [("infantry", 3)], [1, 2, 3, 6, 6, 6])
    att, dfn = s.observation(0)["battles"][-1]["sides"]
    needs = [r["need"] for r in att["rolls"]]
    assert sorted(set(needs)) == ["Round 1: hits on 1 or less", "Round 1: hits on 3 or less"]
    for r in att["rolls"] + dfn["rolls"]:
        value = int(r["need"].split("hits on ")[1].split()[0])
        assert r["hit"] == (r["face"] <= value), r


def test_a_battle_in_progress_shows_the_dice_so_far_under_an_id_per_strike() -> None:
    s = attack([("cavalry", 2)], [("infantry", 3)], [6, 6, 6, 6, 6, 6, 6])
    assert s.battle is not None  # the attacker decides: press on or retreat
    b = s.observation(0)["battles"][-1]
    assert b["result"] == "The battle goes on."
    assert b["log_index"] is None
    assert len(b["sides"][0]["rolls"]) == 2
    play(s, "press")
    later = s.observation(0)["battles"][-1]
    assert later["id"] != b["id"]
    assert len(later["sides"][0]["rolls"]) == 4


def test_battles_are_few_and_stable_and_an_unopposed_capture_is_not_one() -> None:
    s = scenario({"active": "elves", "phase": "combat_move"})
    play(s, "move brightleaf starwater infantry" if "move brightleaf starwater infantry" in
         [str(a) for a in s.legal_actions()] else "done")
    assert s.observation(0)["battles"] == []


def test_cards_describe_every_unit_hired_unit_and_mercenary_from_their_data() -> None:
    game = bloodforge.load_game("kingdoms", players=4)
    cards = game.static_info()["cards"]
    content = load_content(None, None, None)
    assert set(content.units.units) | {"hired_infantry", "hired_cavalry"} | set(content.cards) == set(cards)
    for cid, card in cards.items():
        assert all((card["name"], card["text"], card["kind"])), cid
        for w in words(card):
            assert not SNAKE.search(w), (cid, w)
    assert ["Cost", "4 crowns"] in cards["infantry"]["stats"]
    assert "hits on 1 or less when attacking and 2 or less when defending" in cards["infantry"]["text"]
    assert "carries up to 2 land units" in cards["ship"]["text"]
    assert "Adds 2 hired infantry (attack 1, defence 2)" in cards["sellswords"]["text"]
    assert "roll 2 dice, each hitting on 3 or less" in cards["battle_mage"]["text"]
    assert "You gain 10 crowns" in cards["plunder"]["text"]
    assert "Only the attacker" in cards["siege_engineers"]["text"]


def test_card_text_follows_the_data_not_a_hand_written_sentence() -> None:
    from bloodforge.games.kingdoms.describe import card_text
    content = load_content(None, None, None)
    card = content.cards["plunder"].model_copy(update={"crowns": 25, "text": "anything"})
    assert "You gain 25 crowns" in card_text(card, content.units.units)


def test_defect_4_only_the_deciding_factions_stacks_are_clickable_units() -> None:
    s = fresh(players=2)  # seat 0 plays elves and dwarves; the elves move first
    pieces = s.observation(0)["board"]["pieces"]
    ids = {(p["owner"], p["kind"]): p.get("id") for p in pieces}
    assert ids[(0, "cavalry")] == "sylvanhold"  # the elves decide now: a click picks the move's start
    assert ids[(2, "cavalry")] is None  # the dwarves' cavalry is not selected with it
    spec = next(g for g in bloodforge.load_game("kingdoms", players=2).action_grammar() if g.kind == "move")
    assert spec.types[0] == "word"  # a stack's id (its space) fills `from`


def test_defect_4_in_a_battle_the_deciding_sides_stacks_are_their_unit_types() -> None:
    s = attack([("cavalry", 1), ("infantry", 1)], [("infantry", 2)], [6, 6, 1, 6])
    assert s.battle is not None
    assert s.current_player == 0
    pieces = s.observation(0)["board"]["pieces"]
    assert {p.get("id") for p in pieces if p["owner"] == 0 and p["at"] == "amberford"} == {"cavalry", "infantry"}
    assert all(p.get("id") is None for p in pieces if p["owner"] != 0)


def test_log_names_spaces_as_people_read_them() -> None:
    s = scenario({"active": "elves", "phase": "noncombat"})
    play(s, "move sylvanhold elmwood cavalry")
    assert any("Elves move a cavalry from Sylvanhold to Elmwood" in t for t in s.event_log(0))
    for t in s.event_log(None):
        assert not SNAKE.search(t), t
        assert "sylvanhold" not in t


def test_price_labels_in_static_info_units() -> None:
    info = bloodforge.load_game("kingdoms", players=4).static_info()
    assert info["units"]["dragon"]["cost"] == 14
    assert info["mercenary_cost"] == 15


# -- the map's drawing ----------------------------------------------------------------------
def _map() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA_DIR / "map.json").read_text())
    return data


def test_drawing_every_space_is_one_outline_and_areas_touch_only_where_linked() -> None:
    m = _map()
    d = m["drawing"]
    links = [tuple(x) for x in m["links"] + m["bridges"]]
    drawing.check(d["rows"], d["legend"], [s["id"] for s in m["spaces"]], links)  # raises on a mismatch
    areas = bloodforge.load_game("kingdoms", players=4).static_info()["board"]["areas"]
    assert all(len(a["polygon"]) >= 4 for a in areas)
    # lines the page must still draw: per quadrant the bay-sound channel and the bridge, and the
    # centre (not planar: three isles and two maelstroms each reach all four inner seas)
    lines = drawing.lines(d["rows"], d["legend"], links)
    centre = {"verdant_deep", "pale_deep", "iron_deep", "black_deep", "maelstrom_north", "maelstrom_south",
              "crown_isle", "sunspire", "moonspire"}
    outside = [x for x in lines if not set(x) <= centre]
    # per quadrant only the bay-sound channel (the quadrant graph is not planar without it) and
    # the bridge to the next region
    assert len(outside) == 8, outside
    assert ("glimmer_bay", "leafsound") in outside
    assert ("amberford", "northgate") in outside
    assert len(lines) <= 23, lines


def test_drawing_refuses_areas_that_touch_without_a_link() -> None:
    m = _map()
    d = m["drawing"]
    rows = list(d["rows"])
    inv = {v: k for k, v in d["legend"].items()}
    # paint elmwood's corner square as thornbrake: thornbrake would touch elmwood
    rows[0] = inv["thornbrake"] + rows[0][1:]
    with pytest.raises(ValueError, match=r"not linked|split"):
        drawing.check(rows, d["legend"], [s["id"] for s in m["spaces"]], [tuple(x) for x in m["links"]])


def test_phase_name_is_in_player_words_for_the_replay_and_the_terminal() -> None:
    s = attack([("cavalry", 2)], [("infantry", 3)], [6, 6, 6, 6, 6, 6, 6])
    name = s.phase_name()
    assert name == "Round 1 · Elves: battle at Amberford, round 1 — the attacker presses on or retreats"
    assert not SNAKE.search(name)
    assert "amberford" not in name


def test_dice_lines_count_in_words() -> None:
    """UI audit 2026-11-26: the log read "roll 1 dice, 0 hit(s)"."""
    from bloodforge.games.kingdoms.battle import _dice, _hits

    assert [_dice(1), _dice(3), _hits(0), _hits(1), _hits(2)] == ["1 die", "3 dice", "0 hits", "1 hit", "2 hits"]
