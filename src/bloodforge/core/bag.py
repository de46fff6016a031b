"""A bag of tiles: a multiset drawn from at random.

The bag stores counts, never an order: the tile drawn is decided by the state's RNG at the moment
of drawing, as when a hand reaches into a real bag. So no "bag order" exists that could leak,
and resampling hidden information never has to invent one. A scenario may rig the bag with a
queue of tiles that come out first, in that order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .rng import Rng


class BagEmpty(Exception):  # noqa: N818 - reads as a condition, like StopIteration
    """Raised when drawing from a bag that holds nothing."""


class Bag:
    """Multiset of hashable string items with seeded random draws and an optional rig queue."""

    __slots__ = ("counts", "rigged")

    def __init__(self, counts: Mapping[str, int] | None = None, rigged: Iterable[str] = ()) -> None:
        self.counts: dict[str, int] = {k: v for k, v in (counts or {}).items() if v > 0}
        self.rigged: list[str] = list(rigged)

    @classmethod
    def of(cls, items: Iterable[str]) -> Bag:
        bag = cls()
        for item in items:
            bag.add(item)
        return bag

    def __len__(self) -> int:
        return sum(self.counts.values())

    def __bool__(self) -> bool:
        return bool(self.counts)

    def __contains__(self, item: object) -> bool:
        return item in self.counts

    def count(self, item: str) -> int:
        return self.counts.get(item, 0)

    def add(self, item: str, n: int = 1) -> None:
        if n < 0:
            raise ValueError(f"cannot add {n} of {item!r}")
        if n:
            self.counts[item] = self.counts.get(item, 0) + n

    def remove(self, item: str, n: int = 1) -> None:
        have = self.counts.get(item, 0)
        if n > have:
            raise KeyError(f"bag holds {have} {item!r}, cannot remove {n}")
        if have == n:
            del self.counts[item]
        else:
            self.counts[item] = have - n

    def draw(self, rng: Rng) -> str:
        """Take one item out: the next rigged item if any, else a uniformly random tile."""
        if not self.counts:
            raise BagEmpty("the bag is empty")
        if self.rigged:
            item = self.rigged.pop(0)
            if item not in self.counts:
                raise BagEmpty(f"rigged draw {item!r} is not in the bag ({self.describe()})")
        else:
            keys = sorted(self.counts)
            item = keys[rng.weighted_index([self.counts[k] for k in keys])]
        self.remove(item)
        return item

    def draw_many(self, rng: Rng, n: int) -> list[str]:
        return [self.draw(rng) for _ in range(min(n, len(self)))]

    def empty_into(self) -> dict[str, int]:
        """Remove and return everything (e.g. to pour a bag back somewhere else)."""
        out, self.counts = self.counts, {}
        return out

    def copy(self) -> Bag:
        new = Bag.__new__(Bag)
        new.counts = dict(self.counts)
        new.rigged = list(self.rigged)
        return new

    def items(self) -> list[str]:
        """Contents as a sorted list with repeats (order carries no information)."""
        return [k for k in sorted(self.counts) for _ in range(self.counts[k])]

    def describe(self) -> str:
        return ", ".join(f"{k}x{v}" for k, v in sorted(self.counts.items())) or "empty"

    def to_json(self) -> dict[str, Any]:
        return {"counts": dict(sorted(self.counts.items())), "rigged": list(self.rigged)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Bag:
        return cls(data.get("counts", {}), data.get("rigged", ()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bag) and other.counts == self.counts and other.rigged == self.rigged

    def __repr__(self) -> str:
        return f"Bag({self.describe()})"
