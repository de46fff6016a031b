"""An ordered deck of cards with a hidden order and a discard pile.

Unlike a `Bag`, a shuffled deck really has an order, which is hidden information: observations
show only its size, and `resample_hidden` reshuffles it. Reshuffling the discard pile into an
empty draw pile is the common rule, so the deck does it itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .rng import Rng


class Deck:
    """Draw pile (top is the end of the list) plus a face-up discard pile."""

    __slots__ = ("discards", "pile")

    def __init__(self, pile: Iterable[str] = (), discards: Iterable[str] = ()) -> None:
        self.pile: list[str] = list(pile)
        self.discards: list[str] = list(discards)

    @classmethod
    def shuffled(cls, cards: Iterable[str], rng: Rng) -> Deck:
        deck = cls(sorted(cards))
        rng.shuffle(deck.pile)
        return deck

    @classmethod
    def rigged(cls, top_first: Iterable[str], rest: Iterable[str], rng: Rng) -> Deck:
        """A deck whose first draws are `top_first` in order, the rest shuffled below them."""
        below = sorted(rest)
        rng.shuffle(below)
        return cls(below + list(reversed(list(top_first))))

    def __len__(self) -> int:
        return len(self.pile)

    def draw(self, rng: Rng) -> str | None:
        """Top card, reshuffling the discards into the pile when it has run out."""
        if not self.pile:
            if not self.discards:
                return None
            self.pile, self.discards = self.discards, []
            self.pile.sort()
            rng.shuffle(self.pile)
        return self.pile.pop()

    def discard(self, card: str) -> None:
        self.discards.append(card)

    def reshuffle_pile(self, rng: Rng) -> None:
        """Forget the pile's order (used when resampling hidden information)."""
        self.pile.sort()
        rng.shuffle(self.pile)

    def copy(self) -> Deck:
        new = Deck.__new__(Deck)
        new.pile = list(self.pile)
        new.discards = list(self.discards)
        return new

    def to_json(self) -> dict[str, Any]:
        return {"pile": list(self.pile), "discards": list(self.discards)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deck:
        return cls(data.get("pile", ()), data.get("discards", ()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and (self.pile, self.discards) == (other.pile, other.discards)

    def __repr__(self) -> str:
        return f"Deck({len(self.pile)} in pile, {len(self.discards)} discarded)"
