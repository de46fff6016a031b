"""Kingdoms of Blood content: map, unit chart and mercenary deck, validated from data files.

The rulebook's board, unit chart and cards are pictures we do not have (only the unit stats
survive as text), so the map, pools, ship capacity, starting units and the deck are house content
(`data/*.json`, each marked in the file). A designer copies a file, edits it and passes it as a
parameter; every mistake names the file, the field and the reason before a game starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bloodforge.core.datafile import load_model
from bloodforge.core.errors import DataFileError

from .drawing import check
from .queries.stats import CardData, UnitData

DATA_DIR = Path(__file__).parent / "data"
FACTIONS: tuple[str, ...] = ("elves", "humans", "dwarves", "undead")
FACTION_NAMES = {"elves": "Elves", "humans": "Humans", "dwarves": "Dwarves", "undead": "Undead"}
UNIT_TYPES: tuple[str, ...] = ("infantry", "cavalry", "griffin", "dragon", "ship", "castle", "port")
MOBILE = ("infantry", "cavalry", "griffin", "dragon", "ship")
ID = r"^[a-z][a-z0-9_]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SpaceData(_Strict):
    id: str = Field(pattern=ID)
    name: str
    kind: Literal["land", "sea"]
    x: float = Field(ge=0, le=1)
    y: float = Field(ge=0, le=1)
    value: int = Field(default=0, ge=0, le=8)
    gem: bool = False
    home: str | None = None
    capital: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> SpaceData:
        if self.kind == "sea" and (self.value or self.gem or self.home or self.capital):
            raise ValueError(f"sea zone {self.id} cannot have a value, gem, home or capital")
        if self.kind == "land" and self.value < 1:
            raise ValueError(f"territory {self.id} needs a value of at least 1")
        if self.home is not None and self.home not in FACTIONS:
            raise ValueError(f"territory {self.id}: home {self.home!r} is not one of {FACTIONS}")
        if self.capital and self.home is None:
            raise ValueError(f"capital {self.id} needs a home faction")
        return self


class DrawingData(_Strict):
    """The map's picture: one character per square, `legend` maps characters to space ids
    ('.' is open water); see drawing.py."""

    legend: dict[str, str]
    rows: list[str] = Field(min_length=1)


class MapData(_Strict):
    house_content: str
    spaces: list[SpaceData]
    links: list[tuple[str, str]]
    bridges: list[tuple[str, str]] = []
    drawing: DrawingData | None = None

    @model_validator(mode="after")
    def _graph(self) -> MapData:
        ids = [s.id for s in self.spaces]
        if len(set(ids)) != len(ids):
            raise ValueError("space ids must be unique")
        known = set(ids)
        for a, b in [*self.links, *self.bridges]:
            if a not in known or b not in known:
                raise ValueError(f"link {a}-{b} names an unknown space")
            if a == b:
                raise ValueError(f"link {a}-{b} joins a space to itself")
        by_id = {s.id: s for s in self.spaces}
        for a, b in self.bridges:
            if by_id[a].kind != "land" or by_id[b].kind != "land":
                raise ValueError(f"bridge {a}-{b} must join two territories")
        for f in FACTIONS:
            caps = [s for s in self.spaces if s.capital and s.home == f]
            if len(caps) != 1:
                raise ValueError(f"faction {f} needs exactly one capital, found {len(caps)}")
        if self.drawing is not None:
            check(self.drawing.rows, self.drawing.legend, ids, [*self.links, *self.bridges])
        return self


class StartData(_Strict):
    crowns: int = Field(ge=0)
    units: dict[str, int]


class UnitsData(_Strict):
    house_content: str
    units: dict[str, UnitData]
    ship_capacity: int = Field(ge=0, le=10)
    start: StartData
    mercenary_cost: int = Field(ge=0)
    mercenary_supply: int = Field(ge=0)

    @model_validator(mode="after")
    def _types(self) -> UnitsData:
        if set(self.units) != set(UNIT_TYPES):
            raise ValueError(f"units must be exactly {UNIT_TYPES}")
        for name in self.start.units:
            if name not in MOBILE:
                raise ValueError(f"start.units: {name!r} is not a mobile unit type")
        return self


class DeckData(_Strict):
    house_content: str
    cards: list[CardData]

    @model_validator(mode="after")
    def _unique(self) -> DeckData:
        ids = [c.id for c in self.cards]
        if len(set(ids)) != len(ids):
            raise ValueError("card ids must be unique")
        return self


@dataclass(frozen=True)
class Content:
    """The compiled content: spaces by index (the rules work on ints), adjacency as tuples."""

    map: MapData
    units: UnitsData
    deck: DeckData
    ids: tuple[str, ...]
    index: dict[str, int]
    is_sea: tuple[bool, ...]
    value: tuple[int, ...]
    gem: tuple[bool, ...]
    adj: tuple[tuple[int, ...], ...]
    capital: tuple[int, ...]  # per faction
    home: tuple[tuple[int, ...], ...]  # per faction, the capital first
    coastal: tuple[bool, ...]
    cards: dict[str, CardData]
    card_pile: tuple[str, ...]

    def unit(self, kind: str) -> UnitData:
        return self.units.units[kind]


def compile_content(m: MapData, u: UnitsData, d: DeckData, label: str) -> Content:
    ids = tuple(s.id for s in m.spaces)
    index = {s: i for i, s in enumerate(ids)}
    nb: list[set[int]] = [set() for _ in ids]
    for a, b in [*m.links, *m.bridges]:
        nb[index[a]].add(index[b])
        nb[index[b]].add(index[a])
    is_sea = tuple(s.kind == "sea" for s in m.spaces)
    capital = []
    home = []
    for f in FACTIONS:
        cap = next(index[s.id] for s in m.spaces if s.capital and s.home == f)
        capital.append(cap)
        home.append((cap, *sorted(index[s.id] for s in m.spaces if s.home == f and not s.capital)))
    coastal = tuple(not is_sea[i] and any(is_sea[j] for j in nb[i]) for i in range(len(ids)))
    for i, s in enumerate(m.spaces):
        if not nb[i]:
            raise DataFileError(f"{label}: space {s.id} has no neighbours")
    pile = tuple(sorted(c.id for c in d.cards for _ in range(c.copies)))
    return Content(
        map=m, units=u, deck=d, ids=ids, index=index, is_sea=is_sea,
        value=tuple(s.value for s in m.spaces), gem=tuple(s.gem for s in m.spaces),
        adj=tuple(tuple(sorted(n)) for n in nb), capital=tuple(capital), home=tuple(home),
        coastal=coastal, cards={c.id: c for c in d.cards}, card_pile=pile,
    )


@cache
def load_content(map_file: str | None, units_file: str | None, deck_file: str | None) -> Content:
    """Load and check the three content files (packaged defaults where None); cached per triple."""
    mp = map_file or str(DATA_DIR / "map.json")
    up = units_file or str(DATA_DIR / "units.json")
    dp = deck_file or str(DATA_DIR / "mercenaries.json")
    m = load_model(MapData, mp)
    u = load_model(UnitsData, up)
    d = load_model(DeckData, dp)
    return compile_content(m, u, d, mp)
