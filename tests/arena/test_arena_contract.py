"""Parameters, content files, scenarios, hidden information and long random playouts with the
invariants of spec §6 checked after every action."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from arena_helpers import game, scenario
from hypothesis import given, settings
from hypothesis import strategies as hs

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.core import ActionSyntaxError, ParameterError, Rng, ScenarioError
from bloodforge.games.arena.content import DATA_DIR, load_content
from bloodforge.games.arena.game import ArenaState
from bloodforge.match import play_match


# -- parameters and content ------------------------------------------------------------------------
@pytest.mark.parametrize(("params", "message"), [
    ({"players": 2, "champions": ["vhrak", "vhrak"]}, "at most once"),
    ({"players": 2, "rivals": ["vhrak"], "champions": ["vhrak", "ulwazi"]}, "at most once"),
    ({"players": 1, "boss": None, "rivals": []}, "at least 2 combatants"),
    ({"players": 2, "boss": "nobody"}, "unknown boss"),
    ({"players": 2, "mode": "team", "teams": [0, 0], "boss": None}, "at least 2 sides"),
    ({"players": 2, "environmental": "lava"}, "unknown environmental"),
    ({"players": 7}, "players"),
    ({"players": 2, "skirmish_from": "Q"}, "skirmish_from"),
])
def test_r_set_16_a64_a66_bad_parameters_are_refused_with_the_reason(params: dict, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        bloodforge.load_game("arena", **params)


def test_r_set_5_r_set_3_setup_hp_pools_hands() -> None:
    st = game(players=2, rivals=["lienne"]).new_initial_state()
    for uid in ("vhrak", "ulwazi", "lienne"):
        u = st.board.units[uid]
        assert u.hp == 175
        assert u.energy == 0
        assert sorted(d.kind for d in u.pool) == ["atk", "atk", "atk", "be"]
    assert len(st.board.units["lienne"].hand) == 12  # R-CMP-8
    boss = st.board.units["malvarra"]
    assert boss.hp == 70 + 80 * 3  # house: hp_base + hp_per_champion x Champions
    assert len(st.board.decks["skirmish:lienne"]) == 12  # R-SET-15
    assert len(st.board.decks["speed:malvarra"]) == 6  # R-SET-9


def test_r_set_4_a_champion_setup_effect_cynwrig_starts_with_an_archery_die() -> None:
    st = game(players=1, champions=["cynwrig"]).new_initial_state()
    assert [d.kind for d in st.board.units["cynwrig"].pool] == ["atk", "atk", "atk", "be", "archery"]


def test_house_content_is_complete() -> None:
    c = load_content()
    assert len(c.champions) == 6
    assert len(c.bosses) == 3
    assert len(c.skirmish) == 18
    assert sorted(len(ch.cards) for ch in c.champions) == [6, 6, 6, 6, 6, 12]
    assert all(ch.rival.start for ch in c.champions)  # six Rival cards


def test_a_designers_broken_content_file_names_the_file_and_field(tmp_path: Path) -> None:
    data = json.loads((DATA_DIR / "champions.json").read_text())
    data["items"][0]["attacks"][0]["effects"] = [{"op": "explode"}]
    (tmp_path / "champions.json").write_text(json.dumps(data))
    with pytest.raises(ParameterError, match=r"champions\.0\.attacks\.0\.effects\.0\.op"):
        bloodforge.load_game("arena", players=2, content=str(tmp_path))


def test_a_designer_composes_a_new_attack_from_the_effect_vocabulary(tmp_path: Path) -> None:
    data = json.loads((DATA_DIR / "champions.json").read_text())
    cleave = data["items"][0]["attacks"][0]
    cleave["effects"] = [{"op": "heal", "amount": 7, "who": "self"}, {"op": "energy", "amount": -3}]
    (tmp_path / "champions.json").write_text(json.dumps(data))
    params = {"players": 2, "boss": None, "content": str(tmp_path)}
    st = scenario(params, {"units": [{"id": "vhrak", "hex": "0,0", "hp": 100,
                                      "pool": [{"kind": k, "face": f} for k, f in zip(["atk", "atk", "atk", "be"],
                                                                                        (1, 2, 3, 4), strict=True)]},
                                     {"id": "ulwazi", "hex": "1,0", "energy": 5}],
                           "order": ["vhrak", "ulwazi"], "active": "vhrak", "tiles": []})
    st.apply("attack cleave", 0)
    st.apply("target ulwazi", 0)
    assert st.board.units["vhrak"].hp == 107
    assert st.board.units["ulwazi"].energy == 2


def test_scenario_accepts_its_own_arena_as_a_hex_list() -> None:
    hexes = [f"{q},0" for q in range(-3, 4)] + ["0,1", "0,-1"]
    arena = {"id": "line", "name": "a corridor", "hexes": hexes, "central": ["0,0", "0,1"]}
    st = scenario({"players": 2, "boss": None}, {"arena": arena, "phase": "pick", "round": 1, "units": []})
    st.apply("pick lunge", 0)
    st.apply("pick smoulder", 1)
    assert sorted(str(a) for a in st.legal_actions()) == ["place 0,0", "place 0,1"]
    again = st.game.state_from_json(json.loads(json.dumps(st.to_json())))
    assert again.position_digest() == st.position_digest()
    assert len(again.cells) == 9


@pytest.mark.parametrize(("position", "rig", "message"), [
    ({"units": [{"id": "nobody"}]}, None, "no unit 'nobody'"),
    ({"units": [{"id": "vhrak", "hex": "9,9"}]}, None, "not on the arena"),
    ({"order": ["vhrak", "ghost"]}, None, "ghost"),
    ({}, {"d6": [7]}, "impossible on a d6"),
    ({}, {"decks": {"speed:nobody": ["1"]}}, "no deck"),
    ({"units": [{"id": "vhrak", "pool": [{"kind": "laser"}]}]}, None, "unknown die kind"),
    ({"phase": "battle"}, None, "phase"),
])
def test_bad_scenarios_are_refused_with_the_field(position: dict, rig: dict | None, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        scenario({"players": 2}, position, rig)


def test_packaged_scenarios_load() -> None:
    g = game(players=1)
    folder = g.scenario_dir()
    assert folder is not None
    files = sorted(folder.glob("*.yaml"))
    assert files
    for f in files:
        st = g.load_scenario(f)
        assert st.actors() or st.is_terminal()


# -- hidden information ---------------------------------------------------------------------------------
def test_hidden_picks_and_deck_orders_do_not_leak() -> None:
    st = game(players=3, seed=5).new_initial_state()
    before = st.observation(1)
    st.apply("pick plunder", 0)
    after = st.observation(1)
    assert json.dumps(after).count("plunder") == json.dumps(before).count("plunder")
    assert after["units"][0]["picked"] is True
    deck = st.board.decks["speed:malvarra"]
    assert after["decks"]["speed:malvarra"] == {"size": len(deck), "discards": []}
    sample = st.resample_hidden(1, Rng(3))
    assert sample.observation(1) == st.observation(1)
    assert sample.board.picks[0] in st.board.units["vhrak"].hand


# -- random playouts with invariants ----------------------------------------------------------------------
def check_invariants(st: ArenaState, turns_taken: Counter[tuple[int, str]]) -> None:
    b = st.board
    supply = st.content.rules.supply
    kinds = Counter(d.kind for u in b.units.values() if u.alive for d in u.pool)
    assert kinds["tmp"] <= supply.temp
    assert kinds["be"] <= supply.be
    seen: set[tuple[int, int]] = set()
    for u in b.units.values():
        if u.alive and u.is_combatant:
            assert sum(1 for d in u.pool if d.kind == "atk") == 3  # R-DICE-1
        assert 0 <= u.energy <= st.content.rules.energy_max  # R-BE-4, A14
        if u.alive and u.hex is not None:
            assert u.hex in st.cells
            assert u.hex not in seen  # no two figures on a hex
            seen.add(u.hex)
        if u.kind in ("champion", "rival"):
            cards = sorted(c.id for c in st.content.champion(u.content_id).cards)
            held = [*u.hand, *u.discard, *([u.current] if u.current else [])]
            assert sorted(held) == cards  # Initiative cards conserved
    for (_, uid), n in turns_taken.items():
        assert n == 1, f"{uid} took {n} turns in one round"


PLAYOUTS = [
    {"players": 1}, {"players": 2}, {"players": 4}, {"players": 6},
    {"players": 1, "boss": "grevvar", "rivals": ["maere"]}, {"players": 2, "boss": "terror", "rivals": ["calvio"]},
    {"players": 3, "mode": "team", "teams": [0, 0, 1, 1], "rivals": ["maere"], "boss": None},
    {"players": 2, "boss": None, "rivals": ["cynwrig"], "environmental": "the_arm"},
    {"players": 2, "environmental": "springboards", "rivals": ["lienne"], "boss": None},
    {"players": 3, "environmental": "ice_slicks", "boss": None},
    {"players": 2, "bosses": ["malvarra", "grevvar"]},  # several Bosses (A60, ruling 31)
    {"players": 3, "mode": "team", "teams": [0, 1, 1], "bosses": ["terror", "grevvar"], "boss_team": 0},
]


@pytest.mark.parametrize("params", PLAYOUTS)
def test_random_playouts_keep_the_invariants(params: dict) -> None:
    for seed in range(2):
        st = game(seed=seed, **params).new_initial_state()
        assert isinstance(st, ArenaState)
        rng = Rng(seed)
        turns: Counter[tuple[int, str]] = Counter()
        seen, rnd = 0, 0
        while not st.is_terminal():
            seat = rng.choice(st.actors())
            legal = [a for a in st.legal_actions(seat) if not a.is_cancel] or st.legal_actions(seat)
            st.apply(rng.choice(legal), seat)
            for s, text in st.moves()[seen:]:
                words = text.split()
                rnd += words[0] == "round"
                if s is None and (words[0] == "roll" or (words[0] == "npc" and words[2] == "card")):
                    turns[(rnd, words[1])] += 1  # every live character: one turn per round
            seen = len(st.history)
            check_invariants(st, turns)
        # the winning seats share 1; when the Boss won, every seat lost (ruling 2)
        assert sum(st.returns()) == pytest.approx(0.0 if st.npc_won() else 1.0)


def test_greedy_champions_finish_solo_ffa_and_team_matches() -> None:
    for params in ({"players": 1}, {"players": 3}, {"players": 4, "mode": "team", "boss": None}):
        st = game(seed=1, **params).new_initial_state()
        agents = {s: make_agent("greedy", s, seed=s) for s in range(params["players"])}
        play_match(st, agents)
        assert st.is_terminal()


def test_greedy_policy_slows_an_enemy_with_time_warp() -> None:
    units = [{"id": "vhrak", "hex": "-2,0"}, {"id": "lienne", "hex": "-1,0"}, {"id": "calvio", "hex": "1,0"},
             {"id": "ulwazi", "hex": "2,0"}]
    params = {"players": 4, "mode": "team", "champions": ["vhrak", "lienne", "calvio", "ulwazi"],
              "teams": [0, 0, 1, 1], "boss": None}
    st = scenario(params, {"phase": "pick", "round": 2, "units": units})
    for seat, card in enumerate(["plunder", "gemini_daggers", "time_warp", "spark"]):
        st.apply(f"pick {card}", seat)
    st.apply("choose calvio", 2)
    policy = st.game.policy()
    pick = policy.choose(st, 2, Rng(0))
    assert str(pick) in ("choose lienne", "choose vhrak")  # an enemy
    st.apply(pick, 2)
    assert str(policy.choose(st, 2, Rng(0))) == "choose 2"  # Slow


def test_r_rec_recommendations_are_logged_as_warnings() -> None:
    st = game(players=1, rivals=[]).new_initial_state()  # the variant without a Rival (R-MODE-7)
    assert "recommendation: the rulebook asks for at least one Rival in solo play" in st.event_log(None)
    st = game(players=2, boss=None).new_initial_state()
    assert "recommendation: the rulebook recommends at least 3 combatants" in st.event_log(None)


# -- the action parser ---------------------------------------------------------------------------------
WORDS = ["pick", "place", "move", "attack", "target", "choose", "npc", "invoke", "end", "done", "0,0",
                    "1,-1", "lunge", "vhrak", "cleave", "-01,02", "x", "", "3"]


@settings(max_examples=150, deadline=None)
@given(hs.lists(hs.sampled_from(WORDS), min_size=0, max_size=5), hs.text(max_size=12))
def test_parse_text_accepts_or_refuses_cleanly(words: list[str], noise: str) -> None:
    g = game(players=2)
    text = " ".join([*words, noise])
    try:
        action = g.parse_text(text)
    except ActionSyntaxError:
        return
    assert g.parse_text(str(action)) == action  # the canonical text round-trips


def test_hex_arguments_are_canonical() -> None:
    g = game(players=2)
    assert str(g.parse_text("MOVE -01,02")) == "move -1,2"


def test_browser_board_contract_and_view() -> None:
    g = game(players=2)
    board = g.static_info()["board"]
    assert board["geometry"] == "hexes"
    assert len(board["hexes"]) == 127
    st = g.new_initial_state()
    st.apply("pick lunge", 0)
    st.apply("pick smoulder", 1)
    st.apply("place 0,0", 0)
    obs = st.observation(1)["board"]
    assert {"at": "0,0", "owner": 0, "kind": "champion", "label": "Vhrak 175/175 HP", "count": 1, "hidden": False,
            "id": "vhrak", "card": "vhrak"} in obs["pieces"]
    ids = {h["id"] for h in board["hexes"]}
    assert all(m["at"] in ids for m in obs["marks"])
    web = g.web_dir()
    assert web is not None
    assert "export function createView" in (web / "view.js").read_text()


def test_issue20_item7_scenario_units_check_seat_and_human_instead_of_ignoring_them() -> None:
    params = {"players": 1, "champions": ["vhrak"], "boss": "malvarra", "rivals": ["lienne"]}
    ok = scenario(params, {"units": [{"id": "vhrak", "seat": 0, "human": True},
                                     {"id": "lienne", "human": False}, {"id": "malvarra", "human": False}]})
    assert ok.board.units["vhrak"].seat == 0
    with pytest.raises(ScenarioError, match=r"units\.lienne\.human: Lienne is a Rival in this match"):
        scenario(params, {"units": [{"id": "lienne", "human": True}]})
    with pytest.raises(ScenarioError, match=r"units\.vhrak\.seat: Vhrak is seat 0's Champion in this match, not "):
        scenario(params, {"units": [{"id": "vhrak", "seat": 1}]})
    with pytest.raises(ScenarioError, match=r"units\.malvarra\.seat"):
        scenario(params, {"units": [{"id": "malvarra", "seat": 0}]})
