"""Blood Stone's table views (issue 18, the UI contract): the status board (blood, spells; a
side's spells named only to itself), phase names, description cards for every spell and unit,
zombified Soldiers marked in words, and the end of the game logged last with its score explained."""

from __future__ import annotations

import re

from witch_helpers import scenario

from bloodforge.games.witch.game import WitchState

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_status_board_shows_every_units_blood_and_names_spells_only_to_their_holder() -> None:
    state = scenario({"swordsman": {"square": "e6", "blood": 2}}, hands={"witch": ["zombify"], "soldiers": []})
    soldiers, witch = state.observation(0)["status"]
    values = {i["label"]: i["value"] for i in soldiers["items"]}
    assert values["Swordsman"] == "2 of 5 blood"
    assert values["Spells in hand"] == "0"
    assert {i["label"]: i["value"] for i in witch["items"]}["Spells in hand"] == "1"
    assert "private" not in witch
    assert state.observation(1)["status"][1]["private"] == [{"label": "Your spells", "value": "Zombify"}]
    assert all("private" not in e for e in state.observation(None)["status"])


def test_a_zombified_soldier_is_listed_with_the_witch_and_its_piece_says_zombified() -> None:
    state = scenario({"spearman": {"square": "e2", "zombified": True}})
    soldiers, witch = state.observation(None)["status"]
    assert "Spearman (zombified)" in [i["label"] for i in witch["items"]]
    assert "Spearman" not in [i["label"] for i in soldiers["items"]]
    piece = next(p for p in state.observation(0)["board"]["pieces"] if p["id"] == "spearman")
    assert piece["label"] == "Spearman (zombified)"
    assert piece["kind"] == "zombified"


def test_phase_label_names_the_turn_for_players() -> None:
    state = scenario()
    label = state.observation(0)["phase_label"]
    assert label.startswith("Turn 1 of ")
    assert label.endswith("the Soldiers' turn")
    assert not SNAKE.search(label)


def test_description_cards_cover_every_spell_and_unit() -> None:
    state = scenario()
    content = state.content
    cards = state.game.static_info()["cards"]
    assert set(cards) == set(content.roster) | set(content.spells)
    for sid in content.spells:
        stats = dict(cards[sid]["stats"])
        assert {"Chance", "Range", "Targets", "Deck"} <= set(stats)
        assert cards[sid]["text"].endswith(".")
    assert dict(cards["swordsman"]["stats"])["Blood"] == "5 at most"
    assert "fails" in cards["zombify"]["text"]  # its backlash is part of the card
    hand = scenario(hands={"witch": ["zombify"]}).observation(1)["board"]["hand"]
    assert hand[0]["card"] == "zombify"


def _last_soldier_fed_on() -> WitchState:
    state = scenario(
        {"archer": "realm", "spearman": "realm", "swordsman": {"square": "e8", "blood": 1}},
        side="witch", hands={"witch": ["blood_feast"]},
    )
    state.apply("cast blood_feast")
    for _ in range(3):
        if state.is_terminal():
            break
        step = next(a for a in state.legal_actions() if a.kind in ("target", "pay"))
        state.apply(step)
    return state


def test_the_victory_is_the_last_line_logged_with_the_score_explained() -> None:
    """LOW (issue 18): a loss was logged after "The Witch wins"."""
    state = _last_soldier_fed_on()
    assert state.is_terminal()
    lines = state.event_log(None)
    assert lines[-1].startswith("The Witch wins: no Soldier is left fighting")
    assert "does not decide the winner" in lines[-1], "the score's numbers are not the reason"
    assert "loses 1 blood" in " ".join(lines[-3:-1])
    soldiers, witch = state.scores()
    assert f"the Soldiers {soldiers:.0f}, the Witch {witch:.0f}" in lines[-1]


def test_a_spell_letting_some_units_act_names_them_in_words_not_unit_ids() -> None:
    """UI audit 2026-11-26: Manipulate logged "Up to 1 of minion1, minion2 may Act."."""
    state = scenario(
        {"witch": {"square": "e7"}, "minion1": {"square": "e6"}, "minion2": {"square": "d7"}},
        side="witch", hands={"witch": ["manipulate"]}, rig={"dice": [1]},
    )
    state.apply("cast manipulate")
    state.apply("pay 1")
    line = next(t for t in state.event_log(0) if t.startswith("Up to 1 of"))
    names = [state.content.units[u].name for u in ("minion1", "minion2")]
    assert all(n in line for n in names), line
    assert not re.search(r"\bminion\d\b", line), line


def test_status_board_counts_each_sides_spell_deck_and_discards() -> None:
    """UI audit 2026-11-26: the cards left in each deck and the discards are public (the piles
    lie on the table) but were on no screen."""
    every = list(scenario().content.phantom_deck)
    state = scenario(discards={"phantom": every[:2]})
    soldiers, witch = state.observation(None)["status"]
    pile = len(state.decks[0].pile)
    assert {i["label"]: i["value"] for i in soldiers["items"]}["Phantom deck"] == f"{pile} left, 2 discarded"
    blood = len(state.decks[1].pile)
    assert {i["label"]: i["value"] for i in witch["items"]}["Blood spell deck"] == f"{blood} left, 0 discarded"


def test_end_screen_words_the_blood_paid_statistics() -> None:
    """UI audit 2026-11-26: the end screen listed "X2: Blood Bolt" (casts paying X = 2)."""
    from bloodforge.server.summary import statistic_label

    static = scenario().game.static_info()
    labels = static["statistic_labels"]
    names = {sid: s.name for sid, s in scenario().content.spells.items()}
    assert statistic_label("x2.blood_bolt", labels, names) == "Casts paying X = 2: Blood Bolt"
    assert statistic_label("x_at_die.manipulate", labels, names) == "Casts paying X = the die's size: Manipulate"
    assert statistic_label("blood_paid", labels, names) == "Blood paid for spells (X)"
