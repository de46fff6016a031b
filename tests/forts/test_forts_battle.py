"""Five Forts battles: hero cards, dice, bonuses and outcomes (F26-F44, F48-F51, F53, F55,
A14-A24, worked examples T1-T3, T7-T9)."""

from __future__ import annotations

import pytest
from forts_helpers import army, legal_texts, scenario, terr, units_at

from bloodforge.core import IllegalAction
from bloodforge.games.forts.game import FortsState
from bloodforge.games.forts.queries import battle_odds, casualty_options


def battle_data(state: FortsState) -> dict[str, object]:
    data = [e for e in state.events if e.kind == "battle"][-1].data
    assert data is not None
    return dict(data)


# -- F26-F33, F48-F51, A15, T3 ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("origin", "target", "bonus"),
    [("ironkeep", "moorland", 1), ("copperdale", "ironkeep", 2), ("tinvale", "greenhall", 4)],
)
def test_f31_f48_f49_f50_f51_t3_defence_bonus_plain_great_fort_home(origin: str, target: str, bonus: int) -> None:
    state = scenario({origin: army(0, 2), target: army(1, 1)}, dice=[3, 3])
    state.apply(f"attack {origin} {target} 2 0", 0)
    data = battle_data(state)
    assert data["attack"] == [2, 0, 3, 5]
    assert data["defence"] == [1, bonus, 0, 3, 4 + bonus], "one die each, bonus by territory (A15: best only)"


def test_a10_a_captured_home_gives_its_holder_only_the_great_fort_bonus() -> None:
    state = scenario({"tinvale": army(1, 2), "ryefield": army(1, 1), "greenhall": army(0, 1)}, turn_seat=1, dice=[1, 1])
    state.apply("attack tinvale greenhall 2 0", 1)
    assert battle_data(state)["defence"][1] == 2


# -- F29, F34, F38-F41, A19, A20, A23, T8 -----------------------------------------------------
def test_f29_f34_f38_f39_f40_f41_t8_victory_currency_advance_extra_action() -> None:
    state = scenario({"wheatfield": army(0, 2, 1), "thornwall": army("independent", 2)},
                     currency=[0, 0], dice=[6, 1, 6, 1])
    state.apply("attack wheatfield thornwall 2 1", 0)
    assert state.observation(0)["currency"][0] == 1, "F34, A23: +1 currency, independents included"
    assert state.phase_name() == "battle: advance"
    assert legal_texts(state, 0) == ["advance", "stay infantry", "stay cavalry"]
    state.apply("stay infantry", 0)
    assert units_at(state, "wheatfield") == (1, 0), "F39: one unit stays behind"
    assert terr(state, "wheatfield")["ready"] == [0, 0], "A19: it gets no extra action"
    assert units_at(state, "thornwall") == (1, 1)
    assert terr(state, "thornwall")["ready"] == [1, 1], "F40: the victors may act again"
    # the extra action: attack again from the conquered territory, win, and then no third action
    state.m.owner[state.cfg.content.index["sandgate"]] = -2
    state.m.units[state.cfg.content.index["sandgate"]] = [1, 0, 0, 0, 0, 0]
    state.apply("attack thornwall sandgate 1 1", 0)
    state.apply("advance", 0)
    assert units_at(state, "sandgate") == (1, 1)
    assert terr(state, "sandgate")["ready"] == [0, 0], "F41: at most one extra action per round"
    with pytest.raises(IllegalAction):
        state.apply("move sandgate brassdale 1 0", 0)


def test_f53_a24_a_beaten_independent_army_is_destroyed() -> None:
    state = scenario({"copperdale": army(0, 0, 3), "ironkeep": army("independent", 0, 2)}, dice=[6, 1])
    state.apply("attack copperdale ironkeep 0 3", 0)
    # 6 + 6 = 12 against 4 + 2 + 1 = 7: margin 5 kills 2 cavalry (strength 4) anyway
    assert state.phase_name() == "battle: advance"
    state.apply("advance", 0)
    assert terr(state, "ironkeep")["owner"] == 0
    assert units_at(state, "ironkeep") == (0, 3)


def test_a24_independents_lose_the_margin_and_the_survivors_too() -> None:
    state = scenario({"copperdale": army(0, 0, 3), "ironkeep": army("independent", 0, 2)}, dice=[4, 4])
    state.apply("attack copperdale ironkeep 0 3", 0)
    # 6 + 4 = 10 against 4 + 2 + 4 = 10: a draw; rerun with a margin of 1
    assert terr(state, "ironkeep")["owner"] == "independent"
    again = scenario({"copperdale": army(0, 0, 3), "ironkeep": army("independent", 0, 2)}, dice=[5, 4])
    again.apply("attack copperdale ironkeep 0 3", 0)
    again.apply("advance", 0)
    assert terr(again, "ironkeep")["owner"] == 0, "margin 1, yet no independent unit survives"


# -- F35, A16, A17, T1 ------------------------------------------------------------------------
def test_f35_t1_losing_by_2_costs_a_cavalry_or_two_infantry() -> None:
    # attacker 3 cav (6) + 4 = 10 against 2 inf + 1 cav (4) + 1 + 3 = 8: margin 2
    state = scenario({"ironkeep": army(0, 0, 3), "moorland": army(1, 2, 1)},
                     dice=[4, 3])
    state.apply("attack ironkeep moorland 0 3", 0)
    assert state.phase_name() == "battle: casualties"
    assert state.actors() == [1], "A17: the loser chooses"
    assert sorted(legal_texts(state, 1)) == ["lose 0 1", "lose 2 0"]
    state.apply("lose 2 0", 1)
    assert units_at(state, "moorland") == (0, 1)


def test_a16_the_loser_removes_the_least_strength_covering_the_margin() -> None:
    assert casualty_options(2, 1, 2) == [(2, 0), (0, 1)]
    assert casualty_options(1, 1, 1) == [(1, 0)]
    assert casualty_options(0, 2, 1) == [(0, 1)], "round up when only cavalry is left"
    assert casualty_options(3, 1, 3) == [(3, 0), (1, 1)]
    assert casualty_options(2, 1, 9) == [(2, 1)], "a margin beyond the army kills it all"
    assert casualty_options(2, 1, 0) == [(0, 0)]


# -- F42, F43, T2 -----------------------------------------------------------------------------
def test_f42_f43_t2_attacker_losing_by_1_loses_the_infantry_and_keeps_its_origin() -> None:
    # attacker 1 inf + 1 cav (3) + 2 = 5 against 1 inf (1) + 1 + 4 = 6: margin 1
    state = scenario({"ironkeep": army(0, 1, 1), "moorland": army(1, 1)}, dice=[2, 4])
    state.apply("attack ironkeep moorland 1 1", 0)
    assert units_at(state, "ironkeep") == (0, 1)
    assert terr(state, "ironkeep")["owner"] == 0
    assert terr(state, "ironkeep")["ready"] == [0, 0], "F43: defeated attackers cannot act again"
    assert units_at(state, "moorland") == (1, 0)


# -- F44, T7 ----------------------------------------------------------------------------------
def test_f44_t7_a_draw_changes_nothing_but_exhausts_the_attackers() -> None:
    state = scenario({"ironkeep": army(0, 2, 1), "moorland": army(1, 2)}, dice=[1, 2])
    # 4 + 1 = 5 against 2 + 1 + 2 = 5
    state.apply("attack ironkeep moorland 2 1", 0)
    assert battle_data(state)["verdict"] == "draw"
    assert units_at(state, "ironkeep") == (2, 1)
    assert units_at(state, "moorland") == (2, 0)
    assert terr(state, "ironkeep")["ready"] == [0, 0]
    assert state.observation(0)["currency"][0] == 2


# -- F36, F37, A18, T9 ------------------------------------------------------------------------
def test_f36_a18_survivors_retreat_unit_by_unit_where_the_defender_chooses() -> None:
    # Green 2 inf in moorland beaten by 1: loses 1; the survivor picks among thornwall, greymere,
    # pennybrook (never ironkeep, the attacker's origin)
    state = scenario({"ironkeep": army(0, 0, 3), "moorland": army(1, 2)}, dice=[1, 3])
    state.apply("attack ironkeep moorland 0 3", 0)
    assert state.phase_name() == "battle: retreat"
    texts = legal_texts(state, 1)
    assert texts == ["retreat infantry thornwall", "retreat infantry greymere", "retreat infantry pennybrook"]
    state.apply("retreat infantry greymere", 1)
    assert terr(state, "greymere")["owner"] == 1
    state.apply("advance", 0)
    assert units_at(state, "moorland") == (0, 3)


def test_f37_t9_surrounded_defenders_are_eliminated() -> None:
    # moorland's other neighbours: thornwall and pennybrook (independents), greymere (Red)
    state = scenario({"ironkeep": army(0, 0, 2), "moorland": army(1, 2), "thornwall": army("independent", 2),
                      "pennybrook": army("independent", 1), "greymere": army(0, 1)}, dice=[4, 4])
    # 4 + 4 = 8 against 2 + 1 + 4 = 7: margin 1 costs one infantry; the other cannot retreat
    state.apply("attack ironkeep moorland 0 2", 0)
    assert any("cannot retreat and are eliminated" in line for line in state.event_log(None))
    assert state.observation(None)["units"][1] == 0
    state.apply("advance", 0)
    assert terr(state, "moorland")["owner"] == 0


# -- F27, F32, F55, A14 -----------------------------------------------------------------------
def test_f27_f32_f55_a14_hero_cards_are_committed_secretly_by_both_sides_then_revealed() -> None:
    state = scenario({"ironkeep": army(0, 1), "moorland": army(1, 1)},
                     hands=[["knight", "squire"], ["champion"]], dice=[1, 1])
    state.apply("attack ironkeep moorland 1 0", 0)
    assert state.actors() == [0, 1], "both sides commit at the same time"
    assert state.phase_name() == "battle: heroes"
    state.apply("hero knight", 0)
    obs1 = state.observation(1)
    assert obs1["battle"]["committed_counts"] == {"0": 1, "1": 0}
    assert obs1["battle"]["my_committed"] == []
    assert obs1["battle"]["revealed"] is None
    assert "knight" not in str(obs1)
    assert "Knight" not in " ".join(state.event_log(1))
    assert "Seat" not in " ".join(state.event_log(1))
    state.apply("hero champion", 1)
    state.apply("commit", 1)
    assert state.actors() == [0]
    state.apply("commit", 0)
    entries = [m for m in state.moves() if m[0] is None][-2:]
    assert entries == [(None, "reveal"), (None, "roll")], "the reveal and the battle are the game's own steps"
    data = battle_data(state)
    assert data["attack"] == [1, 2, 1, 4]
    assert data["defence"] == [1, 1, 3, 1, 6]
    obs = state.observation(0)
    assert obs["hand"] == [{"id": "squire", "name": "Squire"}]
    assert obs["hand_sizes"] == [1, 0]
    assert sorted(obs["discards"]) == ["champion", "knight"], "hero cards are one-use"


def test_a14_only_seats_holding_cards_are_asked_and_independents_play_none() -> None:
    state = scenario({"copperdale": army(0, 2), "ironkeep": army("independent", 0, 2)},
                     hands=[["squire"], ["knight"]], dice=[1, 1])
    state.apply("attack copperdale ironkeep 2 0", 0)
    assert state.actors() == [0]
    state.apply("commit", 0)
    assert state.moves()[-1] == (None, "roll")


def test_tactician_wins_a_draw_and_two_tacticians_keep_it() -> None:
    state = scenario({"ironkeep": army(0, 2), "moorland": army(1, 1)}, hands=[["tactician"], []], dice=[2, 2])
    state.apply("attack ironkeep moorland 2 0", 0)
    state.apply("hero tactician", 0)
    state.apply("commit", 0)
    assert battle_data(state)["verdict"] == "attacker wins"
    both = scenario({"ironkeep": army(0, 2), "moorland": army(1, 1)},
                    hands=[["tactician"], ["tactician"]], dice=[2, 2])
    both.apply("attack ironkeep moorland 2 0", 0)
    both.apply("hero tactician", 0)
    both.apply("hero tactician", 1)
    both.apply("commit", 0)
    both.apply("commit", 1)
    assert battle_data(both)["verdict"] == "draw"


def test_shieldmaiden_reduces_the_losers_losses_by_2() -> None:
    state = scenario({"ironkeep": army(0, 3), "moorland": army(1, 1)}, hands=[["shieldmaiden"], []], dice=[1, 6])
    # 3 + 1 = 4 against 1 + 1 + 6 = 8: margin 4, reduced to 2
    state.apply("attack ironkeep moorland 3 0", 0)
    state.apply("hero shieldmaiden", 0)
    state.apply("commit", 0)
    assert units_at(state, "ironkeep") == (1, 0)


def test_pathfinder_grants_another_extra_action() -> None:
    state = scenario({"wheatfield": army(0, 0, 2), "thornwall": army("independent", 1)},
                     hands=[["pathfinder"], []], dice=[6, 1, 6, 1])
    state.apply("attack wheatfield thornwall 0 2", 0)
    state.apply("hero pathfinder", 0)
    state.apply("commit", 0)
    state.apply("advance", 0)
    state.m.owner[state.cfg.content.index["sandgate"]] = -2
    state.m.units[state.cfg.content.index["sandgate"]] = [1, 0, 0, 0, 0, 0]
    state.apply("attack thornwall sandgate 0 2", 0)
    state.apply("advance", 0)
    assert terr(state, "sandgate")["ready"] == [0, 0], "without a Pathfinder this time: no third action"
    assert units_at(state, "sandgate") == (0, 2)


def test_pathfinder_on_the_extra_action_gives_one_more() -> None:
    state = scenario({"wheatfield": army(0, 0, 2), "thornwall": army("independent", 1)},
                     hands=[["pathfinder"], []], dice=[6, 1, 6, 1])
    state.apply("attack wheatfield thornwall 0 2", 0)
    state.apply("commit", 0)
    state.apply("advance", 0)
    state.m.owner[state.cfg.content.index["sandgate"]] = -2
    state.m.units[state.cfg.content.index["sandgate"]] = [1, 0, 0, 0, 0, 0]
    state.apply("attack thornwall sandgate 0 2", 0)
    state.apply("hero pathfinder", 0)
    state.apply("commit", 0)
    state.apply("advance", 0)
    assert terr(state, "sandgate")["ready"] == [0, 2]


# -- section 6: closed-form odds --------------------------------------------------------------
def test_battle_odds_closed_form() -> None:
    win, draw, lose = battle_odds(5, 5)
    assert draw == pytest.approx(6 / 36)
    assert win == pytest.approx(15 / 36)
    assert lose == pytest.approx(15 / 36)
    assert battle_odds(4, 6) == pytest.approx((6 / 36, 4 / 36, 26 / 36)), "win iff the die difference > 2"
    assert battle_odds(20, 1) == (1.0, 0.0, 0.0)
