"""Scenario positions (spec §6): a match set up by the parameters, then any arena (hex list or
radius), figures moved, HP/energy/pools/hands/flags set, tiles laid, the round and the turn
chosen; the rig gives dice per size and deck orders. Errors name the field and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bloodforge.core import Deck, Dice, ScenarioError, format_validation_error

from . import setup, turns
from .content import ArenaMap
from .dice import attack_faces, category_of
from .effects import place_tile
from .hexes import parse_hex
from .initiative import card_of
from .model import Die, Unit
from .world import World

HEX = r"^-?\d+,-?\d+$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DieSpec(_Strict):
    kind: str
    face: int | None = None
    used: bool = False
    fresh: bool = False


class UnitSpec(_Strict):
    id: str
    hex: str | None = Field(default=None, pattern=HEX)
    hp: int | None = None
    energy: int | None = None
    pool: list[DieSpec] | None = None
    hand: list[str] | None = None
    discard: list[str] | None = None
    current: str | None = None
    speed: int | None = None
    prev_speed: int | None = None
    moved: bool = False
    attacked: bool = False
    invoked: bool = False
    alive: bool = True
    side: int | None = None
    seat: int | None = None  # checked, not changed: seats come from the parameters
    human: bool | None = None  # checked, not changed: a seat's Champion is human, Rivals and Bosses are not
    flying: bool | None = None  # KW-FLY for the whole match (content gives the default)


class TileSpec(_Strict):
    env: str
    anchor: str = Field(pattern=HEX)
    owner: str | None = None


class DeckSpec(_Strict):
    """A deck's state: its face-down pile (top first) and its face-up discards, oldest first."""

    pile: list[str] = Field(default_factory=list)
    discards: list[str] = Field(default_factory=list)


class Position(_Strict):
    arena: ArenaMap | None = None
    round: int = Field(default=1, ge=1)
    units: list[UnitSpec] = Field(default_factory=list)
    remove: list[str] = Field(default_factory=list)
    tiles: list[TileSpec] | None = None
    order: list[str] | None = None
    active: str | None = None
    phase: Literal["pick", "turns"] = "turns"
    rolled: bool = True  # the active character's pool shows the given faces (turn step 3)
    decks: dict[str, DeckSpec] = Field(default_factory=dict)  # deck key -> pile and discards


class Rig(_Strict):
    d6: list[int] = Field(default_factory=list)
    d8: list[int] = Field(default_factory=list)
    d20: list[int] = Field(default_factory=list)
    decks: dict[str, list[str]] = Field(default_factory=dict)  # deck key -> cards, top first


def build(w: World, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> None:
    try:
        pos = Position.model_validate(dict(position))
        r = Rig.model_validate(dict(rig or {}))
    except ValidationError as err:
        raise ScenarioError(format_validation_error(err, "arena scenario")) from None
    if pos.arena is not None:
        w.set_arena(pos.arena)  # type: ignore[attr-defined]
    setup.setup(w)
    b = w.board
    if pos.tiles is not None:
        b.tiles = []
        for t in pos.tiles:
            if t.env not in {e.id for e in w.content.environmentals}:
                raise ScenarioError(f"tiles: unknown environmental {t.env!r}")
            anchor = parse_hex(t.anchor)
            assert anchor is not None
            place_tile(w, t.env, anchor, t.owner, stack=False)
    else:
        b.tiles = [t for t in b.tiles if all(h in w.cells for h in t.hexes)]
    for uid in pos.remove:
        if uid not in b.units:
            raise ScenarioError(f"remove: no unit {uid!r} in this match")
        del b.units[uid]
    for spec in pos.units:
        _unit(w, spec)
    b.round = pos.round
    b.phase = pos.phase
    if pos.phase == "turns":
        order = pos.order or [u.uid for u in w.combatants()]
        for x in order:
            if x not in b.units and x not in b.env_speed:
                raise ScenarioError(f"order: no unit or acting Environmental {x!r}")
        b.order = list(order)
        b.ranks = {x: i for i, x in enumerate(order)}
        if pos.active is not None:
            if pos.active not in order:
                raise ScenarioError(f"active: {pos.active!r} is not in the order")
            b.done = order[: order.index(pos.active)]
            u = b.units.get(pos.active)
            if u is not None and u.kind == "champion" and pos.rolled:
                turns.start_turn(w, u)
                u.rolled_category = _category(u)
                b.stage = "act"
    for size, seq in ((6, r.d6), (8, r.d8), (20, r.d20)):
        if seq:
            for v in seq:
                if not 1 <= v <= size:
                    raise ScenarioError(f"rig.d{size}: {v} is impossible on a d{size}")
            b.dice[size] = Dice(seq)
    for key, dspec in pos.decks.items():
        if key not in b.decks:
            raise ScenarioError(f"position.decks: no deck {key!r}; decks: {', '.join(sorted(b.decks))}")
        have = sorted(b.decks[key].pile + b.decks[key].discards)
        if sorted(dspec.pile + dspec.discards) != have:
            raise ScenarioError(f"position.decks.{key}: pile and discards must hold exactly the deck's cards "
                                f"({', '.join(have)})")
        b.decks[key] = Deck(list(reversed(dspec.pile)), dspec.discards)
    for key, cards in r.decks.items():
        if key not in b.decks:
            raise ScenarioError(f"rig.decks: no deck {key!r}; decks: {', '.join(sorted(b.decks))}")
        deck = b.decks[key]
        unknown = [c for c in cards if c not in deck.pile + deck.discards]
        if unknown:
            raise ScenarioError(f"rig.decks.{key}: {', '.join(unknown)} not in this deck")
        rest = [c for c in deck.pile + deck.discards if c not in cards]
        b.decks[key] = Deck(rest + list(reversed(cards)))  # the pile's top is its end
    for u in b.units.values():
        if u.hex is not None and u.hex not in w.cells:
            raise ScenarioError(f"units: {u.uid} stands on {u.hex}, which is not on the arena")
    b.moved()  # figures, sides and tiles were set directly


def _check_seat(u: Unit, spec: UnitSpec) -> None:
    """`seat` and `human` may state who plays the unit, but cannot change it: the parameters
    (`players`, `champions`, `rivals`, `boss`) decide that, so a contradiction is an error."""
    human = u.seat is not None
    who = f"seat {u.seat}'s Champion" if human else {"rival": "a Rival", "boss": "a Boss"}.get(u.kind, "a minion")
    why = "who plays what comes from the parameters (players, champions, rivals, boss)"
    if spec.human is not None and spec.human != human:
        raise ScenarioError(f"units.{spec.id}.human: {u.name} is {who} in this match; {why}")
    if spec.seat is not None and spec.seat != u.seat:
        raise ScenarioError(f"units.{spec.id}.seat: {u.name} is {who} in this match, not seat {spec.seat}; {why}")


def _printed_speed(w: World, u: Unit, uid: str, card: str) -> int:
    if u.kind == "boss":
        if card not in [str(i) for i in range(1, 7)]:
            raise ScenarioError(f"units.{uid}.current: a Boss's current card is a Speed card 1-6, not {card!r}")
        return int(card)
    if u.kind == "minion":
        raise ScenarioError(f"units.{uid}.current: minions have no Initiative cards (R-MIN-12)")
    printed = card_of(w, u, card)
    if printed is None:
        raise ScenarioError(f"units.{uid}.current: {card!r} is not one of {u.name}'s Initiative cards")
    return printed.speed


def _category(u: Unit) -> str:
    return category_of(attack_faces(u))


def _unit(w: World, spec: UnitSpec) -> None:
    b = w.board
    if spec.id not in b.units:
        raise ScenarioError(f"units: no unit {spec.id!r} in this match; units: {', '.join(b.units)}")
    u = b.units[spec.id]
    _check_seat(u, spec)
    if spec.flying is not None:
        u.flying = spec.flying
    if spec.hex is not None:
        u.hex = parse_hex(spec.hex)
    for field in ("hp", "energy", "current", "speed", "prev_speed", "side"):
        v = getattr(spec, field)
        if v is not None:
            setattr(u, field, v)
    u.moved, u.attacked, u.invoked, u.alive = spec.moved, spec.attacked, spec.invoked, spec.alive
    if spec.current is not None:  # the printed Speed that next round's ties read (R-INI-6)
        u.played_speed = _printed_speed(w, u, spec.id, spec.current)
    elif spec.speed is not None:
        u.played_speed = spec.speed
    if spec.hand is not None:
        u.hand = list(spec.hand)
    if spec.discard is not None:
        u.discard = list(spec.discard)
    if spec.pool is not None:
        pool = []
        for d in spec.pool:
            if d.kind in ("atk", "tmp", "be"):
                sides = 6
            else:
                try:
                    sides = w.content.special_die(d.kind).sides
                except KeyError:
                    raise ScenarioError(f"units.{spec.id}.pool: unknown die kind {d.kind!r}") from None
            if d.face is not None and not 1 <= d.face <= sides:
                raise ScenarioError(f"units.{spec.id}.pool: face {d.face} is impossible on a d{sides}")
            pool.append(Die(d.kind, sides, d.face, d.used, d.fresh))
        u.pool = pool
    if not u.alive:
        u.hex = None
