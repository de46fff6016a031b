"""The arena table in players' words (issue 18, issue 20 item 9): descriptions of all content
from the one renderer, the status board, decisions that say what they decide, the battle
record, no developer text, the Attack action only offered when it can do something, and
default setups that are legal by the rulebook."""

from __future__ import annotations

import re
from typing import Any

import pytest
from arena_helpers import die, game, pool, scenario, texts

import bloodforge
from bloodforge.games.arena.content import load_content
from bloodforge.games.arena.describe import cards
from bloodforge.games.arena.game import ArenaState

SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
CODES = re.compile(r"\b(R-[A-Z]+-?\d*|A\d\d|L\d{2,3}|None|null|undefined|NaN)\b")
DUO = {"players": 2, "boss": None, "rivals": ["lienne"]}


def developer_text(text: str) -> list[str]:
    return SNAKE.findall(text) + CODES.findall(text)


def duel(units: list[dict[str, Any]], active: str = "vhrak") -> ArenaState:
    base = [{"id": "vhrak", "hex": "0,0"}, {"id": "ulwazi", "hex": "1,0"}, {"id": "lienne", "hex": "-4,4"}]
    given = {u["id"] for u in units}
    units = [*units, *(u for u in base if u["id"] not in given)]
    order = [active] + [x for x in ("vhrak", "ulwazi", "lienne") if x != active]
    return scenario(DUO, {"units": units, "order": order, "active": active, "rolled": True, "tiles": []})


# -- descriptions (contract item 2) --------------------------------------------------------------
def test_every_content_item_has_a_description_without_ids_or_raw_effect_ops() -> None:
    content = load_content()
    described = cards(content)
    wanted = []
    for ch in content.champions:
        wanted += [ch.id, f"{ch.id}:ultimate", *(a.id for a in ch.attacks), *(p.id for p in ch.pacts),
                   *(k.id for k in ch.cards), *(f"die:{d.id}" for d in ch.dice),
                   *(f"minion:{m.id}" for m in ch.minions)]
    for b in content.bosses:
        wanted += [b.id, *(a.id for a in b.attacks), *(f"boss_action:{b.id}:{k.id}" for k in b.actions),
                   *(f"rot:{b.id}:{r.id}" for r in b.rot), *(f"die:{d.id}" for d in b.dice),
                   *(f"minion:{m.id}" for m in b.minions)]
    wanted += [f"env:{e.id}" for e in content.environmentals] + [f"skirmish:{s.letter}" for s in content.skirmish]
    missing = [k for k in wanted if k not in described]
    assert not missing
    for key, card in described.items():
        assert card["name"], key
        assert card["kind"], key
        assert card["text"], key
        words = " ".join([card["name"], card["kind"], card["text"], *(" ".join(s) for s in card["stats"])])
        assert not developer_text(words), (key, developer_text(words))
        for op in ("gain_die", "add_die", "attack_damage", "place_tile", "steal_temp", "target_special_dice"):
            assert op not in words, key


def test_descriptions_follow_the_rulebooks_wording() -> None:
    described = cards(load_content())
    # "Charge Attack allows Vhrak to 'Push' his target 1 space for each special die in their pool"
    assert "Push each target 1 space for each Special die in its pool" in described["vaulting_blow"]["text"]
    # Invoking the Ultimate: "Return all but one of the Blood Energy dice from your pool to the supply"
    ultimate = described["vhrak:ultimate"]["text"]
    assert "return all but one of your Blood Energy dice to the supply" in ultimate
    assert "as though you had rolled Triples" in ultimate
    # Resolving your attack: "each target of your attack suffers your attack's full damage"; base
    # damage "equals the sum of your Core Attack Dice (red) and Temporary Attack Dice (black)"
    assert "Each target takes the sum of the attack dice (red and black) + 3" in described["cleave"]["text"]
    # Throw: "the affected character has Flying during this forced movement"
    assert "Flying on the way" in described["rampage"]["text"]
    # Pull: towards the puller; a Boss's own name stands for "you"
    assert "Pull 2: move each target up to 2 spaces towards Mal'varra" in described["hooked_chain"]["text"]
    # Hazards: "The first time you move onto one of a hazard tile's spaces each turn"
    assert "the first time each turn" in described["env:spike_traps"]["text"]
    assert described["lunge"]["stats"] == [["Champion", "Vhrak"], ["Speed", "1"]]
    assert ["Damage", "dice + 3"] in described["cleave"]["stats"]


def test_static_info_carries_the_cards_and_the_names_of_action_words() -> None:
    info = game(players=2).static_info()
    assert info["cards"]["cleave"]["name"] == "Cleave"
    assert info["board"]["names"]["war_cry"] == "War Cry"
    assert info["board"]["names"]["orb1"] == "Arcane Orb 1"


# -- the status board (contract item 1) -----------------------------------------------------------
def test_status_board_shows_every_combatant_and_the_hand_only_to_its_owner() -> None:
    st = game(players=2).new_initial_state()
    st.apply("pick lunge", 0)
    for seat in (0, 1, None):
        obs = st.observation(seat)
        board = {s["unit"]: s for s in obs["status"]}
        assert set(board) == {"vhrak", "ulwazi", "malvarra"}
        items = {i["label"]: i["value"] for i in board["vhrak"]["items"]}
        assert items["HP"] == "175/175"
        assert items["Blood Energy"] == "0"
        assert items["Initiative"] == "card chosen"
        assert "Ultimate" in items
        assert "Dice" in items
        assert ("private" in board["vhrak"]) == (seat == 0)
        assert ("private" in board["ulwazi"]) == (seat == 1)
        assert obs["phase_label"] == "Round 1: choose Initiative cards"
        for s in obs["status"]:
            for i in [*s["items"], *s.get("private", [])]:
                assert not developer_text(i["value"]), i
    mine = next(s for s in st.observation(0)["status"] if s["unit"] == "vhrak")
    own = {i["label"]: i["value"] for i in mine["private"]}
    assert own["Chosen"] == "Lunge"
    assert "Lunge 1" in own["Hand"]
    hand = st.observation(0)["board"]["hand"]
    assert {"id": "lunge", "label": "Lunge (1)", "kind": "card", "count": 1, "card": "lunge"} in hand
    assert "hand" not in st.observation(None)["board"]


# -- decisions worded for players ----------------------------------------------------------------
def test_a_waiting_decision_says_what_is_decided_and_what_each_option_means() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 3, 4)}, {"id": "ulwazi", "hex": "3,0"}])
    st.apply("attack cleave", 0)  # nobody in range: the bonus die is chosen (Temporary or Blood Energy)
    obs = st.observation(0)
    assert obs["pending"]["prompt"] == "You gain a bonus die: choose its kind."
    assert obs["labels"]["choose temp"].startswith("Temporary Attack die")
    assert obs["labels"]["choose be"].startswith("Blood Energy die")


def test_every_legal_action_has_a_label_in_players_words_through_a_whole_match() -> None:
    import random

    st = game(players=2, boss="grevvar", seed=4).new_initial_state()
    rng = random.Random(4)
    steps = 0
    while not st.is_terminal() and steps < 400:
        seat = st.actors()[0]
        obs = st.observation(seat)
        legal = [str(a) for a in st.legal_actions(seat)]
        assert set(legal) <= set(obs["labels"]), set(legal) - set(obs["labels"])
        words = [obs["phase_label"], *obs["labels"].values(), *obs["log"]]
        words += [obs["pending"]["prompt"]] if obs["pending"] else []
        for w in words:
            assert not developer_text(w), w
        st.apply(rng.choice(legal), seat)
        steps += 1


# -- defect 2: Choosing your target(s) -------------------------------------------------------------
def test_choosing_your_targets_attacks_that_reach_nobody_are_not_offered() -> None:
    """Rulebook "Choosing your target(s)": with no target in range no part of the attack
    resolves and the attacker gains 1 bonus die. Only attacks with an enemy in range are
    offered; with none in range, one action says it gives the attack up for a bonus die."""
    far = duel([{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 3, 4)}, {"id": "ulwazi", "hex": "3,0"}])
    attacks = [t for t in texts(far) if t.startswith("attack ")]
    assert attacks == ["attack cleave"]  # was: cleave and rending_strike, both spent for nothing
    label = far.observation(0)["labels"]["attack cleave"]
    assert label == "Give up the attack: no enemy is in range, gain 1 bonus die instead"
    near = duel([{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 3, 4)}, {"id": "ulwazi", "hex": "1,0"}])
    attacks = [t for t in texts(near) if t.startswith("attack ")]
    assert attacks == ["attack cleave", "attack rending_strike"]
    assert near.observation(0)["labels"]["attack cleave"].endswith("can hit Ulwazi")


# -- the battle record (contract item 3) -----------------------------------------------------------
def test_an_attack_leaves_a_battle_record_with_dice_modifiers_and_damage() -> None:
    st = duel([{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 5, 4)}, {"id": "ulwazi", "hex": "1,0"}])
    st.apply("attack cleave", 0)
    st.apply("target ulwazi", 0)
    battles = st.observation(1)["battles"]
    assert len(battles) == 1
    b = battles[0]
    assert b["title"] == "Vhrak attacks Ulwazi with Cleave"
    attacker, target = b["sides"]
    assert [r["face"] for r in attacker["rolls"]] == [1, 2, 5]
    assert attacker["modifiers"] == ["+3 Cleave"]
    assert attacker["total"] == "11"
    assert attacker["hits"] == "1"
    assert target["losses"] == ["11 damage", "164/175 HP left"]
    assert b["result"] == "Singles attack Cleave: Ulwazi takes 11"
    log = st.event_log(1)
    assert "Vhrak attacks Ulwazi with Cleave" in log[b["log_index"]] or "Ulwazi" in log[b["log_index"]]


# -- defect 8 / issue 20 item 9: R-MODE-7 -----------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_r_mode_7_the_default_setup_of_every_player_count_is_legal(players: int) -> None:
    st = bloodforge.load_game("arena", players=players).new_initial_state()
    warnings = [t for t in st.event_log(None) if t.startswith("recommendation")]
    assert not warnings, warnings


def test_r_mode_7_solo_includes_a_rival_by_default_and_without_one_is_a_variant() -> None:
    solo = game(players=1)
    assert solo.params.rivals == ["ulwazi"]
    assert solo.params.seat_champions() == ["vhrak"]
    assert game(players=1, champions=["ulwazi"]).params.rivals == ["vhrak"]
    variant = game(players=1, rivals=[]).new_initial_state()
    assert "recommendation: the rulebook asks for at least one Rival in solo play" in variant.event_log(None)
    assert game(players=1, rivals=["none"]).params.rivals == []


def test_the_terminal_shows_the_status_board_and_what_each_action_means() -> None:
    g = game(players=1)
    st = g.new_initial_state()
    text = g.render_text(st.observation(0))
    assert "Vhrak: HP 175/175; Blood Energy 0" in text
    assert "Ulwazi (Rival): HP 175/175" in text
    assert "pick war_cry: Play War Cry (Speed 3)" in text
    assert "your hand: Lunge 1, Brace 2, War Cry 3" in text
    assert "your hand" not in g.render_text(st.observation(None))


def test_kw_push_the_path_decision_names_each_space_and_the_collision() -> None:
    """KW-PUSH: the pusher picks each space; the options say where the target goes and what it
    hits (was "Choose 1,1")."""
    units = [{"id": "vhrak", "hex": "0,0", "pool": pool(5, 5, 3, 4)},
             {"id": "ulwazi", "hex": "1,0", "pool": [die("atk"), die("atk"), die("atk"), die("be"), die("ignite", 3)]},
             {"id": "lienne", "hex": "2,0"}]
    st = scenario(DUO, {"units": units, "order": ["vhrak", "ulwazi", "lienne"], "active": "vhrak", "rolled": True,
                        "tiles": []})
    st.apply("attack vaulting_blow", 0)
    st.apply("target ulwazi", 0)
    obs = st.observation(0)
    assert obs["pending"]["prompt"].startswith("Push Ulwazi: choose the next space (1 step left).")
    labels = obs["labels"]
    assert labels["choose 2,0"] == "Push Ulwazi into Lienne at 2,0 (collision)"
    assert labels["choose 1,1"] == "Push Ulwazi to 1,1 (next to Lienne)"
    assert labels["choose stop"] == "Stop: Ulwazi stays"


def test_bonus_actions_say_what_they_do_before_they_are_used() -> None:
    """Take a Bonus Action: a card's Bonus Action, a Blood Pact and a Spell die say their effect
    on the button (was "Card bonus", "Pact: iron_hide", "Spell die 4")."""
    units = [{"id": "vhrak", "hex": "0,0", "pool": pool(5, 5, 3, 4), "energy": 10, "current": "berserk"},
             {"id": "ulwazi", "hex": "1,0"}, {"id": "lienne", "hex": "-4,4"}]
    st = scenario(DUO, {"units": units, "order": ["vhrak", "ulwazi", "lienne"], "active": "vhrak", "rolled": True,
                        "tiles": []})
    labels = st.observation(0)["labels"]
    assert labels["bonus card"] == "Use Berserk's Bonus Action: you get +1 Movement this turn"
    assert labels["pact iron_hide"] == (
        "Blood Pact Iron Hide, pay 8 Blood Energy: you heal 14 HP (never above the starting HP)")
    params = {"players": 2, "champions": ["lienne", "ulwazi"], "boss": None, "rivals": ["vhrak"]}
    units = [{"id": "lienne", "hex": "0,0", "pool": [*pool(1, 2, 3, 4), die("whip", 3)]},
             {"id": "ulwazi", "hex": "1,0"}, {"id": "vhrak", "hex": "-4,4"}]
    st = scenario(params, {"units": units, "order": ["lienne", "ulwazi", "vhrak"], "active": "lienne", "rolled": True,
                           "tiles": []})
    assert st.observation(0)["labels"]["spell 4"] == (
        "Use the Whip die showing 3: you reroll one of your dice rolled this turn and not yet used")


@pytest.mark.parametrize(("card", "words"), [
    ("env_6", "its action card shows A, B and C, so the lines marked A, B or C on its Guide card resolve"),
    ("env_1", "its action card shows A, so the lines marked A on its Guide card resolve"),
])
def test_r_eact_2_an_environmentals_turn_says_what_its_action_card_means(card: str, words: str) -> None:
    """UI audit: the log read "Hellfire Spray acts: card A+B+C", which told a player nothing:
    the icons are the action card's, and they pick the Guide card's lines that resolve."""
    params = {"players": 3, "champions": ["vhrak", "ulwazi", "maere"], "boss": "malvarra"}
    units = [{"id": "vhrak", "hex": "-4,0"}, {"id": "ulwazi", "hex": "0,2"}, {"id": "maere", "hex": "-2,2"},
             {"id": "malvarra", "hex": "-5,0"}]
    pos = {"units": units, "order": ["env:hellfire_spray", "vhrak", "ulwazi", "maere", "malvarra"],
           "active": "env:hellfire_spray", "tiles": [{"env": "hellfire_spray", "anchor": "0,0", "owner": "malvarra"}]}
    st = scenario(params, pos, {"d6": [1, 2, 3], "decks": {"envcards:hellfire_spray": [card]}})
    line = next(t for t in st.event_log(None) if " acts" in t)
    assert line == f"Hellfire Spray acts: {words}"
    assert not developer_text(line)
