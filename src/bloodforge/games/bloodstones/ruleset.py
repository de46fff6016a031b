"""Everything fixed for one game: parameters, map, factions, compiled once into fast tables.

The position (`model.Position`) holds a reference to its ruleset instead of the Game adapter, so
the rules are functions of the model alone. The ruleset also interns Action objects: the rules
offer the same few hundred actions over and over, and building them anew dominated the cost of
listing legal actions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bloodforge.core import Action

from .content import Board, FactionsFile
from .params import BloodstonesParams
from .units import CUTIECORN, FactionRules, compile_faction, unit_facts

#: How a unit kind starts a Move Units action (`Ruleset.move_classes`)
MOVES_NOT, MOVES_AS_DRAGON, MOVES_AS_SHIP, MOVES_ON_LAND = 0, 1, 2, 3


class Ruleset:
    __slots__ = (
        "_actions",
        "_facts",
        "_tables",
        "area_order",
        "area_rank",
        "base_move_cost",
        "battle_values",
        "board",
        "compiled",
        "count_top",
        "entry_costs",
        "factions_file",
        "move_acts",
        "move_classes",
        "neighbour_list",
        "neighbours",
        "params",
        "players",
        "regroup_target",
        "sea_list",
        "sea_neighbours",
        "start_costs",
        "terrain",
        "to_acts",
        "village_capacity",
        "village_costs",
    )

    def __init__(self, params: BloodstonesParams, factions_file: FactionsFile, board: Board) -> None:
        self.params = params
        self.players = params.players
        self.factions_file = factions_file
        self.board = board
        self.terrain = board.terrain
        self.neighbours = board.neighbours
        self.battle_values: tuple[int, ...] = tuple(factions_file.battle_tiles.values)
        self.count_top = factions_file.battle_tiles.count_top
        self.regroup_target = 3 if params.players == 2 else 2
        self._facts: dict[str, Any] | None = None
        # everything that depends on the map and the factions file only, built once for all games
        t = _shared_tables(factions_file, board)
        self.neighbour_list = t.neighbour_list
        self.sea_list = t.sea_list
        self.base_move_cost = t.base_move_cost
        self.compiled = t.compiled
        self._actions = t.actions
        self._tables = t.tables
        self.entry_costs = t.entry_costs
        self.area_order = t.area_order
        self.area_rank = t.area_rank
        self.to_acts = t.to_acts
        self.sea_neighbours = t.sea_neighbours
        self.start_costs = t.start_costs
        self.village_costs = t.village_costs
        self.village_capacity = t.village_capacity
        self.move_classes = t.move_classes
        self.move_acts = t.move_acts

    def faction_rules(self, faction_id: str) -> FactionRules:
        rules = self.compiled.get(faction_id)
        if rules is None:
            rules = compile_faction(self.factions_file, faction_id, self.base_move_cost, self.board)
            self.compiled[faction_id] = rules
        return rules

    @property
    def facts(self) -> dict[str, Any]:
        """The static information agents see (`static_info()["factions"]` and the battle-tile
        bag), in the shape the exported queries read, so rules and agents share one reading."""
        if self._facts is None:
            self._facts = {
                "factions": {f.id: unit_facts(self.faction_rules(f.id)) for f in self.factions_file.factions},
                "battle_tiles": list(self.battle_values),
                "count_top": self.count_top,
            }
        return self._facts

    def acts(self, kind: str, first: object, seconds: Iterable[object]) -> list[Action]:
        """The Actions `kind first second` for each of `seconds` (e.g. building one tile in
        each of several areas), from a table per (kind, first)."""
        table = self._tables.get((kind, first))
        if table is None:
            table = self._tables[(kind, first)] = {}
        out = []
        for second in seconds:
            a = table.get(second)
            if a is None:
                a = table[second] = Action.of(kind, first, second)
            out.append(a)
        return out

    def act(self, *key: object) -> Action:
        """The one Action for `kind, *args` (arguments given as ints or words)."""
        a = self._actions.get(key)
        if a is None:
            a = self._actions[key] = Action.of(str(key[0]), *key[1:])
            if key[0] == "move" and len(key) == 3 and isinstance(key[1], int) and isinstance(key[2], str):
                self.move_acts[key[1]][key[2]] = a
        return a


class _Tables:
    """What every game on one map with one factions file shares (`_shared_tables`): the map as
    lists indexed by area id, the compiled factions, the interned actions and search tables.
    All of it is a function of the two files, so games may share it; nothing in it is ever
    changed, only filled in (interned actions, entry costs)."""

    __slots__ = (
        "actions",
        "area_order",
        "area_rank",
        "base_move_cost",
        "board",
        "compiled",
        "entry_costs",
        "factions_file",
        "move_acts",
        "move_classes",
        "neighbour_list",
        "sea_list",
        "sea_neighbours",
        "start_costs",
        "tables",
        "to_acts",
        "village_capacity",
        "village_costs",
    )

    def __init__(self, factions_file: FactionsFile, board: Board) -> None:
        self.factions_file = factions_file
        self.board = board
        # the map as lists indexed by area id, for the movement search
        size = max(board.terrain) + 1
        self.neighbour_list: list[tuple[int, ...]] = [()] * size
        self.sea_list: list[bool] = [False] * size
        for a in board.area_ids:
            self.neighbour_list[a] = tuple(board.neighbours[a])
            self.sea_list[a] = board.is_sea(a)
        self.base_move_cost: dict[str, int | None] = {str(t): c for t, c in board.rules.move_cost.items()}
        #: every faction of the factions file, compiled (read directly in hot paths)
        self.compiled: dict[str, FactionRules] = {
            f.id: compile_faction(factions_file, f.id, self.base_move_cost, board) for f in factions_file.factions
        }
        self.actions: dict[tuple[object, ...], Action] = {}
        self.tables: dict[tuple[str, object], dict[object, Action]] = {}
        #: movement entry costs by (faction, group profile), filled by `movement._entry_costs`
        self.entry_costs: dict[tuple[str, int, int, int, bool], list[int]] = {}
        # Legal actions are sorted by their text: areas by their id as a word ("10" < "9").
        # The listings are built in that order from these tables instead of sorted each time.
        self.area_order: tuple[int, ...] = tuple(sorted(board.area_ids, key=str))
        self.area_rank: list[int] = [0] * size
        for rank, a in enumerate(self.area_order):
            self.area_rank[a] = rank
        self.to_acts: list[Action] = []
        for a in range(size):
            act = self.actions[("to", a)] = Action.of("to", a)
            self.to_acts.append(act)
        #: `move <area> <unit>` actions by area id, then unit (filled as they are first offered,
        #: by `Ruleset.act`)
        self.move_acts: list[dict[str, Action]] = [{} for _ in range(size)]
        #: per faction, by unit kind: whether and how it moves in a Move Units action
        self.move_classes: dict[str, dict[str, int]] = {}
        for fid, rules in self.compiled.items():
            classes = {}
            for name, k in rules.kinds.items():
                if name == CUTIECORN or not k.moves_in_main_actions:
                    classes[name] = MOVES_NOT
                elif k.is_dragon:
                    classes[name] = MOVES_AS_DRAGON
                elif k.is_ship:
                    classes[name] = MOVES_AS_SHIP
                else:
                    classes[name] = MOVES_ON_LAND
            self.move_classes[fid] = classes
        self.sea_neighbours: list[tuple[int, ...]] = [
            tuple(b for b in self.neighbour_list[a] if self.sea_list[b]) for a in range(size)
        ]
        #: by area id: what a village costs there and how many villages the area holds
        self.village_costs = [board.rules.village_cost.get(board.terrain[a], 0) if a in board.terrain else 0
                              for a in range(size)]
        self.village_capacity = [board.rules.village_capacity_per_area.get(board.terrain[a], 0)
                                 if a in board.terrain else 0 for a in range(size)]
        #: per faction, by area id: the cheapest land neighbour a land unit may enter (None: none)
        self.start_costs: dict[str, list[int | None]] = {}
        for fid, rules in self.compiled.items():
            cost = rules.area_cost_list
            table: list[int | None] = []
            for a in range(size):
                entries = [c for b in self.neighbour_list[a] if not self.sea_list[b]
                           for c in (cost[b],) if c is not None]
                table.append(min(entries) if entries else None)
            self.start_costs[fid] = table


_SHARED: dict[tuple[int, int], _Tables] = {}


def _shared_tables(factions_file: FactionsFile, board: Board) -> _Tables:
    """The tables of this map and factions file (loaded files are cached, so their identity
    names them; the entry keeps both alive, so an id is never reused for another file)."""
    key = (id(factions_file), id(board))
    t = _SHARED.get(key)
    if t is None or t.factions_file is not factions_file or t.board is not board:
        if len(_SHARED) >= 16:  # files edited in the workbench: keep only recent ones
            _SHARED.clear()
        t = _SHARED[key] = _Tables(factions_file, board)
    return t
