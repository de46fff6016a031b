"""BLOODSTONE content as data: champions, bosses, skirmish cards, environmentals, the arena.

The rulebook's boards and cards are pictures we do not have (spec §0), so almost all of this is
house content (each entry says so with `house` and a `source` note where the text gives a fact).
Effects are composed from one small closed vocabulary (`Effect.op`), so a designer changes
numbers and combinations in JSON without code; the rules interpret the vocabulary and never
look at names.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bloodforge.core.datafile import load_model, read_structured
from bloodforge.core.errors import DataFileError

from .hexes import Hex, hexagon, parse_hex

DATA_DIR = Path(__file__).parent / "data"
ID = r"^[a-z][a-z0-9_]*$"
HEX = r"^-?\d+,-?\d+$"

Op = Literal[
    "damage",  # the subject takes amount (+ dice) damage
    "attack_damage",  # this attack deals amount (+ dice) more (R-DMG-3/4)
    "heal",  # the subject regains amount HP (never above its starting HP)
    "energy",  # the subject gains amount Blood Energy (negative: loses, never below 0)
    "drain",  # the subject loses all its Blood Energy
    "gain_die",  # the subject gains `amount` bonus dice of kind `die` (temp, be, bonus = its choice)
    "add_die",  # special die `die` goes into the subject's pool (unrolled, R-TURN-3)
    "recall",  # this special die leaves its pool (R-RCL-1)
    "steal_temp",  # one Temporary Attack die moves from the subject's pool to yours (A26)
    "push",  # forced movement away from you (KW-PUSH)
    "pull",  # forced movement toward you (KW-PULL)
    "throw",  # push while Flying (KW-THROW)
    "move",  # you move up to amount spaces now (R-MOV-7)
    "range",  # +amount Range this turn (R-ATTR-2)
    "targets",  # +amount Targets this turn
    "movement",  # +amount Movement this turn
    "speed",  # the subject's Speed becomes amount for this round (EXR-1)
    "discard",  # the subject discards an Initiative card
    "place_tile",  # environmental `tile` is laid with its anchor on the subject's space
    "reroll",  # the subject rolls one of its dice again (KW-REROLL): one rolled this turn and unused
    "fly",  # the subject has Flying (KW-FLY) until the end of its own turn
]
Who = Literal["self", "target"]
Select = Literal["self", "target", "faster_enemy", "slower_enemy", "next_fastest", "next_slowest", "any_character"]
Category = Literal["singles", "doubles", "triples"]
CATEGORY_RANK: dict[str, int] = {"singles": 1, "doubles": 2, "triples": 3}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Effect(_Strict):
    """One primitive of the effect vocabulary."""

    op: Op
    amount: int = Field(default=0, ge=-99, le=99)
    dice: Literal["d6", "d8", "d20"] | None = None
    who: Who = "target"
    per: Literal["target_special_dice", "face"] | None = None
    die: str | None = None
    tile: str | None = None

    @model_validator(mode="after")
    def _needs(self) -> Effect:
        if self.op in ("add_die",) and not self.die:
            raise ValueError(f"effect {self.op!r} needs `die` (a special die id)")
        if self.op == "gain_die" and self.die not in ("temp", "be", "bonus"):
            raise ValueError("effect 'gain_die' needs die = temp, be or bonus")
        if self.op == "place_tile" and not self.tile:
            raise ValueError("effect 'place_tile' needs `tile` (an environmental id)")
        return self


class Ability(_Strict):
    """Who it affects (`select`) and what it does; several `options` mean the user picks one."""

    name: str = ""
    select: Select = "self"
    options: list[list[Effect]] = Field(min_length=1)


class Attack(_Strict):
    id: str = Field(pattern=ID)
    name: str
    category: Category
    side: Literal["left", "right"] | None = None
    origin: str = "self"  # or the id of one of the owner's minions (KW-ORIG)
    damage: int = 0  # extra damage printed on the attack (R-DMG-3)
    range_bonus: int = 0
    targets_bonus: int = 0
    effects: list[Effect] = Field(default_factory=list)


class InitiativeCard(_Strict):
    id: str = Field(pattern=ID)
    name: str
    speed: int = Field(ge=1, le=7)
    immediate: Ability | None = None
    bonus: Ability | None = None


class Pact(_Strict):
    id: str = Field(pattern=ID)
    name: str
    cost: int = Field(ge=0, le=99)
    ability: Ability


class SpecialDie(_Strict):
    """A Special die; `faces[i]` are the effects of face i+1 (`who: self` = the die's holder).

    timing: `immediate` dice resolve at turn step 2 (R-DICE-3), `spell` dice are Bonus Actions
    (R-DICE-4), `attack` dice add their face to the holder's attack damage (EXR-6 Pyroblast).
    """

    id: str = Field(pattern=ID)
    name: str
    sides: Literal[6, 8]
    timing: Literal["immediate", "spell", "attack"]
    faces: list[list[Effect]] = Field(default_factory=list)
    supply: int = Field(default=3, ge=1, le=12)

    @model_validator(mode="after")
    def _faces(self) -> SpecialDie:
        if self.timing != "attack" and len(self.faces) != self.sides:
            raise ValueError(f"die {self.id!r} needs {self.sides} faces, has {len(self.faces)}")
        return self


class MinionDef(_Strict):
    id: str = Field(pattern=ID)
    name: str
    count: int = Field(default=1, ge=1, le=6)
    hp: int | None = None  # None: cannot be damaged (R-MIN-8)
    movement: int = 0
    range: int = 1
    targets: int = 1
    flying: bool = False
    damage: int = 0  # a boss minion's attack damage (its lines say "attack")
    summoned: bool = True  # placed beside the summoner when it is placed (house)


class RivalCard(_Strict):
    start: str | None = Field(default=None, pattern=HEX)
    flying: bool = False  # the Rival has Flying all match (KW-FLY), even if the Champion has not
    special: list[Effect] = Field(default_factory=list)


class Champion(_Strict):
    id: str = Field(pattern=ID)
    name: str
    house: bool = True
    source: str = ""
    hp: int = Field(default=175, ge=1)
    movement: int = Field(ge=0, le=8)
    range: int = Field(ge=1, le=8)
    targets: int = Field(default=1, ge=1, le=6)
    flying: bool = False  # KW-FLY all match: through occupied spaces, immune to hazards
    attacks: list[Attack]
    pacts: list[Pact] = Field(min_length=2, max_length=2)
    ultimate_cost: int = Field(ge=0, le=99)
    cards: list[InitiativeCard] = Field(min_length=1)
    dice: list[SpecialDie] = Field(default_factory=list)
    minions: list[MinionDef] = Field(default_factory=list)
    setup: list[Effect] = Field(default_factory=list)
    rival: RivalCard = RivalCard()

    @model_validator(mode="after")
    def _board(self) -> Champion:
        slots = sorted((a.category, a.side or "") for a in self.attacks)
        want = sorted([("singles", "left"), ("singles", "right"), ("doubles", "left"), ("doubles", "right"),
                       ("triples", "")])
        if slots != want:
            raise ValueError(f"champion {self.id!r} needs left/right singles, left/right doubles and one "
                             f"triples attack (R-ATT-2, A16); has {slots}")
        minion_ids = {m.id for m in self.minions}
        for a in self.attacks:
            if a.origin != "self" and a.origin not in minion_ids:
                raise ValueError(f"attack {a.id!r} originates from unknown minion {a.origin!r}")
        if len({c.id for c in self.cards}) != len(self.cards):
            raise ValueError(f"champion {self.id!r} has duplicate Initiative card ids")
        return self

    def attack(self, category: str, side: str | None) -> Attack:
        return next(a for a in self.attacks if a.category == category and (category == "triples" or a.side == side))


class BossCard(_Strict):
    id: str = Field(pattern=ID)
    name: str
    effects: list[Effect] = Field(default_factory=list)
    target: Literal["most_hp", "least_hp", "nearest"] = "most_hp"


class RotCard(_Strict):
    """A card of a Boss's Rot deck (house design; the rulebook names only "15 Rot Cards").

    One is drawn for every Champion or Rival a Boss's attack damaged and who still stands, after
    the attack's own text (ruling 25); `who: target` is that victim, `who: self` the Boss."""

    id: str = Field(pattern=ID)
    name: str
    effects: list[Effect] = Field(min_length=1)


class Boss(_Strict):
    id: str = Field(pattern=ID)
    name: str
    house: bool = True
    source: str = ""
    hp_base: int = Field(ge=1)
    hp_per_champion: int = Field(ge=0)
    movement: int = Field(ge=0, le=8)
    range: int = Field(ge=1, le=8)
    targets: int = Field(default=1, ge=1, le=6)
    flying: bool = False  # KW-FLY all match
    attacks: list[Attack]
    ultimate_cost: int = Field(ge=0, le=99)
    start: str = Field(pattern=HEX)
    environmental: str | None = None
    actions: list[BossCard] = Field(min_length=1)
    dice: list[SpecialDie] = Field(default_factory=list)
    minions: list[MinionDef] = Field(default_factory=list)
    rot: list[RotCard] = Field(default_factory=list)  # empty: the Boss has no Rot deck

    @model_validator(mode="after")
    def _board(self) -> Boss:
        cats = sorted(a.category for a in self.attacks)
        if cats != ["doubles", "singles", "triples"]:
            raise ValueError(f"boss {self.id!r} needs exactly one attack per category (A42), has {cats}")
        ids = [c.id for c in self.rot]
        if len(set(ids)) != len(ids):
            raise ValueError(f"boss {self.id!r} has duplicate Rot card ids")
        for c in self.rot:
            for e in c.effects:
                if e.op in ("attack_damage", "recall", "move", "reroll", "place_tile"):
                    raise ValueError(f"Rot card {c.id!r}: effect {e.op!r} has no meaning after an attack "
                                     "(Rot cards hurt the victim or feed the Boss)")
        return self

    def attack(self, category: str) -> Attack:
        return next(a for a in self.attacks if a.category == category)


class SkirmishCard(_Strict):
    letter: str = Field(pattern=r"^[A-R]$")
    name: str
    bonus: list[Effect] = Field(default_factory=list)
    die_pref: Literal["temp", "be", "none"] = "temp"
    side: Literal["left", "right"]
    special: bool = False


class EnvLine(_Strict):
    """One line of an Environmental's Guide card, with the action icons it carries."""

    icons: list[Literal["a", "b", "c"]] = Field(min_length=1)
    op: Literal["rotate", "discard_on", "hazard_on", "spawn", "minions_act"]
    amount: int = 1


class Environmental(_Strict):
    id: str = Field(pattern=ID)
    name: str
    house: bool = True
    source: str = ""
    kind: Literal["flat", "solid"] = "flat"
    hazard: list[Effect] = Field(default_factory=list)  # effects on whoever it harms; empty: no hazard
    harms: Literal["everyone", "enemies_of_owner"] = "everyone"
    owner_immune: bool = False
    blocks_movement: bool = False
    shape: list[str] = Field(default_factory=lambda: ["0,0"])  # offsets from the anchor
    pivot: str = Field(default="0,0", pattern=HEX)  # rotation centre (offset from the anchor)
    placements: list[str] = Field(default_factory=list)  # anchors laid at setup
    lines: list[EnvLine] = Field(default_factory=list)  # Guide lines, top to bottom (R-EACT-3)
    collision_damage: int | None = None  # replaces the 1d6 collision roll when set (R-COL-4)


class EnvCard(_Strict):
    id: str = Field(pattern=ID)
    icons: list[Literal["a", "b", "c"]] = Field(min_length=1)

    @model_validator(mode="after")
    def _has_a(self) -> EnvCard:
        if "a" not in self.icons:
            raise ValueError(f"environmental action card {self.id!r} must show icon A (R-EACT-2)")
        return self


class ArenaMap(_Strict):
    """The arena: `radius` (a hexagon) or an explicit `hexes` list; walls are everything else."""

    id: str = Field(pattern=ID)
    name: str
    house: bool = True
    radius: int | None = Field(default=None, ge=1, le=12)
    hexes: list[str] | None = None
    pillars: list[str] = Field(default_factory=list)
    central: list[str] | None = None
    central_radius: int = 2
    starts: dict[str, str] = Field(default_factory=dict)  # unit id -> start hex override

    @model_validator(mode="after")
    def _shape(self) -> ArenaMap:
        if (self.radius is None) == (self.hexes is None):
            raise ValueError("an arena needs exactly one of `radius` or `hexes`")
        for h in [*(self.hexes or []), *self.pillars, *(self.central or []), *self.starts.values()]:
            if parse_hex(h) is None:
                raise ValueError(f"{h!r} is not a hex id (q,r)")
        cells = set(self.cells())
        for h in [*(self.central or []), *self.starts.values()]:
            if parse_hex(h) not in cells:
                raise ValueError(f"hex {h} is not on the arena")
        if not self.central_cells():
            raise ValueError("the arena has no central zone")
        return self

    def cells(self) -> list[Hex]:
        if self.hexes is not None:
            base = {h for t in self.hexes if (h := parse_hex(t)) is not None}
        else:
            base = set(hexagon(self.radius or 1))
        pillars = {parse_hex(p) for p in self.pillars}
        return sorted(base - pillars)

    def central_cells(self) -> list[Hex]:
        cells = set(self.cells())
        if self.central is not None:
            return sorted(h for t in self.central if (h := parse_hex(t)) is not None and h in cells)
        return sorted(h for h in hexagon(self.central_radius) if h in cells)


class Supply(_Strict):
    attack: int = 21
    be: int = 15
    temp: int = 15
    d20: int = 5


class Rules(_Strict):
    """Numbers of the rulebook (source) and house numbers it lacks."""

    energy_max: int = Field(default=30, ge=1)  # A14: the BE track length is unknown
    collision_die: int = 6  # R-COL-4
    supply: Supply = Supply()
    skirmish_letters: str = "ABCDEFGHIJKLMNOPQR"


class Content(_Strict):
    champions: list[Champion]
    bosses: list[Boss]
    skirmish: list[SkirmishCard] = Field(min_length=12)
    environmentals: list[Environmental]
    env_cards: list[EnvCard] = Field(min_length=1)
    arena: ArenaMap
    rules: Rules = Rules()

    @model_validator(mode="after")
    def _refs(self) -> Content:
        envs = {e.id for e in self.environmentals}
        dice = {d.id for c in self.champions for d in c.dice} | {d.id for b in self.bosses for d in b.dice}
        for b in self.bosses:
            if b.environmental is not None and b.environmental not in envs:
                raise ValueError(f"boss {b.id!r}: unknown environmental {b.environmental!r}")
        every: list[tuple[str, Effect]] = []
        for c in self.champions:
            every += [(c.id, e) for a in c.attacks for e in a.effects]
            every += [(c.id, e) for p in c.pacts for o in p.ability.options for e in o]
            every += [(c.id, e) for k in c.cards for ab in (k.immediate, k.bonus) if ab for o in ab.options for e in o]
            every += [(c.id, e) for d in c.dice for f in d.faces for e in f]
            every += [(c.id, e) for e in [*c.setup, *c.rival.special]]
        for b in self.bosses:
            every += [(b.id, e) for a in b.attacks for e in a.effects]
            every += [(b.id, e) for k in b.actions for e in k.effects]
            every += [(b.id, e) for k in b.rot for e in k.effects]
        for owner, e in every:
            if e.op == "add_die" and e.die not in dice:
                raise ValueError(f"{owner}: unknown special die {e.die!r}")
            if e.op == "place_tile" and e.tile not in envs:
                raise ValueError(f"{owner}: unknown environmental {e.tile!r}")
        ids = [c.id for c in self.champions] + [b.id for b in self.bosses]
        if len(set(ids)) != len(ids):
            raise ValueError("champion and boss ids must be unique")
        return self

    # Each look-up reads the index of the content asked last without a call to `_index` when
    # it is this one (`_LAST`): the rules ask about 4.5 times a solo ply (issue 23).
    def champion(self, cid: str) -> Champion:
        found = (_LAST[0][1] if _LAST and _LAST[0][0] is self else _index(self)).champions.get(cid)
        if found is None:
            raise StopIteration(cid)  # as the plain search over the list did
        return found

    def boss(self, bid: str) -> Boss:
        found = (_LAST[0][1] if _LAST and _LAST[0][0] is self else _index(self)).bosses.get(bid)
        if found is None:
            raise StopIteration(bid)
        return found

    def environmental(self, eid: str) -> Environmental:
        found = (_LAST[0][1] if _LAST and _LAST[0][0] is self else _index(self)).environmentals.get(eid)
        if found is None:
            raise StopIteration(eid)
        return found

    def initiative_card(self, cid: str, card_id: str) -> InitiativeCard | None:
        """Champion `cid`'s Initiative card `card_id`, if it has one (looked up by id: the
        rules ask at every step of a turn)."""
        cards = (_LAST[0][1] if _LAST and _LAST[0][0] is self else _index(self)).cards.get(cid)
        if cards is None:
            raise StopIteration(cid)  # as `champion` does
        return cards.get(card_id)

    def special_die(self, did: str) -> SpecialDie:
        return (_LAST[0][1] if _LAST and _LAST[0][0] is self else _index(self)).dice[did]

    def minion(self, mid: str) -> MinionDef:
        return (_LAST[0][1] if _LAST and _LAST[0][0] is self else _index(self)).minions[mid]


class _Index:
    """Content looked up by id (the rules ask thousands of times a game; issue 23). The first
    of equal ids wins, as the searches over the lists it replaces did."""

    def __init__(self, c: Content) -> None:
        self.champions: dict[str, Champion] = {}
        self.bosses: dict[str, Boss] = {}
        self.environmentals: dict[str, Environmental] = {}
        self.dice: dict[str, SpecialDie] = {}
        self.minions: dict[str, MinionDef] = {}
        self.cards: dict[str, dict[str, InitiativeCard]] = {}
        for ch in c.champions:
            self.champions.setdefault(ch.id, ch)
        for cid, champion in self.champions.items():
            self.cards[cid] = {}
            for card in champion.cards:
                self.cards[cid].setdefault(card.id, card)
        for b in c.bosses:
            self.bosses.setdefault(b.id, b)
        for e in c.environmentals:
            self.environmentals.setdefault(e.id, e)
        for d in [*(d for ch in c.champions for d in ch.dice), *(d for b in c.bosses for d in b.dice)]:
            self.dice.setdefault(d.id, d)
        for m in [*(m for ch in c.champions for m in ch.minions), *(m for b in c.bosses for m in b.minions)]:
            self.minions.setdefault(m.id, m)


# content id -> (the content, kept alive so its id is never reused, and its index)
_INDEXES: dict[int, tuple[Content, _Index]] = {}


_LAST: list[tuple[Content, _Index]] = []  # the entry read last (one game's content is asked all game)


def _index(c: Content) -> _Index:
    if _LAST and _LAST[0][0] is c:
        return _LAST[0][1]
    entry = _INDEXES.get(id(c))
    if entry is None or entry[0] is not c:
        entry = _INDEXES[id(c)] = (c, _Index(c))
    _LAST[:] = [entry]
    return entry[1]


FILES = ("champions", "bosses", "skirmish", "environmentals", "env_cards", "arena", "rules")


def load_content(folder: str | None = None, arena: str | None = None) -> Content:
    """The packaged content, with any file of `folder` (a designer's copy) and an `arena` file
    replacing the packaged ones; errors name the file and the field."""
    return _load(folder, arena)


@cache
def _load(folder: str | None, arena: str | None) -> Content:
    data: dict[str, object] = {}
    for name in FILES:
        path = DATA_DIR / f"{name}.json"
        if folder is not None and (Path(folder) / f"{name}.json").exists():
            path = Path(folder) / f"{name}.json"
        elif folder is not None and not Path(folder).is_dir():
            raise DataFileError(f"{folder}: content must be a folder of {', '.join(f + '.json' for f in FILES)}")
        if name == "arena" and arena is not None:
            path = Path(arena)
        data[name] = _read(path)
    return load_model(Content, data, label=f"arena content ({folder or DATA_DIR})")


def _read(path: Path) -> object:
    raw = read_structured(path)
    if isinstance(raw, dict) and "items" in raw:
        return raw["items"]
    return raw
