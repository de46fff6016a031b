"""Blood Stone scenarios: a position on the board plus rigged decks and dice.

The format is documented with an example in docs/games/witch.md; `scenarios/*.yaml` are
examples that the tests load. Every refusal is a ScenarioError that names the field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bloodforge.core import Deck, Dice, ScenarioError
from bloodforge.core.errors import format_validation_error

from . import rules
from .effects import announce_end, check_victory
from .model import BOARD, HAND_LIMIT, REALM, REMOVED, SOLDIERS, TURN, WITCH, Position, TurnRecord, UnitState


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class UnitSpec(_Strict):
    square: str | None = None
    where: Literal["board", "realm", "removed"] | None = None
    blood: int | None = Field(default=None, ge=0)
    zombified: bool = False
    bound: bool = False


class TurnSpec(_Strict):
    acts_used: int = Field(default=0, ge=0)
    extra_acts: int = Field(default=0, ge=0)
    moved: list[str] = Field(default_factory=list)
    attacked: list[str] = Field(default_factory=list)
    spells_used: int = Field(default=0, ge=0)


class HandsSpec(_Strict):
    soldiers: list[str] = Field(default_factory=list)
    witch: list[str] = Field(default_factory=list)


class DiscardsSpec(_Strict):
    phantom: list[str] = Field(default_factory=list)
    blood: list[str] = Field(default_factory=list)


class PositionSpec(_Strict):
    side: Literal["soldiers", "witch"] = "soldiers"
    turn_number: int | None = Field(default=None, ge=1)
    units: dict[str, UnitSpec | Literal["realm", "removed"]]
    hands: HandsSpec = Field(default_factory=lambda: HandsSpec())
    discards: DiscardsSpec = Field(default_factory=lambda: DiscardsSpec())
    turn: TurnSpec = Field(default_factory=TurnSpec)
    draw: bool = False


class RigSpec(_Strict):
    blood_deck: list[str] = Field(default_factory=list)
    phantom_deck: list[str] = Field(default_factory=list)
    dice: list[int] = Field(default_factory=list)


def fill_scenario(state: Position, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> None:
    """Set up the fresh position `state` (made by the game adapter) as the scenario describes."""
    try:
        pos = PositionSpec.model_validate(dict(position))
        rig_spec = RigSpec.model_validate(dict(rig or {}))
    except ValidationError as err:
        raise ScenarioError(format_validation_error(err, "scenario")) from None
    c = state.content
    _units(state, pos)
    state.supply = c.data.blood_stones - sum(u.blood for u in state.units.values())
    if state.supply < 0:
        raise ScenarioError(f"position.units: {-state.supply} more blood stones than the box holds")
    _decks(state, pos, rig_spec)
    biggest = max((s.chance.die or 0) for s in c.spells.values())
    for die in rig_spec.dice:
        if not 1 <= die <= biggest:
            raise ScenarioError(f"rig.dice: {die} is not a face of any die in play (d{biggest})")
    state.dice = Dice(rig_spec.dice)
    state.phase = TURN
    state.side = SOLDIERS if pos.side == "soldiers" else WITCH
    state.turn_number = pos.turn_number or (1 if state.side == SOLDIERS else 2)
    state.rec = _turn(state, pos.turn)
    state.note("setup", "Scenario position.")
    check_victory(state)
    announce_end(state)
    if state.winner is not None:
        raise ScenarioError(
            "position: the game is already decided (the Witch is dead or no Soldier can act)"
        )
    if pos.draw:
        rules.start_turn(state)


def _units(state: Position, pos: PositionSpec) -> None:
    c = state.content
    unknown = sorted(set(pos.units) - set(c.roster))
    missing = [u for u in c.roster if u not in pos.units]
    if unknown or missing:
        raise ScenarioError(
            f"position.units: unknown units {unknown}, missing units {missing} (list every unit)"
        )
    for uid in c.roster:
        raw = pos.units[uid]
        spec = UnitSpec(where=raw) if isinstance(raw, str) else raw
        card = c.units[uid]
        where = spec.where or (BOARD if spec.square is not None else None)
        field = f"position.units.{uid}"
        if where is None:
            raise ScenarioError(f"{field}: give a square, or where: realm / removed")
        if (where == BOARD) != (spec.square is not None):
            raise ScenarioError(f"{field}: a unit has a square exactly when it is on the board")
        if spec.zombified and card.kind != "soldier":
            raise ScenarioError(f"{field}: only soldiers can be zombified")
        if spec.bound and (card.kind != "soldier" or spec.zombified or where != BOARD):
            raise ScenarioError(f"{field}: only an active soldier on the board can be bound")
        if where == REALM and (card.kind == "witch" or spec.zombified):
            raise ScenarioError(f"{field}: only dead soldiers and minions enter the Realm")
        if where in {REALM, REMOVED}:
            if spec.blood:
                raise ScenarioError(f"{field}: a dead unit has no blood stones")
            state.units[uid] = UnitState(uid, where, None, 0, spec.zombified)
            continue
        assert spec.square is not None
        sq = c.squares_by_name.get(spec.square.lower())
        if sq is None:
            raise ScenarioError(f"{field}.square: {spec.square!r} is not a square of the board")
        if not c.grid.passable(sq):
            raise ScenarioError(f"{field}.square: {spec.square} is darkened")
        if sq in state.at:
            raise ScenarioError(f"{field}.square: {spec.square} is taken by {state.at[sq]}")
        blood = card.starting_blood if spec.blood is None else spec.blood
        if not 1 <= blood <= card.blood_cap:
            raise ScenarioError(
                f"{field}.blood: {blood} is outside 1..{card.blood_cap} for a living {uid}"
            )
        state.units[uid] = UnitState(uid, BOARD, sq, blood, spec.zombified, spec.bound)
        state.at[sq] = uid


def _decks(state: Position, pos: PositionSpec, rig: RigSpec) -> None:
    c = state.content
    for seat, side, deck_name, rig_cards, cards in (
        (SOLDIERS, "soldiers", "phantom", rig.phantom_deck, c.phantom_deck),
        (WITCH, "witch", "blood", rig.blood_deck, c.blood_deck),
    ):
        hand = [x.lower() for x in getattr(pos.hands, side)]
        discards = [x.lower() for x in getattr(pos.discards, deck_name)]
        top = [x.lower() for x in rig_cards]
        stock = Counter(cards)
        for where, listed in (
            (f"position.hands.{side}", hand),
            (f"position.discards.{deck_name}", discards),
            (f"rig.{deck_name}_deck", top),
        ):
            bad = sorted({x for x in listed if x not in stock})
            if bad:
                raise ScenarioError(
                    f"{where}: {bad} are not {deck_name} spell cards ({sorted(stock)})"
                )
        used = Counter(hand) + Counter(discards) + Counter(top)
        over = sorted(k for k, n in used.items() if n > stock[k])
        if over:
            raise ScenarioError(
                f"{deck_name} cards {over}: hand, discards and rig use more copies "
                "than the deck has"
            )
        if len(hand) > HAND_LIMIT[seat]:
            raise ScenarioError(f"position.hands.{side}: at most {HAND_LIMIT[seat]} cards")
        rest = list((stock - used).elements())
        state.decks[seat] = Deck.rigged(top, rest, state.rng)
        state.decks[seat].discards = discards
        state.hands[seat] = hand


def _turn(state: Position, spec: TurnSpec) -> TurnRecord:
    for field, ids in (("moved", spec.moved), ("attacked", spec.attacked)):
        bad = sorted(set(ids) - set(state.units))
        if bad:
            raise ScenarioError(f"position.turn.{field}: unknown units {bad}")
    return TurnRecord(
        spec.acts_used, spec.extra_acts, set(spec.moved), set(spec.attacked), spec.spells_used
    )
