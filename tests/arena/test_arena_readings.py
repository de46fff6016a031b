"""Readings of spec §4 (A…) not pinned elsewhere: small direct checks of the rule functions and
short scenarios (issue 20: every spec id names the test that checks it)."""

from __future__ import annotations

import json
from pathlib import Path

from arena_helpers import at, game, hp, pool, scenario

from bloodforge.games.arena import abilities, effects
from bloodforge.games.arena.content import DATA_DIR, Ability

SPRAY = [{"env": "hellfire_spray", "anchor": "0,0", "owner": "malvarra"}]
LINE = {"id": "line", "name": "a corridor", "hexes": ["-1,0", "0,0", "1,0", "2,0", "3,0"], "central": ["0,0"]}


def test_a9_environmentals_are_skipped_by_faster_and_slower() -> None:
    st = game(players=2, seed=1).new_initial_state()
    vhrak, ulwazi = st.board.units["vhrak"], st.board.units["ulwazi"]
    vhrak.speed, ulwazi.speed = 5, 6
    faster = Ability(select="faster_enemy", options=[[]])
    slower = Ability(select="slower_enemy", options=[[]])
    st.board.order = ["env:hellfire_spray", "malvarra", "vhrak", "ulwazi"]
    assert [u.uid for u in abilities.candidates(st, vhrak, faster)] == ["malvarra"]
    st.board.order = ["env:hellfire_spray", "vhrak", "malvarra", "ulwazi"]
    assert abilities.candidates(st, vhrak, faster) == []  # the Environmental keeps its slot, is nobody
    assert [u.uid for u in abilities.candidates(st, ulwazi, slower)] == []


def test_a12_r_ini_14_discarding_from_an_empty_hand_recycles_first_or_discards_nothing() -> None:
    st = game(players=2, seed=1).new_initial_state()
    vhrak = st.board.units["vhrak"]
    vhrak.hand, vhrak.discard = [], ["lunge", "berserk"]
    effects.discard_card(st, vhrak)
    assert vhrak.hand == ["lunge"]
    assert vhrak.discard == ["berserk"]  # the pile came back, then the slowest card went (ruling 6)
    vhrak.hand, vhrak.discard = [], []
    effects.discard_card(st, vhrak)  # only the current card exists: nothing is discarded
    assert (vhrak.hand, vhrak.discard) == ([], [])


def test_a21_zero_or_negative_damage_takes_no_hp() -> None:
    st = game(players=2, seed=1).new_initial_state()
    ulwazi = st.board.units["ulwazi"]
    assert effects.damage(st, ulwazi, 0, "test") == 0
    assert effects.damage(st, ulwazi, -4, "test") == 0
    assert ulwazi.hp == 175


def test_a26_only_a_temporary_attack_die_can_be_stolen() -> None:
    st = game(players=2, seed=1).new_initial_state()
    vhrak, ulwazi = st.board.units["vhrak"], st.board.units["ulwazi"]
    before = [d.kind for d in ulwazi.pool]
    effects.steal(st, vhrak, ulwazi)  # core dice can never be removed (R-DICE-1)
    assert [d.kind for d in ulwazi.pool] == before
    assert "Ulwazi has no Temporary Attack die to steal" in st.event_log(None)


def test_a33_death_on_the_way_ends_the_move_at_once() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None}
    pos = {"arena": LINE, "units": [{"id": "vhrak", "hex": "0,0", "hp": 3, "pool": pool(1, 2, 4, 1)},
                                    {"id": "ulwazi", "hex": "-1,0"}],
           "tiles": [{"env": "spike_traps", "anchor": "1,0"}], "order": ["vhrak", "ulwazi"], "active": "vhrak"}
    st = scenario(params, pos, {"d6": [3]})
    st.apply("move 2,0", 0)  # through the Spike Traps: 2 + 3 damage on the first step
    vhrak = st.board.units["vhrak"]
    assert not vhrak.alive
    assert vhrak.hex is None
    assert st.is_terminal()
    assert not any("moves 0,0 -> 2,0" in t for t in st.event_log(None))


def test_a51_a_defeated_champions_tiles_leave_with_it() -> None:
    params = {"players": 3, "champions": ["maere", "vhrak", "cynwrig"], "boss": None}
    pos = {"units": [{"id": "maere", "hex": "0,0"}, {"id": "vhrak", "hex": "3,0"}, {"id": "cynwrig", "hex": "-4,0"}],
           "tiles": [{"env": "spectral_thorns", "anchor": "3,-3", "owner": "maere"},
                     {"env": "trap", "anchor": "-3,3", "owner": "cynwrig"}],
           "order": ["maere", "vhrak", "cynwrig"], "active": "maere"}
    st = scenario(params, pos)
    effects.damage(st, st.board.units["maere"], 500, "test")
    assert [t.owner for t in st.board.tiles] == ["cynwrig"]


def test_a57_e3_flying_ignores_the_whole_hazard_effect_discards_included() -> None:
    params = {"players": 3, "champions": ["vhrak", "ulwazi", "maere"], "boss": "malvarra"}
    units = [{"id": "vhrak", "hex": "2,0", "hand": ["lunge", "plunder"], "flying": True},
             {"id": "ulwazi", "hex": "0,2", "hand": ["blink", "smoulder"]},
             {"id": "maere", "hex": "-5,2"}, {"id": "malvarra", "hex": "-5,0"}]
    order = ["env:hellfire_spray", "vhrak", "ulwazi", "maere", "malvarra"]
    pos = {"units": units, "order": order, "active": "env:hellfire_spray", "tiles": SPRAY}
    st = scenario(params, pos, {"d6": [3], "decks": {"envcards:hellfire_spray": ["env_3"]}})  # A then B
    assert st.board.units["vhrak"].hand == ["lunge", "plunder"]  # on the Spray, but Flying
    assert hp(st, "vhrak") == 175
    assert st.board.units["ulwazi"].hand == ["blink"]  # on it and not Flying: discards the slowest


def test_a58_tb_deck_environmental_action_cards_are_drawn_without_replacement() -> None:
    params = {"players": 3, "champions": ["vhrak", "ulwazi", "maere"], "boss": "malvarra"}
    units = [{"id": "vhrak", "hex": "-4,0"}, {"id": "ulwazi", "hex": "-5,1"}, {"id": "maere", "hex": "-5,2"},
             {"id": "malvarra", "hex": "-5,0"}]
    order = ["env:hellfire_spray", "vhrak", "ulwazi", "maere", "malvarra"]
    pos = {"units": units, "order": order, "active": "env:hellfire_spray", "tiles": SPRAY}
    st = scenario(params, pos, {"decks": {"envcards:hellfire_spray": ["env_2"]}})
    deck = st.board.decks["envcards:hellfire_spray"]
    assert deck.discards == ["env_2"]
    assert "env_2" not in deck.pile
    assert len(deck.pile) == 5


def test_a65_r_mode_6_a_boss_on_a_team_is_its_ally() -> None:
    st = game(players=2, mode="team", teams=[0, 1], boss_team=0, seed=2).new_initial_state()
    units = st.board.units
    assert units["malvarra"].side == units["vhrak"].side != units["ulwazi"].side
    assert at(st, "malvarra") is None  # placed in round 1 like every figure (R-FR-3)


def test_a24_r_ult_1_invoking_with_no_blood_energy_die_burns_nothing() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None}
    pos = {"units": [{"id": "vhrak", "hex": "0,0", "energy": 15, "pool": pool(1, 2, 4, kinds="aaa")},
                     {"id": "ulwazi", "hex": "1,0"}],
           "order": ["vhrak", "ulwazi"], "active": "vhrak", "tiles": []}
    st = scenario(params, pos)
    assert "invoke" in [str(a) for a in st.legal_actions()]  # ruling 18: no die to keep
    st.apply("invoke", 0)
    vhrak = st.board.units["vhrak"]
    assert vhrak.invoked
    assert vhrak.energy == 0
    assert [d.kind for d in vhrak.pool] == ["atk", "atk", "atk"]


def test_a53_r_min_9_a_minion_hit_by_a_collision_takes_it_as_an_enemy_of_the_forcer() -> None:
    params = {"players": 2, "champions": ["calvio", "vhrak"], "boss": "grevvar"}
    pos = {"units": [{"id": "calvio", "hex": "0,0", "pool": pool(2, 2, 5, 1)}, {"id": "vhrak", "hex": "1,0"},
                     {"id": "risen1", "hex": "2,0", "alive": True}, {"id": "grevvar", "hex": "-5,5"}],
           "order": ["calvio", "vhrak", "grevvar"], "active": "calvio", "tiles": []}
    st = scenario(params, pos, {"d6": [5]})
    st.apply("attack repulse", 0)
    st.apply("target vhrak", 0)
    st.apply("choose 2,0", 0)  # push Vhrak into Grevvar's Risen: both are Calvio's enemies (R-COL-5)
    assert at(st, "vhrak") == "1,0"
    assert hp(st, "vhrak") == 175 - 9 - 5
    assert st.board.units["risen1"].minion_damage == 5  # 8 HP: it stands this turn (R-MIN-7)
    assert st.board.units["risen1"].alive


def test_a45_a_bosss_own_environmental_spares_it_only_when_its_guide_says_so(tmp_path: Path) -> None:
    def spray_hits_malvarra(owner_immune: bool) -> int:
        data = json.loads((DATA_DIR / "environmentals.json").read_text())
        next(e for e in data["items"] if e["id"] == "hellfire_spray")["owner_immune"] = owner_immune
        folder = tmp_path / str(owner_immune)
        folder.mkdir()
        (folder / "environmentals.json").write_text(json.dumps(data))
        params = {"players": 3, "champions": ["vhrak", "ulwazi", "maere"], "boss": "malvarra", "content": str(folder)}
        units = [{"id": "vhrak", "hex": "-4,0"}, {"id": "ulwazi", "hex": "-5,1"}, {"id": "maere", "hex": "-5,2"},
                 {"id": "malvarra", "hex": "0,2"}]  # the first turn of the Spray moves onto her
        order = ["env:hellfire_spray", "vhrak", "ulwazi", "maere", "malvarra"]
        pos = {"units": units, "order": order, "active": "env:hellfire_spray", "tiles": SPRAY}
        st = scenario(params, pos, {"d6": [3], "decks": {"envcards:hellfire_spray": ["env_1"]}})
        mal = st.board.units["malvarra"]
        assert mal.max_hp is not None
        assert mal.hp is not None
        return mal.max_hp - mal.hp

    assert spray_hits_malvarra(False) == 2 + 3  # A45: affected unless the guide exempts her
    assert spray_hits_malvarra(True) == 0


def test_spec_2_5_a13_no_bonus_die_question_when_the_supply_has_neither_kind() -> None:
    params = {"players": 2, "champions": ["vhrak", "ulwazi"], "boss": None}
    hoard = [{"kind": "atk", "face": 1}] * 3 + [{"kind": "tmp", "face": 1}] * 15 + [{"kind": "be", "face": 1}] * 14
    pos = {"units": [{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 3, 4)},
                     {"id": "ulwazi", "hex": "4,0", "pool": hoard}],
           "order": ["vhrak", "ulwazi"], "active": "vhrak", "tiles": []}
    st = scenario(params, pos)
    st.apply("attack cleave", 0)  # nobody in range: a bonus die instead (R-ATT-9), but none is left (A13)
    assert st.board.pending is None
    assert [d.kind for d in st.board.units["vhrak"].pool] == ["atk", "atk", "atk", "be"]
    assert "Vhrak would gain a bonus die but the supply has none" in st.event_log(None)
