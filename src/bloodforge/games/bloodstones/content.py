"""Bloodstones content: faction tile mixes and maps, validated from data files.

Designers change numbers in `data/factions.json` or a map file (or a copy passed by path) without
touching code; every error names the file, the field and the reason. Rules code reads units by
their `base_type` (what the unit *is*) and factions by their `powers`, never by faction name.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bloodforge.core.datafile import load_model
from bloodforge.core.errors import DataFileError
from bloodforge.core.graph import AreaGraph

DATA_DIR = Path(__file__).parent / "data"
MAPS_DIR = DATA_DIR / "maps"

Terrain = Literal["plains", "forest", "hills", "mountains", "desert", "sea"]
TERRAINS: tuple[Terrain, ...] = ("plains", "forest", "hills", "mountains", "desert", "sea")
BaseType = Literal[
    "resources", "swords", "shields", "skirmishers", "cavalry", "castle", "ship", "siege_engine",
    "leader", "giant", "dragon", "irregular", "necromancer", "undead", "citadel",
]

#: Powers the rules act on; the other listed powers are descriptive (their effect comes from
#: numbers such as hand size, build costs or move-cost overrides).
ACTIVE_POWERS = frozenset({
    "withdraw_by_sea_except_against_dragons",
    "attacking_next_to_own_ship_defender_needs_cavalry_or_dragon_to_withdraw",
    "decides_substitution_after_opponent_reveals",
    "plus_1_vp_per_battle_won",
    "places_start_units_last_in_any_area_not_within_2_of_a_citadel",
    "builds_where_it_has_units_and_ships_adjacent",
    "captures_villages_as_main_action_once_per_turn_one_tile",
})
DESCRIPTIVE_POWERS = frozenset({
    "hand_size_7", "two_leaders", "move_cost_hills_2", "may_enter_mountains_cost_3",
    "giant_present_draws_4_battle_tiles", "castles_cost_1", "dragon_moves_1_pip_any_area_incl_mountains_and_sea",
    "dragon_may_stay_in_desert_mountains_sea", "dragon_discarded_after_winning_as_attacker",
    "force_with_dragon_may_withdraw_unless_castle_or_citadel", "no_withdraw_from_attacking_dragons",
    "lizardmen_may_stay_in_desert", "plus_1_in_sea_battles", "no_cavalry", "no_villages_no_citadel",
    "captured_village_vp_2", "starts_with_10_vp", "cavalry_cost_1",
    "necromancer_victory_converts_eliminated_enemies_to_undead",
    "undead_move_phase_up_to_2_land_areas_free_incl_mountains", "undead_may_stay_in_desert",
    "goblins_may_stay_in_desert", "undead_kept_outside_bag",
})


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Modifier(_Strict):
    """A battle modifier, added once per unit present (or once per battle for faction bonuses)."""

    value: int
    when: Literal["always", "attacking", "defending"] = "always"
    terrain: Terrain | None = None
    against: tuple[str, ...] = ()
    wins_ties_when_defending: bool = False
    basis: str = ""


class TileType(_Strict):
    unit: str = Field(pattern=r"^[a-z][a-z_]*$")
    base_type: BaseType
    count: int = Field(ge=0, le=36)
    build_cost: int | None = Field(default=None, ge=0, le=5)
    pips: int | None = Field(default=None, ge=0, le=9)
    buildable: bool
    battle_modifier: Modifier | None = None
    may_stay_in_desert: bool = False
    note: str = ""

    @model_validator(mode="after")
    def _buildable_needs_cost(self) -> TileType:
        if self.buildable and self.build_cost is None:
            raise ValueError(f"tile {self.unit!r} is buildable but has no build_cost")
        return self


class Faction(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    name: str
    bag_tiles: int = Field(ge=1)
    hand_size: int = Field(ge=1, le=12)
    starting_hand: int = Field(ge=0)
    start_build_points: int = Field(ge=0)
    villages: int = Field(ge=0)
    citadels: int = Field(ge=0, le=1)
    starting_vp: int = Field(ge=0)
    captured_village_vp: int = Field(ge=0)
    tiles: tuple[TileType, ...]
    tiles_outside_bag: tuple[TileType, ...] = ()
    move_cost_overrides: dict[Terrain, int] = Field(default_factory=dict)
    powers: tuple[str, ...] = ()
    citadel_modifier: Modifier | None = None
    battle_bonuses: tuple[Modifier, ...] = ()
    rulebook_card_numbers: dict[str, Any] | None = None

    @field_validator("powers")
    @classmethod
    def _known_powers(cls, powers: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [p for p in powers if p not in ACTIVE_POWERS | DESCRIPTIVE_POWERS]
        if unknown:
            raise ValueError(f"unknown power(s) {unknown}; known: {sorted(ACTIVE_POWERS | DESCRIPTIVE_POWERS)}")
        return powers

    @model_validator(mode="after")
    def _consistent(self) -> Faction:
        names = [t.unit for t in self.tiles + self.tiles_outside_bag]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"faction {self.id!r} lists unit(s) {dupes} twice")
        if "citadel" in names or "cutiecorn" in names:
            raise ValueError(f"faction {self.id!r}: 'citadel' and 'cutiecorn' are reserved unit names")
        total = sum(t.count for t in self.tiles)
        if total != self.bag_tiles:
            raise ValueError(f"faction {self.id!r}: tile counts add up to {total}, bag_tiles says {self.bag_tiles}")
        for t in self.tiles:
            if t.pips is None:
                raise ValueError(f"faction {self.id!r}: bag tile {t.unit!r} needs a pip value")
        if self.starting_hand > self.bag_tiles:
            raise ValueError(f"faction {self.id!r}: starting_hand exceeds the bag")
        return self

    def has(self, power: str) -> bool:
        return power in self.powers


class OptionalUnit(_Strict):
    unit: str
    base_type: BaseType
    count: int = 1
    build_cost_build_points: int = Field(ge=0)
    pips: int | None = 0
    battle_modifier: Modifier | None = None
    note: str = ""


class BattleTiles(_Strict):
    values: tuple[int, ...]
    sets: int = Field(ge=1)
    count_top: int = Field(ge=1)


class FactionsFile(_Strict):
    source: str = ""
    battle_tiles: BattleTiles
    modifier_fields: dict[str, str] = Field(default_factory=dict)
    unit_rules: dict[str, list[str]] = Field(default_factory=dict)
    optional_units: tuple[OptionalUnit, ...] = ()
    factions: tuple[Faction, ...]

    @model_validator(mode="after")
    def _unique(self) -> FactionsFile:
        ids = [f.id for f in self.factions]
        if len(set(ids)) != len(ids):
            raise ValueError(f"faction ids must be unique, got {ids}")
        return self

    def faction(self, faction_id: str) -> Faction:
        for f in self.factions:
            if f.id == faction_id:
                return f
        raise KeyError(faction_id)

    @property
    def cutiecorn(self) -> OptionalUnit:
        for u in self.optional_units:
            if u.unit == "cutiecorn":
                return u
        raise DataFileError("factions file has no 'cutiecorn' optional unit")


class Area(_Strict):
    id: int = Field(ge=0)
    terrain: Terrain
    adjacent: tuple[int, ...]
    x: float
    y: float
    name: str | None = None
    label_x: float | None = None
    label_y: float | None = None


class TerrainRules(_Strict):
    move_cost: dict[Terrain, int | None]
    move_cost_note: str = ""
    village_cost: dict[Terrain, int]
    village_capacity_per_area: dict[Terrain, int]
    citadel_allowed: tuple[Terrain, ...]
    starting_land_units_allowed: tuple[Terrain, ...]
    units_that_may_stay_in_desert: tuple[str, ...] = ()
    mountains_note: str = ""
    may_stay_in_sea: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _all_terrains(self) -> TerrainRules:
        missing = [t for t in TERRAINS if t not in self.move_cost]
        if missing:
            raise ValueError(f"move_cost lacks terrain(s) {missing}")
        return self


class PlayerRange(_Strict):
    min: int = Field(ge=1)
    max: int = Field(ge=1)


class MapData(BaseModel):
    """A map file. Provenance fields (source, corrections, ...) are kept but not interpreted."""

    model_config = ConfigDict(extra="allow", frozen=True)

    map_id: str
    name: str = ""
    players: PlayerRange
    house_content: bool = False
    areas: tuple[Area, ...]
    terrain_rules: TerrainRules
    area_count: int | None = None
    link_count: int | None = None
    terrain_counts: dict[str, int] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> MapData:
        ids = [a.id for a in self.areas]
        if len(set(ids)) != len(ids):
            raise ValueError("area ids must be unique")
        if self.area_count is not None and self.area_count != len(ids):
            raise ValueError(f"area_count says {self.area_count}, the file has {len(ids)} areas")
        try:
            graph = AreaGraph({a.id: a.adjacent for a in self.areas})
        except ValueError as err:
            raise ValueError(f"borders: {err}") from None
        if self.link_count is not None and self.link_count != len(graph.edges()):
            raise ValueError(f"link_count says {self.link_count}, the borders give {len(graph.edges())}")
        if self.terrain_counts is not None:
            counted: dict[str, int] = {}
            for a in self.areas:
                counted[a.terrain] = counted.get(a.terrain, 0) + 1
            if counted != {k: v for k, v in self.terrain_counts.items() if v}:
                raise ValueError(f"terrain_counts {self.terrain_counts} differ from the areas {counted}")
        if len(graph.components(ids)) != 1:
            raise ValueError("the map is not connected")
        return self


class Board:
    """A loaded map: its data plus the derived graph and per-area lookups the rules use."""

    def __init__(self, data: MapData) -> None:
        self.data = data
        self.id = data.map_id
        self.graph = AreaGraph({a.id: a.adjacent for a in data.areas})
        self.terrain: dict[int, Terrain] = {a.id: a.terrain for a in data.areas}
        self.rules = data.terrain_rules
        self.area_ids: tuple[int, ...] = self.graph.ids
        self.sea_areas = frozenset(a for a, t in self.terrain.items() if t == "sea")
        self.neighbours = self.graph.neighbours

    def is_sea(self, area: int) -> bool:
        return area in self.sea_areas


@cache
def _load_factions(path: str) -> FactionsFile:
    return load_model(FactionsFile, Path(path))


@cache
def _load_board(path: str) -> Board:
    return Board(load_model(MapData, Path(path)))


def load_factions(path: str | Path | None = None) -> FactionsFile:
    return _load_factions(str(Path(path) if path else DATA_DIR / "factions.json"))


BUILTIN_MAPS = {"map1": MAPS_DIR / "map1.json", "grand": MAPS_DIR / "grand.json"}


def map_path(name_or_path: str) -> Path:
    if name_or_path in BUILTIN_MAPS:
        return BUILTIN_MAPS[name_or_path]
    p = Path(name_or_path)
    if p.suffix.lower() in {".json", ".yaml", ".yml"}:
        return p
    raise DataFileError(f"unknown map {name_or_path!r}; built-in maps: {sorted(BUILTIN_MAPS)} or a file path")


def load_board(name_or_path: str) -> Board:
    return _load_board(str(map_path(name_or_path)))


def default_map_for(players: int) -> str:
    return "map1" if players <= 4 else "grand"


def tile_index(faction: Faction) -> dict[str, TileType]:
    return {t.unit: t for t in (*faction.tiles, *faction.tiles_outside_bag)}


def faction_ids(factions: FactionsFile) -> Sequence[str]:
    return [f.id for f in factions.factions]
