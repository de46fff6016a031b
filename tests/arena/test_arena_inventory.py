"""Rules of the inventory (spec §1) not yet pinned elsewhere, and the traceability check: every
rule id of the inventory names the tests that check it (or the ruling that stands for it)."""

from __future__ import annotations

import json
from pathlib import Path

from arena_helpers import at, game, hp, pool, scenario, texts

from bloodforge.games.arena import dice, effects
from bloodforge.games.arena.content import DATA_DIR, load_content


def test_r_cmp_components_are_data() -> None:
    """R-CMP-1..9: the supply, decks, cards, Environmentals and boards exist as data."""
    c = load_content()
    assert (c.rules.supply.attack, c.rules.supply.be, c.rules.supply.temp, c.rules.supply.d20) == (21, 15, 15, 5)
    assert len(c.env_cards) == 6
    assert [s.letter for s in c.skirmish] == list("ABCDEFGHIJKLMNOPQR")
    assert {"the_arm", "ice_slicks", "springboards", "spike_traps"} <= {e.id for e in c.environmentals}
    for ch in c.champions:
        assert len(ch.attacks) == 5 and len(ch.pacts) == 2  # noqa: PT018 - one board
    extras = {ch.id: sorted(d.id for d in ch.dice) for ch in c.champions}
    assert extras["vhrak"] == ["bleed", "dazed"] and extras["ulwazi"] == ["ignite", "pyroblast"]  # noqa: PT018
    assert {b.id: b.environmental for b in c.bosses} == {"malvarra": "hellfire_spray", "grevvar": "spawn_pits",
                                                        "terror": "bloodshard_columns"}
    assert c.minion("risen").count == 6
    assert c.minion("orb").count == 3


def test_r_set_6_to_8_energy_hands_and_figures_at_setup() -> None:
    st = game(players=2).new_initial_state()
    for uid in ("vhrak", "ulwazi"):
        u = st.board.units[uid]
        assert u.energy == 0  # R-SET-6
        assert len(u.hand) == 6 and u.discard == []  # noqa: PT018 - R-SET-7
        assert u.hex is None  # R-SET-8
    assert st.board.units["malvarra"].hex is None


def test_r_set_10_to_14_r_ini_16_r_eact_1_boss_and_environmental_setup() -> None:
    st = game(players=2).new_initial_state()
    boss = st.board.units["malvarra"]
    assert sorted(d.kind for d in boss.pool) == ["atk", "atk", "atk", "be"]  # R-SET-10
    assert len(st.board.decks["actions:malvarra"]) == 6  # R-SET-11
    assert [t.env for t in st.board.tiles] == ["hellfire_spray"]  # R-SET-12/14: the signature Environmental
    assert len(st.board.decks["speed:env:hellfire_spray"]) == 6  # R-SET-13, R-INI-16: its own Speed deck
    assert len(st.board.decks["envcards:hellfire_spray"]) == 6
    st.apply("pick lunge", 0)
    st.apply("pick smoulder", 1)
    assert "env:hellfire_spray" in st.board.order  # R-EACT-1: it takes a turn at its Speed
    static = game(players=2, boss=None, environmental="spike_traps").new_initial_state()
    assert not any(k.startswith("speed:env") for k in static.board.decks)  # no action icons, no deck


def test_r_fr_3_bosses_and_rivals_start_on_their_setup_spaces() -> None:
    st = game(players=1, rivals=["maere"], seed=2).new_initial_state()
    st.apply("pick lunge", 0)
    while st.board.phase == "place":
        st.apply("place 0,0", 0)
    assert at(st, "malvarra") == "0,-4"
    assert at(st, "maere") == "0,-5"
    assert at(st, "samalira") is not None  # R-MIN-12: minions have no Speed of their own
    assert "samalira" not in st.board.order


def test_r_mode_1_to_6_allegiance() -> None:
    ffa = game(players=3, rivals=["maere"]).new_initial_state()
    sides = {u.uid: u.side for u in ffa.board.units.values()}
    assert len({sides[x] for x in ("vhrak", "ulwazi", "lienne", "maere", "malvarra")}) == 5  # R-MODE-1/3
    assert sides["samalira"] == sides["maere"]  # R-MODE-2: your minions are your allies
    team = game(players=3, mode="team", teams=[0, 1, 0, 1], rivals=["maere"], boss=None).new_initial_state()
    tsides = {u.uid: u.side for u in team.board.units.values()}
    assert tsides["vhrak"] == tsides["lienne"] != tsides["ulwazi"] == tsides["maere"]  # R-MODE-4/5/6


def test_r_mov_3_no_movement_through_or_onto_walls() -> None:
    params = {"players": 2, "boss": None}
    st = scenario(params, {"units": [{"id": "vhrak", "hex": "6,0", "pool": pool(1, 2, 3, 4)},
                                     {"id": "ulwazi", "hex": "-6,0"}],
                           "order": ["vhrak", "ulwazi"], "active": "vhrak", "tiles": []})
    moves = [t.split()[1] for t in texts(st) if t.startswith("move")]
    assert moves
    assert all(st.board.units["vhrak"] and tuple(map(int, h.split(","))) in st.cells for h in moves)


def test_r_att_11_r_dmg_4_a_d20_and_damage_bonuses_add_to_damage_not_category(tmp_path: Path) -> None:
    data = json.loads((DATA_DIR / "champions.json").read_text())
    data["items"][0]["attacks"][0]["effects"] = [{"op": "attack_damage", "dice": "d20", "who": "self"}]
    (tmp_path / "champions.json").write_text(json.dumps(data))
    params = {"players": 2, "boss": None, "content": str(tmp_path)}
    st = scenario(params, {"units": [{"id": "vhrak", "hex": "0,0", "energy": 6, "pool": pool(1, 2, 3, 4)},
                                     {"id": "ulwazi", "hex": "1,0"}],
                           "order": ["vhrak", "ulwazi"], "active": "vhrak", "tiles": []}, {"d20": [20]})
    st.apply("pact blood_frenzy", 0)  # a fresh Temporary die: no part of this attack
    st.apply("attack cleave", 0)
    st.apply("target ulwazi", 0)
    assert hp(st, "ulwazi") == 175 - (6 + 3 + 20)
    assert st.board.units["vhrak"].rolled_category == "singles"


def test_r_env_3_a_tile_laid_on_one_of_its_kind_removes_the_bottom_one() -> None:
    st = game(players=2, boss=None).new_initial_state()
    first = effects.place_tile(st, "spectral_thorns", (0, 0), "maere")
    second = effects.place_tile(st, "spectral_thorns", (0, 0), "maere")
    assert first is not None and second is not None  # noqa: PT018
    assert [t.tid for t in st.board.tiles] == [second.tid]


def test_r_col_7_solid_environmentals_cause_collisions() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "environmental": "bloodshard_columns"}
    st = scenario(params, {"units": [{"id": "vhrak", "hex": "0,-2", "pool": pool(5, 5, 5, 4)},
                                     {"id": "ulwazi", "hex": "-1,-2"}],
                           "order": ["vhrak", "ulwazi"], "active": "vhrak"}, {"d6": [3]})
    st.apply("attack unleashed_fury", 0)
    st.apply("target ulwazi", 0)
    assert "choose -2,-2" in texts(st)  # a Bloodshard Column stands there
    st.apply("choose -2,-2", 0)
    assert at(st, "ulwazi") == "-1,-2"
    assert hp(st, "ulwazi") == 175 - 23 - 3


def test_r_min_11_minions_never_hold_dice() -> None:
    st = game(players=1, champions=["maere"]).new_initial_state()
    samalira = st.board.units["samalira"]
    assert not dice.gain_die(st, samalira, "tmp")
    assert samalira.pool == []


def test_r_ini_3_r_ini_4_the_current_card_joins_the_discard_pile_in_play_order() -> None:
    st = game(players=1, boss=None, rivals=["ulwazi"], seed=1).new_initial_state()
    for card in ("lunge", "brace", "plunder"):
        st.apply(f"pick {card}", 0)
        vhrak = st.board.units["vhrak"]
        assert vhrak.current == card
        while st.board.units["vhrak"].current == card and not st.is_terminal():
            legal = texts(st)
            st.apply("end" if "end" in legal else legal[0], st.actors()[0])
        while st.actors() != [0] or st.board.phase != "pick":
            legal = texts(st)
            st.apply("end" if "end" in legal else legal[0], st.actors()[0])
    assert st.board.units["vhrak"].discard == ["lunge", "brace", "plunder"]


# -- traceability -----------------------------------------------------------------------------------------
INVENTORY = """
R-CMP-1 R-CMP-2 R-CMP-3 R-CMP-4 R-CMP-5 R-CMP-6 R-CMP-7 R-CMP-8 R-CMP-9 R-SET-1 R-SET-2 R-SET-3 R-SET-4
R-SET-5 R-SET-6 R-SET-7 R-SET-8 R-SET-9 R-SET-10 R-SET-11 R-SET-12 R-SET-13 R-SET-14 R-SET-15 R-SET-16
R-MODE-1 R-MODE-2 R-MODE-3 R-MODE-4 R-MODE-5 R-MODE-6 R-MODE-7 R-WIN-1 R-WIN-2 R-WIN-3 R-WIN-4 R-HP-1 R-RND-1
R-RND-2 R-RND-3 R-INI-1 R-INI-2 R-INI-3 R-INI-4 R-INI-5 R-INI-6 R-INI-7 R-INI-8 R-INI-9 R-INI-10 R-INI-11
R-INI-12 R-INI-13 R-INI-14 R-INI-15 R-INI-16 R-IMM-1 R-IMM-2 R-IMM-3 R-IMM-4 R-IMM-5 R-IMM-6 R-FR-1 R-FR-2
R-FR-3 R-TURN-1 R-TURN-2 R-TURN-3 R-DICE-1 R-DICE-2 R-DICE-3 R-DICE-4 R-DICE-5 R-DICE-6 R-DICE-7 R-DICE-8
R-DICE-9 R-DICE-10 R-D8-1 R-D8-2 R-ACT-1 R-ACT-2 R-BE-1 R-BE-2 R-BE-3 R-BE-4 R-RCL-1 R-ATTR-1 R-ATTR-2 R-MOV-1
R-MOV-2 R-MOV-3 R-MOV-4 R-MOV-5 R-MOV-6 R-MOV-7 R-ATT-1 R-ATT-2 R-ATT-3 R-ATT-4 R-ATT-5 R-ATT-6 R-ATT-7
R-ATT-8 R-ATT-9 R-ATT-10 R-ATT-11 R-ATT-12 R-DMG-1 R-DMG-2 R-DMG-3 R-DMG-4 R-DMG-5 R-BON-1 R-BON-2 R-PACT-1
R-PACT-2 R-PACT-3 R-ULT-1 R-ULT-2 R-ULT-3 R-ULT-4 R-CLN-1 R-CLN-2 R-CLN-3 R-CLN-4 R-CLN-5 KW-0 KW-FLY KW-ORIG
KW-PUSH KW-PULL KW-RECALL KW-REROLL KW-THROW R-NPC-1 R-NPC-2 R-NPC-3 R-NPC-4 R-NPC-5 R-NPC-6 R-NPC-7 R-NPC-8
R-NPC-9 R-RIV-1 R-RIV-2 R-RIV-3 R-TGT-1 R-TGT-2 R-TGT-3 R-TGT-4 R-TGT-5 R-TGT-6 R-TGT-7 R-TGT-8 R-TGT-9
R-TGT-10 R-TGT-11 R-ENV-1 R-ENV-2 R-ENV-3 R-ENV-4 R-HAZ-1 R-HAZ-2 R-HAZ-3 R-HAZ-4 R-HAZ-5 R-EACT-1 R-EACT-2
R-EACT-3 R-EACT-4 R-EACT-5 R-FM-1 R-FM-2 R-FM-3 R-FM-4 R-FM-5 R-FM-6 R-COL-1 R-COL-2 R-COL-3 R-COL-4 R-COL-5
R-COL-6 R-COL-7 R-COL-8 R-MIN-1 R-MIN-2 R-MIN-3 R-MIN-4 R-MIN-5 R-MIN-6 R-MIN-7 R-MIN-8 R-MIN-9 R-MIN-10
R-MIN-11 R-MIN-12 GR-1 GR-2 GR-3 EXR-1 EXR-2 EXR-3 EXR-4 EXR-5 EXR-6
""".split()  # noqa: SIM905 - spec §1, one id per rule line

#: Rules whose test does not carry the id in its name: rule id -> the tests that check it
#: ("ruling N" points at docs/games/arena.md).
COVERED_BY = {
    "R-CMP-1": ["test_r_cmp_components_are_data"],
    "R-CMP-2": ["test_r_cmp_components_are_data"],
    "R-CMP-3": ["test_r_cmp_components_are_data"],
    "R-CMP-4": ["test_r_cmp_components_are_data"],
    "R-CMP-5": ["test_r_cmp_components_are_data"],
    "R-CMP-6": ["test_r_cmp_components_are_data"],
    "R-CMP-7": ["test_r_cmp_components_are_data"],
    "R-CMP-9": ["test_r_cmp_components_are_data"],
    "R-SET-7": ["test_r_set_6_to_8_energy_hands_and_figures_at_setup"],
    "R-SET-8": ["test_r_set_6_to_8_energy_hands_and_figures_at_setup"],
    "R-SET-11": ["test_r_set_10_to_14_r_ini_16_r_eact_1_boss_and_environmental_setup"],
    "R-SET-12": ["test_r_set_10_to_14_r_ini_16_r_eact_1_boss_and_environmental_setup"],
    "R-SET-13": ["test_r_set_10_to_14_r_ini_16_r_eact_1_boss_and_environmental_setup"],
    "R-SET-14": ["test_r_set_10_to_14_r_ini_16_r_eact_1_boss_and_environmental_setup"],
    "R-SET-15": ["test_r_set_5_r_set_3_setup_hp_pools_hands"],
    "R-MODE-2": ["test_r_mode_1_to_6_allegiance"],
    "R-MODE-3": ["test_r_mode_1_to_6_allegiance"],
    "R-MODE-4": ["test_r_mode_1_to_6_allegiance"],
    "R-MODE-5": ["test_r_mode_1_to_6_allegiance"],
    "R-MODE-6": ["test_r_mode_1_to_6_allegiance"],
    "R-DICE-5": [
        "test_ex2_ex3_r_turn_2_r_d8_the_whole_pool_rolls_and_d8_dice_resolve_first",
        "test_ex7_r_dmg_2_r_dmg_3_singles_only_and_pyroblast_adds_its_face",
    ],
    "R-MOV-5": ["test_ex5_r_mov_2_r_haz_5_movement_through_thorns_and_around_enemies"],
    "R-CLN-3": ["test_r_cln_1_a27_doubles_recall_the_temporary_dice_that_counted"],
    "R-SET-1": ["test_r_set_10_to_14_r_ini_16_r_eact_1_boss_and_environmental_setup"],
    "R-SET-2": ["test_r_set_5_r_set_3_setup_hp_pools_hands"],
    "R-SET-9": ["test_r_set_5_r_set_3_setup_hp_pools_hands"],
    "R-CMP-8": ["test_r_cmp_components_are_data"],
    "R-WIN-3": ["test_a48_the_match_ends_when_no_human_is_left"],
    "R-WIN-4": ["test_a48_the_match_ends_when_no_human_is_left"],
    "R-MODE-7": ["test_r_rec_recommendations_are_logged_as_warnings", "ruling 1"],
    "R-HP-1": ["test_ex9_n9_n10_malvarra_ignores_the_inaccessible_stronger_cynwrig"],
    "R-RND-1": ["test_random_playouts_keep_the_invariants"],
    "R-RND-2": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "R-RND-3": ["test_r_ini_14_an_empty_hand_takes_back_the_discard_pile"],
    "R-INI-2": [
        "test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities",
        "test_r_bon_2_the_current_card_bonus_action_once",
    ],
    "R-INI-5": ["test_r_fr_1_r_fr_2_first_round_placement_fastest_first_on_the_central_zone"],
    "R-INI-10": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "R-INI-11": ["test_r_ini_15_tb_deck_an_empty_speed_deck_is_reshuffled"],
    "R-INI-13": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "R-IMM-1": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "R-IMM-2": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "R-IMM-3": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "R-TURN-1": ["test_ex2_ex3_r_turn_2_r_d8_the_whole_pool_rolls_and_d8_dice_resolve_first"],
    "R-TURN-3": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "R-DICE-1": ["test_random_playouts_keep_the_invariants"],
    "R-DICE-2": ["test_ex2_ex3_r_turn_2_r_d8_the_whole_pool_rolls_and_d8_dice_resolve_first"],
    "R-DICE-3": ["test_ex2_ex3_r_turn_2_r_d8_the_whole_pool_rolls_and_d8_dice_resolve_first"],
    "R-DICE-6": ["test_r_cln_1_a27_doubles_recall_the_temporary_dice_that_counted"],
    "R-DICE-7": ["test_r_cln_2_singles_keep_their_temporary_dice"],
    "R-DICE-8": ["test_ex17_r_ult_1_to_3_invoke_keeps_the_unused_die_and_unlocks_triples"],
    "R-DICE-9": ["test_r_att_7_r_att_9_a20_no_enemy_in_range_gives_a_bonus_die_instead"],
    "R-DICE-10": ["test_ex2_ex3_r_turn_2_r_d8_the_whole_pool_rolls_and_d8_dice_resolve_first"],
    "R-D8-1": ["test_ex4_r_be_1_r_be_2_gain_energy_once_per_die"],
    "R-D8-2": ["test_n3_an_npcs_d8_special_dice_resolve_right_after_its_roll", "ruling 5"],
    "R-ACT-1": ["test_ex17_r_ult_1_to_3_invoke_keeps_the_unused_die_and_unlocks_triples"],
    "R-BE-3": ["test_r_riv_3_tb6_a_rival_uses_the_highest_category_on_its_cards_side"],
    "R-RCL-1": ["test_a22_r_dice_4_spell_dice_resolve_as_bonus_actions"],
    "KW-RECALL": ["test_a22_r_dice_4_spell_dice_resolve_as_bonus_actions"],
    "R-ATTR-1": [
        "test_r_mov_1_r_act_2_one_move_action_per_round",
        "test_r_att_7_r_att_9_a20_no_enemy_in_range_gives_a_bonus_die_instead",
    ],
    "R-ATTR-2": ["test_r_bon_2_the_current_card_bonus_action_once"],
    "R-MOV-4": ["test_tb_env_f8_a_springboard_launch_into_the_wall_hurts_the_launched"],
    "R-MOV-6": ["test_r_mov_1_r_act_2_one_move_action_per_round"],
    "R-MOV-7": ["test_ex16_r_haz_3_starting_on_a_hazard_is_free_entering_it_again_is_not"],
    "R-ATT-1": ["test_r_att_6_a19_several_targets_each_take_full_damage"],
    "R-ATT-2": ["test_house_content_is_complete", "test_r_cmp_components_are_data"],
    "R-ATT-5": ["test_ex17_r_ult_1_to_3_invoke_keeps_the_unused_die_and_unlocks_triples"],
    "R-ATT-10": ["test_r_bon_2_the_current_card_bonus_action_once"],
    "R-DMG-1": ["test_r_att_6_a19_several_targets_each_take_full_damage"],
    "R-DMG-5": ["test_r_att_6_a19_several_targets_each_take_full_damage"],
    "R-PACT-2": ["test_r_cmp_components_are_data"],
    "R-PACT-3": ["test_r_pact_1_r_bon_1_r_be_4_pacts_cost_energy_once_per_round"],
    "R-ULT-2": ["test_ex17_r_ult_1_to_3_invoke_keeps_the_unused_die_and_unlocks_triples"],
    "R-ULT-3": ["test_ex17_r_ult_1_to_3_invoke_keeps_the_unused_die_and_unlocks_triples"],
    "R-CLN-4": ["test_a22_r_dice_4_spell_dice_resolve_as_bonus_actions"],
    "R-CLN-5": ["test_r_ini_3_r_ini_4_the_current_card_joins_the_discard_pile_in_play_order"],
    "KW-0": ["test_a_designer_composes_a_new_attack_from_the_effect_vocabulary"],
    "KW-FLY": ["test_r_min_9_kw_fly_minions_ignore_hazards"],
    "R-NPC-1": ["test_ex9_n9_n10_malvarra_ignores_the_inaccessible_stronger_cynwrig"],
    "R-NPC-2": ["test_r_cmp_components_are_data"],
    "R-NPC-3": ["test_r_ini_12_rival_card_text_is_ignored", "test_r_ini_15_tb_deck_an_empty_speed_deck_is_reshuffled"],
    "R-NPC-4": ["test_ex9_n9_n10_malvarra_ignores_the_inaccessible_stronger_cynwrig"],
    "R-NPC-6": ["test_ex9_n9_n10_malvarra_ignores_the_inaccessible_stronger_cynwrig"],
    "R-NPC-7": ["test_n6_tb5_boss_invokes_its_ultimate_when_able_and_not_on_triples"],
    "R-NPC-8": ["test_ex9_n9_n10_malvarra_ignores_the_inaccessible_stronger_cynwrig"],
    "R-NPC-9": ["test_r_riv_3_tb6_a_rival_uses_the_highest_category_on_its_cards_side"],
    "R-TGT-1": ["test_ex9_n9_n10_malvarra_ignores_the_inaccessible_stronger_cynwrig"],
    "R-TGT-2": ["test_ex9_n9_n10_malvarra_ignores_the_inaccessible_stronger_cynwrig"],
    "R-TGT-5": [
        "test_ex8a_n11b_terror_takes_the_shortest_safe_path_around_the_thorns",
        "test_ex8b_n11c_tb4_no_safe_path_the_fastest_human_picks_an_unsafe_end_hex",
    ],
    "R-TGT-6": ["test_ex8b_n11c_tb4_no_safe_path_the_fastest_human_picks_an_unsafe_end_hex"],
    "R-TGT-9": ["test_n14_tb13_tb3_no_access_gains_a_temporary_die_and_closes_in"],
    "R-TGT-10": ["test_n10_tb1_immune_minions_are_never_targets"],
    "R-TGT-11": [
        "test_n6_tb5_boss_invokes_its_ultimate_when_able_and_not_on_triples",
        "test_kw_throw_tb12_npc_throws_land_free_at_full_distance",
    ],
    "R-ENV-1": ["test_ex10_r_eact_3_r_eact_4_e3_hellfire_card_a_b_c"],
    "R-ENV-2": ["test_ex10_r_eact_3_r_eact_4_e3_hellfire_card_a_b_c"],
    "R-ENV-4": ["test_ex5_r_mov_2_r_haz_5_movement_through_thorns_and_around_enemies"],
    "R-HAZ-1": ["test_ex5_r_mov_2_r_haz_5_movement_through_thorns_and_around_enemies"],
    "R-HAZ-2": ["test_ex5_r_mov_2_r_haz_5_movement_through_thorns_and_around_enemies"],
    "R-FM-1": ["test_ex11_kw_push_r_fm_2_push_one_space_per_special_die_up_to_the_player"],
    "R-FM-3": [
        "test_ex11_kw_push_r_fm_2_push_one_space_per_special_die_up_to_the_player",
        "test_n6_tb5_boss_invokes_its_ultimate_when_able_and_not_on_triples",
    ],
    "R-FM-4": ["test_ex12_kw_pull_each_step_one_closer"],
    "R-FM-5": ["test_kw_throw_tb12_npc_throws_land_free_at_full_distance"],
    "R-COL-1": ["test_ex13_r_col_5_r_col_6_tb_coldmg_collisions_in_team_play"],
    "R-COL-3": ["test_ex13_r_col_5_r_col_6_tb_coldmg_collisions_in_team_play"],
    "R-COL-4": ["test_ex13_r_col_5_r_col_6_tb_coldmg_collisions_in_team_play"],
    "R-MIN-1": ["test_ex15_r_min_5_samalira_moves_three_once_per_round"],
    "R-MIN-3": ["test_kw_orig_r_att_12_orb_attacks_originate_from_the_orbs"],
    "R-MIN-4": ["test_r_eact_5_e2_grevvar_raises_risen_that_hunt_by_the_npc_rules"],
    "R-MIN-6": ["test_ex15_r_min_5_samalira_moves_three_once_per_round"],
    "R-MIN-10": [
        "test_n10_tb1_immune_minions_are_never_targets",
        "test_tb2_tb8_rivals_hit_minions_only_when_no_champion_is_reachable",
    ],
    "R-MIN-12": ["test_r_fr_3_bosses_and_rivals_start_on_their_setup_spaces"],
    "GR-1": ["test_a_designer_composes_a_new_attack_from_the_effect_vocabulary"],
    "GR-2": ["test_ex13_r_col_5_r_col_6_tb_coldmg_collisions_in_team_play", "ruling 22"],
    "GR-3": ["test_n10_gr3_residual_minion_tie_goes_to_the_fastest_human"],
    "EXR-1": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "EXR-2": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "EXR-3": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "EXR-4": ["test_ex1_r_ini_9_exr_1_to_4_team_initiative_and_immediate_abilities"],
    "EXR-5": ["test_ex2_ex3_r_turn_2_r_d8_the_whole_pool_rolls_and_d8_dice_resolve_first"],
    "EXR-6": ["test_ex7_r_dmg_2_r_dmg_3_singles_only_and_pyroblast_adds_its_face",
              "test_ex8a_n11b_terror_takes_the_shortest_safe_path_around_the_thorns"],
}


def _all_tests() -> set[str]:
    names: set[str] = set()
    for f in Path(__file__).parent.glob("test_arena_*.py"):
        text = f.read_text()
        names |= {line.split("(")[0][4:] for line in text.splitlines() if line.startswith("def test_")}
    return names


def test_every_rule_of_the_inventory_names_its_tests() -> None:
    assert len(INVENTORY) == 207
    tests = _all_tests()
    doc = (Path(__file__).parents[2] / "docs" / "games" / "arena.md").read_text()
    missing = []
    for rule in INVENTORY:
        slug = "_" + rule.lower().replace("-", "_") + "_"
        named = [t for t in tests if slug in f"_{t}_"]
        listed = COVERED_BY.get(rule, [])
        for ref in listed:
            if ref.startswith("ruling "):
                assert f"\n{ref.split()[1]}. **" in doc, f"{rule}: {ref} is not in docs/games/arena.md"
            else:
                assert ref in tests, f"{rule}: no test named {ref}"
        if not named and not listed:
            missing.append(rule)
    assert missing == []



#: Spec ids beyond §1: recommendations, the NPC algorithm's steps (§2.2-2.6), tie-breaks (§2.10),
#: readings (§4) and worked examples (§5).
SPEC_OTHER = (
    [f"R-REC-{i}" for i in range(1, 6)] + [f"I{i}" for i in range(1, 6)] + [f"N{i}" for i in range(1, 16)]
    + [f"E{i}" for i in range(1, 4)] + [f"F{i}" for i in range(1, 9)] + [f"TB{i}" for i in range(1, 14)]
    + ["TB-INI", "TB-FMC", "TB-COLDMG", "TB-ENV", "TB-DECK"] + [f"A{i}" for i in range(1, 67)]
    + [f"EX-{i}" for i in range(1, 18)]
)


def test_the_docs_traceability_table_lists_every_spec_id_with_tests_that_exist() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "games" / "arena.md").read_text()
    section = doc.split("## Traceability", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] not in ("rule", "---"):
            assert cells[0] not in rows, f"{cells[0]} is listed twice"
            rows[cells[0]] = cells[1]
    assert sorted(rows) == sorted([*INVENTORY, *SPEC_OTHER])
    tests = _all_tests()
    for rule, refs in rows.items():
        named = [r.strip("` ") for r in refs.split(",") if r.strip().startswith("`test_")]
        assert named or "ruling" in refs or "no digital counterpart" in refs or "not tested" in refs, rule
        for t in named:
            assert t in tests, f"{rule}: no test named {t}"
