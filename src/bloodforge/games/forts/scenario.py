"""Five Forts scenarios: a position on the map plus rigged dice and hero draws.

The format (documented in docs/games/forts.md, examples in `scenarios/*.yaml`): start from the
standard opening (`base: standard`) or an empty map (`base: empty`), then override
territories, currency, hands and the turn. Every refusal is a ScenarioError naming the field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bloodforge.core import Deck, Rng, ScenarioError
from bloodforge.core.errors import format_validation_error

from .model import ACTION, CAV_FRESH, EMPTY, INDEPENDENT, INF_FRESH, PLANNING, Model
from .rules import Config, forts_of
from .rules_setup import setup


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ArmyAt(_Strict):
    owner: int | Literal["independent", "none"]
    infantry: int = Field(default=0, ge=0, le=99)
    cavalry: int = Field(default=0, ge=0, le=99)


class PositionSpec(_Strict):
    base: Literal["standard", "empty"] = "standard"
    turn_seat: int = Field(default=0, ge=0)
    first_seat: int | None = Field(default=None, ge=0)
    round: int = Field(default=1, ge=1)
    turn_number: int | None = Field(default=None, ge=1)
    phase: Literal["planning", "action"] = "planning"
    territories: dict[str, ArmyAt] = Field(default_factory=dict)
    currency: list[int] | None = None
    hands: list[list[str]] | None = None
    held_since: list[int | None] | None = None
    chronicle: str | None = None


class RigSpec(_Strict):
    dice: list[int] = Field(default_factory=list)
    deck: list[str] = Field(default_factory=list)
    chronicles: list[str] = Field(default_factory=list)


def build_model(cfg: Config, rng: Rng, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> Model:
    try:
        pos = PositionSpec.model_validate(dict(position))
        rig_spec = RigSpec.model_validate(dict(rig or {}))
    except ValidationError as err:
        raise ScenarioError(format_validation_error(err, "scenario")) from None
    c = cfg.content
    n = cfg.players
    m = setup(cfg, rng)
    if pos.base == "empty":
        m.owner = [EMPTY] * c.size
        m.units = [[0] * 6 for _ in range(c.size)]
    for tid, army in pos.territories.items():
        if tid not in c.index:
            raise ScenarioError(f"scenario position.territories: unknown territory {tid!r}")
        t = c.index[tid]
        if army.owner == "none":
            if army.infantry or army.cavalry:
                raise ScenarioError(f"scenario position.territories.{tid}: owner none cannot have units")
            m.owner[t] = EMPTY
            m.units[t] = [0] * 6
            continue
        if not (army.infantry or army.cavalry):
            raise ScenarioError(f"scenario position.territories.{tid}: an army needs units (or owner: none)")
        if army.owner == "independent":
            owner = INDEPENDENT
        else:
            owner = int(army.owner)
            if not 0 <= owner < n:
                raise ScenarioError(
                    f"scenario position.territories.{tid}.owner: seat {owner} is not in a {n}-player game"
                )
        m.owner[t] = owner
        m.units[t] = [0] * 6
        m.units[t][INF_FRESH] = army.infantry
        m.units[t][CAV_FRESH] = army.cavalry
    if not pos.turn_seat < n:
        raise ScenarioError(f"scenario position.turn_seat: seat {pos.turn_seat} is not in a {n}-player game")
    m.turn_seat = pos.turn_seat
    if pos.first_seat is not None:
        if not pos.first_seat < n:
            raise ScenarioError(f"scenario position.first_seat: seat {pos.first_seat} is not in a {n}-player game")
        m.first_seat = pos.first_seat
    m.round = pos.round
    m.turn_number = pos.turn_number if pos.turn_number is not None else (pos.round - 1) * n + 1
    m.phase = PLANNING if pos.phase == "planning" else ACTION
    if pos.currency is not None:
        if len(pos.currency) != n or min(pos.currency) < 0:
            raise ScenarioError(f"scenario position.currency: needs {n} amounts of 0 or more")
        m.currency = list(pos.currency)
    deck = Counter(c.deck)
    if pos.hands is not None:
        if len(pos.hands) != n:
            raise ScenarioError(f"scenario position.hands: needs {n} hands")
        for s, hand in enumerate(pos.hands):
            for card in hand:
                if deck[card] <= 0:
                    raise ScenarioError(f"scenario position.hands[{s}]: no {card!r} left in the hero deck")
                deck[card] -= 1
            m.hands[s] = sorted(hand)
    for card in rig_spec.deck:
        if deck[card] <= 0:
            raise ScenarioError(f"scenario rig.deck: no {card!r} left in the hero deck")
        deck[card] -= 1
    m.deck = Deck.rigged(rig_spec.deck, deck.elements(), rng)
    for i, v in enumerate(rig_spec.dice):
        if not 1 <= v <= c.data.die_sides:
            raise ScenarioError(f"scenario rig.dice[{i}]: {v} is impossible on a d{c.data.die_sides}")
    m.dice.rigged = list(rig_spec.dice)
    if pos.chronicle is not None or rig_spec.chronicles:
        if not cfg.chronicles:
            raise ScenarioError("scenario: chronicle cards need the parameter chronicles: true")
        pile = Counter(c.chronicle_deck)
        for i, card in enumerate(([pos.chronicle] if pos.chronicle else []) + rig_spec.chronicles):
            if pile[card] <= 0:
                raise ScenarioError(f"scenario chronicle {i}: no {card!r} left in the chronicle deck")
            pile[card] -= 1
        m.chronicle = pos.chronicle
        m.chronicle_deck = Deck.rigged(rig_spec.chronicles, pile.elements(), rng)
    if pos.held_since is not None:
        if len(pos.held_since) != n:
            raise ScenarioError(f"scenario position.held_since: needs {n} entries")
        m.held_since = list(pos.held_since)
    else:
        m.held_since = [m.turn_number if forts_of(m, c, s) >= c.data.forts_to_win else None for s in range(n)]
    return m
