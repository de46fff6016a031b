"""Blood Stone content: the board, the unit cards and the two spell decks, validated from data.

The rulebook's map, cards and spells exist only as pictures we do not have, so all of this is
house content (see docs/games/witch.md). A designer copies `data/content.json`, changes numbers
and passes the copy as the `content` parameter; every mistake is reported with the file, the
field and the reason before any game starts. Rules code reads spells by their structured
`chance`, `range`, `targets` and `effect`, never by their names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bloodforge.core import Action
from bloodforge.core.datafile import load_model
from bloodforge.core.graph import SquareGrid

from .board import DIAGONAL, ORTHOGONAL, Reach, Square, square_name

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_CONTENT = DATA_DIR / "content.json"

ID_PATTERN = r"^[a-z][a-z0-9_]*$"
SQUARE_PATTERN = r"^[a-z][1-9][0-9]?$"
_SQUARE_RE = re.compile(SQUARE_PATTERN)

UnitKind = Literal["witch", "minion", "soldier"]
TargetKind = Literal["witch", "minion", "soldier", "zombified", "square"]
ActKind = Literal["move", "attack"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- range shapes (shared by attack ranges and spell ranges) ----------------------------------
class AdjacentShape(_Strict):
    """The squares touching the unit: 4 orthogonal ones, or all 8 with diagonals."""

    shape: Literal["adjacent"]
    diagonals: bool = True


class LineShape(_Strict):
    """Straight lines from the unit; `blocked` lines stop at the first unit or darkened square."""

    shape: Literal["line"]
    min: int = Field(default=1, ge=1, le=30)
    max: int = Field(ge=1, le=30)
    diagonals: bool = False
    blocked: bool = True

    @model_validator(mode="after")
    def _ordered(self) -> LineShape:
        if self.min > self.max:
            raise ValueError(f"line range min {self.min} exceeds max {self.max}")
        return self


class WithinShape(_Strict):
    """Every square at a distance between `min` and `max`, whatever stands in between."""

    shape: Literal["within"]
    min: int = Field(default=1, ge=1, le=60)
    max: int = Field(ge=1, le=60)
    metric: Literal["manhattan", "chebyshev"] = "manhattan"

    @model_validator(mode="after")
    def _ordered(self) -> WithinShape:
        if self.min > self.max:
            raise ValueError(f"within range min {self.min} exceeds max {self.max}")
        return self


class OffsetsShape(_Strict):
    """An explicit pattern of (dx, dy) offsets, dy towards the Witch's edge of the map."""

    shape: Literal["offsets"]
    offsets: tuple[tuple[int, int], ...] = Field(min_length=1)
    rotate: bool = True

    @model_validator(mode="after")
    def _no_origin(self) -> OffsetsShape:
        if (0, 0) in self.offsets:
            raise ValueError("offsets may not contain [0, 0] (a unit never targets its own square)")
        return self


class AnywhereShape(_Strict):
    """One unit (or square) anywhere on the board: the cards' "Omniscient" range."""

    shape: Literal["any"]


class AllShape(_Strict):
    """Every unit on the board that matches the spell's targets, with no choice."""

    shape: Literal["all"]


class NoShape(_Strict):
    """The spell affects no unit (its effect is on the turn itself)."""

    shape: Literal["none"]


AttackShape = Annotated[
    AdjacentShape | LineShape | WithinShape | OffsetsShape, Field(discriminator="shape")
]
SpellShape = Annotated[
    AdjacentShape | LineShape | WithinShape | OffsetsShape | AnywhereShape | AllShape | NoShape,
    Field(discriminator="shape"),
]
PatternShape = AdjacentShape | LineShape | WithinShape | OffsetsShape


def shape_text(shape: PatternShape | AnywhereShape | AllShape | NoShape) -> str:
    """The range as printed on a card."""
    if isinstance(shape, AdjacentShape):
        return "adjacent (8 squares)" if shape.diagonals else "adjacent (4 squares)"
    if isinstance(shape, LineShape):
        dirs = "8 directions" if shape.diagonals else "straight lines"
        span = f"{shape.max}" if shape.min == 1 else f"{shape.min}-{shape.max}"
        sight = (
            ", stops at the first unit or darkened square"
            if shape.blocked
            else ", reaches over units"
        )
        return f"{dirs}, {span} squares{sight}"
    if isinstance(shape, WithinShape):
        span = f"{shape.max}" if shape.min <= 1 else f"{shape.min}-{shape.max}"
        return f"within {span} squares ({shape.metric})"
    if isinstance(shape, OffsetsShape):
        return f"pattern of {len(shape.offsets)} offsets" + (" (rotated)" if shape.rotate else "")
    if isinstance(shape, AnywhereShape):
        return "Omniscient (anywhere on the board)"
    if isinstance(shape, AllShape):
        return "all"
    return "none"


def shape_reach(shape: PatternShape) -> int:
    """The farthest orthogonal-step distance a pattern can hit (agents use it to judge threats)."""
    if isinstance(shape, AdjacentShape):
        return 2 if shape.diagonals else 1
    if isinstance(shape, LineShape):
        return shape.max * (2 if shape.diagonals else 1)
    if isinstance(shape, WithinShape):
        return shape.max * (2 if shape.metric == "chebyshev" else 1)
    return max(abs(dx) + abs(dy) for dx, dy in shape.offsets)


# -- cards ------------------------------------------------------------------------------------
class Chance(_Strict):
    """How a spell card decides whether it works: `X > dN` passes when X >= the roll."""

    kind: Literal["always", "blood", "phantoms", "fixed"]
    die: int | None = Field(default=None, ge=2, le=20)
    value: int | None = Field(default=None, ge=0, le=20)
    label: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Chance:
        if self.kind == "always":
            if self.die is not None or self.value is not None:
                raise ValueError("an 'always' chance takes no die and no value")
        elif self.die is None:
            raise ValueError(f"a {self.kind!r} chance needs a die (4 for a d4, 6 for a d6)")
        if self.kind == "fixed" and self.value is None:
            raise ValueError("a 'fixed' chance needs a value (the number compared with the die)")
        if self.kind in {"blood", "phantoms"} and self.value is not None:
            raise ValueError(f"a {self.kind!r} chance takes its number from play, not from `value`")
        return self

    def text(self) -> str:
        if self.kind == "always":
            return self.label or "100%"
        left = {"blood": "X", "phantoms": "P"}.get(self.kind, str(self.value))
        return f"{left} > d{self.die}"


EffectKind = Literal[
    "damage", "heal", "drain", "zombify", "act", "teleport", "bind", "extra_acts", "backlash"
]


class Effect(_Strict):
    """What a spell does. `amount` counts blood stones (or Acts for `extra_acts`)."""

    kind: EffectKind
    amount: int = Field(default=1, ge=1, le=10)
    acts: tuple[ActKind, ...] = ("move", "attack")
    units: int | Literal["x"] | None = None
    max_target_blood: int | None = Field(default=None, ge=1, le=20)

    @model_validator(mode="after")
    def _consistent(self) -> Effect:
        if self.kind == "act" and (not self.acts or len(set(self.acts)) != len(self.acts)):
            raise ValueError("an 'act' effect needs distinct acts from ['move', 'attack']")
        if self.max_target_blood is not None and self.kind != "zombify":
            raise ValueError("max_target_blood only applies to a 'zombify' effect")
        if self.units is not None and self.kind != "act":
            raise ValueError("units (how many may Act) only applies to an 'act' effect")
        if isinstance(self.units, int) and self.units < 1:
            raise ValueError("units must be at least 1, or 'x' for the blood paid")
        return self

    def text(self, subject: str = "the target") -> str:
        n = self.amount
        stones = f"{n} blood stone" + ("s" if n != 1 else "")
        if self.kind == "damage":
            return f"{subject} loses {stones}"
        if self.kind == "heal":
            return f"{subject} gains {stones} from the supply (up to its maximum)"
        if self.kind == "drain":
            return f"{subject} loses {stones}; the Witch gains what it lost (up to her maximum)"
        if self.kind == "zombify":
            limit = (
                ""
                if self.max_target_blood is None
                else f" with {self.max_target_blood} or fewer blood stones"
            )
            return f"a Soldier{limit} becomes zombified"
        if self.kind == "act":
            what = " and ".join(
                {"move": "move once", "attack": "attack once"}[a] for a in self.acts
            )
            if self.units is None:
                return f"{subject} may {what} now"
            many = "X" if self.units == "x" else str(self.units)
            return f"up to {many} of {subject} may each {what} now"
        if self.kind == "teleport":
            return "the Witch moves to the target square"
        if self.kind == "bind":
            return f"{subject} cannot move during the Soldiers' next turn"
        if self.kind == "extra_acts":
            return f"you may Act {n} more time" + ("s" if n != 1 else "") + " this turn"
        return f"the Witch loses {stones}"


class SpellCard(_Strict):
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    count: int = Field(ge=1, le=24)
    chance: Chance
    range: SpellShape
    targets: tuple[TargetKind, ...] = ()
    effect: Effect
    on_fail: Effect | None = None
    area: bool = False
    design_note: str = ""

    @property
    def chooses_target(self) -> bool:
        """Whether casting asks for a target, or affects every matching unit in range (or none)."""
        return not (self.area or isinstance(self.range, NoShape | AllShape))

    @model_validator(mode="after")
    def _range_fits_effect(self) -> SpellCard:
        kind = self.effect.kind
        targets = set(self.targets)
        if len(targets) != len(self.targets):
            raise ValueError(f"spell {self.id!r}: targets are listed twice")
        if self.effect.units == "x" and self.chance.kind != "blood":
            raise ValueError(f"spell {self.id!r}: units 'x' needs a blood chance (X = blood paid)")
        if self.area and (isinstance(self.range, NoShape | AllShape) or "square" in targets):
            raise ValueError(f"spell {self.id!r}: area applies to unit targets in a pattern range")
        if isinstance(self.range, NoShape):
            if targets:
                raise ValueError(f"spell {self.id!r}: a 'none' range takes no targets")
            if kind != "extra_acts":
                raise ValueError(
                    f"spell {self.id!r}: only an 'extra_acts' effect works without a target"
                )
            return self
        if kind == "extra_acts":
            raise ValueError(f"spell {self.id!r}: 'extra_acts' needs range {{'shape': 'none'}}")
        if not targets:
            raise ValueError(f"spell {self.id!r}: a {self.range.shape!r} range needs targets")
        if "square" in targets:
            if targets != {"square"} or kind != "teleport":
                raise ValueError(
                    f"spell {self.id!r}: only a 'teleport' effect targets squares, and only squares"
                )
            if isinstance(self.range, AllShape):
                raise ValueError(f"spell {self.id!r}: a teleport cannot target all squares")
        elif kind == "teleport":
            raise ValueError(f"spell {self.id!r}: a 'teleport' effect needs targets ['square']")
        if kind == "zombify" and targets != {"soldier"}:
            raise ValueError(f"spell {self.id!r}: 'zombify' needs targets ['soldier']")
        if kind == "bind" and targets != {"soldier"}:
            raise ValueError(f"spell {self.id!r}: 'bind' needs targets ['soldier']")
        if kind == "drain" and "witch" in targets:
            raise ValueError(f"spell {self.id!r}: the Witch cannot drain herself")
        if kind == "act" and targets & {"witch"}:
            raise ValueError(f"spell {self.id!r}: the Witch moves herself, no spell makes her Act")
        if kind == "backlash":
            raise ValueError(f"spell {self.id!r}: 'backlash' is only for on_fail")
        if self.on_fail is not None and self.on_fail.kind != "backlash":
            raise ValueError(f"spell {self.id!r}: on_fail may only be a 'backlash'")
        return self

    def card_text(self) -> str:
        fail = "" if self.on_fail is None else f" If it fails: {self.on_fail.text()}."
        who = ", ".join(self.targets) if self.targets else "-"
        plural = {"witch": "Witch", "minion": "minions", "soldier": "soldiers"}
        many = " or ".join(plural.get(t, "zombified units") for t in self.targets)
        subject = "the target" if self.chooses_target else f"the {many} in range"
        if isinstance(self.range, AllShape):
            subject = f"all {many}"
        return (
            f"{self.name} | Chance: {self.chance.text()} | "
            f"Range: {shape_text(self.range)} ({who}) | Effect: {self.effect.text(subject)}.{fail}"
        )


class UnitCard(_Strict):
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    kind: UnitKind
    glyph: str = Field(min_length=1, max_length=1)
    starting_blood: int = Field(ge=1, le=20)
    max_blood: int | None = Field(default=None, ge=1, le=30)
    movement: int = Field(ge=0, le=12)
    attack: AttackShape | None = None
    design_note: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> UnitCard:
        if _SQUARE_RE.match(self.id):
            raise ValueError(f"unit id {self.id!r} reads like a square; pick a longer name")
        if self.max_blood is not None and self.max_blood < self.starting_blood:
            raise ValueError(
                f"unit {self.id!r}: max_blood {self.max_blood} is below starting_blood"
            )
        if self.kind == "witch" and self.attack is not None:
            raise ValueError(
                "the Witch can't attack like other units (rulebook): her attack must be null"
            )
        return self

    @property
    def blood_cap(self) -> int:
        return self.max_blood if self.max_blood is not None else self.starting_blood


SquareName = Annotated[str, Field(pattern=SQUARE_PATTERN)]


class BoardModel(_Strict):
    width: int = Field(ge=2, le=26)
    height: int = Field(ge=2, le=99)
    darkened: tuple[SquareName, ...] = ()
    witch_start: tuple[SquareName, ...] = Field(min_length=1)
    soldier_start: tuple[SquareName, ...] = Field(min_length=1)
    preset: dict[str, SquareName] = Field(default_factory=dict)
    design_note: str = ""

    @model_validator(mode="after")
    def _squares_fit(self) -> BoardModel:
        def check(field: str, names: tuple[str, ...] | list[str]) -> None:
            for n in names:
                col, row = ord(n[0]) - 97, int(n[1:]) - 1
                if not (0 <= col < self.width and 0 <= row < self.height):
                    raise ValueError(
                        f"{field}: square {n!r} is off the {self.width}x{self.height} board"
                    )
            if len(set(names)) != len(names):
                raise ValueError(f"{field}: a square is listed twice")

        check("darkened", self.darkened)
        check("witch_start", self.witch_start)
        check("soldier_start", self.soldier_start)
        check("preset", list(self.preset.values()))
        dark = set(self.darkened)
        for name, zone in (
            ("witch_start", self.witch_start),
            ("soldier_start", self.soldier_start),
        ):
            bad = sorted(dark.intersection(zone))
            if bad:
                raise ValueError(f"{name}: start squares {bad} are darkened")
        both = sorted(set(self.witch_start) & set(self.soldier_start))
        if both:
            raise ValueError(f"start zones overlap at {both}")
        return self


class ContentFile(_Strict):
    """One content file: the whole designed game a designer can copy and edit."""

    title: str = ""
    house_content: bool
    design_note: str = ""
    blood_stones: int = Field(default=42, ge=1, le=200)
    board: BoardModel
    units: tuple[UnitCard, ...] = Field(min_length=2)
    blood_spells: tuple[SpellCard, ...] = Field(min_length=1)
    phantom_spells: tuple[SpellCard, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> ContentFile:
        ids = [u.id for u in self.units]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"units: ids {dupes} are used twice")
        kinds = [u.kind for u in self.units]
        if kinds.count("witch") != 1:
            raise ValueError(
                f"units: exactly one unit must be the witch, found {kinds.count('witch')}"
            )
        if kinds.count("soldier") < 1:
            raise ValueError("units: the Soldiers need at least one soldier")
        witch_side = kinds.count("witch") + kinds.count("minion")
        if len(self.board.witch_start) < witch_side:
            raise ValueError(
                f"board.witch_start: {len(self.board.witch_start)} squares for {witch_side} pieces"
            )
        if len(self.board.soldier_start) < kinds.count("soldier"):
            raise ValueError(
                f"board.soldier_start: {len(self.board.soldier_start)} squares "
                f"for {kinds.count('soldier')} soldiers"
            )
        total = sum(u.starting_blood for u in self.units)
        if total > self.blood_stones:
            raise ValueError(
                f"blood_stones: the cards start with {total} stones "
                f"but the box has {self.blood_stones}"
            )
        if self.board.preset:
            self._check_preset()
        spell_ids = [s.id for s in (*self.blood_spells, *self.phantom_spells)]
        dupes = sorted({i for i in spell_ids if spell_ids.count(i) > 1})
        if dupes:
            raise ValueError(f"spell ids {dupes} are used twice (within or across the two decks)")
        clash = sorted(set(spell_ids) & set(ids))
        if clash:
            raise ValueError(f"names {clash} are used by both a unit and a spell")
        for s in self.blood_spells:
            if s.chance.kind == "phantoms":
                raise ValueError(
                    f"blood_spells[{s.id}].chance: 'phantoms' chance is for Phantom Spells"
                )
            if s.effect.kind == "extra_acts":
                raise ValueError(f"blood_spells[{s.id}].effect: the Witch has no Acts to add to")
        for s in self.phantom_spells:
            if s.chance.kind == "blood":
                raise ValueError(
                    f"phantom_spells[{s.id}].chance: Phantom Spells are not paid in blood"
                )
            if s.effect.kind in {"drain", "teleport", "zombify"}:
                raise ValueError(
                    f"phantom_spells[{s.id}].effect: {s.effect.kind!r} is a Blood Spell effect"
                )
            if s.on_fail is not None:
                raise ValueError(
                    f"phantom_spells[{s.id}].on_fail: only Blood Spells backlash on the Witch"
                )
            if s.effect.kind == "act" and "zombified" in s.targets:
                raise ValueError(
                    f"phantom_spells[{s.id}].targets: zombified units obey only the Witch"
                )
        return self

    def _check_preset(self) -> None:
        preset = self.board.preset
        ids = {u.id: u for u in self.units}
        unknown = sorted(set(preset) - set(ids))
        missing = sorted(set(ids) - set(preset))
        if unknown or missing:
            raise ValueError(
                f"board.preset: unknown units {unknown}, units without a square {missing}"
            )
        if len(set(preset.values())) != len(preset):
            raise ValueError("board.preset: two units share a square")
        for uid, sq in preset.items():
            zone = (
                self.board.soldier_start if ids[uid].kind == "soldier" else self.board.witch_start
            )
            if sq not in zone:
                raise ValueError(f"board.preset: {uid} at {sq} is outside its side's start tiles")


# -- compiled content -----------------------------------------------------------------------
def _pattern_offsets(shape: PatternShape) -> list[tuple[int, int]]:
    if isinstance(shape, AdjacentShape):
        return list(ORTHOGONAL + (DIAGONAL if shape.diagonals else ()))
    if isinstance(shape, WithinShape):
        out = []
        for dx in range(-shape.max, shape.max + 1):
            for dy in range(-shape.max, shape.max + 1):
                d = abs(dx) + abs(dy) if shape.metric == "manhattan" else max(abs(dx), abs(dy))
                if (dx, dy) != (0, 0) and shape.min <= d <= shape.max:
                    out.append((dx, dy))
        return out
    assert isinstance(shape, OffsetsShape)
    offsets = set(shape.offsets)
    if shape.rotate:
        for dx, dy in list(offsets):
            offsets |= {(dy, -dx), (-dx, -dy), (-dy, dx)}
    return sorted(offsets)


def compile_reach(shape: PatternShape, grid: SquareGrid) -> Reach:
    """Rays of `shape` from every square of `grid`, clipped to the board."""
    rays: dict[Square, tuple[tuple[tuple[Square, bool], ...], ...]] = {}
    for origin in grid.squares():
        c, r = origin
        out: list[tuple[tuple[Square, bool], ...]] = []
        if isinstance(shape, LineShape):
            dirs = ORTHOGONAL + (DIAGONAL if shape.diagonals else ())
            for dx, dy in dirs:
                ray = []
                for step in range(1, shape.max + 1):
                    sq = (c + dx * step, r + dy * step)
                    if not grid.on_board(sq):
                        break
                    if shape.blocked or step >= shape.min:
                        ray.append((sq, step >= shape.min))
                if ray:
                    if shape.blocked:
                        out.append(tuple(ray))
                    else:
                        out.extend((item,) for item in ray)
            rays[origin] = tuple(out)
            continue
        for dx, dy in _pattern_offsets(shape):
            sq = (c + dx, r + dy)
            if grid.on_board(sq):
                out.append(((sq, True),))
        rays[origin] = tuple(out)
    blocked = isinstance(shape, LineShape) and shape.blocked
    order: dict[Square, dict[Square, int]] = {}
    if not blocked:
        for origin, origin_rays in rays.items():
            places: dict[Square, int] = {}
            for line in origin_rays:
                for sq, hittable in line:
                    if hittable and sq not in places:
                        places[sq] = len(places)
            order[origin] = places
    return Reach(blocked=blocked, rays=rays, order=order)


def parse_square_name(name: str) -> Square:
    return (ord(name[0]) - 97, int(name[1:]) - 1)


class ActionTable:
    """The actions legal-action lists are made of, each made once per content (filled lazily):
    a playout lists thousands of them and the same few hundred recur.

    `move[unit][square]`, `attack[unit][target]`, `cast[card]`, `discard[card]`."""

    __slots__ = ("attack", "cast", "discard", "move")

    def __init__(self) -> None:
        self.move: dict[str, dict[Square, Action]] = {}
        self.attack: dict[str, dict[str, Action]] = {}
        self.cast: dict[str, Action] = {}
        self.discard: dict[str, Action] = {}


@dataclass(frozen=True)
class Content:
    """A validated content file plus the derived lookups the rules use on every move."""

    data: ContentFile
    source: str
    grid: SquareGrid
    units: Mapping[str, UnitCard]
    roster: tuple[str, ...]
    witch_id: str
    minion_ids: tuple[str, ...]
    soldier_ids: tuple[str, ...]
    spells: Mapping[str, SpellCard]
    blood_deck: tuple[str, ...]
    phantom_deck: tuple[str, ...]
    witch_start: tuple[Square, ...]
    soldier_start: tuple[Square, ...]
    square_names: Mapping[Square, str]
    squares_by_name: Mapping[str, Square]
    attack_reach: Mapping[str, Reach | None]
    spell_reach: Mapping[str, Reach | None]
    #: each unit's kind (witch, minion, soldier) and each square's passable orthogonal
    #: neighbours, as plain dicts for the legal-action loops
    kinds: Mapping[str, str] = field(default_factory=dict)
    open_neighbours: Mapping[Square, tuple[Square, ...]] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    actions: ActionTable = field(default_factory=ActionTable, compare=False, repr=False)

    @property
    def darkened(self) -> frozenset[Square]:
        return self.grid.blocked

    def deck_of(self, spell_id: str) -> str:
        return "blood" if spell_id in self.blood_deck else "phantom"


def compile_content(data: ContentFile, source: str) -> Content:
    b = data.board
    grid = SquareGrid(b.width, b.height, [parse_square_name(n) for n in b.darkened])
    units = {u.id: u for u in data.units}
    witch_id = next(u.id for u in data.units if u.kind == "witch")
    minion_ids = tuple(u.id for u in data.units if u.kind == "minion")
    soldier_ids = tuple(u.id for u in data.units if u.kind == "soldier")
    spells = {s.id: s for s in (*data.blood_spells, *data.phantom_spells)}
    names = {sq: square_name(sq) for sq in grid.squares()}
    reach_cache: dict[PatternShape, Reach] = {}

    def reach_of(shape: object) -> Reach | None:
        if not isinstance(shape, AdjacentShape | LineShape | WithinShape | OffsetsShape):
            return None
        if shape not in reach_cache:
            reach_cache[shape] = compile_reach(shape, grid)
        return reach_cache[shape]

    return Content(
        data=data,
        source=source,
        grid=grid,
        units=units,
        roster=(witch_id, *minion_ids, *soldier_ids),
        witch_id=witch_id,
        minion_ids=minion_ids,
        soldier_ids=soldier_ids,
        spells=spells,
        blood_deck=tuple(s.id for s in data.blood_spells for _ in range(s.count)),
        phantom_deck=tuple(s.id for s in data.phantom_spells for _ in range(s.count)),
        witch_start=tuple(parse_square_name(n) for n in b.witch_start),
        soldier_start=tuple(parse_square_name(n) for n in b.soldier_start),
        square_names=names,
        squares_by_name={v: k for k, v in names.items()},
        attack_reach={u.id: reach_of(u.attack) for u in data.units},
        spell_reach={s.id: reach_of(s.range) for s in spells.values()},
        kinds={u.id: u.kind for u in data.units},
        open_neighbours={sq: tuple(n for n in grid.orthogonal(sq) if grid.passable(n)) for sq in grid.squares()},
    )


@cache
def _load(path: str, mtime_ns: int) -> Content:
    del mtime_ns  # part of the cache key only: an edited file is read again
    return compile_content(load_model(ContentFile, Path(path)), path)


def load_content(path: str | Path | None = None) -> Content:
    """The packaged content, or a designer's copy; DataFileError names file, field and reason."""
    p = Path(path) if path else DEFAULT_CONTENT
    try:
        mtime = p.stat().st_mtime_ns
    except OSError:
        mtime = -1  # let the loader report the unreadable file with its usual message
    return _load(str(p), mtime)
