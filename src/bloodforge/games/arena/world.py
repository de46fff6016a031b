"""What every rules module works on: the position, the content, chance and the log.

`World` is the rules' view of a game state (the adapter's State inherits it), plus the small
queries every rule asks: who is an enemy of whom (R-MODE-2..5), what stands where, initiative
positions (R-IMM-3..5) and the fastest human player (spec §2.1).
"""

from __future__ import annotations

from typing import Any

from bloodforge.core import EventLog, Rng

from .content import Content
from .hexes import Hex, hex_id
from .model import Board, Unit
from .params import ArenaParams

#: How many answers `World.layout_memo` keeps before it starts again (see there).
LAYOUT_MEMO_SIZE = 64


class World:
    board: Board
    content: Content
    params: ArenaParams
    rng: Rng
    events: EventLog
    cells: frozenset[Hex]
    central: tuple[Hex, ...]
    #: While one event hits several characters at once (a sweeping hazard), those who fall are
    #: gathered here and the end of the match is checked once for all of them (A49).
    falling: list[Unit] | None = None
    #: `movement.explore`'s memo: (the arena's cells it was made for, key -> route table).
    #: Shared by clones (its keys hold everything a search reads); never part of the position.
    route_memo: tuple[frozenset[Hex], dict[Any, Any]] | None = None

    def layout_memo(self) -> dict[Any, Any]:
        """The memo of answers read off the layout (route searches, who is in Range): keys
        hold `Board.layout` and whatever else the answer reads; shared by clones.

        Emptied when it holds `LAYOUT_MEMO_SIZE` entries. *Why so few:* an answer is asked
        again in the same layout (every step of a turn, the clones of one search node), and a
        layout seldom comes back once a figure moved, so old entries are only kept garbage;
        kept for long they outlived the collector's young passes and made its full passes
        come early (issue 23: with 1,024 entries six-seat playouts spent ~9 % of their time
        in the cyclic collector, and 64 entries made them ~5 % faster)."""
        memo = self.route_memo
        if memo is None or memo[0] is not self.cells:
            memo = self.route_memo = (self.cells, {})
        table = memo[1]
        if len(table) >= LAYOUT_MEMO_SIZE:
            table.clear()
        return table

    # -- chance ---------------------------------------------------------------------------------
    def roll(self, sides: int) -> int:
        """One die from the rig queue of its size if a scenario set one, else from the RNG."""
        dice = self.board.dice.get(sides)
        if dice is not None and dice.rigged:
            return dice.roll(self.rng, sides)
        if sides < 1:  # what `Dice().roll` says, without making a Dice for every roll
            raise ValueError(f"a die needs at least one side, got {sides}")
        return self.rng.randint(1, sides)

    def log(self, text: str, kind: str = "", to: int | None = None, masked: str | None = None,
            **facts: Any) -> None:
        """Record an event; `facts` give what happened as data (who attacked whom with what, the
        damage dealt) for the lab's statistics (`ArenaState.statistics`) and for UIs. Data is
        read under the same visibility as the text, and a seat outside `to` reading the
        `masked` face sees it too: never give facts to a secret event."""
        if to is None and masked is None:  # the usual public line, by the positional call
            self.events.add_public(text, kind, facts or None)
            return
        assert not (facts and masked is not None), "a masked event must not carry facts"
        self.events.add(text, to=to, masked=masked, kind=kind, data=facts or None)

    # -- figures --------------------------------------------------------------------------------
    def unit(self, uid: str) -> Unit:
        return self.board.units[uid]

    def living(self) -> list[Unit]:
        return [u for u in self.board.units.values() if u.alive and u.hex is not None]

    def combatants(self) -> list[Unit]:
        return [u for u in self.board.units.values() if u.alive and u.is_combatant]

    def occupant(self, h: Hex) -> Unit | None:
        for u in self.board.units.values():
            if u.alive and u.hex == h:
                return u
        return None

    def occupied(self) -> dict[Hex, Unit]:
        return {u.hex: u for u in self.board.units.values() if u.alive and u.hex is not None}

    def blocking_tiles(self) -> set[Hex]:
        """Hexes of 3-D Environmentals that occupy their spaces (A31)."""
        out: set[Hex] = set()
        for t in self.board.tiles:
            if self.content.environmental(t.env).blocks_movement:
                out.update(t.hexes)
        return out

    def solid_tiles(self) -> set[Hex]:
        """Hexes of 3-D Environmentals: forced movement collides with them (R-COL-7)."""
        out: set[Hex] = set()
        for t in self.board.tiles:
            if self.content.environmental(t.env).kind == "solid":
                out.update(t.hexes)
        return out

    def allies(self, a: Unit, b: Unit) -> bool:
        return a.side == b.side

    def enemies(self, a: Unit, b: Unit) -> bool:
        return a.side != b.side

    def damageable(self, u: Unit) -> bool:
        return u.alive and u.hp is not None

    def label(self, uid: str) -> str:
        u = self.board.units.get(uid)
        return u.name if u is not None else uid

    def where(self, u: Unit) -> str:
        return "-" if u.hex is None else hex_id(u.hex)

    # -- initiative -----------------------------------------------------------------------------
    def position(self, u: Unit) -> int:
        """Index in this round's order; a minion ranks at its summoner's place (TB7)."""
        uid = u.summoner if u.kind == "minion" and u.summoner is not None else u.uid
        try:
            return self.board.order.index(uid)
        except ValueError:
            return len(self.board.order)

    def humans_in_order(self) -> list[Unit]:
        ordered = [self.board.units[i] for i in self.board.order if i in self.board.units]
        rest = [u for u in self.board.units.values() if u.uid not in self.board.order]
        return [u for u in [*ordered, *rest] if u.kind == "champion" and u.alive and u.seat is not None]

    def fastest_human(self) -> Unit | None:
        """The first still-active human Champion in the current order (spec §2.1, GR-3)."""
        humans = self.humans_in_order()
        return humans[0] if humans else None

    def fastest_human_opponent(self, subject: Unit) -> Unit | None:
        """Who paths an NPC's forced movement of `subject` (R-FM-3, TB-FMC)."""
        for u in self.humans_in_order():
            if self.enemies(u, subject):
                return u
        if subject.seat is not None and subject.alive:
            return subject
        if subject.summoner is not None and self.board.units[subject.summoner].seat is not None:
            return self.board.units[subject.summoner]
        return self.fastest_human()
