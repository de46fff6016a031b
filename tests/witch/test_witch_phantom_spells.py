"""Phantom Spells: drawing once a Phantom exists, using ONE per turn, discarding, reshuffling."""

from __future__ import annotations

from collections import Counter

import pytest
from witch_helpers import check_invariants, scenario, texts

from bloodforge.core import IllegalAction
from bloodforge.games.witch.model import SOLDIERS, WITCH


def test_phantom_spells_not_drawn_while_no_phantom_exists() -> None:
    state = scenario(side="witch")
    state.apply("end")
    assert state.current_player == SOLDIERS
    assert state.hands[SOLDIERS] == []
    assert len(state.decks[SOLDIERS].pile) == 8


def test_phantom_spells_drawn_up_to_two_at_the_start_of_the_turn_once_a_phantom_exists() -> None:
    state = scenario(
        {"minion1": "realm"},
        side="witch",
        hands={"soldiers": ["rally"]},
        rig={"phantom_deck": ["haunt", "spirit_mend"]},
    )
    state.apply("end")
    assert Counter(state.hands[SOLDIERS]) == Counter(["rally", "haunt"])
    obs_soldiers = state.observation(SOLDIERS)["log"]
    obs_witch = state.observation(WITCH)["log"]
    assert any("Haunt" in e["text"] for e in obs_soldiers if e["kind"] == "draw")
    assert not any("Haunt" in e["text"] for e in obs_witch), "the draw is private"
    check_invariants(state)


def test_phantom_spells_using_one_card_per_turn() -> None:
    state = scenario(
        {"minion1": "realm", "witch": {"square": "e5"}, "swordsman": {"square": "e3"}},
        hands={"soldiers": ["rally", "ghost_step"]},
    )
    state.apply("cast rally")
    assert state.rec.extra_acts == 1
    assert not any(t.startswith("cast") for t in texts(state)), "ONE Phantom Spell per turn"
    with pytest.raises(IllegalAction, match="1 spell per turn"):
        state.apply("cast ghost_step")
    assert "discard ghost_step" in texts(state)


def test_phantom_spell_is_not_an_act() -> None:
    state = scenario(
        {"minion1": "realm", "swordsman": {"square": "e3"}},
        hands={"soldiers": ["ghost_step"]},
    )
    state.apply("move swordsman e4")
    state.apply("cast ghost_step")
    state.apply("target swordsman")
    assert "move swordsman e5" in texts(state), "Ghost Step moves him again"
    state.apply("move swordsman e5")
    assert state.rec.acts_used == 1
    assert state.grant is None


def test_rally_gives_a_fourth_act() -> None:
    state = scenario(
        {"minion1": "realm", "swordsman": {"square": "e3"}, "spearman": {"square": "c3"}},
        hands={"soldiers": ["rally"]},
    )
    state.apply("cast rally")
    for t in ("move swordsman e4", "move spearman c4", "move archer a2"):
        state.apply(t)
    assert state.rec.acts_used == 3
    fourth = [t for t in texts(state) if t.startswith(("move", "attack"))]
    assert fourth, "Rally's extra Act is available after three"
    state.apply(fourth[0])
    assert not any(t.startswith(("move", "attack")) for t in texts(state))
    check_invariants(state)


@pytest.mark.parametrize(("phantoms", "roll", "hit"), [(1, 1, True), (1, 2, False), (2, 2, True)])
def test_phantom_strike_chance_p_greater_than_d4_counts_the_phantoms(
    phantoms: int, roll: int, hit: bool
) -> None:
    dead = {"minion1": "realm", "minion2": "realm"}
    units = dict(list(dead.items())[:phantoms])
    units |= {"witch": {"square": "e5"}, "swordsman": {"square": "e3"}}
    state = scenario(units, hands={"soldiers": ["phantom_strike"]}, rig={"dice": [roll]})
    blood = state.units["witch"].blood
    state.apply("cast phantom_strike")
    state.apply("target witch")
    assert state.units["witch"].blood == blood - (1 if hit else 0)


def test_phantom_spell_range_is_measured_from_any_soldier_still_commanded() -> None:
    state = scenario(
        {
            "minion4": "realm",
            "witch": {"square": "e5"},
            "archer": {"square": "a1", "zombified": True},
            "spearman": {"square": "e1"},
            "swordsman": {"square": "i1"},
        },
        hands={"soldiers": ["phantom_strike"]},
    )
    state.apply("cast phantom_strike")
    targets = {t.split()[1] for t in texts(state) if t.startswith("target")}
    assert "witch" in targets  # 4 squares from the spearman
    assert "archer" in targets  # the zombified archer now counts as the Witch's
    assert "minion1" not in targets  # a9 is far from every commanded soldier


def test_possession_lets_the_soldiers_act_with_a_minion() -> None:
    state = scenario(
        {
            "minion4": "realm",
            "minion1": {"square": "e6"},
            "witch": {"square": "e7"},
            "swordsman": {"square": "e4"},
        },
        hands={"soldiers": ["possession"]},
        rig={"dice": [1]},
    )
    state.apply("cast possession")
    state.apply("target minion1")
    assert state.grant is not None
    assert state.grant.seat == SOLDIERS
    state.apply("attack minion1 witch")
    assert state.units["witch"].blood == state.content.units["witch"].starting_blood - 1
    assert state.rec.acts_used == 0
    check_invariants(state)


def test_phantom_deck_reshuffles_the_discard_pile_when_it_runs_out() -> None:
    every = list(scenario().content.phantom_deck)
    hand = ["rally"]
    rest = list((Counter(every) - Counter(hand)).elements())
    state = scenario(
        {"minion1": "realm"}, side="witch", hands={"soldiers": hand}, discards={"phantom": rest}
    )
    assert len(state.decks[SOLDIERS].pile) == 0
    state.apply("end")
    assert len(state.hands[SOLDIERS]) == 2
    assert state.decks[SOLDIERS].discards == []
    assert len(state.decks[SOLDIERS].pile) == len(rest) - 1
    check_invariants(state)
