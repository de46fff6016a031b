"""Environmentals, minions and the end of a match (R-ENV, R-EACT, R-MIN, R-WIN, A48, EX-10)."""

from __future__ import annotations

from arena_helpers import at, game, game_steps, hp, pool, scenario, texts

SPRAY = [{"env": "hellfire_spray", "anchor": "0,0", "owner": "malvarra"}]


def spray_turn(units: list[dict], card: str, rig_d6: list[int]):
    params = {"players": 3, "champions": ["vhrak", "ulwazi", "maere"], "boss": "malvarra"}
    order = ["env:hellfire_spray", "vhrak", "ulwazi", "maere", "malvarra"]
    pos = {"units": units, "order": order, "active": "env:hellfire_spray", "tiles": SPRAY}
    return scenario(params, pos, {"d6": rig_d6, "decks": {"envcards:hellfire_spray": [card]}})


def test_ex10_r_eact_3_r_eact_4_e3_hellfire_card_a_b_c() -> None:
    units = [{"id": "vhrak", "hex": "2,0", "hand": ["lunge", "plunder"]},  # on the spray before and after A
             {"id": "ulwazi", "hex": "0,2", "hand": ["blink", "smoulder"]},  # moved onto by A, stays for C
             {"id": "maere", "hex": "-2,2", "hand": ["drift", "dirge"]},  # moved onto by C
             {"id": "samalira", "hex": "1,1"},  # a minion: immune (R-MIN-9)
             {"id": "malvarra", "hex": "-5,0"}]
    st = spray_turn(units, "env_6", [1, 2])
    assert game_steps(st)[0] == "env hellfire_spray"
    log = st.event_log(None)
    assert log.count("Hellfire Spray turns") == 2  # the A+C line twice, then B
    assert hp(st, "vhrak") == 175  # merely stayed under it
    assert hp(st, "ulwazi") == 175 - (2 + 1)  # once, though under it for both turns (E3)
    assert hp(st, "maere") == 175 - (2 + 2)
    # B: characters on the spray discard an Initiative card (the slowest, see Rulings)
    assert st.board.units["ulwazi"].hand == ["blink"]
    assert st.board.units["maere"].hand == ["drift"]
    assert st.board.units["vhrak"].hand == ["lunge", "plunder"]
    tile = st.board.tiles[0]
    assert (0, 2) in tile.hexes
    assert (-2, 2) in tile.hexes
    assert (2, -2) not in tile.hexes


def test_r_eact_2_a_card_with_only_a_rotates_once() -> None:
    units = [{"id": "vhrak", "hex": "-4,0"}, {"id": "ulwazi", "hex": "0,2", "hand": ["blink", "smoulder"]},
             {"id": "maere", "hex": "-2,2"}, {"id": "malvarra", "hex": "-5,0"}]
    st = spray_turn(units, "env_1", [3])
    assert st.event_log(None).count("Hellfire Spray turns") == 1
    assert hp(st, "ulwazi") == 175 - 5
    assert hp(st, "maere") == 175
    assert st.board.units["ulwazi"].hand == ["blink", "smoulder"]  # no B


def test_r_eact_5_e2_grevvar_raises_risen_that_hunt_by_the_npc_rules() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": "grevvar"}
    pos = {"units": [{"id": "vhrak", "hex": "3,1"}, {"id": "grevvar", "hex": "-5,5"}],
           "order": ["env:spawn_pits", "vhrak", "grevvar"], "active": "env:spawn_pits"}
    st = scenario(params, pos, {"decks": {"envcards:spawn_pits": ["env_3"]}})  # A + B
    risen = st.board.units["risen1"]
    assert risen.alive
    assert "Grevvar raises Risen 1 at 3,0" in st.event_log(None)
    assert hp(st, "vhrak") == 175 - 3  # adjacent already: the B line attacks
    assert at(st, "risen1") == "3,0"


def test_r_min_2_minions_leave_with_their_summoner() -> None:
    params = {"players": 2, "champions": ["vhrak", "calvio"], "boss": None}
    pos = {"units": [{"id": "vhrak", "hex": "0,0", "pool": pool(6, 6, 6, 1)}, {"id": "calvio", "hex": "1,0", "hp": 5},
                     {"id": "orb1", "hex": "3,0"}, {"id": "orb2", "hex": "3,-1"}, {"id": "orb3", "hex": "2,1"}],
           "order": ["vhrak", "calvio"], "active": "vhrak", "tiles": []}
    st = scenario(params, pos)
    st.apply("attack cleave", 0)
    st.apply("target calvio", 0)
    assert not any(st.board.units[o].alive for o in ("orb1", "orb2", "orb3"))
    assert st.is_terminal()


def test_kw_orig_r_att_12_orb_attacks_originate_from_the_orbs() -> None:
    params = {"players": 2, "champions": ["calvio", "vhrak"], "boss": None}
    pos = {"units": [{"id": "calvio", "hex": "-4,0", "pool": pool(1, 2, 3, 4)}, {"id": "vhrak", "hex": "3,0"},
                     {"id": "orb1", "hex": "1,0"}, {"id": "orb2", "hex": "-3,3"}, {"id": "orb3", "hex": "-3,-1"}],
           "order": ["calvio", "vhrak"], "active": "calvio", "tiles": []}
    st = scenario(params, pos)
    st.apply("attack orb_bolt", 0)  # Vhrak is 7 from Calvio but 2 from an Orb
    assert texts(st) == ["target vhrak", "cancel"]
    st.apply("target vhrak", 0)
    assert hp(st, "vhrak") == 175 - (1 + 2 + 3 + 1)


def test_r_min_7_r_min_8_minion_hp_and_immune_minions() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": "grevvar", "rivals": ["maere"]}
    pos = {"units": [{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 4, 3)},
                     {"id": "risen1", "hex": "1,0", "alive": True}, {"id": "samalira", "hex": "0,1"},
                     {"id": "maere", "hex": "-5,5"}, {"id": "grevvar", "hex": "5,-5"}],
           "order": ["vhrak", "maere", "grevvar"], "active": "vhrak", "tiles": []}
    st = scenario(params, pos)
    st.apply("attack rending_strike", 0)
    assert texts(st) == ["target risen1", "cancel"]  # Samalira has no HP: never a target (R-MIN-8)
    st.apply("target risen1", 0)
    assert st.board.units["risen1"].alive  # 7 < 8 HP
    st.apply("end", 0)
    assert st.board.units["risen1"].minion_damage == 0  # damage does not carry over (A52)


def test_a48_the_match_ends_when_no_human_is_left() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": "malvarra", "rivals": ["ulwazi"]}
    pos = {"units": [{"id": "malvarra", "hex": "0,0"}, {"id": "vhrak", "hex": "2,0", "hp": 3},
                     {"id": "ulwazi", "hex": "-6,6", "hp": 1}],
           "order": ["malvarra", "vhrak", "ulwazi"], "active": "malvarra", "tiles": []}
    st = scenario(params, pos, {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["feast"]}})
    assert st.is_terminal()
    assert st.scores() == [0.0]
    assert st.npc_won()
    assert st.returns() == [0.0]  # every seat lost to the Boss (ruling 2)
    outcome = st.outcome()
    assert outcome is not None
    assert outcome.winners == []


def test_house_round_limit_ends_with_the_most_hp() -> None:
    st = game(players=2, boss=None, max_rounds=1, seed=4).new_initial_state()
    for _ in range(200):
        if st.is_terminal():
            break
        seat = st.actors()[0]
        legal = texts(st)
        st.apply("end" if "end" in legal else legal[0], seat)
    assert st.is_terminal()
    assert st.board.round == 1
    assert "Round limit 1 reached: the most HP left wins" in st.event_log(None)


def test_e2_n11b_a_boss_minions_destination_tie_goes_to_the_fastest_human() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": "grevvar"}
    pos = {"units": [{"id": "vhrak", "hex": "2,1"}, {"id": "grevvar", "hex": "-5,5"},
                     {"id": "risen1", "hex": "0,0", "alive": True}],
           "order": ["env:spawn_pits", "vhrak", "grevvar"], "active": "env:spawn_pits"}
    st = scenario(params, pos, {"decks": {"envcards:spawn_pits": ["env_4"]}})  # A (spawn) + C (act)
    assert "Grevvar raises Risen 2 at 3,0" in st.event_log(None)
    p = st.board.pending
    assert p is not None
    assert p.kind == "minion_move"
    assert st.actors() == [0]
    assert sorted(p.options) == ["1,1", "2,0"]
    st.apply("choose 2,0", 0)
    assert at(st, "risen1") == "2,0"
    assert hp(st, "vhrak") == 175 - 3 - 3  # both Risen strike; the Environmental's turn then ends
    assert "env:spawn_pits" in st.board.done


def test_a49_a_sweep_that_fells_the_last_two_is_a_shared_win() -> None:
    params = {"players": 2, "boss": None, "environmental": "hellfire_spray"}
    pos = {"units": [{"id": "vhrak", "hex": "0,2", "hp": 3}, {"id": "ulwazi", "hex": "1,1", "hp": 3}],
           "order": ["env:hellfire_spray", "vhrak", "ulwazi"], "active": "env:hellfire_spray"}
    st = scenario(params, pos, {"d6": [1, 2], "decks": {"envcards:hellfire_spray": ["env_1"]}})
    assert st.is_terminal()
    assert st.returns() == [0.5, 0.5]
    assert st.scores() == [1.0, 1.0]


def test_a49_r_col_5_a_collision_that_fells_both_enemies_leaves_the_pusher_the_winner() -> None:
    params = {"players": 3, "champions": ["vhrak", "ulwazi", "lienne"], "boss": None}
    pos = {"units": [{"id": "vhrak", "hex": "0,0", "pool": pool(5, 5, 5, 4)}, {"id": "ulwazi", "hex": "1,0", "hp": 29},
                     {"id": "lienne", "hex": "2,0", "hp": 4}],
           "order": ["vhrak", "ulwazi", "lienne"], "active": "vhrak", "tiles": []}
    st = scenario(params, pos, {"d6": [6]})
    st.apply("attack unleashed_fury", 0)  # 23 damage, then Push 2
    st.apply("target ulwazi", 0)
    st.apply("choose 2,0", 0)  # into Lienne: one roll of 6 for both
    assert st.is_terminal()
    assert st.returns() == [1.0, 0.0, 0.0]


def test_r_env_3_the_turning_spray_removes_flat_tiles_underneath_whoever_owns_them() -> None:
    units = [{"id": "vhrak", "hex": "-4,0"}, {"id": "ulwazi", "hex": "-5,1"}, {"id": "maere", "hex": "-5,2"},
             {"id": "malvarra", "hex": "-5,0"}]
    params = {"players": 3, "champions": ["vhrak", "ulwazi", "maere"], "boss": "malvarra"}
    tiles = [*SPRAY, {"env": "spike_traps", "anchor": "0,2"},  # ownerless, one hex the spray turns onto
             {"env": "spectral_thorns", "anchor": "-1,3", "owner": "maere"},  # partly under the turned spray
             {"env": "bloodshard_columns", "anchor": "1,1"},  # solid: another component type, it stays
             {"env": "spike_traps", "anchor": "-4,4"}]  # nowhere near: it stays
    order = ["env:hellfire_spray", "vhrak", "ulwazi", "maere", "malvarra"]
    pos = {"units": units, "order": order, "active": "env:hellfire_spray", "tiles": tiles}
    st = scenario(params, pos, {"decks": {"envcards:hellfire_spray": ["env_1"]}})
    spray = next(t for t in st.board.tiles if t.env == "hellfire_spray")
    assert (0, 2) in spray.hexes
    assert (1, 1) in spray.hexes
    left = sorted((t.env, t.anchor) for t in st.board.tiles)
    assert left == [("bloodshard_columns", (1, 1)), ("hellfire_spray", (0, 0)), ("spike_traps", (-4, 4))]
    assert "Spike Traps under Hellfire Spray is removed from the arena" in st.event_log(None)


def test_r_env_3_a_tile_laid_on_another_flat_tile_of_any_owner_removes_it() -> None:
    params = {"players": 3, "champions": ["maere", "vhrak", "cynwrig"], "boss": None}
    pos = {"units": [{"id": "maere", "hex": "0,0", "pool": pool(1, 2, 4, 1)}, {"id": "vhrak", "hex": "2,0"},
                     {"id": "cynwrig", "hex": "-4,0"}, {"id": "samalira", "hex": "-1,0"}],
           "order": ["maere", "vhrak", "cynwrig"], "active": "maere",
           "tiles": [{"env": "trap", "anchor": "3,-1", "owner": "cynwrig"}]}
    st = scenario(params, pos, {"d20": [5]})
    st.apply("attack thorn_bind", 0)
    st.apply("target vhrak", 0)
    assert [(t.env, t.owner) for t in st.board.tiles] == [("spectral_thorns", "maere")]
    assert (3, -1) in st.board.tiles[0].hexes
