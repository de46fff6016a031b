"""Spec §2: the automated Boss and Rival turn N1-N15 with the tie-breaks of §2.10.

Each test rigs the Boss Action deck and the dice and reads the game's own steps (seat None
entries), so the exact decision order of §2.3 is pinned.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from arena_helpers import at, game, game_steps, hp, pool, scenario, texts

from bloodforge.core import ParameterError
from bloodforge.games.arena.content import DATA_DIR


def malvarra(position_units: list[dict], order: list[str], rig: dict | None = None, **params: object):
    p = {"players": 2, "champions": ["vhrak", "cynwrig"], "boss": "malvarra", **params}
    pos = {"units": position_units, "order": order, "active": order[0], "tiles": []}
    return scenario(p, pos, rig)


def test_ex9_n9_n10_malvarra_ignores_the_inaccessible_stronger_cynwrig() -> None:
    """EX-9 / R-TGT-1/2: Cynwrig has more HP but lies beyond Movement 3 + Range 2."""
    st = malvarra(
        [{"id": "malvarra", "hex": "0,0"}, {"id": "vhrak", "hex": "3,0", "hp": 100},
         {"id": "cynwrig", "hex": "0,6"}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["feast"]}},
    )
    steps = game_steps(st)
    assert steps[:7] == ["npc malvarra card", "npc malvarra roll", "npc malvarra energy",
                         "npc malvarra target vhrak", "npc malvarra move 1,0", "npc malvarra attack vhrak",
                         "npc malvarra end"]
    assert hp(st, "vhrak") == 100 - (1 + 2 + 3 + 2)  # R-DMG-2/3: dice + Scything Claw's +2
    assert st.board.units["malvarra"].energy == 4  # N4
    assert at(st, "malvarra") == "1,0"


def test_n11a_r_tgt_4_no_move_when_the_target_is_already_in_range() -> None:
    st = malvarra(
        [{"id": "malvarra", "hex": "0,0"}, {"id": "vhrak", "hex": "2,0"}, {"id": "cynwrig", "hex": "0,-2", "hp": 90}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["feast"]}},
    )
    steps = game_steps(st)
    assert "npc malvarra target vhrak" in steps
    assert not any(s.startswith("npc malvarra move") for s in steps)
    assert at(st, "malvarra") == "0,0"


def test_r_tgt_3_ties_for_most_hp_go_to_the_slower_enemy() -> None:
    st = malvarra(
        [{"id": "malvarra", "hex": "0,0"}, {"id": "vhrak", "hex": "2,0"}, {"id": "cynwrig", "hex": "0,-2"}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["feast"]}},
    )
    assert "npc malvarra target cynwrig" in game_steps(st)  # equal HP, Cynwrig slower


def test_r_tgt_8_a_boss_action_card_changes_the_target_rule() -> None:
    st = malvarra(
        [{"id": "malvarra", "hex": "0,0"}, {"id": "vhrak", "hex": "2,0", "hp": 60},
         {"id": "cynwrig", "hex": "0,-2"}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["predator"]}},
    )
    assert "npc malvarra target vhrak" in game_steps(st)  # Predator: least HP


def test_n14_tb13_tb3_no_access_gains_a_temporary_die_and_closes_in() -> None:
    st = malvarra(
        [{"id": "malvarra", "hex": "0,-6"}, {"id": "vhrak", "hex": "0,6"}, {"id": "cynwrig", "hex": "6,0", "hp": 50}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["feast"]}},
    )
    steps = game_steps(st)
    assert "npc malvarra idle" in steps
    boss = st.board.units["malvarra"]
    assert [d.kind for d in boss.pool].count("tmp") == 1
    # goal: Vhrak (most HP); three steps straight toward 0,6
    assert at(st, "malvarra") == "0,-3"
    assert hp(st, "vhrak") == 175


def test_ex8a_n11b_terror_takes_the_shortest_safe_path_around_the_thorns() -> None:
    params = {"players": 2, "champions": ["vhrak", "maere"], "boss": "terror"}
    pos = {"units": [{"id": "terror", "hex": "-2,1"}, {"id": "maere", "hex": "1,0"},
                     {"id": "vhrak", "hex": "3,-3", "hp": 50}],
           "tiles": [{"env": "spectral_thorns", "anchor": "0,0", "owner": "maere"}],
           "order": ["terror", "maere", "vhrak"], "active": "terror"}
    st = scenario(params, pos, {"d6": [1, 2, 3, 4], "decks": {"actions:terror": ["thick_hide"]}})
    steps = game_steps(st)
    assert "npc terror target maere" in steps
    assert "npc terror move 1,1" in steps  # 4 safe steps instead of 2 through the Thorns
    assert hp(st, "terror") == st.board.units["terror"].max_hp  # no hazard damage
    assert hp(st, "maere") == 175 - (1 + 2 + 3 + 3)


def test_ex8b_n11c_tb4_no_safe_path_the_fastest_human_picks_an_unsafe_end_hex() -> None:
    params = {"players": 2, "champions": ["vhrak", "maere"], "boss": "terror"}
    pos = {"units": [{"id": "terror", "hex": "-2,-1"}, {"id": "vhrak", "hex": "0,0"},
                     {"id": "maere", "hex": "4,-4", "hp": 50}],
           "tiles": [{"env": "spectral_thorns", "anchor": "0,0", "owner": "maere"}],
           "order": ["terror", "maere", "vhrak"], "active": "terror"}
    st = scenario(params, pos, {"d6": [1, 2, 3, 4], "d20": [7], "decks": {"actions:terror": ["thick_hide"]}})
    assert st.board.pending is not None
    assert st.actors() == [1]  # Maere is the fastest human (spec §2.1)
    assert sorted(str(a) for a in st.legal_actions()) == ["choose -1,0", "choose 0,-1"]
    st.apply("choose 0,-1", 1)
    assert at(st, "terror") == "0,-1"
    assert hp(st, "terror") == st.board.units["terror"].max_hp - 7  # 1d20 hazard, once (R-HAZ-5)
    assert hp(st, "vhrak") == 175 - (1 + 2 + 3 + 3)


def test_n6_tb5_boss_invokes_its_ultimate_when_able_and_not_on_triples() -> None:
    st = malvarra(
        [{"id": "malvarra", "hex": "0,0", "energy": 10}, {"id": "vhrak", "hex": "2,0"},
         {"id": "cynwrig", "hex": "-5,0", "hp": 20}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [1, 2, 3, 4, 6, 6], "decks": {"actions:malvarra": ["feast"]}},
    )
    steps = game_steps(st)
    assert "npc malvarra invoke" in steps  # 10 + 4 energy >= 12
    boss = st.board.units["malvarra"]
    assert boss.energy == 2
    # Hellfury (Triples) with Targets 2: Vhrak first, Cynwrig out of Range so alone
    assert hp(st, "vhrak") == 175 - (1 + 2 + 3 + 10)
    # Hellfury pushes 2: the push is pathed by Vhrak's fastest human opponent, Cynwrig (TB-FMC)
    assert st.actors() == [1]
    assert st.board.pending is not None
    assert st.board.pending.kind == "force"
    assert "stop" not in st.board.pending.options  # F1: NPCs push the full distance


def test_n6_tb5_no_invocation_on_a_triples_roll() -> None:
    st = malvarra(
        [{"id": "malvarra", "hex": "0,0", "energy": 10}, {"id": "vhrak", "hex": "2,0"},
         {"id": "cynwrig", "hex": "-5,0", "hp": 20}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [5, 5, 5, 4], "decks": {"actions:malvarra": ["feast"]}},
    )
    assert "npc malvarra invoke" not in game_steps(st)
    assert st.board.units["malvarra"].energy == 14


def test_n15_r_cln_1_boss_recalls_contributing_temporary_dice_after_doubles() -> None:
    st = malvarra(
        [{"id": "malvarra", "hex": "0,0", "pool": pool(None, None, None, None, None, kinds="aaabt")},
         {"id": "vhrak", "hex": "2,0"}, {"id": "cynwrig", "hex": "-5,0", "hp": 20}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [2, 2, 3, 4, 5, 6], "decks": {"actions:malvarra": ["feast"]}},
    )
    # Hooked Chain (Doubles), the temp die counted; Pull 2 drags Vhrak into Mal'varra: 1d6 = 6
    assert hp(st, "vhrak") == 175 - (2 + 2 + 3 + 5) - 6
    assert at(st, "vhrak") == "1,0"
    assert "Vhrak gains a Hook die" in st.event_log(None)
    assert [d.kind for d in st.board.units["malvarra"].pool].count("tmp") == 0


def test_n10_tb1_immune_minions_are_never_targets() -> None:
    params = {"players": 1, "champions": ["maere"], "boss": "malvarra"}
    pos = {"units": [{"id": "malvarra", "hex": "0,0"}, {"id": "samalira", "hex": "1,0"},
                     {"id": "maere", "hex": "0,6"}],
           "order": ["malvarra", "maere"], "active": "malvarra", "tiles": []}
    st = scenario(params, pos, {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["feast"]}})
    steps = game_steps(st)
    assert "npc malvarra idle" in steps  # Maere out of reach; Samalira adjacent but immune


def test_tb2_tb8_rivals_hit_minions_only_when_no_champion_is_reachable() -> None:
    params = {"players": 1, "champions": ["maere"], "boss": "grevvar", "rivals": ["vhrak"]}
    pos = {"units": [{"id": "vhrak", "hex": "0,0"}, {"id": "risen1", "hex": "1,0", "alive": True},
                     {"id": "maere", "hex": "0,5"}, {"id": "grevvar", "hex": "-4,4"}],
           "order": ["vhrak", "maere", "grevvar"], "active": "vhrak", "tiles": []}
    st = scenario(params, pos, {"d6": [1, 2, 3, 4], "decks": {"skirmish:vhrak": ["A"]}})
    steps = game_steps(st)
    # Grevvar is 4 away (M3+R1 reaches), so the Boss is hit, not the adjacent Risen
    assert "npc vhrak target grevvar" in steps


def test_n10_gr3_residual_minion_tie_goes_to_the_fastest_human() -> None:
    params = {"players": 1, "champions": ["maere"], "boss": "grevvar", "rivals": ["vhrak"]}
    pos = {"units": [{"id": "vhrak", "hex": "0,0"}, {"id": "risen1", "hex": "1,0", "alive": True},
                     {"id": "risen2", "hex": "-1,0", "alive": True},
                     {"id": "maere", "hex": "0,-6"}, {"id": "grevvar", "hex": "6,-6"}],
           "order": ["vhrak", "maere", "grevvar"], "active": "vhrak", "tiles": []}
    st = scenario(params, pos, {"d6": [6, 5, 4, 1], "decks": {"skirmish:vhrak": ["A"]}})
    assert st.board.pending is not None
    assert st.board.pending.kind == "npc_target"
    assert sorted(st.board.pending.options) == ["risen1", "risen2"]
    st.apply("choose risen2", 0)
    assert not st.board.units["risen2"].alive  # 6+5+4 + Cleave 3 >= 12 HP within one turn (R-MIN-7)
    assert st.board.units["risen1"].alive


def rival_turn(rival: str, units: list[dict], card: str, d6: list[int], champions: list[str] | None = None):
    params = {"players": 1, "champions": champions or ["ulwazi"], "boss": None, "rivals": [rival]}
    order = [rival, *(champions or ["ulwazi"])]
    pos = {"units": units, "order": order, "active": rival, "tiles": []}
    return scenario(params, pos, {"d6": d6, "decks": {f"skirmish:{rival}": [card]}})


def test_r_riv_3_tb6_a_rival_uses_the_highest_category_on_its_cards_side() -> None:
    st = rival_turn("vhrak", [{"id": "vhrak", "hex": "0,0"}, {"id": "ulwazi", "hex": "1,0"}], "B", [2, 2, 3, 4])
    assert "Vhrak attacks Ulwazi with Skull Splitter (doubles) for 10" in st.event_log(None)  # right Doubles
    assert "Ulwazi gains a Dazed die" in st.event_log(None)
    assert st.board.units["vhrak"].energy == 1 + 4  # Skirmish Bonus, then N4


def test_r_riv_1_r_riv_2_the_skirmish_bonus_comes_first_with_the_preferred_die() -> None:
    st = rival_turn("vhrak", [{"id": "vhrak", "hex": "0,0"}, {"id": "ulwazi", "hex": "1,0"}], "J", [1, 2, 3, 4, 5])
    vhrak = st.board.units["vhrak"]
    assert [d.kind for d in vhrak.pool].count("be") == 2  # Surge: a bonus die, preference Blood Energy
    assert vhrak.energy == 2 + 4 + 5  # card, then both BE dice (rolled: gained before the roll)
    st2 = rival_turn("vhrak", [{"id": "vhrak", "hex": "0,0"}, {"id": "ulwazi", "hex": "1,0"}], "D", [1, 2, 3, 4, 6])
    assert "Vhrak gains 1 Temporary Attack die" in st2.event_log(None)  # Sharpen: preference Temporary
    assert "Vhrak attacks Ulwazi with Rending Strike (singles) for 12" in st2.event_log(None)  # D: right side


def test_r_npc_5_special_icon_applies_the_rival_guide() -> None:
    st = rival_turn("cynwrig", [{"id": "cynwrig", "hex": "0,0"}, {"id": "ulwazi", "hex": "5,0"}], "K", [1, 2, 3, 4, 5])
    # K: Signature Move (+3 damage) and [SPECIAL]: Cynwrig's Rival card gives Range +2 (4 + 2 >= 5)
    assert "npc cynwrig target ulwazi" in game_steps(st)
    assert not any(s.startswith("npc cynwrig move") for s in game_steps(st))


def test_tb9_a_rival_attack_from_its_minion_does_not_move_the_rival() -> None:
    units = [{"id": "maere", "hex": "-3,0"}, {"id": "samalira", "hex": "1,0"}, {"id": "ulwazi", "hex": "2,0"}]
    st = rival_turn("maere", units, "A", [1, 2, 3, 4])  # A: left side, Singles = Spirit Lash from Samalira
    steps = game_steps(st)
    assert "npc maere target ulwazi" in steps
    assert not any(s.startswith("npc maere move") for s in steps)
    assert hp(st, "ulwazi") == 175 - (1 + 2 + 3 + 2)


def test_tb9_n14_minion_attack_with_nobody_near_the_minion_is_no_access() -> None:
    units = [{"id": "maere", "hex": "0,0"}, {"id": "samalira", "hex": "-4,0"}, {"id": "ulwazi", "hex": "2,0"}]
    st = rival_turn("maere", units, "A", [1, 2, 3, 4])
    assert "npc maere idle" in game_steps(st)
    assert hp(st, "ulwazi") == 175


def test_tb10_an_npc_passes_through_its_own_minions() -> None:
    units = [{"id": "maere", "hex": "0,0"}, {"id": "samalira", "hex": "1,0"}, {"id": "ulwazi", "hex": "5,0"}]
    st = rival_turn("maere", units, "B", [1, 2, 3, 4])  # B: right side, Thorn Bind from Maere herself, Range 2
    assert "npc maere move 3,0" in game_steps(st)  # straight through Samalira


def test_tb_deck_an_exhausted_boss_action_deck_is_reshuffled() -> None:
    st = game(players=1, seed=3, max_rounds=12).new_initial_state()
    while not st.is_terminal():
        seat = st.actors()[0]
        legal = [str(a) for a in st.legal_actions(seat)]
        st.apply("end" if "end" in legal else legal[0], seat)
    reveals = [t for t in st.event_log(None) if t.startswith("Mal'varra reveals Boss Action")]
    assert len(reveals) > 6


def test_n3_an_npcs_d8_special_dice_resolve_right_after_its_roll() -> None:
    boss_pool = [*pool(None, None, None, None), {"kind": "bleed"}]
    st = malvarra(
        [{"id": "malvarra", "hex": "0,0", "pool": boss_pool}, {"id": "vhrak", "hex": "2,0"},
         {"id": "cynwrig", "hex": "-5,0", "hp": 20}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [1, 2, 3, 4], "d8": [4], "decks": {"actions:malvarra": ["feast"]}},
    )
    log = st.event_log(None)
    i = log.index("Mal'varra rolls Attack 1, Attack 2, Attack 3, Blood Energy 4, Bleed 4 (Singles)")
    assert log[i + 1].startswith("Mal'varra takes 3 (Bleed die)")  # before energy and targeting
    assert log[i + 2] == "Mal'varra gains 4 Blood Energy (now 4)"


def test_n8_r_tgt_8_a_boss_action_card_changes_movement_and_thus_access() -> None:
    units = [{"id": "malvarra", "hex": "0,0"}, {"id": "vhrak", "hex": "0,6"}, {"id": "cynwrig", "hex": "6,-6",
                                                                                "hp": 50}]
    st = malvarra(units, ["malvarra", "vhrak", "cynwrig"],
                  {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["stalk"]}})
    steps = game_steps(st)
    assert "npc malvarra target vhrak" in steps  # Movement 3 + 1 and Range 2 reach 6
    assert "npc malvarra move 0,4" in steps


def test_n12_r_tgt_7_extra_targets_are_chosen_after_moving() -> None:
    st = malvarra(
        [{"id": "malvarra", "hex": "0,0", "energy": 0}, {"id": "vhrak", "hex": "3,0"},
         {"id": "cynwrig", "hex": "0,3", "hp": 100}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [5, 5, 5, 1], "decks": {"actions:malvarra": ["feast"]}},
    )
    # Hellfury: Targets 2. Vhrak (most HP) first; after moving to 1,0 Cynwrig (0,3) is 3 away: alone.
    assert "npc malvarra attack vhrak" in game_steps(st)
    st2 = malvarra(
        [{"id": "malvarra", "hex": "0,0"}, {"id": "vhrak", "hex": "3,0"}, {"id": "cynwrig", "hex": "1,1", "hp": 100}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [5, 5, 5, 1], "decks": {"actions:malvarra": ["feast"]}},
    )
    assert "npc malvarra attack vhrak,cynwrig" in game_steps(st2)
    assert hp(st2, "cynwrig") == 100 - 25


def test_tb8_minions_with_hp_are_extra_targets_after_champions() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": "grevvar", "rivals": ["cynwrig"]}
    pos = {"units": [{"id": "cynwrig", "hex": "0,0"}, {"id": "grevvar", "hex": "3,0"},
                     {"id": "risen1", "hex": "0,2", "alive": True}, {"id": "vhrak", "hex": "-6,6"}],
           "order": ["cynwrig", "vhrak", "grevvar"], "active": "cynwrig", "tiles": []}
    st = scenario(params, pos, {"d6": [2, 2, 3, 4, 1], "decks": {"skirmish:cynwrig": ["A"]}})
    assert "npc cynwrig attack grevvar,risen1" in game_steps(st)  # Volley (left Doubles): Targets 2


def test_n13_a_lost_target_is_replaced_from_the_current_hex() -> None:
    from bloodforge.games.arena import npc

    st = malvarra(
        [{"id": "malvarra", "hex": "0,0"}, {"id": "vhrak", "hex": "2,0"}, {"id": "cynwrig", "hex": "0,-2", "hp": 90}],
        ["malvarra", "vhrak", "cynwrig"],
        {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["feast"]}},
    )
    boss = st.board.units["malvarra"]
    boss.rolled_category = "singles"
    st.board.units["vhrak"].alive = False
    st.board.units["vhrak"].hex = None
    st.board.npc_plan = {"target": "vhrak"}
    atk = npc.chosen_attack(st, boss)
    targets = npc.final_targets(st, boss, atk, npc.attributes(st, boss, atk))
    assert [t.uid for t in targets] == ["cynwrig"]


# -- several Bosses (R-REC-2, A60) -------------------------------------------------------------------
TWO_BOSSES = {"players": 2, "champions": ["vhrak", "cynwrig"], "bosses": ["malvarra", "grevvar"]}


def test_r_rec_2_a60_several_bosses_each_bring_their_side_decks_and_environmental() -> None:
    st = game(**TWO_BOSSES, seed=4).new_initial_state()
    mal, grev = st.board.units["malvarra"], st.board.units["grevvar"]
    assert mal.side != grev.side  # Free-For-All: every Boss for itself (R-MODE-3)
    assert {"speed:malvarra", "speed:grevvar", "actions:malvarra", "actions:grevvar", "rot:grevvar",
            "speed:env:hellfire_spray", "speed:env:spawn_pits", "envcards:hellfire_spray",
            "envcards:spawn_pits"} <= set(st.board.decks)
    assert {t.env for t in st.board.tiles} == {"hellfire_spray", "spawn_pits"}
    assert {t.owner for t in st.board.tiles} == {"malvarra", "grevvar"}
    # both Bosses and both Environmentals reveal Speeds and take turns
    for _ in range(400):
        if st.is_terminal() or st.board.round > 3:
            break
        legal = texts(st)
        st.apply("end" if "end" in legal else legal[0], st.actors()[0])
    steps = game_steps(st)
    assert "npc malvarra card" in steps
    assert "npc grevvar card" in steps
    assert "env hellfire_spray" in steps
    assert "env spawn_pits" in steps
    with pytest.raises(ParameterError, match="not both"):
        game(players=2, boss="terror", bosses=["malvarra"])
    with pytest.raises(ParameterError, match="at most once"):
        game(players=2, bosses=["malvarra", "malvarra"])
    with pytest.raises(ParameterError, match="unknown boss"):
        game(players=2, bosses=["malvarra", "nobody"])


def test_r_tgt_3_r_min_10_tb7_with_two_bosses_slots_and_minions_decide_as_with_one() -> None:
    def boss_turn(order: list[str], risen_only: bool = False) -> list[str]:
        far = "-6,6" if risen_only else "2,0"
        units = [{"id": "malvarra", "hex": "0,0"}, {"id": "grevvar", "hex": far, "hp": 120},
                 {"id": "vhrak", "hex": "-2,0", "hp": 120}, {"id": "cynwrig", "hex": "6,-6", "hp": 200},
                 {"id": "risen1", "hex": "0,2", "alive": True}]
        if risen_only:
            units[2]["hex"] = "6,0"
        pos = {"units": units, "order": order, "active": order[0], "tiles": []}
        st = scenario(TWO_BOSSES, pos, {"d6": [1, 2, 3, 4], "decks": {"actions:malvarra": ["feast"]}})
        return game_steps(st)

    # Grevvar and Vhrak tie on HP: the slower in this round's order is the target (R-TGT-3)
    assert "npc malvarra target grevvar" in boss_turn(["malvarra", "vhrak", "grevvar", "cynwrig"])
    assert "npc malvarra target vhrak" in boss_turn(["malvarra", "grevvar", "vhrak", "cynwrig"])
    # the other Boss's Risen is a target only when no Champion or Boss can be reached (R-MIN-10)
    assert "npc malvarra target risen1" in boss_turn(["malvarra", "grevvar", "vhrak", "cynwrig"], risen_only=True)


def test_r_eact_5_a60_a_bosss_environmental_moves_only_its_own_minions(tmp_path: Path) -> None:
    data = json.loads((DATA_DIR / "bosses.json").read_text())
    mal = next(b for b in data["items"] if b["id"] == "malvarra")
    mal["minions"] = [{"id": "imp", "name": "Imp", "hp": 5, "movement": 3, "range": 1, "damage": 2}]
    (tmp_path / "bosses.json").write_text(json.dumps(data))
    params = {**TWO_BOSSES, "bosses": ["grevvar", "malvarra"], "content": str(tmp_path)}
    pos = {"units": [{"id": "vhrak", "hex": "3,1"}, {"id": "cynwrig", "hex": "-6,0", "hp": 10},
                     {"id": "grevvar", "hex": "-5,5"}, {"id": "malvarra", "hex": "0,-6", "hp": 10},
                     {"id": "imp", "hex": "4,1"}],
           "order": ["env:spawn_pits", "vhrak", "cynwrig", "grevvar", "malvarra"], "active": "env:spawn_pits"}
    st = scenario(params, pos, {"decks": {"envcards:spawn_pits": ["env_3"]}})  # A: spawn, B: minions act
    assert at(st, "risen1") == "3,0"
    assert hp(st, "vhrak") == 175 - 3  # Grevvar's Risen strikes; Mal'varra's Imp waits for its own Boss's lines
    assert at(st, "imp") == "4,1"


def test_a63_gr_3_a_rival_team_mates_destination_tie_goes_to_the_fastest_human_player() -> None:
    """Ruling 27: the rulebook's "the fastest human player" (R-TGT-5, GR-3), not the team's."""
    params = {"players": 2, "mode": "team", "champions": ["vhrak", "ulwazi"], "rivals": ["lienne"],
              "teams": [0, 1, 0], "boss": None}
    pos = {"units": [{"id": "lienne", "hex": "-5,1"}, {"id": "ulwazi", "hex": "2,0"}, {"id": "vhrak", "hex": "-6,6"}],
           "order": ["lienne", "ulwazi", "vhrak"], "active": "lienne", "tiles": []}
    st = scenario(params, pos, {"d6": [1, 2, 3, 4]})
    assert st.board.pending is not None
    assert st.board.pending.kind == "npc_approach"
    assert st.actors() == [1]  # Ulwazi (Lienne's enemy) is the fastest human; Vhrak, her team-mate, is not asked
    assert sorted(texts(st)) == ["choose -1,0", "choose -1,1"]
