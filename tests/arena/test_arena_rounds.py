"""Rounds, initiative and the Immediate phase (R-RND, R-INI, R-FR, R-IMM, EX-1)."""

from __future__ import annotations

import pytest
from arena_helpers import game, game_steps, scenario, texts

from bloodforge.core import IllegalAction
from bloodforge.games.arena.game import ArenaState

TEAM = {"players": 4, "mode": "team", "champions": ["vhrak", "lienne", "calvio", "ulwazi"], "teams": [0, 0, 1, 1],
        "boss": None}
PLACED = [{"id": "vhrak", "hex": "-2,0"}, {"id": "lienne", "hex": "-1,0"}, {"id": "calvio", "hex": "1,0"},
          {"id": "ulwazi", "hex": "2,0"}, {"id": "orb1", "hex": "3,0"}, {"id": "orb2", "hex": "3,-1"},
          {"id": "orb3", "hex": "2,-1"}]


def test_r_ini_1_a3_cards_are_chosen_secretly_by_all_at_once() -> None:
    st = game(players=3, seed=1).new_initial_state()
    assert st.moves() == [(None, "round")]
    assert st.actors() == [0, 1, 2]  # every player chooses at the same time
    st.apply("pick plunder", 0)
    assert st.actors() == [1, 2]
    obs = st.observation(1)
    assert obs["units"][0]["picked"] is True
    assert obs["my_pick"] is None
    assert st.observation(0)["my_pick"] == "plunder"
    assert "you (Vhrak) choose Plunder" in st.event_log(0)
    assert not any("plunder" in t for t in st.event_log(1))
    with pytest.raises(IllegalAction):
        st.apply("pick lunge", 0)  # already committed


def test_r_fr_1_r_fr_2_first_round_placement_fastest_first_on_the_central_zone() -> None:
    st = game(players=2, seed=3).new_initial_state()
    st.apply("pick lunge", 0)  # Vhrak, Speed 1
    st.apply("pick smoulder", 1)  # Ulwazi, Speed 6
    assert "reveal" in game_steps(st)
    order = st.board.order
    assert order.index("vhrak") < order.index("ulwazi")
    # the Boss (any Speed) is placed on its start space when its turn to be placed comes
    assert st.actors() == [0] or st.board.units["malvarra"].hex is not None
    placed_before = [x for x in order if order.index(x) < order.index("vhrak")]
    assert all(st.board.units[x].hex is not None for x in placed_before)
    options = texts(st)
    assert len(options) == 19  # central zone of radius 2, all free
    st.apply("place 0,0", 0)
    assert st.board.units["vhrak"].hex == (0, 0)
    assert "place 0,0" not in texts(st) or st.actors() != [1]


def test_r_ini_8_round_one_ties_roll_off_highest_first() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "rivals": ["lienne"]}
    pos = {"phase": "pick", "round": 1, "units": [{"id": "vhrak", "hex": "0,0"}, {"id": "ulwazi", "hex": "1,0"},
                                                  {"id": "lienne", "hex": "-3,0"}]}
    st = scenario(params, pos, {"d6": [3, 5]})
    st.apply("pick lunge", 0)
    st.apply("pick blink", 1)  # both Speed 1; the Rival draws at random
    roll = next(t for t in st.event_log(None) if t.startswith("roll-off"))
    assert roll == "roll-off: Ulwazi 3, Vhrak 5"
    assert st.board.order.index("vhrak") < st.board.order.index("ulwazi")


def test_r_ini_6_tb_ini_a_tie_goes_to_the_lower_previous_speed() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "rivals": ["lienne"]}
    pos = {"phase": "pick", "round": 3, "units": [
        {"id": "vhrak", "hex": "0,0", "prev_speed": 4, "speed": 4, "discard": ["bloodlust"],
         "hand": ["lunge", "brace", "war_cry", "plunder", "berserk"]},
        {"id": "ulwazi", "hex": "1,0", "prev_speed": 2, "speed": 2, "discard": ["ember_ward"],
         "hand": ["blink", "spark", "kindling", "scorch", "smoulder"]}, {"id": "lienne", "hex": "-3,0"}]}
    st = scenario(params, pos)
    st.apply("pick lunge", 0)
    st.apply("pick blink", 1)
    assert st.board.order.index("ulwazi") < st.board.order.index("vhrak")
    assert not any(t.startswith("roll-off: Ulwazi") for t in st.event_log(None))


def test_r_ini_7_equal_previous_speeds_roll_off() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "rivals": ["lienne"]}
    pos = {"phase": "pick", "round": 3, "units": [
        {"id": "vhrak", "hex": "0,0", "prev_speed": 4, "discard": ["bloodlust"],
         "hand": ["lunge", "brace", "war_cry", "plunder", "berserk"]},
        {"id": "ulwazi", "hex": "1,0", "prev_speed": 4, "discard": ["kindling"],
         "hand": ["blink", "ember_ward", "spark", "scorch", "smoulder"]},
        {"id": "lienne", "hex": "-3,0"}]}
    st = scenario(params, pos, {"d6": [6, 2]})
    st.apply("pick lunge", 0)
    st.apply("pick blink", 1)
    assert "roll-off: Ulwazi 6, Vhrak 2" in st.event_log(None)
    assert st.board.order.index("ulwazi") < st.board.order.index("vhrak")


def test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities() -> None:
    pos = {"phase": "pick", "round": 2, "units": PLACED}
    st = scenario(TEAM, pos)
    st.apply("pick plunder", 0)
    st.apply("pick gemini_daggers", 1)
    st.apply("pick time_warp", 2)
    st.apply("pick spark", 3)
    # Calvio and Ulwazi tie at Speed 3 and are allies: they choose (R-INI-9)
    assert st.actors() == [2]
    assert texts(st) == ["choose calvio", "choose ulwazi"]
    st.apply("choose calvio", 2)
    assert st.board.order == ["lienne", "calvio", "ulwazi", "vhrak"]
    # Lienne's Gemini Daggers: a Temporary Attack die, not rolled (EXR-4, R-TURN-3)
    lienne = st.board.units["lienne"]
    assert [(d.kind, d.face) for d in lienne.pool if d.kind == "tmp"] == [("tmp", None)]
    # Calvio's Time Warp: any character, Haste or Slow (EXR-1)
    assert st.actors() == [2]
    assert texts(st) == ["choose lienne", "choose calvio", "choose ulwazi", "choose vhrak"]
    st.apply("choose lienne", 2)
    assert texts(st) == ["choose 1", "choose 2"]
    st.apply("choose 2", 2)  # Slow: Speed 7
    assert lienne.speed == 7
    assert st.board.order == ["calvio", "ulwazi", "vhrak", "lienne"]
    # Ulwazi's Spark has no Immediate part; Vhrak's Plunder offers exactly the faster enemies (EXR-3)
    assert st.actors() == [0]
    assert texts(st) == ["choose calvio", "choose ulwazi"]
    st.apply("choose ulwazi", 0)
    assert texts(st) == ["choose 1", "choose 2"]
    st.apply("choose 2", 0)  # drain
    assert st.board.units["ulwazi"].energy == 0
    # Lienne does not resolve again; the turns begin with Calvio
    assert st.board.phase == "turns"
    assert st.board.active == "calvio"
    assert game_steps(st).count("immediate lienne") == 1


def test_ex1_variant_r_ini_6_enemies_tied_use_their_previous_cards() -> None:
    params = dict(TEAM, teams=[0, 1, 0, 1])  # Calvio and Ulwazi now enemies
    units = [dict(u) for u in PLACED]
    units[2].update(prev_speed=5, discard=["stillness"])
    units[3].update(prev_speed=1, discard=["blink"])
    st = scenario(params, {"phase": "pick", "round": 2, "units": units})
    for seat, card in enumerate(["plunder", "gemini_daggers", "time_warp", "spark"]):
        st.apply(f"pick {card}", seat)
    assert st.board.order.index("ulwazi") < st.board.order.index("calvio")


def test_r_imm_5_r_imm_6_the_fastest_finds_nobody_faster_and_misses() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "rivals": ["lienne"]}
    pos = {"phase": "pick", "round": 2, "units": [{"id": "vhrak", "hex": "0,0"}, {"id": "ulwazi", "hex": "2,0"},
                                                  {"id": "lienne", "hex": "-3,0", "hand": ["hunt"]}]}
    st = scenario(params, pos)
    st.apply("pick plunder", 0)  # Speed 5: steal from a faster enemy
    st.apply("pick smoulder", 1)  # Speed 6
    assert st.board.order[0] == "vhrak"
    assert "Vhrak's steal an attack die or drain Blood Energy finds no one and misses" in st.event_log(None)
    assert st.actors() == [0]
    assert st.board.active == "vhrak"


def test_r_imm_4_next_fastest_is_the_one_directly_ahead() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "rivals": ["lienne"]}
    pos = {"phase": "pick", "round": 2, "units": [{"id": "vhrak", "hex": "0,0"}, {"id": "ulwazi", "hex": "2,0"},
                                                  {"id": "lienne", "hex": "-3,0", "hand": ["hunt"]}]}
    st = scenario(params, pos)
    st.apply("pick lunge", 0)  # Speed 1
    st.apply("pick scorch", 1)  # Speed 5: 3 damage to the next fastest (Vhrak), Lienne (6) is slower
    assert st.board.order == ["vhrak", "ulwazi", "lienne"]
    assert st.board.units["vhrak"].hp == 175 - 3
    assert st.board.units["lienne"].hp == 175


def test_r_ini_12_rival_card_text_is_ignored() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": None, "rivals": ["lienne"]}
    pos = {"phase": "pick", "round": 2, "units": [{"id": "vhrak", "hex": "0,0"},
                                                  {"id": "lienne", "hex": "-3,0", "hand": ["gemini_daggers"]}]}
    st = scenario(params, pos)
    st.apply("pick lunge", 0)
    lienne = st.board.units["lienne"]
    assert lienne.speed == 2
    assert "immediate lienne" not in game_steps(st)
    assert not any(d.kind == "tmp" for d in lienne.pool)


def test_r_ini_14_an_empty_hand_takes_back_the_discard_pile() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": None, "rivals": ["lienne"]}
    cards = ["berserk", "bloodlust", "brace", "lunge", "plunder", "war_cry"]
    pos = {"phase": "pick", "round": 6, "units": [{"id": "vhrak", "hex": "0,0", "hand": ["lunge"],
                                                  "discard": [c for c in cards if c != "lunge"]},
                                                 {"id": "lienne", "hex": "-3,0"}]}
    st = scenario(params, pos)
    st.apply("pick lunge", 0)
    vhrak = st.board.units["vhrak"]
    assert vhrak.hand == []
    assert vhrak.current == "lunge"
    # play the round out: at the next round the discard comes back
    while st.board.round == 6:
        st.apply("end" if "end" in texts(st) else texts(st)[0], st.actors()[0])
    assert sorted(vhrak.hand) == cards


def test_r_ini_15_tb_deck_an_empty_speed_deck_is_reshuffled() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": "malvarra", "environmental": "spike_traps"}
    st = game(**params, seed=2).new_initial_state()
    deck = st.board.decks["speed:malvarra"]
    for _ in range(40):
        if st.is_terminal() or st.board.round > 8:
            break
        seat = st.actors()[0]
        legal = texts(st)
        st.apply("end" if "end" in legal else legal[0], seat)
    assert st.board.round > 6  # more draws than cards: the discards were reshuffled
    assert len(deck) + len(deck.discards) + (1 if st.board.units["malvarra"].current else 0) == 6


def test_r_fr_2_a_full_central_zone_opens_the_rest_of_the_arena() -> None:
    arena = {"id": "tiny", "name": "tiny", "hexes": ["0,0", "1,0", "2,0"], "central": ["0,0"]}
    st = scenario({"players": 2, "boss": None}, {"arena": arena, "phase": "pick", "round": 1, "units": []})
    st.apply("pick lunge", 0)
    st.apply("pick smoulder", 1)
    st.apply("place 0,0", 0)
    assert texts(st) == ["place 1,0", "place 2,0"]


def _play_round_out(st: ArenaState, rnd: int) -> None:
    while st.board.round == rnd and not st.is_terminal():
        legal = texts(st)
        st.apply("end" if "end" in legal else legal[0], st.actors()[0])


def _round_log(st: ArenaState, rnd: int) -> list[str]:
    log = st.event_log(None)
    start = log.index(f"Round {rnd} begins")
    return log[start:]


def test_r_ini_7_a5_a_recycled_hand_has_no_previous_card_and_rolls_off() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "rivals": ["lienne"]}
    vhrak_cards = ["berserk", "bloodlust", "brace", "lunge", "plunder", "war_cry"]
    pos = {"phase": "pick", "round": 6, "units": [
        {"id": "vhrak", "hex": "0,0", "hand": ["lunge"], "discard": [c for c in vhrak_cards if c != "lunge"],
         "prev_speed": 5},
        {"id": "ulwazi", "hex": "2,0", "hand": ["ember_ward", "spark", "kindling", "scorch", "smoulder"],
         "discard": ["blink"], "prev_speed": 1},
        {"id": "lienne", "hex": "-3,0", "hand": ["vanish"]}]}
    st = scenario(params, pos)
    st.apply("pick lunge", 0)  # Vhrak's last card: his hand is empty at the next round
    st.apply("pick scorch", 1)  # Speed 5
    _play_round_out(st, 6)
    vhrak = st.board.units["vhrak"]
    assert sorted(vhrak.hand) == vhrak_cards  # recycled (R-INI-14)
    assert vhrak.discard == []
    st.apply("pick berserk", 0)  # Speed 6
    st.apply("pick smoulder", 1)  # Speed 6: a tie; Vhrak's pile is empty, so no previous card decides
    rolls = [t for t in _round_log(st, 7) if t.startswith("roll-off")]
    assert any("Vhrak" in t and "Ulwazi" in t for t in rolls), rolls


def test_r_ini_7_a6_a_reshuffled_boss_speed_deck_rolls_off() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": "malvarra", "environmental": "spike_traps"}
    cards = {"lunge": 1, "brace": 2, "war_cry": 3, "bloodlust": 4, "plunder": 5, "berserk": 6}
    pos = {"phase": "pick", "round": 7, "units": [
        {"id": "vhrak", "hex": "0,0", "prev_speed": 5, "discard": ["plunder"],
         "hand": [c for c in cards if c != "plunder"] + ["plunder"]},
        {"id": "malvarra", "hex": "0,-4", "prev_speed": 3}],
        "decks": {"speed:malvarra": {"pile": [], "discards": ["3", "1", "2", "4", "5", "6"]}}}
    probe = scenario(params, pos)
    probe.apply("pick lunge", 0)
    drawn = probe.board.units["malvarra"].speed
    st = scenario(params, pos)
    st.apply(f"pick {next(c for c, s in cards.items() if s == drawn)}", 0)  # tie with the Boss's draw
    assert st.board.units["malvarra"].speed == drawn
    rolls = [t for t in st.event_log(None) if t.startswith("roll-off")]
    assert any("Vhrak" in t and "Mal'varra" in t for t in rolls), rolls


def test_r_ini_6_a4_the_printed_speed_of_last_rounds_card_breaks_ties_not_haste_or_slow() -> None:
    # Lienne played Gemini Daggers (printed 2) and was slowed to 7 (EX-1); Ulwazi played Spark (3)
    units = [dict(u) for u in PLACED]
    lienne_hand = ["vanish", "quick_feet", "feint", "coiled_whip", "smoke", "toxin", "patience", "lurk", "mark",
                   "hunt", "deep_breath"]
    units[0].update(speed=5, discard=["plunder"], hand=["lunge", "brace", "war_cry", "bloodlust", "berserk"])
    units[1].update(speed=7, current="gemini_daggers", hand=lienne_hand)
    units[2].update(speed=3, discard=["time_warp"], hand=["phase", "focus", "orb_dance", "stillness", "arcane_well"])
    units[3].update(speed=3, discard=["spark"], hand=["blink", "ember_ward", "kindling", "scorch", "smoulder"])
    params = dict(TEAM, teams=[0, 0, 1, 1])
    pos = {"phase": "turns", "round": 2, "units": units, "order": ["calvio", "ulwazi", "vhrak", "lienne"],
           "active": "lienne"}
    st = scenario(params, pos)
    st.apply("end", 1)
    assert st.board.round == 3
    assert st.board.phase == "pick"
    lienne = st.board.units["lienne"]
    assert lienne.prev_speed == 2
    for seat, card in enumerate(["berserk", "toxin", "stillness", "kindling"]):  # Lienne and Ulwazi: Speed 4
        st.apply(f"pick {card}", seat)
    order = st.board.order
    assert order.index("lienne") < order.index("ulwazi")  # printed 2 < 3 (slowed 7 would lose)
    assert not any(t.startswith("roll-off") for t in _round_log(st, 3))


def test_r_ini_7_a6_an_environmentals_reshuffled_speed_deck_rolls_off() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "environmental": "hellfire_spray"}
    cards = {"lunge": 1, "brace": 2, "war_cry": 3, "bloodlust": 4, "plunder": 5, "berserk": 6}
    pos = {"phase": "pick", "round": 6, "units": [{"id": "vhrak", "hex": "-4,4"}, {"id": "ulwazi", "hex": "4,-4"}],
           "decks": {"speed:env:hellfire_spray": {"pile": ["3"], "discards": ["1", "2", "4", "5", "6"]}}}
    st = scenario(params, pos)
    st.apply("pick brace", 0)  # round 6: the Spray draws its last Speed card, 3; Vhrak 2, Ulwazi 6
    st.apply("pick smoulder", 1)
    _play_round_out(st, 6)
    assert st.board.env_speed["env:hellfire_spray"][0] == 3
    probe = st.clone()
    probe.apply("pick lunge", 0)
    probe.apply("pick blink", 1)  # round 7: the Spray's deck is empty and reshuffles
    drawn = probe.board.env_speed["env:hellfire_spray"][0]
    st.apply(f"pick {next(c for c, s in cards.items() if s == drawn)}", 0)  # a tie with that draw
    st.apply("pick ember_ward" if drawn != 2 else "pick kindling", 1)  # Ulwazi stays out of it
    rolls = [t for t in _round_log(st, 7) if t.startswith("roll-off")]
    assert any("Vhrak" in t and "Hellfire Spray" in t for t in rolls), rolls  # no previous card: roll off
