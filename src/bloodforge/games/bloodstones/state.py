"""The Bloodstones state: what is where, whose turn it is, and the partial choice being built.

Only data and bookkeeping live here; the rules that change it are in the sibling modules
(setup, movement, battle, villages, turn) and are reached through `rules.py`. Everything is
plain dicts and lists of ints and strings so that cloning is fast and JSON is trivial.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Self

from bloodforge.core import Action, Bag, BagEmpty, Rng, ScenarioError, State

from .units import CITADEL, CUTIECORN, UNDEAD, FactionRules, UnitKind

if TYPE_CHECKING:
    from .game import BloodstonesGame

UnitCounts = dict[str, int]


class Phase(StrEnum):
    CHOOSE_FACTION = "choose_faction"
    PLACE_CITADEL = "place_citadel"
    PLACE_HORDE = "place_horde"
    SETUP_BUILD = "setup_build"
    RECOVER = "horde_recovery"
    CAPTURE = "capture_villages"
    UNDEAD = "move_undead"
    MAIN = "main_actions"
    CONSTRUCT = "construct_villages"
    FINAL_BATTLES = "final_battles"
    OVER = "game_over"


ATTACKER, DEFENDER = 0, 1


@dataclass
class Battle:
    """A battle in progress between the active player (attacker) and one defender."""

    area: int
    attacker: int
    defender: int
    step: str = "withdraw"  # withdraw | substitute | casualty | retreat | raise
    tiles: list[list[int]] = field(default_factory=lambda: [[], []])
    subs: list[str | None] = field(default_factory=lambda: [None, None])
    decided: list[bool] = field(default_factory=lambda: [False, False])
    order: list[int] = field(default_factory=lambda: [ATTACKER, DEFENDER])
    revealed: list[bool] = field(default_factory=lambda: [False, False])
    totals: list[int] = field(default_factory=lambda: [0, 0])
    fights: int = 0
    forces: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None  # side index
    eliminated_for_undead: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

    def seat(self, side: int) -> int:
        return self.attacker if side == ATTACKER else self.defender

    def side_of(self, seat: int) -> int:
        return ATTACKER if seat == self.attacker else DEFENDER

    def copy(self) -> Battle:
        return Battle(
            self.area, self.attacker, self.defender, self.step, [list(t) for t in self.tiles],
            list(self.subs), list(self.decided), list(self.order), list(self.revealed),
            list(self.totals), self.fights, list(self.forces), self.winner,
            self.eliminated_for_undead, [dict(h) for h in self.history],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "area": self.area, "attacker": self.attacker, "defender": self.defender, "step": self.step,
            "tiles": self.tiles, "subs": self.subs, "decided": self.decided, "order": self.order,
            "revealed": self.revealed, "totals": self.totals, "fights": self.fights,
            "forces": self.forces, "winner": self.winner,
            "eliminated_for_undead": self.eliminated_for_undead, "history": self.history,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Battle:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__})


@dataclass
class Pending:
    """A compound action being assembled (build, move, capture, village, place)."""

    kind: str
    unit: str | None = None
    area: int | None = None
    cost: int = 0
    paid: list[str] = field(default_factory=list)
    group_area: int | None = None
    group: UnitCounts = field(default_factory=dict)
    legs: list[dict[str, Any]] = field(default_factory=list)
    snapshot: dict[int, dict[int, UnitCounts]] | None = None
    targets: list[int] = field(default_factory=list)

    def copy(self) -> Pending:
        return Pending(
            self.kind, self.unit, self.area, self.cost, list(self.paid), self.group_area,
            dict(self.group), [dict(leg) for leg in self.legs],
            None if self.snapshot is None else copy_units(self.snapshot), list(self.targets),
        )

    def paid_pips(self, kinds: dict[str, UnitKind]) -> int:
        return sum(kinds[t].pips for t in self.paid)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "unit": self.unit, "area": self.area, "cost": self.cost,
            "paid": self.paid, "group_area": self.group_area, "group": self.group,
            "legs": self.legs,
            "snapshot": None if self.snapshot is None else units_to_json(self.snapshot),
            "targets": self.targets,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Pending:
        snap = d.get("snapshot")
        return cls(
            d["kind"], d.get("unit"), d.get("area"), d.get("cost", 0), list(d.get("paid", [])),
            d.get("group_area"), dict(d.get("group", {})), [dict(x) for x in d.get("legs", [])],
            None if snap is None else units_from_json(snap), list(d.get("targets", [])),
        )


def copy_units(units: dict[int, dict[int, UnitCounts]]) -> dict[int, dict[int, UnitCounts]]:
    return {a: {s: dict(c) for s, c in by_seat.items()} for a, by_seat in units.items()}


def units_to_json(units: dict[int, dict[int, UnitCounts]]) -> list[dict[str, Any]]:
    return [
        {"area": a, "seat": s, "units": dict(sorted(c.items()))}
        for a in sorted(units)
        for s, c in sorted(units[a].items())
        if c
    ]


def units_from_json(rows: list[dict[str, Any]]) -> dict[int, dict[int, UnitCounts]]:
    out: dict[int, dict[int, UnitCounts]] = {}
    for row in rows:
        counts = {str(k): int(v) for k, v in row["units"].items() if int(v) > 0}
        if counts:
            out.setdefault(int(row["area"]), {})[int(row["seat"])] = counts
    return out


class BloodstonesState(State):
    """A Bloodstones position. Fields are public to the rules modules, private to everyone else."""

    game: BloodstonesGame

    def __init__(self, game: BloodstonesGame, rng: Rng) -> None:
        n = game.num_players
        self._init_core(game, rng)
        self.factions: list[str | None] = [None] * n
        self.order: list[int] = list(range(n))
        self.phase = Phase.CHOOSE_FACTION
        self.active = 0
        self.decider: int | None = None  # seat deciding inside a battle, if not the active one
        self.setup_queue: list[int] = []
        self.build_points = 0
        self.setup_home: int | None = None
        self.units: dict[int, dict[int, UnitCounts]] = {}
        self.villages: dict[int, tuple[int, int]] = {}
        self.hands: list[UnitCounts] = [{} for _ in range(n)]
        self.bags: list[Bag] = [Bag() for _ in range(n)]
        self.discards: list[UnitCounts] = [{} for _ in range(n)]
        self.vp = [0] * n
        self.regroups = [0] * n
        self.captured_villages = [0] * n
        self.captured_citadels = [0] * n
        self.end_bonus = [0] * n  # VP from captures scored at the end (for the tie-break)
        self.village_supply = [0] * n
        self.undead_pool = [0] * n
        self.cutiecorn_free = False
        self.withdrawn_from: list[list[int]] = [[] for _ in range(n)]
        self.undead_moved: dict[int, int] = {}
        self.horde_captured = False
        self.eliminated = [False] * n
        self.pending: Pending | None = None
        self.battle: Battle | None = None
        self.end_trigger: int | None = None
        self.final_queue: list[int] = []
        self.turns_taken = 0
        self.battle_rig: list[list[int]] = [[], []]
        self.over_reason = ""

    # -- derived ------------------------------------------------------------------------------
    def rules_of(self, seat: int) -> FactionRules:
        fid = self.factions[seat]
        if fid is None:
            raise ValueError(f"seat {seat} has no faction yet")
        return self.game.faction_rules(fid)

    def kind(self, seat: int, unit: str) -> UnitKind:
        return self.rules_of(seat).kinds[unit]

    @property
    def board(self) -> Any:
        return self.game.board

    @property
    def regroup_target(self) -> int:
        return 3 if self.num_players == 2 else 2

    # -- the contract -------------------------------------------------------------------------
    def _actors(self) -> list[int]:
        if self.phase is Phase.OVER:
            return []
        return [self.active if self.decider is None else self.decider]

    def _is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def _legal_actions(self, seat: int) -> list[Action]:
        del seat  # one seat acts at a time: the rules know which
        from . import rules

        return rules.legal_actions(self)

    def _apply(self, action: Action, seat: int | None) -> None:
        del seat
        from . import rules

        if not (self.battle_rig[0] or self.battle_rig[1] or any(b.rigged for b in self.bags)):
            rules.apply(self, action)
            return
        # A scenario's rig may ask for tiles a bag cannot give (e.g. three 3s in one draw); that
        # is only discovered mid-action, so keep a snapshot and put everything back.
        snapshot = self.clone()
        try:
            rules.apply(self, action)
        except BagEmpty as err:
            self.__dict__.update(snapshot.__dict__)
            raise ScenarioError(f"{action}: the scenario's rig cannot be honoured ({err})") from None

    def explain_illegal(self, action: Action) -> str | None:
        from . import rules

        return rules.explain_illegal(self, action)

    def phase_name(self) -> str:
        if self.battle is not None:
            return f"battle in area {self.battle.area}: {self.battle.step}"
        return str(self.phase)

    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def seat_roles(self) -> list[str]:
        return [self.game.faction_rules(f).faction.name if f else "" for f in self.factions]

    def returns(self) -> list[float]:
        from .scoring import final_returns

        return final_returns(self)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        from .observation import observe

        return observe(self, seat)

    def resample_hidden(self, seat: int | None, rng: Rng) -> Self:
        from .observation import resample

        new = self.clone()
        resample(new, seat, rng)
        return new

    # -- board bookkeeping --------------------------------------------------------------------
    def units_at(self, area: int, seat: int) -> UnitCounts:
        by_seat = self.units.get(area)
        if by_seat is None:
            return {}
        return by_seat.get(seat, {})

    def occupants(self, area: int) -> list[int]:
        by_seat = self.units.get(area)
        return sorted(by_seat) if by_seat else []

    def enemy_units_in(self, area: int, seat: int) -> bool:
        by_seat = self.units.get(area)
        if not by_seat:
            return False
        return any(s != seat for s in by_seat)

    def has_pieces(self, area: int, seat: int) -> bool:
        """Units or villages of `seat` (a citadel is a unit)."""
        if seat in self.units.get(area, {}):
            return True
        v = self.villages.get(area)
        return v is not None and v[0] == seat

    def foreign_pieces(self, area: int, seat: int) -> bool:
        by_seat = self.units.get(area)
        if by_seat and any(s != seat for s in by_seat):
            return True
        v = self.villages.get(area)
        return v is not None and v[0] != seat

    def is_empty(self, area: int) -> bool:
        return area not in self.units and area not in self.villages

    def areas_with_units(self, seat: int) -> list[int]:
        return [a for a, by_seat in self.units.items() if seat in by_seat]

    def add_units(self, area: int, seat: int, unit: str, n: int = 1) -> None:
        if n <= 0:
            return
        counts = self.units.setdefault(area, {}).setdefault(seat, {})
        counts[unit] = counts.get(unit, 0) + n

    def remove_units(self, area: int, seat: int, unit: str, n: int = 1) -> None:
        by_seat = self.units[area]
        counts = by_seat[seat]
        left = counts[unit] - n
        if left < 0:
            raise ValueError(f"seat {seat} has only {counts[unit]} {unit} in area {area}")
        if left:
            counts[unit] = left
        else:
            del counts[unit]
            if not counts:
                del by_seat[seat]
                if not by_seat:
                    del self.units[area]

    def eliminate(self, area: int, seat: int, unit: str, n: int = 1) -> None:
        """Remove units to where eliminated pieces go (discard, undead pool, map edge)."""
        self.remove_units(area, seat, unit, n)
        self.send_to_discard(seat, unit, n)

    def send_to_discard(self, seat: int, unit: str, n: int = 1) -> None:
        if unit == UNDEAD:
            self.undead_pool[seat] += n
        elif unit == CUTIECORN:
            self.cutiecorn_free = True
        elif unit == CITADEL:
            pass  # a citadel is never discarded: battles hand it to the victor
        else:
            d = self.discards[seat]
            d[unit] = d.get(unit, 0) + n

    def village_count(self, seat: int) -> int:
        return sum(n for s, n in self.villages.values() if s == seat)

    def citadel_area(self, seat: int) -> int | None:
        for a, by_seat in self.units.items():
            c = by_seat.get(seat)
            if c and CITADEL in c:
                return a
        return None

    # -- hand bookkeeping ---------------------------------------------------------------------
    def hand_add(self, seat: int, tile: str, n: int = 1) -> None:
        h = self.hands[seat]
        h[tile] = h.get(tile, 0) + n

    def hand_remove(self, seat: int, tile: str, n: int = 1) -> None:
        h = self.hands[seat]
        left = h.get(tile, 0) - n
        if left < 0:
            raise ValueError(f"seat {seat} holds no {tile} tile")
        if left:
            h[tile] = left
        else:
            del h[tile]

    def take_for_building(self, seat: int, unit: str) -> int:
        """Take the tile (or the unclaimed Cutiecorn) about to be built; returns its build cost."""
        k = self.kind(seat, unit)
        if k.build_cost is None:
            raise ValueError(f"{unit} cannot be built")
        if unit == CUTIECORN:
            self.cutiecorn_free = False
        else:
            self.hand_remove(seat, unit)
        return k.build_cost

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    def hand_pips(self, seat: int) -> int:
        kinds = self.rules_of(seat).kinds
        return sum(kinds[t].pips * n for t, n in self.hands[seat].items())

    def max_tile_pips(self, seat: int) -> int:
        kinds = self.rules_of(seat).kinds
        return max((kinds[t].pips for t in self.hands[seat]), default=0)

    def log(self, text: str, to: int | None = None) -> None:
        """Record an event; `to` limits it to one seat (it mentions hidden tiles)."""
        self.events.add(text, to=to)

    def seat_label(self, seat: int) -> str:
        fid = self.factions[seat]
        return f"P{seat}" + (f" ({self.game.faction_rules(fid).faction.name})" if fid else "")

    # -- copying and serialising --------------------------------------------------------------
    def clone(self) -> Self:
        new = object.__new__(type(self))
        self._clone_core(new)
        new.factions = list(self.factions)
        new.order = list(self.order)
        new.phase = self.phase
        new.active = self.active
        new.decider = self.decider
        new.setup_queue = list(self.setup_queue)
        new.build_points = self.build_points
        new.setup_home = self.setup_home
        new.units = {a: {s: dict(c) for s, c in by_seat.items()} for a, by_seat in self.units.items()}
        new.villages = dict(self.villages)
        new.hands = [dict(h) for h in self.hands]
        new.bags = [b.copy() for b in self.bags]
        new.discards = [dict(d) for d in self.discards]
        new.vp = list(self.vp)
        new.regroups = list(self.regroups)
        new.captured_villages = list(self.captured_villages)
        new.captured_citadels = list(self.captured_citadels)
        new.end_bonus = list(self.end_bonus)
        new.village_supply = list(self.village_supply)
        new.undead_pool = list(self.undead_pool)
        new.cutiecorn_free = self.cutiecorn_free
        new.withdrawn_from = [list(w) for w in self.withdrawn_from]
        new.undead_moved = dict(self.undead_moved)
        new.horde_captured = self.horde_captured
        new.eliminated = list(self.eliminated)
        new.pending = None if self.pending is None else self.pending.copy()
        new.battle = None if self.battle is None else self.battle.copy()
        new.end_trigger = self.end_trigger
        new.final_queue = list(self.final_queue)
        new.turns_taken = self.turns_taken
        new.battle_rig = [list(r) for r in self.battle_rig]
        new.over_reason = self.over_reason
        memo = self.__dict__.get("_reach_memo")
        if memo is not None and memo[0] == len(self.history):
            new.__dict__["_reach_memo"] = memo  # same position, same reachable areas
        return new

    def _position_json(self) -> dict[str, Any]:
        return {
            "factions": self.factions,
            "order": self.order,
            "phase": str(self.phase),
            "active": self.active,
            "decider": self.decider,
            "setup_queue": self.setup_queue,
            "build_points": self.build_points,
            "setup_home": self.setup_home,
            "units": units_to_json(self.units),
            "villages": [{"area": a, "seat": s, "count": n} for a, (s, n) in sorted(self.villages.items())],
            "hands": [dict(sorted(h.items())) for h in self.hands],
            "bags": [b.to_json() for b in self.bags],
            "discards": [dict(sorted(d.items())) for d in self.discards],
            "vp": self.vp,
            "regroups": self.regroups,
            "captured_villages": self.captured_villages,
            "captured_citadels": self.captured_citadels,
            "end_bonus": self.end_bonus,
            "village_supply": self.village_supply,
            "undead_pool": self.undead_pool,
            "cutiecorn_free": self.cutiecorn_free,
            "withdrawn_from": self.withdrawn_from,
            "undead_moved": [[a, n] for a, n in sorted(self.undead_moved.items())],
            "horde_captured": self.horde_captured,
            "eliminated": self.eliminated,
            "pending": None if self.pending is None else self.pending.to_json(),
            "battle": None if self.battle is None else self.battle.to_json(),
            "end_trigger": self.end_trigger,
            "final_queue": self.final_queue,
            "turns_taken": self.turns_taken,
            "battle_rig": self.battle_rig,
            "over_reason": self.over_reason,
        }

    @classmethod
    def from_position(cls, game: BloodstonesGame, pos: dict[str, Any], rng: Rng) -> Self:
        st = cls(game, rng)
        st.factions = list(pos["factions"])
        st.order = [int(x) for x in pos["order"]]
        st.phase = Phase(pos["phase"])
        st.active = int(pos["active"])
        st.decider = pos["decider"]
        st.setup_queue = list(pos["setup_queue"])
        st.build_points = int(pos["build_points"])
        st.setup_home = pos["setup_home"]
        st.units = units_from_json(pos["units"])
        st.villages = {int(v["area"]): (int(v["seat"]), int(v["count"])) for v in pos["villages"]}
        st.hands = [{str(k): int(v) for k, v in h.items()} for h in pos["hands"]]
        st.bags = [Bag.from_json(b) for b in pos["bags"]]
        st.discards = [{str(k): int(v) for k, v in d.items()} for d in pos["discards"]]
        for name in ("vp", "regroups", "captured_villages", "captured_citadels", "end_bonus",
                     "village_supply", "undead_pool"):
            setattr(st, name, [int(x) for x in pos[name]])
        st.cutiecorn_free = bool(pos["cutiecorn_free"])
        st.withdrawn_from = [list(w) for w in pos["withdrawn_from"]]
        st.undead_moved = {int(a): int(n) for a, n in pos["undead_moved"]}
        st.horde_captured = bool(pos["horde_captured"])
        st.eliminated = [bool(x) for x in pos["eliminated"]]
        st.pending = None if pos["pending"] is None else Pending.from_json(pos["pending"])
        st.battle = None if pos["battle"] is None else Battle.from_json(pos["battle"])
        st.end_trigger = pos["end_trigger"]
        st.final_queue = list(pos["final_queue"])
        st.turns_taken = int(pos["turns_taken"])
        st.battle_rig = [list(r) for r in pos["battle_rig"]]
        st.over_reason = str(pos["over_reason"])
        return st
