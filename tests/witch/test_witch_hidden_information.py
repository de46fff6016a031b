"""Hidden information: hands, deck orders and the RNG never leak; resampling is consistent."""

from __future__ import annotations

import json
from collections import Counter

from witch_helpers import check_invariants, new_game, scenario

from bloodforge.core import Rng
from bloodforge.games.witch.game import WitchState
from bloodforge.games.witch.model import SOLDIERS, WITCH
from bloodforge.games.witch.policy import make_policy


def states_along_a_game(seed: int, every: int = 7, plies: int = 600) -> list[WitchState]:
    state = new_game(seed).new_initial_state()
    rng = Rng(seed)
    out = []
    for i in range(plies):
        if state.is_terminal():
            break
        if i % every == 0:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


def test_observation_never_shows_the_other_sides_hand_nor_any_deck_order() -> None:
    state = scenario(
        {"minion1": "realm"},
        hands={"witch": ["zombify", "zombify", "transfusion"], "soldiers": ["haunt", "rally"]},
    )
    for seat, hidden in ((SOLDIERS, ["zombify", "transfusion"]), (WITCH, ["haunt", "rally"])):
        obs = state.observation(seat)
        blob = json.dumps(obs)
        for card in hidden:
            assert card not in blob, f"seat {seat} sees {card}"
        assert obs["hand_sizes"] == {"soldiers": 2, "witch": 3}
        for deck in obs["decks"].values():
            assert isinstance(deck["pile"], int), "a deck shows only its size"
    spectator = json.dumps(state.observation(None))
    assert "zombify" not in spectator
    assert "haunt" not in spectator


def test_observation_is_identical_for_states_that_differ_only_in_hidden_information() -> None:
    for state in states_along_a_game(11):
        for seat in (SOLDIERS, WITCH, None):
            twin = state.resample_hidden(seat, Rng(5))
            assert twin.observation(seat) == state.observation(seat)
            assert twin.rng.state != state.rng.state, "the RNG is reseeded"
            check_invariants(twin)


def test_observation_does_not_depend_on_the_rng_state() -> None:
    state = states_along_a_game(12)[5]
    other = state.clone()
    other.rng = Rng(123456789)
    for seat in (SOLDIERS, WITCH, None):
        assert other.observation(seat) == state.observation(seat)
    assert str(state.rng.state) not in json.dumps(state.observation(None))


def test_resample_keeps_what_the_seat_knows_and_redraws_what_it_does_not() -> None:
    state = scenario(
        hands={"witch": ["zombify", "blood_feast", "blood_feast"], "soldiers": []},
        discards={"blood": ["manipulate"]},
    )
    hands = set()
    for k in range(30):
        twin = state.resample_hidden(SOLDIERS, Rng(k))
        assert twin.hands[SOLDIERS] == state.hands[SOLDIERS]
        assert twin.decks[WITCH].discards == ["manipulate"]
        assert len(twin.hands[WITCH]) == 3
        assert Counter(twin.hands[WITCH] + twin.decks[WITCH].pile) == Counter(
            state.hands[WITCH] + state.decks[WITCH].pile
        )
        hands.add(tuple(sorted(twin.hands[WITCH])))
        mine = state.resample_hidden(WITCH, Rng(k))
        assert mine.hands[WITCH] == state.hands[WITCH]
    assert len(hands) > 5, "the opponent's hand is really redrawn"


def test_resample_forgets_rigged_dice_and_an_opponents_uncommitted_cast() -> None:
    state = scenario(
        side="witch",
        units={"witch": {"square": "e6"}, "swordsman": {"square": "e4", "blood": 3}},
        hands={"witch": ["zombify"]},
        rig={"dice": [1, 1, 1]},
    )
    state.apply("cast zombify")
    assert state.observation(SOLDIERS)["pending"] is None, "the Soldiers do not see the choice"
    assert state.observation(WITCH)["pending"] == {"card": "zombify", "target": None}
    theirs = state.resample_hidden(SOLDIERS, Rng(1))
    assert theirs.pending is None
    assert theirs.dice.rigged == []
    assert theirs.observation(SOLDIERS) == state.observation(SOLDIERS)
    mine = state.resample_hidden(WITCH, Rng(1))
    assert mine.pending == state.pending


def test_private_draws_are_in_the_drawing_seats_log_only() -> None:
    names = {spell.name for spell in new_game().content.spells.values()}
    seen_private = 0
    for state in states_along_a_game(13, every=11):
        for seat in (SOLDIERS, WITCH):
            draws = [e for e in state.events if e.kind == "draw" and e.visible == {seat}]
            mine = [e["text"] for e in state.observation(seat)["log"] if e["kind"] == "draw"]
            theirs = [e["text"] for e in state.observation(1 - seat)["log"] if e["kind"] == "draw"]
            seen_private += sum(t.startswith("You draw") for t in mine)
            for text in theirs:
                if any(e.masked == text for e in draws):
                    assert not any(n in text for n in names), text
    assert seen_private > 0


def test_resample_depends_only_on_what_the_seat_observed() -> None:
    """Two states a seat cannot tell apart resample to the same state from the same seed."""
    for state in states_along_a_game(14, every=13):
        seat = state.current_player
        if seat is None:
            continue
        twin = state.resample_hidden(seat, Rng(99))
        assert (
            twin.resample_hidden(seat, Rng(7)).position_digest()
            == state.resample_hidden(seat, Rng(7)).position_digest()
        )


def test_heuristic_agent_cannot_see_hidden_information() -> None:
    """Its choice is the same in every state consistent with its observation."""
    for state in states_along_a_game(15, every=17, plies=300):
        seat = state.current_player
        if seat is None or state.phase != "turn":
            continue
        twin = state.resample_hidden(seat, Rng(3))
        a = make_policy().choose(state, seat, Rng(21))
        b = make_policy().choose(twin, seat, Rng(21))
        assert a == b


def test_a_pending_cast_and_its_cancel_are_invisible_to_the_other_side_and_spectators() -> None:
    """Issue 19 item 8: `cast <card>` starts a compound choice only the caster sees (its
    observation's `pending`); the phase every seat reads said "Witch casting 4" meanwhile, and
    its return to "turn" told of the cancel."""
    checked = 0
    for seed in range(20, 40):
        for state in states_along_a_game(seed, every=3):
            side = state.current_player
            for action in state.legal_actions():
                if action.kind != "cast":
                    continue
                cast = state.clone()
                cast.apply(action)
                if cast.pending is None:
                    continue  # cast at once: public as it should be
                cancelled = cast.clone()
                cancelled.apply(next(a for a in cast.legal_actions() if a.is_cancel))
                for other in (1 - side, None):
                    for after in (cast, cancelled):
                        assert after.phase_name() == state.phase_name(), (after.phase_name(), state.phase_name())
                        assert after.observation(other) == state.observation(other)
                        assert after.event_log(other) == state.event_log(other)
                assert cast.observation(side)["pending"] is not None  # the caster still sees it
                checked += 1
                break
        if checked >= 5:
            break
    assert checked >= 5, "no position with a pending cast was found"
