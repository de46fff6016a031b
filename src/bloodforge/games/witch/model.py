"""The plain pieces a Blood Stone position is made of: units, the turn record, partial choices.

They are small mutable records with an explicit `copy`, so cloning a state for search copies a
dozen objects and nothing else (no deepcopy).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bloodforge.core import Deck, Dice, EventLog, Rng

from .board import Square
from .content import Content
from .params import WitchParams

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


class Position:
    """The data of one Blood Stone position and the small queries the rules, observation and
    agents share; `game.WitchState` adds the engine's part (history, RNG, log)."""

    # set by the engine (core.State); declared for the modules that read them
    rng: Rng
    events: EventLog
    history: list[str]

    def __init__(self, content: Content, params: WitchParams) -> None:
        self.content = content
        self.params = params
        self.phase = ""
        self.side = SOLDIERS
        self.turn_number = 0
        self.units: dict[str, UnitState] = {}
        self.at: dict[Square, str] = {}
        self.supply = 0
        self.decks: list[Deck] = [Deck(), Deck()]  # seat 0: Phantom Spells, seat 1: Blood Spells
        self.hands: list[list[str]] = [[], []]
        self.dice = Dice()
        self.rec = TurnRecord()
        self.pending: PendingCast | None = None
        self.grant: Grant | None = None
        self.winner: int | None = None

    # -- small queries the rules, observation and agents share -----------------------------
    def on_board(self, uid: str) -> bool:
        return self.units[uid].where == BOARD

    def is_active_soldier(self, uid: str) -> bool:
        u = self.units[uid]
        return u.where == BOARD and not u.zombified and self.content.units[uid].kind == "soldier"

    def tag(self, uid: str) -> str:
        """What a unit counts as for spell targets: witch, minion, soldier or zombified."""
        kind = self.content.units[uid].kind
        if kind == "soldier" and self.units[uid].zombified:
            return "zombified"
        return kind

    def phantoms(self) -> int:
        return sum(1 for u in self.units.values() if u.where == REALM)

    def name(self, uid: str) -> str:
        return self.content.units[uid].name

    def note(
        self, kind: str, text: str, *, seat: int | None = None, private: str | None = None,
        roll: int | None = None, passed: bool | None = None, **facts: Any,
    ) -> None:
        """Log an event; `private` is what `seat` reads instead of the public `text`; `facts`
        are public numbers or ids kept with it (a cast's card and blood paid)."""
        data: dict[str, Any] = {"turn": self.turn_number, **facts}
        if roll is not None:
            data.update(roll=roll, passed=passed)
        if private is not None:
            self.events.add(private, to=seat, masked=text, kind=kind, data=data)
        else:
            self.events.add(text, kind=kind, data=data)

    def copy_position_into(self, new: Position) -> None:
        """Copy this position's data into `new` (a bare object), field by field."""
        new.content = self.content
        new.params = self.params
        new.phase = self.phase
        new.side = self.side
        new.turn_number = self.turn_number
        new.units = {k: u.copy() for k, u in self.units.items()}
        new.at = dict(self.at)
        new.supply = self.supply
        new.decks = [d.copy() for d in self.decks]
        new.hands = [list(h) for h in self.hands]
        new.dice = self.dice.copy()
        new.rec = self.rec.copy()
        new.pending = self.pending
        new.grant = None if self.grant is None else self.grant.copy()
        new.winner = self.winner

    def position_json(self) -> dict[str, Any]:
        names = self.content.square_names
        return {
            "phase": self.phase,
            "side": self.side,
            "turn_number": self.turn_number,
            "units": {uid: self.units[uid].to_json(names) for uid in self.content.roster},
            "supply": self.supply,
            "decks": [d.to_json() for d in self.decks],
            "hands": [list(h) for h in self.hands],
            "dice": self.dice.to_json(),
            "turn": self.rec.to_json(),
            "pending": None if self.pending is None else self.pending.to_json(),
            "grant": None if self.grant is None else self.grant.to_json(),
            "winner": self.winner,
        }

    def load_position(self, position: dict[str, Any]) -> None:
        """Inverse of `position_json` (trusted input: a position this code wrote)."""
        state = self
        by_name = self.content.squares_by_name
        state.phase = str(position["phase"])
        state.side = int(position["side"])
        state.turn_number = int(position["turn_number"])
        for uid in self.content.roster:
            d = position["units"][uid]
            sq = None if d["square"] is None else by_name[d["square"]]
            state.units[uid] = UnitState(
                uid, d["where"], sq, int(d["blood"]), bool(d["zombified"]), bool(d["bound"])
            )
            if sq is not None and d["where"] == BOARD:
                state.at[sq] = uid
        state.supply = int(position["supply"])
        state.decks = [Deck.from_json(d) for d in position["decks"]]
        state.hands = [list(h) for h in position["hands"]]
        state.dice = Dice.from_json(position["dice"])
        state.rec = TurnRecord.from_json(position["turn"])
        p = position.get("pending")
        state.pending = None if p is None else PendingCast(p["card"], p.get("target"))
        g = position.get("grant")
        state.grant = None if g is None else Grant.from_json(g)
        w = position.get("winner")
        state.winner = None if w is None else int(w)

