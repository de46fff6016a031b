"""The position's data: plain classes, no rules.

Units of one type in one territory are interchangeable except for what they may still do this
turn, so an army is six counts: infantry and cavalry, each fresh (its action unused), bonus
(an extra action earned by a victory) or spent. A territory holds the units of at most one
owner: a seat, or an independent army.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bloodforge.core import Deck, Dice

#: owner of a territory with no units
EMPTY = -1
#: owner of a territory held by an independent army
INDEPENDENT = -2

INF_FRESH, INF_BONUS, INF_SPENT, CAV_FRESH, CAV_BONUS, CAV_SPENT = range(6)
INFANTRY = "infantry"
CAVALRY = "cavalry"
UNIT_TYPES = (INFANTRY, CAVALRY)
STRENGTH = {INFANTRY: 1, CAVALRY: 2}

BEGIN = "begin"
PLANNING = "planning"
ACTION = "action"
OVER = "over"

HEROES = "heroes"
CASUALTIES = "casualties"
RETREAT = "retreat"
ADVANCE = "advance"


def army_counts(units: list[int]) -> tuple[int, int]:
    """(infantry, cavalry) of an army whatever their action state."""
    return units[0] + units[1] + units[2], units[3] + units[4] + units[5]


def army_strength(units: list[int]) -> int:
    inf, cav = army_counts(units)
    return inf + 2 * cav


@dataclass
class Battle:
    """One battle from declaration to the attacker's advance.

    The attacking units stay in `origin` (already spent) until they advance or die;
    `inf_fresh`/`cav_fresh` say how many of them attacked with their ordinary action, which is
    what earns an extra action after a victory (F40, F41).
    """

    attacker: int
    defender: int  # a seat or INDEPENDENT
    origin: int
    target: int
    inf: int
    cav: int
    inf_fresh: int
    cav_fresh: int
    committed: dict[int, list[str]] = field(default_factory=dict)
    ready: dict[int, bool] = field(default_factory=dict)
    revealed: bool = False
    stage: str = HEROES
    loser: int = EMPTY
    margin: int = 0
    attacker_won: bool = False
    pathfinder: bool = False

    def copy(self) -> Battle:
        return Battle(
            self.attacker, self.defender, self.origin, self.target, self.inf, self.cav, self.inf_fresh,
            self.cav_fresh, {s: list(c) for s, c in self.committed.items()}, dict(self.ready), self.revealed,
            self.stage, self.loser, self.margin, self.attacker_won, self.pathfinder,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker, "defender": self.defender, "origin": self.origin, "target": self.target,
            "inf": self.inf, "cav": self.cav, "inf_fresh": self.inf_fresh, "cav_fresh": self.cav_fresh,
            "committed": {str(s): list(c) for s, c in self.committed.items()},
            "ready": {str(s): r for s, r in self.ready.items()}, "revealed": self.revealed,
            "stage": self.stage, "loser": self.loser, "margin": self.margin,
            "attacker_won": self.attacker_won, "pathfinder": self.pathfinder,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Battle:
        return cls(
            int(d["attacker"]), int(d["defender"]), int(d["origin"]), int(d["target"]), int(d["inf"]),
            int(d["cav"]), int(d["inf_fresh"]), int(d["cav_fresh"]),
            {int(s): list(c) for s, c in d["committed"].items()}, {int(s): bool(r) for s, r in d["ready"].items()},
            bool(d["revealed"]), str(d["stage"]), int(d["loser"]), int(d["margin"]), bool(d["attacker_won"]),
            bool(d["pathfinder"]),
        )


class Tally:
    """Per-seat counts from one pass over the map (who acts, legal actions, settling and
    observations all need them): controller of each territory, and per seat forts, food,
    income and units. Read-only once made: models share it until one changes."""

    __slots__ = ("armies", "controllers", "food", "forts", "income", "over", "units")

    def __init__(self, controllers: list[int], forts: list[int], food: list[int], income: list[int],
                 units: list[int], armies: list[list[int]]) -> None:
        self.controllers = controllers
        self.forts = forts
        self.food = food
        self.income = income
        self.units = units
        #: per seat, the territories holding its units, in index order
        self.armies = armies
        #: the seat that must disband now (A34), None if nobody, NOT_ASKED until first asked
        self.over: int | None = NOT_ASKED

    def same_map(self) -> Tally:
        """These counts for a position whose map is unchanged but whose turn or chronicle may
        differ (who is over the quota depends on both): the lists are shared, `over` is asked anew."""
        return Tally(self.controllers, self.forts, self.food, self.income, self.units, self.armies)


#: `Tally.over` before anyone asked
NOT_ASKED = -3


class Model:
    """Everything that changes during a game of Five Forts.

    `tally_cache` holds the counts derived from the map (`rules.tally`), computed at most once
    per position: the rules clear it (`touch`) whenever they change the position, and so must
    any other code that edits a model in place."""

    def __init__(self, players: int, size: int) -> None:
        self.players = players
        self.owner: list[int] = [EMPTY] * size
        self.units: list[list[int]] = [[0] * 6 for _ in range(size)]
        #: territory index of each seat's home
        self.home: list[int] = [0] * players
        #: seat whose home a territory is, or EMPTY
        self.home_of: list[int] = [EMPTY] * size
        self.currency: list[int] = [0] * players
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.deck = Deck()
        self.dice = Dice()
        self.first_seat = 0
        self.turn_seat = 0
        self.turn_number = 0
        self.round = 0
        self.phase = BEGIN
        self.recruited: list[int] = []
        self.bought = 0
        self.timed_out = False
        #: seats still to be asked in the open bribery window, in turn order
        self.bribery: list[int] | None = None
        self.battle: Battle | None = None
        self.held_since: list[int | None] = [None] * players
        self.eliminated: list[bool] = [False] * players
        self.winners: list[int] = []
        self.end_reason = ""
        #: the optional chronicle module: its deck and the card of the current round
        self.chronicle_deck = Deck()
        self.chronicle: str | None = None
        self.tally_cache: Tally | None = None

    def touch(self) -> None:
        """The position changed: forget the derived counts."""
        self.tally_cache = None

    def copy(self) -> Model:
        new = Model.__new__(Model)
        new.players = self.players
        new.owner = list(self.owner)
        new.units = [list(u) for u in self.units]
        new.home = list(self.home)
        new.home_of = list(self.home_of)
        new.currency = list(self.currency)
        new.hands = [list(h) for h in self.hands]
        new.deck = self.deck.copy()
        new.dice = self.dice.copy()
        new.first_seat = self.first_seat
        new.turn_seat = self.turn_seat
        new.turn_number = self.turn_number
        new.round = self.round
        new.phase = self.phase
        new.recruited = list(self.recruited)
        new.bought = self.bought
        new.timed_out = self.timed_out
        new.bribery = None if self.bribery is None else list(self.bribery)
        new.battle = None if self.battle is None else self.battle.copy()
        new.held_since = list(self.held_since)
        new.eliminated = list(self.eliminated)
        new.winners = list(self.winners)
        new.end_reason = self.end_reason
        new.chronicle_deck = self.chronicle_deck.copy()
        new.chronicle = self.chronicle
        new.tally_cache = self.tally_cache  # read-only: shared until either model changes
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players, "owner": list(self.owner), "units": [list(u) for u in self.units],
            "home": list(self.home), "currency": list(self.currency), "hands": [list(h) for h in self.hands],
            "deck": self.deck.to_json(), "dice": self.dice.to_json(), "first_seat": self.first_seat,
            "turn_seat": self.turn_seat, "turn_number": self.turn_number, "round": self.round,
            "phase": self.phase, "recruited": list(self.recruited), "bought": self.bought,
            "timed_out": self.timed_out, "bribery": None if self.bribery is None else list(self.bribery),
            "battle": None if self.battle is None else self.battle.to_json(),
            "held_since": list(self.held_since), "eliminated": list(self.eliminated),
            "winners": list(self.winners), "end_reason": self.end_reason,
            "chronicle_deck": self.chronicle_deck.to_json(), "chronicle": self.chronicle,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Model:
        m = cls(int(d["players"]), len(d["owner"]))
        m.owner = [int(o) for o in d["owner"]]
        m.units = [[int(x) for x in u] for u in d["units"]]
        m.set_homes([int(h) for h in d["home"]])
        m.currency = [int(c) for c in d["currency"]]
        m.hands = [[str(c) for c in h] for h in d["hands"]]
        m.deck = Deck.from_json(d["deck"])
        m.dice = Dice.from_json(d["dice"])
        m.first_seat = int(d["first_seat"])
        m.turn_seat = int(d["turn_seat"])
        m.turn_number = int(d["turn_number"])
        m.round = int(d["round"])
        m.phase = str(d["phase"])
        m.recruited = [int(t) for t in d["recruited"]]
        m.bought = int(d["bought"])
        m.timed_out = bool(d["timed_out"])
        m.bribery = None if d["bribery"] is None else [int(s) for s in d["bribery"]]
        m.battle = None if d["battle"] is None else Battle.from_json(d["battle"])
        m.held_since = [None if h is None else int(h) for h in d["held_since"]]
        m.eliminated = [bool(e) for e in d["eliminated"]]
        m.winners = [int(w) for w in d["winners"]]
        m.end_reason = str(d["end_reason"])
        m.chronicle_deck = Deck.from_json(d["chronicle_deck"])
        m.chronicle = None if d["chronicle"] is None else str(d["chronicle"])
        return m

    def set_homes(self, homes: list[int]) -> None:
        self.home = list(homes)
        self.tally_cache = None
        self.home_of = [EMPTY] * len(self.owner)
        for seat, t in enumerate(homes):
            self.home_of[t] = seat
