"""The plain pieces a Blood Stone position is made of: units, the turn record, partial choices.

They are small mutable records with an explicit `copy`, so cloning a state for search copies a
dozen objects and nothing else (no deepcopy).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Square

SOLDIERS = 0
WITCH = 1
SIDE_NAMES = ("Soldiers", "Witch")


def side_does(seat: int, verb: str) -> str:
    """`The Soldiers draw` / `The Witch draws`: log lines agree with their subject."""
    if seat == SOLDIERS:
        return f"The Soldiers {verb}"
    return f"The Witch {verb}es" if verb.endswith(("s", "sh", "ch")) else f"The Witch {verb}s"


# Where a unit is. Every unit is in exactly one of these places.
UNPLACED = "unplaced"  # before setup has put it on a start tile
BOARD = "board"
REALM = "realm"  # dead soldiers and minions: the Phantoms
REMOVED = "removed"  # dead zombified units (and the dead Witch): out of the game
PLACES = (UNPLACED, BOARD, REALM, REMOVED)

# Phases of the game.
PLACE = "place"
TURN = "turn"
OVER = "over"

#: Cards a side draws up to at the start of its turn (rulebook: Phantom Spells 2, Blood Spells 3).
HAND_LIMIT = (2, 3)
#: Acts the Soldier player has each turn (rulebook: "you may Act up to 3 times").
SOLDIER_ACTS = 3


@dataclass(slots=True)
class UnitState:
    id: str
    where: str
    square: Square | None
    blood: int
    zombified: bool = False
    bound: bool = False

    def copy(self) -> UnitState:
        return UnitState(self.id, self.where, self.square, self.blood, self.zombified, self.bound)

    def to_json(self, names: dict[Square, str] | Any) -> dict[str, Any]:
        return {
            "where": self.where,
            "square": None if self.square is None else names[self.square],
            "blood": self.blood,
            "zombified": self.zombified,
            "bound": self.bound,
        }


@dataclass(slots=True)
class TurnRecord:
    """What the side to move has already done this turn."""

    acts_used: int = 0
    extra_acts: int = 0
    moved: set[str] = field(default_factory=set)
    attacked: set[str] = field(default_factory=set)
    spells_used: int = 0

    def copy(self) -> TurnRecord:
        return TurnRecord(
            self.acts_used, self.extra_acts, set(self.moved), set(self.attacked), self.spells_used
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "acts_used": self.acts_used,
            "extra_acts": self.extra_acts,
            "moved": sorted(self.moved),
            "attacked": sorted(self.attacked),
            "spells_used": self.spells_used,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnRecord:
        return cls(
            int(data.get("acts_used", 0)),
            int(data.get("extra_acts", 0)),
            set(data.get("moved", ())),
            set(data.get("attacked", ())),
            int(data.get("spells_used", 0)),
        )


@dataclass(frozen=True, slots=True)
class PendingCast:
    """A spell being chosen but not yet committed: `cancel` drops it, nothing has happened."""

    card: str
    target: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "target": self.target}


@dataclass(slots=True)
class Grant:
    """Units a spell lets a side Act with right now (Manipulate, Possession, ...)."""

    seat: int
    spell: str
    units: tuple[str, ...]
    can_move: set[str]
    can_attack: set[str]
    slots: int | None = None  # how many more of `units` may start Acting (None: all of them)
    started: set[str] = field(default_factory=set)

    def copy(self) -> Grant:
        return Grant(
            self.seat,
            self.spell,
            self.units,
            set(self.can_move),
            set(self.can_attack),
            self.slots,
            set(self.started),
        )

    def may_act(self, uid: str) -> bool:
        return uid in self.started or self.slots is None or self.slots > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "spell": self.spell,
            "units": list(self.units),
            "can_move": sorted(self.can_move),
            "can_attack": sorted(self.can_attack),
            "slots": self.slots,
            "started": sorted(self.started),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Grant:
        return cls(
            int(data["seat"]),
            str(data["spell"]),
            tuple(data["units"]),
            set(data.get("can_move", ())),
            set(data.get("can_attack", ())),
            None if data.get("slots") is None else int(data["slots"]),
            set(data.get("started", ())),
        )
