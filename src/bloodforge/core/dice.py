"""Dice rolled from the state's RNG, with an optional rig queue for scenarios and tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .rng import Rng


class Dice:
    """Rolls dice of any size; rigged results are used first, in order, and checked."""

    __slots__ = ("rigged",)

    def __init__(self, rigged: Iterable[int] = ()) -> None:
        self.rigged: list[int] = list(rigged)

    def roll(self, rng: Rng, sides: int) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, got {sides}")
        if self.rigged:
            value = self.rigged.pop(0)
            if not 1 <= value <= sides:
                raise ValueError(f"rigged roll {value} is impossible on a d{sides}")
            return value
        return rng.randint(1, sides)

    def copy(self) -> Dice:
        return Dice(self.rigged)

    def to_json(self) -> dict[str, Any]:
        return {"rigged": list(self.rigged)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dice:
        return cls(data.get("rigged", ()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dice) and other.rigged == self.rigged
