"""The Blood Stone position and its contract hooks; the rules themselves live in rules.py.

Everything here is bookkeeping: which pieces exist, where they are, the decks and hands, the
partial choice being built and the log. It is copied field by field for `clone` and written out
field by field for `to_json`, so both stay cheap and exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from bloodforge.core import Action, Deck, Dice, Rng, State

from . import observation, rules
from .board import Square
from .model import (
    BOARD,
    OVER,
    REALM,
    SIDE_NAMES,
    SOLDIERS,
    WITCH,
    Grant,
    PendingCast,
    TurnRecord,
    UnitState,
)

if TYPE_CHECKING:
    from . import WitchGame
    from .content import Content


class WitchState(State):
    game: WitchGame

    def __init__(self, game: WitchGame, rng: Rng, history: list[str]) -> None:
        self._init_core(game, rng, history)
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

    @property
    def content(self) -> Content:
        return self.game.content

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
        roll: int | None = None, passed: bool | None = None,
    ) -> None:
        """Log an event; `private` is what `seat` reads instead of the public `text`."""
        data: dict[str, Any] = {"turn": self.turn_number}
        if roll is not None:
            data.update(roll=roll, passed=passed)
        if private is not None:
            self.events.add(private, to=seat, masked=text, kind=kind, data=data)
        else:
            self.events.add(text, kind=kind, data=data)

    # -- contract hooks ----------------------------------------------------------------------
    def _actors(self) -> list[int]:
        return [] if self.phase == OVER else [self.side]

    def _is_terminal(self) -> bool:
        return self.phase == OVER

    def seat_roles(self) -> list[str]:
        return [SIDE_NAMES[SOLDIERS], SIDE_NAMES[WITCH]]

    def _legal_actions(self, seat: int) -> list[Action]:
        del seat  # one seat acts at a time: the rules know which
        return rules.legal_actions(self)

    def _apply(self, action: Action, seat: int | None) -> None:
        del seat
        rules.apply(self, action)

    def explain_illegal(self, action: Action) -> str | None:
        return rules.explain_illegal(self, action)

    def phase_name(self) -> str:
        if self.phase == OVER:
            return "game over"
        if self.phase != "turn":
            return "setup"
        step = "casting" if self.pending else "acting with a spell" if self.grant else "turn"
        return f"{SIDE_NAMES[self.side]} {step} {self.turn_number}"

    def clone(self) -> Self:
        new = object.__new__(type(self))
        self._clone_core(new)
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
        return new

    def scores(self) -> list[float]:
        """Blood stones on each side's units in play (zombified soldiers count for the Witch)."""
        out = [0.0, 0.0]
        for uid, u in self.units.items():
            if u.where == BOARD:
                out[SOLDIERS if self.is_active_soldier(uid) else WITCH] += u.blood
        return out

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0, 0.0]
        if self.winner is None:
            return [0.5, 0.5]
        return [1.0 if seat == self.winner else 0.0 for seat in (SOLDIERS, WITCH)]

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observation.observe(self, seat)

    def resample_hidden(self, seat: int | None, rng: Rng) -> Self:
        return observation.resample(self, seat, rng)

    def _position_json(self) -> dict[str, Any]:
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

    @classmethod
    def from_position(cls, game: WitchGame, position: dict[str, Any], rng: Rng) -> Self:
        """Inverse of `_position_json` (trusted input: a state this code wrote)."""
        state = cls(game, rng, [])
        by_name = game.content.squares_by_name
        state.phase = str(position["phase"])
        state.side = int(position["side"])
        state.turn_number = int(position["turn_number"])
        for uid in game.content.roster:
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
        return state


__all__ = ["SOLDIERS", "WITCH", "WitchState"]
