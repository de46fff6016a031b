"""A Bloodstones position: what is where, whose turn it is, and the partial choice being built.

Only data and bookkeeping live here, no rules; the rules are functions of this model in the
sibling modules (setup, movement, battle, villages, turn, rules). The position holds its
`Ruleset` (map, factions, parameters), never the Game adapter.

Copy-on-write, for cheap clones (search and the lab clone thousands of positions): the inner
dicts of `units` (area -> seat -> unit counts), the dicts in `hands` and `discards`, and the bags
are shared between a position and its clones and never mutated in place. Every change goes
through the helpers below, which replace the dict they change (`add_units`, `hand_add`, ...) or
copy a shared bag before drawing from it (`own_bag`). The units table itself is shared until
its next change (`share_units`), and so are the containers the rules replace instead of changing
(villages, factions, order, queues, withdrawals, Undead moves, eliminations, battle rig); a clone
copies the remaining outer lists only.

Caches (never serialised) are keyed by numbers that name one content for ever (`new_version`):
the legal actions by `version`, movement searches by each seat's `view_versions`, a few lookups
by `units_version`. Changes outside the rules' actions must call `touch`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bloodforge.core import Action, Bag, EventLog, Rng

from .ruleset import Ruleset
from .units import CITADEL, CUTIECORN, UNDEAD, FactionRules, UnitKind

UnitCounts = dict[str, int]

_VERSIONS = itertools.count(1)


def new_version() -> int:
    """A number never handed out before in this process: the identity of one position's
    content (see `Position.version`). Shared by all games so that clones never collide."""
    return next(_VERSIONS)


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
        """Copies every list: `to_json` hands out this battle's own lists, and a state rebuilt
        from another's JSON must not share them (playing it on changed the other's battle)."""
        return cls(
            int(d["area"]), int(d["attacker"]), int(d["defender"]), str(d["step"]),
            [[int(v) for v in t] for t in d["tiles"]], list(d["subs"]), list(d["decided"]),
            list(d["order"]), list(d["revealed"]), list(d["totals"]), int(d["fights"]),
            list(d["forces"]), d["winner"], int(d["eliminated_for_undead"]),
            [dict(h) for h in d["history"]],
        )


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
    # not part of the position (never serialised): what `cancel` restores besides the data,
    # so that the position it returns to is known again without recomputing it
    snapshot_version: int = 0  # `Position.units_version` of `snapshot`
    snapshot_views: list[int] = field(default_factory=list)  # `Position.view_versions` then
    base_version: int = 0  # `Position.version` before the first step of this compound action
    base_legal: list[Action] | None = None  # the legal actions there, if they were listed

    def copy(self) -> Pending:
        return Pending(
            self.kind, self.unit, self.area, self.cost, list(self.paid), self.group_area,
            dict(self.group), [dict(leg) for leg in self.legs],
            self.snapshot, list(self.targets),  # a snapshot is never changed: shared
            self.snapshot_version, list(self.snapshot_views), self.base_version, self.base_legal,
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
            new_version(), [], new_version(), None,
        )


def copy_units(units: dict[int, dict[int, UnitCounts]]) -> dict[int, dict[int, UnitCounts]]:
    """A copy of a units table: the outer dict only, since inner dicts are never mutated."""
    return dict(units)


def units_to_json(units: dict[int, dict[int, UnitCounts]]) -> list[dict[str, Any]]:
    """Rows by area, then seat, each stack's units by name. *Why the single-entry shortcuts:*
    most areas hold one seat's stack of one or two kinds, and a state's JSON (saves, digests,
    the playout tests' round trips) sorted each of them anyway (issue 23 item 5); the same rows."""
    out: list[dict[str, Any]] = []
    append = out.append
    for a in sorted(units):
        by_seat = units[a]
        for s in (by_seat if len(by_seat) == 1 else sorted(by_seat)):
            c = by_seat[s]
            if c:
                append({"area": a, "seat": s, "units": dict(c) if len(c) == 1 else dict(sorted(c.items()))})
    return out


def units_from_json(rows: list[dict[str, Any]]) -> dict[int, dict[int, UnitCounts]]:
    out: dict[int, dict[int, UnitCounts]] = {}
    for row in rows:
        counts = {str(k): int(v) for k, v in row["units"].items() if int(v) > 0}
        if counts:
            out.setdefault(int(row["area"]), {})[int(row["seat"])] = counts
    return out


#: `Position`'s caches keyed by version numbers: never pickled (see `Position.__getstate__`).
_PROCESS_CACHES = ("legal_memo", "reach_cache", "reach_memo", "passage_memo", "blocked_memo", "citadel_memo")


class Position:
    """The data of one Bloodstones position. `game.BloodstonesState` adds the engine's part."""

    # set by the engine (core.State); declared for the rules that read them
    rng: Rng
    events: EventLog
    history: list[str]

    def __init__(self, ruleset: Ruleset) -> None:
        n = ruleset.players
        self.ruleset = ruleset
        self.factions: list[str | None] = [None] * n
        self.order: list[int] = list(range(n))
        self.phase = Phase.CHOOSE_FACTION
        self.active = 0
        self.decider: int | None = None  # seat deciding inside a battle, if not the active one
        self.setup_queue: list[int] = []
        self.build_points = 0
        self.setup_home: int | None = None
        self.units: dict[int, dict[int, UnitCounts]] = {}
        self._own_units = True  # False: `units` is shared (a clone, a pending move's snapshot)
        self.villages: dict[int, tuple[int, int]] = {}
        self.hands: list[UnitCounts] = [{} for _ in range(n)]
        self.bags: list[Bag] = [Bag() for _ in range(n)]
        self._own_bags = (1 << n) - 1  # bit s: bags[s] is this position's own (not shared)
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
        #: Caches, never serialised. `version` identifies this position's content: every
        #: applied action gives a new number (`new_version`), `cancel` gives back the number of
        #: the position it restores, and a clone keeps it; `units_version` does the same for
        #: `units` alone (changed only through `add_units`/`remove_units`). A number names one
        #: content for ever, so what was computed for it may be reused by any state showing it.
        self.version = new_version()
        self.units_version = new_version()
        #: per seat, what its movement searches depend on: the areas holding other players'
        #: units and the seas where it has ship passage. A seat's own moves on land leave it
        #: as it is, so the searches of a whole turn share their answers.
        self.view_versions = [new_version() for _ in range(n)]
        #: (version, legal actions) of the last listing
        self.legal_memo: tuple[int, list[Action]] | None = None
        #: movement searches by (view version, seat, source, group profile): the budget searched
        #: with and the destinations within it; shared with clones (the keys say exactly what
        #: each answer is for)
        self.reach_cache: dict[tuple[int, int, int, int, int, int, bool], tuple[int, dict[int, int]]] = {}
        #: (version, the destinations of the group being moved) for the position's several askers
        self.reach_memo: tuple[int, dict[int, int]] | None = None
        #: (view version, seat, seas offering that seat ship passage)
        self.passage_memo: tuple[int, int, set[int]] | None = None
        #: (view version, seat, areas holding other players' units)
        self.blocked_memo: tuple[int, int, set[int]] | None = None
        #: (units_version, where each seat asked about has its citadel)
        self.citadel_memo: tuple[int, dict[int, int | None]] = (0, {})

    # -- derived ------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.ruleset.players

    def rules_of(self, seat: int) -> FactionRules:
        fid = self.factions[seat]
        if fid is None:
            raise ValueError(f"seat {seat} has no faction yet")
        return self.ruleset.compiled[fid]

    def kind(self, seat: int, unit: str) -> UnitKind:
        return self.rules_of(seat).kinds[unit]

    @property
    def regroup_target(self) -> int:
        return self.ruleset.regroup_target

    def deciding_seat(self) -> int | None:
        """The seat whose decision the position waits for (None once the game is over)."""
        if self.phase is Phase.OVER:
            return None
        return self.active if self.decider is None else self.decider

    def rigged(self) -> bool:
        """Does a scenario's rig still fix future draws?"""
        rig = self.battle_rig
        if rig[0] or rig[1]:
            return True
        for bag in self.bags:  # noqa: SIM110 - asked before every action: no generator
            if bag.rigged:
                return True
        return False

    # -- board bookkeeping --------------------------------------------------------------------
    def units_at(self, area: int, seat: int) -> UnitCounts:
        """Read only: the dict is shared with clones."""
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
        return len(by_seat) > 1 or seat not in by_seat

    def has_pieces(self, area: int, seat: int) -> bool:
        """Units or villages of `seat` (a citadel is a unit)."""
        if seat in self.units.get(area, {}):
            return True
        v = self.villages.get(area)
        return v is not None and v[0] == seat

    def foreign_pieces(self, area: int, seat: int) -> bool:
        by_seat = self.units.get(area)
        if by_seat and (len(by_seat) > 1 or seat not in by_seat):
            return True
        v = self.villages.get(area)
        return v is not None and v[0] != seat

    def is_empty(self, area: int) -> bool:
        return area not in self.units and area not in self.villages

    def areas_with_units(self, seat: int) -> list[int]:
        return [a for a, by_seat in self.units.items() if seat in by_seat]

    def touch(self) -> None:
        """The position changed outside the rules' actions (a scenario, a resample, a test):
        forget what was computed for its former content."""
        self.version = new_version()
        self.units_version = new_version()
        self.view_versions = [new_version() for _ in self.view_versions]
        self.legal_memo = None
        p = self.pending
        if p is not None:  # what `cancel` would give back was computed before the change too
            p.base_version = new_version()
            p.snapshot_version = new_version()
            p.snapshot_views = [new_version() for _ in self.view_versions]
            p.base_legal = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the caches (`_PROCESS_CACHES`), which a search worker remakes.

        *Why:* their keys are version numbers, unique in one process only. The server pickles
        positions to its search workers, and a worker hands out its own numbers; a position
        that brought the server's caches along (and its numbers) could meet a worker's number
        equal to one of them for another content, and be answered for that content
        (tests/bloodstones/test_worker_pickle.py: a tenth of the tries listed wrong actions)."""
        state = dict(self.__dict__)
        for name in _PROCESS_CACHES:
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled with empty caches and numbers of this process (`touch`)."""
        self.__dict__.update(state)
        self.reach_cache = {}
        self.reach_memo = None
        self.passage_memo = None
        self.blocked_memo = None
        self.citadel_memo = (0, {})
        self.touch()  # fresh `version`, `units_version`, `view_versions`; no legal memo

    def _presence_changed(self, area: int, seat: int) -> None:
        """`seat` entered or left `area`: every other seat's view of where it may move changed
        (areas holding other players' units, seas with ship passage); see `view_versions`."""
        views = self.view_versions
        for other in range(len(views)):
            if other != seat:
                views[other] = next(_VERSIONS)
        if self.ruleset.sea_list[area]:
            views[seat] = next(_VERSIONS)

    def add_units(self, area: int, seat: int, unit: str, n: int = 1) -> None:
        if n <= 0:
            return
        self.units_version = next(_VERSIONS)
        if not self._own_units:
            self.units = dict(self.units)
            self._own_units = True
        by_seat = self.units.get(area)
        if by_seat is None:
            self.units[area] = {seat: {unit: n}}
            self._presence_changed(area, seat)
            return
        counts = by_seat.get(seat)
        if counts is None:
            self.units[area] = {**by_seat, seat: {unit: n}}
            self._presence_changed(area, seat)
            return
        self.units[area] = {**by_seat, seat: {**counts, unit: counts.get(unit, 0) + n}}
        if self.ruleset.sea_list[area]:  # ships at sea: passage may open
            self.view_versions[seat] = next(_VERSIONS)

    def remove_units(self, area: int, seat: int, unit: str, n: int = 1) -> None:
        self.units_version = next(_VERSIONS)
        if not self._own_units:
            self.units = dict(self.units)
            self._own_units = True
        by_seat = self.units[area]
        counts = by_seat[seat]
        left = counts[unit] - n
        if left < 0:
            raise ValueError(f"seat {seat} has only {counts[unit]} {unit} in area {area}")
        if left:
            self.units[area] = {**by_seat, seat: {**counts, unit: left}}
        else:
            new_counts = dict(counts)
            del new_counts[unit]
            new_by_seat = dict(by_seat)
            if new_counts:
                new_by_seat[seat] = new_counts
            else:
                del new_by_seat[seat]
                self._presence_changed(area, seat)
            if new_by_seat:
                self.units[area] = new_by_seat
            else:
                del self.units[area]
        if self.ruleset.sea_list[area]:  # ships at sea: passage may close
            self.view_versions[seat] = next(_VERSIONS)

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
            self.discards[seat] = {**d, unit: d.get(unit, 0) + n}

    def village_count(self, seat: int) -> int:
        return sum(n for s, n in self.villages.values() if s == seat)

    def citadel_area(self, seat: int) -> int | None:
        """Where `seat`'s citadel stands; looked for once per units table (`units_version`)."""
        memo = self.citadel_memo
        if memo[0] != self.units_version:
            memo = self.citadel_memo = (self.units_version, {})
        found = memo[1]
        if seat in found:
            return found[seat]
        area = None
        for a, by_seat in self.units.items():
            c = by_seat.get(seat)
            if c and CITADEL in c:
                area = a
                break
        found[seat] = area
        return area

    # -- hand and bag bookkeeping -------------------------------------------------------------
    def hand_add(self, seat: int, tile: str, n: int = 1) -> None:
        h = self.hands[seat]
        self.hands[seat] = {**h, tile: h.get(tile, 0) + n}

    def hand_remove(self, seat: int, tile: str, n: int = 1) -> None:
        h = self.hands[seat]
        left = h.get(tile, 0) - n
        if left < 0:
            raise ValueError(f"seat {seat} holds no {tile} tile")
        if left:
            self.hands[seat] = {**h, tile: left}
        else:
            h = dict(h)
            del h[tile]
            self.hands[seat] = h

    def own_bag(self, seat: int) -> Bag:
        """`seat`'s bag, ready to change: copied first if a clone shares it."""
        if not self._own_bags >> seat & 1:
            self.bags[seat] = self.bags[seat].copy()
            self._own_bags |= 1 << seat
        return self.bags[seat]

    def set_bag(self, seat: int, bag: Bag) -> None:
        self.bags[seat] = bag
        self._own_bags |= 1 << seat

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

    def log(self, text: str, to: int | None = None, kind: str = "", **facts: Any) -> None:
        """Record an event; `to` limits it to one seat (it mentions hidden tiles); `kind` and
        `facts` give what happened as data (who won a battle, the VP scored) for the lab's
        statistics and for UIs."""
        self.events.add(text, to=to, kind=kind, data=facts or None)

    def seat_label(self, seat: int) -> str:
        fid = self.factions[seat]
        return f"P{seat}" + (f" ({self.ruleset.faction_rules(fid).faction.name})" if fid else "")

    # -- copying and serialising --------------------------------------------------------------
    def share_units(self) -> dict[int, dict[int, UnitCounts]]:
        """The units table, to be kept as it is now (a pending move's snapshot): the next
        change copies it first."""
        self._own_units = False
        return self.units

    def copy_position_into(self, new: Position) -> None:
        """Copy this position's data into `new` (a bare object): outer containers only, see
        the module docstring. Containers the rules replace instead of changing in place (the
        units table until its next change, villages, factions, order, queues, withdrawals,
        Undead moves, eliminations, battle rig) are shared."""
        new.ruleset = self.ruleset
        new.factions = self.factions
        new.order = self.order
        new.phase = self.phase
        new.active = self.active
        new.decider = self.decider
        new.setup_queue = self.setup_queue
        new.build_points = self.build_points
        new.setup_home = self.setup_home
        new.units = self.units
        new._own_units = self._own_units = False
        new.villages = self.villages
        new.hands = list(self.hands)
        new.bags = list(self.bags)
        new._own_bags = self._own_bags = 0
        new.discards = list(self.discards)
        new.vp = list(self.vp)
        new.regroups = list(self.regroups)
        new.captured_villages = list(self.captured_villages)
        new.captured_citadels = list(self.captured_citadels)
        new.end_bonus = list(self.end_bonus)
        new.village_supply = list(self.village_supply)
        new.undead_pool = list(self.undead_pool)
        new.cutiecorn_free = self.cutiecorn_free
        new.withdrawn_from = self.withdrawn_from
        new.undead_moved = self.undead_moved
        new.horde_captured = self.horde_captured
        new.eliminated = self.eliminated
        new.pending = None if self.pending is None else self.pending.copy()
        new.battle = None if self.battle is None else self.battle.copy()
        new.end_trigger = self.end_trigger
        new.final_queue = self.final_queue
        new.turns_taken = self.turns_taken
        new.battle_rig = self.battle_rig
        new.over_reason = self.over_reason
        new.version = self.version
        new.units_version = self.units_version
        new.view_versions = list(self.view_versions)
        new.reach_memo = self.reach_memo
        new.legal_memo = self.legal_memo
        new.reach_cache = self.reach_cache
        new.passage_memo = self.passage_memo
        new.blocked_memo = self.blocked_memo
        new.citadel_memo = self.citadel_memo

    def position_json(self) -> dict[str, Any]:
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

    def load_position(self, pos: dict[str, Any]) -> None:
        """Inverse of `position_json` (trusted input: a position this code wrote)."""
        st = self
        st.factions = list(pos["factions"])
        st.order = [int(x) for x in pos["order"]]
        st.phase = Phase(pos["phase"])
        st.active = int(pos["active"])
        st.decider = pos["decider"]
        st.setup_queue = list(pos["setup_queue"])
        st.build_points = int(pos["build_points"])
        st.setup_home = pos["setup_home"]
        st.units = units_from_json(pos["units"])
        st._own_units = True
        st.villages = {int(v["area"]): (int(v["seat"]), int(v["count"])) for v in pos["villages"]}
        st.hands = [{str(k): int(v) for k, v in h.items()} for h in pos["hands"]]
        st.bags = [Bag.from_json(b) for b in pos["bags"]]
        st._own_bags = (1 << len(st.bags)) - 1
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
        st.touch()
