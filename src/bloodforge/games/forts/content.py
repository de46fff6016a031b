"""Five Forts content: the map, the hero deck and the numbers the rulebook leaves out.

The rulebook is a two-page quick guide with no map, no card texts, no player count and no food
formula, so all of this is house content (docs/games/forts.md). A designer copies
`data/content.json`, edits it and passes the copy as the `content` parameter; every mistake is
reported with the file, the field and the reason before a game starts. Rules code reads the
compiled `Content` (indices, adjacency lists), never the raw JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bloodforge.core import Action
from bloodforge.core.datafile import load_model

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_CONTENT = DATA_DIR / "content.json"

ID_PATTERN = r"^[a-z][a-z0-9_]*$"
#: Words the action grammar uses for unit types; territory ids may not collide with them.
RESERVED_IDS = frozenset({"infantry", "cavalry", "none"})


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ArmySpec(_Strict):
    infantry: int = Field(default=0, ge=0, le=50)
    cavalry: int = Field(default=0, ge=0, le=50)


class StartSpec(_Strict):
    infantry: int = Field(ge=0, le=50)
    cavalry: int = Field(ge=0, le=50)
    currency: int = Field(ge=0, le=1000)
    #: extra starting currency by position in the turn order (first player first), a balance
    #: knob against the first player's head start; missing positions get 0
    currency_by_turn_position: list[int] = Field(default_factory=list, max_length=8)


class BonusSpec(_Strict):
    territory: int = Field(ge=0, le=20)
    great_fort: int = Field(ge=0, le=20)
    home: int = Field(ge=0, le=20)


class TerritorySpec(_Strict):
    id: str = Field(pattern=ID_PATTERN, max_length=24)
    name: str = Field(min_length=1, max_length=40)
    kind: Literal["land", "sea"] = "land"
    fort: Literal["none", "fort", "great"] = "none"
    currency: int = Field(default=0, ge=0, le=5)
    food: int = Field(default=0, ge=0, le=5)
    x: float = Field(ge=0.0, le=1.0)
    y: float = Field(ge=0.0, le=1.0)
    home: int | None = Field(default=None, ge=0, le=7)
    independent: ArmySpec | None = None

    @model_validator(mode="after")
    def _consistent(self) -> TerritorySpec:
        if self.id in RESERVED_IDS:
            raise ValueError(f"territory id {self.id!r} is reserved by the action grammar")
        if self.kind == "sea" and self.fort != "none":
            raise ValueError(f"{self.id}: sea territories never hold forts")
        if self.home is not None and self.fort != "great":
            raise ValueError(f"{self.id}: a home must be a great fort (its recruitment and the victory count need it)")
        if self.home is not None and self.independent is not None:
            raise ValueError(f"{self.id}: a home cannot start with an independent army")
        return self


class HeroSpec(_Strict):
    id: str = Field(pattern=ID_PATTERN, max_length=24)
    name: str = Field(min_length=1, max_length=40)
    copies: int = Field(ge=1, le=30)
    strength: int = Field(default=0, ge=0, le=20)
    wins_draws: bool = False
    shield: int = Field(default=0, ge=0, le=20)
    pathfinder: bool = False
    text: str = ""


class ChronicleSpec(_Strict):
    """A round event of the optional chronicle module (F56): lasts the round it is drawn in."""

    id: str = Field(pattern=ID_PATTERN, max_length=24)
    name: str = Field(min_length=1, max_length=40)
    copies: int = Field(ge=1, le=30)
    text: str = ""
    #: units that move with their ordinary action keep one extra action (Forced March)
    extra_action: bool = False
    #: change of every player's unit quota (Famine -1, Harvest +2); a quota never drops below 0
    quota_delta: int = Field(default=0, ge=-20, le=20)
    #: the hero card price while it lasts (Mercenary Market), None: unchanged
    hero_price: int | None = Field(default=None, ge=0, le=100)


class ContentFile(_Strict):
    title: str
    house_content: bool = True
    design_note: str = ""
    die_sides: int = Field(ge=2, le=20)
    food_per_resource: int = Field(ge=1, le=20)
    start: StartSpec
    hero_price: int = Field(ge=0, le=100)
    hand_limit: int = Field(ge=0, le=20)
    purchases_per_turn: int = Field(ge=0, le=5)
    forts_to_win: int = Field(ge=1, le=50)
    defence_bonus: BonusSpec
    unused_home_army: ArmySpec
    player_homes: dict[str, list[int]]
    #: independent armies that differ by player count (e.g. a stronger garrison in the quadrant
    #: nobody starts in, which the neighbours of an empty quadrant would otherwise farm)
    independent_by_players: dict[str, dict[str, ArmySpec]] = Field(default_factory=dict)
    #: names and colours of the players by home slot (a player is named after its home)
    seat_names: list[str] = Field(min_length=1)
    seat_colours: list[str] = Field(min_length=1)
    territories: list[TerritorySpec] = Field(min_length=2)
    links: list[tuple[str, str]]
    heroes: list[HeroSpec] = Field(min_length=1)
    #: the optional chronicle module's deck (used only with the `chronicles` parameter)
    chronicles: list[ChronicleSpec] = Field(default_factory=list)

    @model_validator(mode="after")
    def _references(self) -> ContentFile:
        ids = [t.id for t in self.territories]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"territory ids appear twice: {dup}")
        known = set(ids)
        for i, (a, b) in enumerate(self.links):
            for end in (a, b):
                if end not in known:
                    raise ValueError(f"links[{i}]: unknown territory {end!r}")
            if a == b:
                raise ValueError(f"links[{i}]: a territory cannot border itself ({a!r})")
        homes = sorted(t.home for t in self.territories if t.home is not None)
        if len(set(homes)) != len(homes):
            raise ValueError(f"two territories claim the same home slot: {homes}")
        for count, slots in self.player_homes.items():
            if not count.isdigit() or int(count) != len(slots):
                raise ValueError(f"player_homes[{count!r}]: needs exactly {count} home slots, got {slots}")
            for s in slots:
                if s not in homes:
                    raise ValueError(f"player_homes[{count!r}]: no territory has home slot {s}")
            if len(set(slots)) != len(slots):
                raise ValueError(f"player_homes[{count!r}]: a home slot appears twice")
        for count, armies in self.independent_by_players.items():
            if count not in self.player_homes:
                raise ValueError(f"independent_by_players[{count!r}]: no such player count in player_homes")
            for tid in armies:
                if tid not in known:
                    raise ValueError(f"independent_by_players[{count!r}]: unknown territory {tid!r}")
        chronicle_ids = [k.id for k in self.chronicles]
        if len(set(chronicle_ids)) != len(chronicle_ids):
            raise ValueError("chronicle card ids must be distinct")
        hero_ids = [h.id for h in self.heroes]
        if len(set(hero_ids)) != len(hero_ids):
            raise ValueError("hero card ids must be distinct")
        n_slots = max(homes, default=0) + 1
        if len(self.seat_names) < n_slots or len(self.seat_colours) < n_slots:
            raise ValueError(f"seat_names and seat_colours need one entry per home slot ({n_slots})")
        return self


@dataclass(frozen=True)
class Hero:
    id: str
    name: str
    strength: int
    wins_draws: bool
    shield: int
    pathfinder: bool
    text: str


class Tables:
    """Lookups the rules fill lazily and every game on this content shares (the packaged
    content is compiled once per process): a playout builds thousands of legal-action lists,
    and the same unit actions recur, so each is made once.

    `unit_actions[(origin, target, infantry, cavalry)]`: the (move, attack) action lists of
    every split of that many units that may act, in legal-action order.
    """

    __slots__ = ("unit_actions",)

    def __init__(self) -> None:
        self.unit_actions: dict[tuple[int, int, int, int], tuple[list[Action], list[Action]]] = {}


@dataclass(frozen=True)
class Content:
    """The content file compiled for the rules: territories by index, adjacency as tuples."""

    source: str
    data: ContentFile
    ids: tuple[str, ...]
    index: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    fort: tuple[int, ...]  # 0 none, 1 fort, 2 great fort
    currency: tuple[int, ...]
    food: tuple[int, ...]
    home_slot: tuple[int | None, ...]
    heroes: dict[str, Hero]
    deck: tuple[str, ...]
    chronicles: dict[str, ChronicleSpec]
    chronicle_deck: tuple[str, ...]
    #: territory names by index (log lines name them on every action)
    names: tuple[str, ...] = ()
    tables: Tables = field(default_factory=Tables, compare=False, repr=False)

    @property
    def size(self) -> int:
        return len(self.ids)

    def player_counts(self) -> list[int]:
        return sorted(int(k) for k in self.data.player_homes)

    def home_slots(self, players: int) -> list[int]:
        return list(self.data.player_homes[str(players)])


def compile_content(data: ContentFile, source: str) -> Content:
    ids = tuple(t.id for t in data.territories)
    index = {t: i for i, t in enumerate(ids)}
    adj: list[set[int]] = [set() for _ in ids]
    for a, b in data.links:
        adj[index[a]].add(index[b])
        adj[index[b]].add(index[a])
    heroes = {
        h.id: Hero(h.id, h.name, h.strength, h.wins_draws, h.shield, h.pathfinder, h.text) for h in data.heroes
    }
    deck = tuple(sorted(h.id for h in data.heroes for _ in range(h.copies)))
    return Content(
        source=source,
        data=data,
        ids=ids,
        index=index,
        neighbours=tuple(tuple(sorted(n)) for n in adj),
        fort=tuple({"none": 0, "fort": 1, "great": 2}[t.fort] for t in data.territories),
        currency=tuple(t.currency for t in data.territories),
        food=tuple(t.food for t in data.territories),
        home_slot=tuple(t.home for t in data.territories),
        heroes=heroes,
        deck=deck,
        chronicles={k.id: k for k in data.chronicles},
        chronicle_deck=tuple(sorted(k.id for k in data.chronicles for _ in range(k.copies))),
        names=tuple(t.name for t in data.territories),
    )


@cache
def _default_content() -> Content:
    return compile_content(load_model(ContentFile, DEFAULT_CONTENT), str(DEFAULT_CONTENT))


def load_content(path: str | Path | None = None) -> Content:
    """The packaged house content (read once), or a designer's file, read afresh each time so
    edits show up (DataFileError naming the file and the field)."""
    if path is None:
        return _default_content()
    return compile_content(load_model(ContentFile, Path(path)), str(path))
