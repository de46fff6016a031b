"""A Champion's turn: roll, d8 dice, energy, attacks, damage, pacts, the Ultimate, cleanup
(R-TURN, R-DICE, R-D8, R-BE, R-ATT, R-DMG, R-BON, R-PACT, R-ULT, R-CLN; EX-2..4, 6, 7, 17)."""

from __future__ import annotations

import pytest
from arena_helpers import die, game_steps, hp, pool, scenario, texts

from bloodforge.core import IllegalAction

DUO = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None, "rivals": ["lienne"]}


def duel(units: list[dict], active: str = "vhrak", rig: dict | None = None, params: dict | None = None,
         rolled: bool = True):
    base = [{"id": "vhrak", "hex": "0,0"}, {"id": "ulwazi", "hex": "1,0"}, {"id": "lienne", "hex": "-4,4"}]
    given = {u["id"] for u in units}
    units = [*units, *(u for u in base if u["id"] not in given)]
    order = [active] + [x for x in ("vhrak", "ulwazi", "lienne") if x != active]
    return scenario(params or DUO, {"units": units, "order": order, "active": active, "rolled": rolled, "tiles": []},
                    rig)


def test_ex2_ex3_r_turn_2_r_d8_the_whole_pool_rolls_and_d8_dice_resolve_first() -> None:
    params = {"players": 2, "champions": ["cynwrig", "vhrak"], "boss": None, "rivals": ["lienne"]}
    cyn_pool = [die("atk"), die("atk"), die("atk"), die("be"), die("tmp"), die("archery"), die("bleed")]
    st = scenario(params, {"units": [{"id": "cynwrig", "hex": "0,0", "pool": cyn_pool},
                                     {"id": "vhrak", "hex": "3,0"}, {"id": "lienne", "hex": "-4,4"}],
                           "order": ["cynwrig", "vhrak", "lienne"], "active": "cynwrig", "rolled": False},
                  {"d6": [1, 2, 3, 4, 5, 6], "d8": [1]})
    cyn = st.board.units["cynwrig"]
    assert "roll cynwrig" in game_steps(st)
    assert [d.face for d in cyn.pool] == [1, 2, 3, 4, 5, 6, 1]  # all 7 dice rolled (EX-2)
    assert cyn.rolled_category == "singles"  # only the 4 attack dice count: 1 2 3 5
    assert hp(st, "cynwrig") == 173  # Bleed face 1: 2 damage in step 2 (EX-3)
    assert [d.kind for d in cyn.pool][-2:] == ["archery", "bleed"]  # both stay (R-DICE-5)
    assert "spell 5" in texts(st)  # the d6 Archery die waits for a Bonus Action (R-DICE-4)


def test_ex4_r_be_1_r_be_2_gain_energy_once_per_die() -> None:
    st = duel([{"id": "ulwazi", "hex": "1,0", "energy": 9, "pool": pool(1, 2, 3, 5)}], active="ulwazi")
    st.apply("energy 3", 1)
    assert st.board.units["ulwazi"].energy == 14
    with pytest.raises(IllegalAction):
        st.apply("energy 3", 1)


def test_a23_a_die_gained_this_turn_gives_no_energy() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": [*pool(1, 2, 3, 5), die("be", None, fresh=True)]}])
    assert "energy 3" in texts(st)
    assert "energy 4" not in texts(st)


def test_ex6_r_att_3_r_att_4_triples_allow_every_category() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": pool(5, 5, 5, 1, 6, kinds="aaabt")}])
    attacks = sorted(t for t in texts(st) if t.startswith("attack"))
    assert attacks == ["attack cleave", "attack rending_strike", "attack skull_splitter", "attack unleashed_fury",
                       "attack vaulting_blow"]


def test_ex7_r_dmg_2_r_dmg_3_singles_only_and_pyroblast_adds_its_face() -> None:
    ul_pool = [*pool(6, 4, 3, 1), die("pyroblast", 6)]
    st = duel([{"id": "ulwazi", "hex": "1,0", "pool": ul_pool}, {"id": "vhrak", "hex": "3,0"}], active="ulwazi")
    attacks = sorted(t for t in texts(st) if t.startswith("attack"))
    assert attacks == ["attack firebolt", "attack kindle"]
    st.apply("attack kindle", 1)
    st.apply("target vhrak", 1)  # Targets 1: resolves at once
    assert hp(st, "vhrak") == 175 - 19
    assert "ignite" in [d.kind for d in st.board.units["vhrak"].pool]  # Kindle's effect on the target


def test_r_att_6_a19_several_targets_each_take_full_damage() -> None:
    ul_pool = pool(2, 2, 3, 1)
    st = duel([{"id": "ulwazi", "hex": "0,0", "pool": ul_pool}, {"id": "vhrak", "hex": "2,0"},
               {"id": "lienne", "hex": "-2,0"}], active="ulwazi")
    st.apply("attack flame_wave", 1)  # Targets 1 + 1
    assert sorted(texts(st)) == ["cancel", "target lienne", "target vhrak"]
    st.apply("target vhrak", 1)
    assert "done" in texts(st)
    st.apply("target lienne", 1)
    assert hp(st, "vhrak") == hp(st, "lienne") == 175 - 7


def test_r_att_7_r_att_9_a20_no_enemy_in_range_gives_a_bonus_die_instead() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 3, 4)}, {"id": "ulwazi", "hex": "3,0"}])
    st.apply("attack cleave", 0)
    assert texts(st) == ["choose temp", "choose be"]
    st.apply("choose be", 0)
    vhrak = st.board.units["vhrak"]
    assert [d.kind for d in vhrak.pool].count("be") == 2
    assert vhrak.attacked
    assert not any(t.startswith("attack") for t in texts(st))  # R-ACT-2


def test_r_att_8_no_line_of_sight() -> None:
    st = duel([{"id": "ulwazi", "hex": "0,0", "pool": pool(1, 2, 3, 4)}, {"id": "lienne", "hex": "1,0"},
               {"id": "vhrak", "hex": "2,0"}], active="ulwazi")
    st.apply("attack firebolt", 1)
    assert "target vhrak" in texts(st)


def test_cancel_drops_a_partial_attack() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 3, 4)}])
    st.apply("attack cleave", 0)
    st.apply("cancel", 0)
    assert "attack cleave" in texts(st)


def test_r_mov_1_r_act_2_one_move_action_per_round() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 3, 4)}, {"id": "ulwazi", "hex": "4,0"}])
    moves = [t for t in texts(st) if t.startswith("move")]
    assert "move 3,0" in moves
    assert "move 4,-1" not in moves
    st.apply("move 0,3", 0)
    assert not any(t.startswith("move") for t in texts(st))


def test_ex17_r_ult_1_to_3_invoke_keeps_the_unused_die_and_unlocks_triples() -> None:
    vh_pool = [*pool(1, 2, 4, 3), die("be", 5)]
    st = duel([{"id": "vhrak", "hex": "0,0", "energy": 15, "pool": vh_pool},
               {"id": "ulwazi", "hex": "1,0"}])
    st.apply("energy 3", 0)  # first BE die used: 18
    assert sorted(t for t in texts(st) if t.startswith("invoke")) == ["invoke 3", "invoke 4"]
    st.apply("invoke 4", 0)  # keep the unused one
    vhrak = st.board.units["vhrak"]
    assert vhrak.energy == 18 - 15
    assert [d.kind for d in vhrak.pool] == ["atk", "atk", "atk", "be"]
    st.apply("energy 3", 0)
    assert vhrak.energy == 3 + 5
    assert "attack unleashed_fury" in texts(st)  # Singles rolled, Triples available
    st.apply("attack unleashed_fury", 0)
    st.apply("target ulwazi", 0)
    assert hp(st, "ulwazi") == 175 - (1 + 2 + 4 + 8)


def test_a25_r_ult_4_no_invocation_after_attacking() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "energy": 20, "pool": pool(1, 2, 4, 3)}, {"id": "ulwazi", "hex": "1,0"}])
    assert "invoke 3" in texts(st)
    st.apply("attack cleave", 0)
    st.apply("target ulwazi", 0)
    assert not any(t.startswith("invoke") for t in texts(st))


def test_r_cln_1_a27_doubles_recall_the_temporary_dice_that_counted() -> None:
    vh_pool = [*pool(2, 2, 3, 1, 4, kinds="aaabt"), die("tmp", None, fresh=True)]
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": vh_pool}, {"id": "ulwazi", "hex": "1,0"}])
    st.apply("attack cleave", 0)  # a Singles attack on a Doubles roll
    st.apply("target ulwazi", 0)
    assert hp(st, "ulwazi") == 175 - (2 + 2 + 3 + 4 + 3)
    st.apply("end", 0)
    kinds = [d.kind for d in st.board.units["vhrak"].pool]
    assert kinds.count("tmp") == 1  # the fresh one stays (R-CLN-3)


def test_r_cln_2_singles_keep_their_temporary_dice() -> None:
    vh_pool = pool(1, 2, 3, 1, 4, kinds="aaabt")
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": vh_pool}, {"id": "ulwazi", "hex": "1,0"}])
    st.apply("attack cleave", 0)
    st.apply("target ulwazi", 0)
    st.apply("end", 0)
    assert [d.kind for d in st.board.units["vhrak"].pool].count("tmp") == 1


def test_r_pact_1_r_bon_1_r_be_4_pacts_cost_energy_once_per_round() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "energy": 7, "hp": 100, "pool": pool(1, 2, 3, 1)}])
    assert "pact blood_frenzy" in texts(st)
    assert "pact iron_hide" not in texts(st)  # costs 8
    st.apply("pact blood_frenzy", 0)
    vhrak = st.board.units["vhrak"]
    assert vhrak.energy == 1
    assert [d.kind for d in vhrak.pool].count("tmp") == 1
    assert "pact blood_frenzy" not in texts(st)


def test_r_bon_2_the_current_card_bonus_action_once() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "current": "war_cry", "pool": pool(1, 2, 3, 1)},
               {"id": "ulwazi", "hex": "2,0"}])
    st.apply("bonus card", 0)
    assert st.board.units["vhrak"].mods == {"range": 1}
    assert "bonus card" not in texts(st)
    st.apply("attack cleave", 0)
    assert "target ulwazi" in texts(st)  # Range 1 + 1 reaches 2 (R-ATTR-2)


def test_a22_r_dice_4_spell_dice_resolve_as_bonus_actions() -> None:
    params = {"players": 2, "champions": ["cynwrig", "vhrak"], "boss": None, "rivals": ["lienne"]}
    cyn_pool = [*pool(1, 2, 3, 1), die("archery", 2), die("archery", 6)]
    st = scenario(params, {"units": [{"id": "cynwrig", "hex": "0,0", "pool": cyn_pool},
                                     {"id": "vhrak", "hex": "3,0"}, {"id": "lienne", "hex": "-4,4"}],
                           "order": ["cynwrig", "vhrak", "lienne"], "active": "cynwrig"})
    assert [t for t in texts(st) if t.startswith("spell")] == ["spell 4", "spell 5"]
    st.apply("spell 4", 0)  # face 2: Targets +1
    assert st.board.units["cynwrig"].mods == {"targets": 1}
    st.apply("spell 5", 0)  # face 6: recall itself
    assert [d.kind for d in st.board.units["cynwrig"].pool] == ["atk", "atk", "atk", "be", "archery"]


def test_r_win_2_a47_a_defeated_champion_leaves_at_once() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": pool(6, 6, 6, 1)}, {"id": "ulwazi", "hex": "1,0", "hp": 10}])
    st.apply("attack unleashed_fury", 0)
    st.apply("target ulwazi", 0)
    ul = st.board.units["ulwazi"]
    assert not ul.alive
    assert ul.hex is None
    assert "Ulwazi is defeated (Unleashed Fury)" in st.event_log(None)


def test_r_win_1_the_last_side_standing_wins() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None}
    st = scenario(params, {"units": [{"id": "vhrak", "hex": "0,0", "pool": pool(6, 6, 6, 1)},
                                     {"id": "ulwazi", "hex": "1,0", "hp": 10}],
                           "order": ["vhrak", "ulwazi"], "active": "vhrak", "tiles": []})
    st.apply("attack cleave", 0)
    st.apply("target ulwazi", 0)
    assert st.is_terminal()
    assert st.returns() == [1.0, 0.0]
    assert st.scores() == [1.0, 0.0]


def test_kw_reroll_a29_an_unused_die_rolls_again_and_the_category_follows() -> None:
    params = {"players": 2, "champions": ["lienne", "vhrak"], "boss": None, "rivals": ["ulwazi"]}
    li_pool = [*pool(2, 2, 3, 4), die("whip", 3)]
    st = scenario(params, {"units": [{"id": "lienne", "hex": "0,0", "pool": li_pool},
                                     {"id": "vhrak", "hex": "3,0"}, {"id": "ulwazi", "hex": "-4,4"}],
                           "order": ["lienne", "vhrak", "ulwazi"], "active": "lienne", "tiles": []}, {"d6": [5]})
    st.apply("energy 3", 0)  # the BE die is used now: it cannot be rerolled
    st.apply("spell 4", 0)  # Whip face 3: reroll
    assert texts(st) == ["choose 0", "choose 1", "choose 2"]
    st.apply("choose 1", 0)
    lienne = st.board.units["lienne"]
    assert [d.face for d in lienne.pool[:3]] == [2, 5, 3]
    assert lienne.rolled_category == "singles"
    assert "attack whip_lash" not in texts(st)
