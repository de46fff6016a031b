"""Scenario positions for Kingdoms of Blood (tests, tutorials, worked examples).

A position lists what differs from an empty board: owners, castles/ports, pieces, treasuries,
cards, whose turn and phase it is. A rig fixes chance: `dice` (d6 results used first) and
`draws` (mercenary cards drawn first). Every mistake names the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bloodforge.core import Game, ScenarioError

from . import rules
from .content import FACTIONS, UNIT_TYPES
from .model import RESERVE, KBase

PHASES = ("purchase", "combat_move", "combat", "noncombat", "place")


def _space(s: KBase, word: str, field: str) -> int:
    try:
        return s.content.index[str(word)]
    except KeyError:
        raise ScenarioError(f"scenario {field}: unknown space {word!r}") from None


def _faction(word: str, field: str) -> int:
    if word not in FACTIONS:
        raise ScenarioError(f"scenario {field}: unknown faction {word!r}; known: {FACTIONS}")
    return FACTIONS.index(word)


def build(game: Game, s: KBase, position: Mapping[str, Any], rig: Mapping[str, Any] | None) -> KBase:
    """Start from the standard setup (`start: setup`, default) or an empty map (`start: empty`)."""
    known = {"start", "owner", "castles", "ports", "pieces", "treasury", "hands", "active", "phase", "round",
             "clear_units"}
    bad = sorted(set(position) - known)
    if bad:
        raise ScenarioError(f"scenario position: unknown field(s) {bad}; known: {sorted(known)}")
    active = _faction(str(position.get("active", "elves")), "position.active")
    start = position.get("start", "setup")
    if start not in ("setup", "empty"):
        raise ScenarioError("scenario position.start: 'setup' or 'empty'")
    rules.setup(s, active)
    if start == "empty" or position.get("clear_units", False):
        s.pieces = {}
    if start == "empty":
        s.owner = [-1] * len(s.owner)
        s.castle = [False] * len(s.castle)
    for word, f in dict(position.get("owner", {})).items():
        owner = -1 if f in (None, "neutral") else _faction(str(f), "position.owner")
        s.owner[_space(s, word, "position.owner")] = owner
    for word in position.get("castles", []):
        s.castle[_space(s, word, "position.castles")] = True
    for word in position.get("ports", []):
        t = _space(s, word, "position.ports")
        if s.content.is_sea[t]:
            raise ScenarioError(f"scenario position.ports: {word} is a sea zone")
        s.port[t] = True
    for i, row in enumerate(position.get("pieces", [])):
        field = f"position.pieces[{i}]"
        if not isinstance(row, Mapping):
            raise ScenarioError(f"scenario {field}: a mapping with faction, kind, at, count")
        bad = sorted(set(row) - {"faction", "kind", "at", "count", "aboard"})
        if bad:
            raise ScenarioError(f"scenario {field}: unknown field(s) {bad}; known: faction, kind, at, count, aboard")
        f = _faction(str(row.get("faction")), field + ".faction")
        kind = str(row.get("kind"))
        if kind not in UNIT_TYPES:
            raise ScenarioError(f"scenario {field}.kind: {kind!r} is not a unit type {UNIT_TYPES}")
        at = RESERVE if row.get("at") == "reserve" else _space(s, str(row.get("at")), field + ".at")
        if kind in ("castle", "port") and at != RESERVE:
            raise ScenarioError(f"scenario {field}.at: a {kind} piece is only 'reserve' (use castles/ports)")
        ship = None
        for _ in range(int(row.get("count", 1))):
            p = rules.add_piece(s, f, kind, at)
            if row.get("aboard"):
                ship = ship or next((q for q in s.pieces.values()
                                     if q.at == at and q.kind == "ship" and q.faction == f), None)
                if ship is None:
                    raise ScenarioError(f"scenario {field}.aboard: no ship of {FACTIONS[f]} at {row.get('at')}")
                p.aboard = ship.id
    for word, n in dict(position.get("treasury", {})).items():
        s.treasury[_faction(word, "position.treasury")] = int(n)
    for word, cards in dict(position.get("hands", {})).items():
        f = _faction(word, "position.hands")
        for cid in cards:
            if cid not in s.pile:
                raise ScenarioError(f"scenario position.hands.{word}: no card {cid!r} left in the deck")
            s.pile.remove(cid)
            s.hands[f].append(cid)
        s.hands[f].sort()
    s.round = int(position.get("round", 1))
    rules.start_turn(s)
    phase = position.get("phase", "purchase")
    if phase not in PHASES:
        raise ScenarioError(f"scenario position.phase: {phase!r} is not one of {PHASES}")
    s.phase = phase
    if rig:
        bad = sorted(set(rig) - {"dice", "draws"})
        if bad:
            raise ScenarioError(f"scenario rig: unknown field(s) {bad}; known: dice, draws")
        s.dice = [int(d) for d in rig.get("dice", [])]
        if any(not 1 <= d <= 6 for d in s.dice):
            raise ScenarioError("scenario rig.dice: every die is 1-6")
        s.draws = [str(c) for c in rig.get("draws", [])]
    rules.update_knowledge(s)
    del game
    return s
