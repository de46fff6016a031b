"""Grevvar's Rot deck (R-CMP-9; house cards, ruling 25): what a Rot card does, when it is drawn,
the reshuffle of an empty deck (TB-DECK) and the deck's hidden order.

Each rigged test starts Grevvar's turn with the dice 1, 2, 3 (Singles: Grave Bolt, +2) and a
BE die showing 4, so the attack deals 8 before the Rot card.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import at, game, hp, scenario
from pydantic import ValidationError

from bloodforge.core import DataFileError, Rng, ScenarioError
from bloodforge.games.arena.content import DATA_DIR, Boss, load_content
from bloodforge.games.arena.game import ArenaState

ROT = "rot:grevvar"
BOLT = 1 + 2 + 3 + 2  # R-DMG-2/3: the Singles dice + Grave Bolt's printed +2


def rot_ids() -> list[str]:
    return sorted(c.id for c in load_content().boss("grevvar").rot)


def grevvar_turn(vhrak: dict[str, Any], rot: list[str] | None = None, decks: dict[str, Any] | None = None,
                 grevvar_hex: str = "0,0") -> ArenaState:
    """Solo Vhrak against Grevvar, Grevvar to act, Boss Action 'Hunger' (no effect in solo)."""
    params = {"players": 1, "champions": ["vhrak"], "boss": "grevvar"}
    pos: dict[str, Any] = {"units": [{"id": "grevvar", "hex": grevvar_hex}, {"id": "vhrak", **vhrak}],
                           "order": ["grevvar", "vhrak"], "active": "grevvar", "tiles": []}
    if decks is not None:
        pos["decks"] = decks
    rig: dict[str, Any] = {"d6": [1, 2, 3, 4], "decks": {"actions:grevvar": ["hunger"]}}
    if rot is not None:
        rig["decks"][ROT] = rot
    return scenario(params, pos, rig)


def rot_log(st: ArenaState) -> list[str]:
    return [t for t in st.event_log(None) if "Rot card" in t]


# -- the cards ------------------------------------------------------------------------------------
def test_r_cmp_9_grevvar_brings_fifteen_rot_cards_as_house_data() -> None:
    boss = load_content().boss("grevvar")
    assert len(boss.rot) == 15
    assert len(rot_ids()) == 15
    assert all(c.effects for c in boss.rot)
    assert "Rot card" in boss.source
    assert boss.house
    assert not load_content().boss("malvarra").rot  # only Grevvar has a Rot deck


def test_r_set_11_r_cmp_9_grevvars_setup_shuffles_his_rot_deck() -> None:
    st = game(players=1, boss="grevvar", seed=5).new_initial_state()
    assert sorted(st.board.decks[ROT].pile) == rot_ids()
    assert st.board.decks[ROT].discards == []
    assert ROT not in game(players=1, boss="malvarra").new_initial_state().board.decks
    orders = {tuple(game(players=1, boss="grevvar", seed=s).new_initial_state().board.decks[ROT].pile)
              for s in range(6)}
    assert len(orders) > 1  # shuffled by the seed, not in file order


def test_r_cmp_9_a_rot_card_names_an_illegal_effect_clearly() -> None:
    base = load_content().boss("grevvar").model_dump()
    bad = {**base, "rot": [{"id": "rot_x", "name": "X", "effects": [{"op": "move", "amount": 2}]}]}
    with pytest.raises(ValidationError, match=re.escape("Rot card 'rot_x': effect 'move'")):
        Boss.model_validate(bad)
    dup = {**base, "rot": [base["rot"][0], base["rot"][0]]}
    with pytest.raises(ValidationError, match=re.escape("duplicate Rot card ids")):
        Boss.model_validate(dup)
    empty = {**base, "rot": [{"id": "rot_x", "name": "X", "effects": []}]}
    with pytest.raises(ValidationError, match=re.escape("rot.0.effects")):
        Boss.model_validate(empty)


def test_r_cmp_9_a_designers_bad_rot_card_names_the_file_and_field(tmp_path: Path) -> None:
    data = json.loads((DATA_DIR / "bosses.json").read_text())
    grevvar = next(b for b in data["items"] if b["id"] == "grevvar")
    grevvar["rot"][0]["effects"][0]["op"] = "rot_away"
    (tmp_path / "bosses.json").write_text(json.dumps(data))
    with pytest.raises(DataFileError) as err:
        load_content(str(tmp_path))
    assert re.search(r"bosses\.\d+\.rot\.0\.effects\.0\.op", str(err.value))


# -- when a Rot card is drawn and what it does ----------------------------------------------------
def test_r_dmg_1_rot_a_rigged_rot_card_follows_the_damage_of_grevvars_attack() -> None:
    st = grevvar_turn({"hex": "2,0"}, rot=["rot_sloughing_flesh"])
    assert hp(st, "vhrak") == 175 - BOLT - 3  # Sloughing Flesh: 3 more
    assert rot_log(st) == ["Grevvar deals the Rot card 'Sloughing Flesh' to Vhrak"]
    obs = st.observation(0)["decks"][ROT]
    assert obs == {"size": 14, "discards": ["rot_sloughing_flesh"]}  # face up once resolved


def test_rot_self_and_target_effects_soul_leech() -> None:
    st = grevvar_turn({"hex": "2,0", "energy": 5}, rot=["rot_soul_leech"])
    assert st.board.units["vhrak"].energy == 4
    assert st.board.units["grevvar"].energy == 4 + 1  # N4: the BE die's 4, then the leech's 1
    assert hp(st, "vhrak") == 175 - BOLT


def test_rot_ruling_10_withering_lasts_until_the_end_of_the_victims_next_turn() -> None:
    st = grevvar_turn({"hex": "2,0"}, rot=["rot_withering"])
    assert st.board.units["vhrak"].mods == {"movement": -1}
    assert st.board.active == "vhrak"
    moves = [str(a).split()[1] for a in st.legal_actions(0) if str(a).startswith("move ")]
    vhrak_movement = load_content().champion("vhrak").movement
    start = st.board.units["vhrak"].hex
    assert start is not None
    assert moves
    for m in moves:
        q, r = (int(x) for x in m.split(","))
        dq, dr = q - start[0], r - start[1]
        assert (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= vhrak_movement - 1
    st.apply("end", 0)
    assert st.board.units["vhrak"].mods == {}


def test_r_fm_4_rot_grasping_dead_pulls_the_victim_toward_grevvar() -> None:
    st = grevvar_turn({"hex": "3,0"}, rot=["rot_grasping_dead"])
    # F1/TB-FMC: an NPC pulls as far as it can; the only hex one closer needs nobody to choose
    assert "Grasping Dead" in rot_log(st)[0]
    assert at(st, "vhrak") == "2,0"


def test_rot_creeping_dread_discards_the_slowest_initiative_card() -> None:
    st = grevvar_turn({"hex": "2,0"}, rot=["rot_creeping_dread"])
    cards = {c.id: c.speed for c in load_content().champion("vhrak").cards}
    vhrak = st.board.units["vhrak"]
    assert len(vhrak.discard) == 1
    assert vhrak.discard[0] == max(cards, key=lambda c: (cards[c], c))


def test_rot_no_card_when_the_attack_fells_its_victim() -> None:
    st = grevvar_turn({"hex": "2,0", "hp": 5}, rot=["rot_festering_wound"])
    assert st.is_terminal()
    assert rot_log(st) == []
    assert len(st.board.decks[ROT]) == 15
    assert st.board.decks[ROT].discards == []


def test_rot_no_card_when_the_attack_misses() -> None:
    """R-ATT-9: nobody in Range, nothing resolves, so no Rot either (Grevvar moves 2, Range 3)."""
    st = grevvar_turn({"hex": "6,0"}, rot=["rot_festering_wound"], grevvar_hex="-2,0")
    assert hp(st, "vhrak") == 175
    assert rot_log(st) == []
    assert len(st.board.decks[ROT]) == 15


def test_rot_one_card_per_damaged_champion_in_target_order() -> None:
    """Death Tide (Triples, Targets +2) hits Vhrak and the Rival Maere: a card for each."""
    params = {"players": 1, "champions": ["vhrak"], "boss": "grevvar", "rivals": ["maere"]}
    pos = {"units": [{"id": "grevvar", "hex": "0,0"}, {"id": "vhrak", "hex": "2,0"},
                     {"id": "maere", "hex": "0,2"}],
           "remove": ["samalira"], "order": ["grevvar", "vhrak", "maere"], "active": "grevvar", "tiles": []}
    rig = {"d6": [5, 5, 5, 1], "decks": {"actions:grevvar": ["hunger"],
                                         ROT: ["rot_festering_wound", "rot_sloughing_flesh"]}}
    st = scenario(params, pos, rig)
    tide = 5 * 3 + 6  # Triples dice + Death Tide's +6
    log = rot_log(st)
    assert len(log) == 2
    assert "Festering Wound" in log[0]
    assert "Sloughing Flesh" in log[1]
    extra = {log[0].split(" to ")[1]: 2, log[1].split(" to ")[1]: 3}  # the cards in target order
    assert set(extra) == {"Vhrak", "Maere"}
    assert hp(st, "vhrak") == 175 - tide - extra["Vhrak"]
    assert hp(st, "maere") == 175 - tide - extra["Maere"]
    assert st.board.decks[ROT].discards == ["rot_festering_wound", "rot_sloughing_flesh"]


def test_r_eact_5_rot_the_risens_blows_deal_no_rot() -> None:
    """Only Grevvar's own attacks deal Rot (ruling 25); a Risen's attack on an Environmental line does not."""
    params = {"players": 1, "champions": ["vhrak"], "boss": "grevvar"}
    pos = {"units": [{"id": "vhrak", "hex": "3,1"}, {"id": "grevvar", "hex": "-5,5"}],
           "order": ["env:spawn_pits", "vhrak", "grevvar"], "active": "env:spawn_pits"}
    st = scenario(params, pos, {"decks": {"envcards:spawn_pits": ["env_3"]}})  # A + B: raise, attack
    assert hp(st, "vhrak") == 175 - 3
    assert rot_log(st) == []
    assert len(st.board.decks[ROT]) == 15


def test_exr_1_rot_lethargy_makes_the_victim_act_last_this_round() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": "grevvar", "rivals": ["maere"]}
    pos = {"units": [{"id": "grevvar", "hex": "0,0", "speed": 1}, {"id": "vhrak", "hex": "2,0", "speed": 2},
                     {"id": "maere", "hex": "-6,6", "hp": 60, "speed": 4}],
           "remove": ["samalira"], "order": ["grevvar", "vhrak", "maere"], "active": "grevvar", "tiles": []}
    st = scenario(params, pos, {"d6": [1, 2, 3, 4], "decks": {"actions:grevvar": ["hunger"], ROT: ["rot_lethargy"]}})
    assert rot_log(st) == ["Grevvar deals the Rot card 'Lethargy' to Vhrak"]
    assert st.board.units["vhrak"].speed == 6
    assert st.board.order.index("maere") < st.board.order.index("vhrak")  # EXR-1: the order re-sorts


def test_r_fm_4_rot_the_packaged_grevvar_scenario_deals_grasping_dead() -> None:
    g = game(players=1, boss="grevvar")
    folder = g.scenario_dir()
    assert folder is not None
    st = g.load_scenario(folder / "grevvar_rot.yaml")
    assert isinstance(st, ArenaState)
    assert rot_log(st) == ["Grevvar deals the Rot card 'Grasping Dead' to Vhrak"]
    assert at(st, "vhrak") == "2,0"
    assert hp(st, "vhrak") == 175 - BOLT
    assert st.observation(0)["decks"][ROT] == {"size": 14, "discards": ["rot_grasping_dead"]}
    assert "rot_sloughing_flesh" not in json.dumps(st.observation(0))  # the next card stays hidden


# -- TB-DECK and hidden order ---------------------------------------------------------------------
def test_tb_deck_an_empty_rot_deck_reshuffles_its_discards() -> None:
    st = grevvar_turn({"hex": "2,0"}, decks={ROT: {"pile": [], "discards": rot_ids()}})
    deck = st.board.decks[ROT]
    assert len(deck) == 14
    assert len(deck.discards) == 1
    assert len(rot_log(st)) == 1
    assert sorted(deck.pile + deck.discards) == rot_ids()


def test_tb_deck_the_last_rot_card_is_drawn_before_any_reshuffle() -> None:
    rest = [c for c in rot_ids() if c != "rot_grave_chill"]
    st = grevvar_turn({"hex": "2,0", "energy": 3}, decks={ROT: {"pile": ["rot_grave_chill"], "discards": rest}})
    assert st.board.units["vhrak"].energy == 1
    assert len(st.board.decks[ROT]) == 0
    assert st.board.decks[ROT].discards == [*rest, "rot_grave_chill"]


def test_tb_deck_rot_order_is_hidden_and_resample_hidden_reshuffles_it() -> None:
    st = game(players=1, boss="grevvar", seed=2).new_initial_state()
    pile = list(st.board.decks[ROT].pile)
    obs = st.observation(0)
    assert obs["decks"][ROT] == {"size": 15, "discards": []}
    text = json.dumps(obs) + json.dumps(st.observation(None)) + "\n".join(st.event_log(0))
    assert not any(c in text for c in rot_ids())  # no Rot card is seen before it is dealt
    orders = set()
    for k in range(8):
        sample = st.resample_hidden(0, Rng(k))
        assert isinstance(sample, ArenaState)
        assert sample.observation(0) == obs
        assert sorted(sample.board.decks[ROT].pile) == sorted(pile)
        orders.add(tuple(sample.board.decks[ROT].pile))
    assert len(orders) > 1  # the order is forgotten, not copied


def test_scenario_rot_deck_errors_name_the_field() -> None:
    with pytest.raises(ScenarioError, match=re.escape("rig.decks.rot:grevvar: rot_nope not in this deck")):
        grevvar_turn({"hex": "2,0"}, rot=["rot_nope"])
    with pytest.raises(ScenarioError, match=re.escape("position.decks.rot:grevvar: pile and discards")):
        grevvar_turn({"hex": "2,0"}, decks={ROT: {"pile": ["rot_withering"], "discards": []}})
    with pytest.raises(ScenarioError, match=re.escape("position.decks: no deck 'rot:malvarra'")):
        grevvar_turn({"hex": "2,0"}, decks={"rot:malvarra": {"pile": []}})


def test_tb_deck_rot_deck_is_conserved_and_hidden_in_random_playouts() -> None:
    """Invariant after every action: the 15 Rot cards are pile + discards, and every seat's
    observation shows the pile's size and the face-up discards only. Long FFA games deal more
    than 15 Rot cards, so the reshuffle (TB-DECK) happens inside the playout."""
    ids = rot_ids()
    most = 0
    for seed in range(2):
        st = game(players=3, boss="grevvar", seed=seed, max_rounds=30).new_initial_state()
        rng = Rng(seed)
        while not st.is_terminal():
            seat = st.actors()[0]
            st.apply(rng.choice(st.legal_actions(seat)), seat)
            deck = st.board.decks[ROT]
            assert sorted(deck.pile + deck.discards) == ids
            for s in (0, 1, 2):
                assert st.observation(s)["decks"][ROT] == {"size": len(deck), "discards": list(deck.discards)}
        most = max(most, len(rot_log(st)))
    assert most > 15
