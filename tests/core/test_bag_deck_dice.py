"""Bags (multisets drawn at random), decks (hidden order), dice (rigged or rolled)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bloodforge.core import Bag, BagEmpty, Deck, Dice, Rng


def test_bag_draws_every_tile_exactly_once() -> None:
    bag = Bag({"a": 3, "b": 2})
    rng = Rng(1)
    drawn = Counter(bag.draw(rng) for _ in range(5))
    assert drawn == Counter({"a": 3, "b": 2})
    assert len(bag) == 0
    with pytest.raises(BagEmpty):
        bag.draw(rng)


def test_bag_rig_comes_out_first_in_order() -> None:
    bag = Bag({"a": 3, "b": 2}, rigged=["b", "a", "b"])
    rng = Rng(2)
    assert [bag.draw(rng) for _ in range(3)] == ["b", "a", "b"]
    assert bag.counts == {"a": 2}


def test_bag_rig_of_missing_tile_is_refused() -> None:
    bag = Bag({"a": 1}, rigged=["z"])
    with pytest.raises(BagEmpty, match="rigged"):
        bag.draw(Rng(0))


def test_bag_draw_frequencies_follow_counts() -> None:
    rng = Rng(3)
    counts = Counter(Bag({"x": 1, "y": 3}).draw(rng) for _ in range(8000))
    assert 1700 < counts["x"] < 2300


def test_bag_json_round_trip_and_copy_independence() -> None:
    bag = Bag({"a": 2, "b": 1}, rigged=["a"])
    again = Bag.from_json(bag.to_json())
    assert again == bag
    c = bag.copy()
    c.remove("a")
    assert bag.count("a") == 2


def test_bag_remove_more_than_held_is_an_error() -> None:
    with pytest.raises(KeyError, match="cannot remove"):
        Bag({"a": 1}).remove("a", 2)


@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(min_value=0, max_value=5)), st.integers(0, 2**32))
def test_bag_draw_many_never_exceeds_contents(counts: dict[str, int], seed: int) -> None:
    bag = Bag(counts)
    total = len(bag)
    drawn = bag.draw_many(Rng(seed), total + 3)
    assert Counter(drawn) == Counter({k: v for k, v in counts.items() if v})


def test_deck_draws_then_reshuffles_discards() -> None:
    rng = Rng(4)
    deck = Deck.shuffled(["a", "b", "c"], rng)
    first = [deck.draw(rng) for _ in range(3)]
    assert sorted(first) == ["a", "b", "c"]  # type: ignore[type-var]
    assert deck.draw(rng) is None
    for card in first:
        assert card is not None
        deck.discard(card)
    again = deck.draw(rng)
    assert again in {"a", "b", "c"}
    assert len(deck) == 2
    assert deck.discards == []


def test_deck_rigged_top_cards_come_first() -> None:
    rng = Rng(5)
    deck = Deck.rigged(["x", "y"], ["a", "b"], rng)
    assert [deck.draw(rng), deck.draw(rng)] == ["x", "y"]
    assert sorted([deck.draw(rng), deck.draw(rng)]) == ["a", "b"]  # type: ignore[type-var]


def test_dice_rig_then_random_and_impossible_rig_refused() -> None:
    dice = Dice([4, 1])
    rng = Rng(6)
    assert dice.roll(rng, 4) == 4
    assert dice.roll(rng, 6) == 1
    assert 1 <= dice.roll(rng, 6) <= 6
    with pytest.raises(ValueError, match="impossible"):
        Dice([7]).roll(rng, 6)
