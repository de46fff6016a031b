"""Exported rule queries: what a spell's chance is, as pure functions of static information.

Spell cards (rulebook: Spells - Chance) decide by a die: "X > dN" passes when the number, X
blood paid, P Phantoms in the Realm or a fixed value, is at least the roll. The rules
(`spells.py`) and the heuristic policy both call these, so the policy never re-implements the
rule. This module imports nothing of the game (docs/architecture.md).
"""

from __future__ import annotations

__all__ = ["chance_number", "pass_probability", "passes", "strict_chance"]


def chance_number(kind: str, value: int | None, x: int, phantoms: int) -> int:
    """The number a chance compares with its die: blood paid, Phantoms, or the card's value."""
    if kind == "blood":
        return x
    if kind == "phantoms":
        return phantoms
    return value or 0


def passes(number: int, roll: int, strict: bool = False) -> bool:
    """"N > dD" passes when N is at least the roll (Ruling 2), or, `strict` (the lab variant
    `blood_chance=greater` for blood-paid spells), only when N is greater than the roll."""
    return number > roll if strict else number >= roll


def strict_chance(kind: str, blood_chance: str) -> bool:
    """Whether a chance of this kind compares strictly under the game's `blood_chance` rule."""
    return kind == "blood" and blood_chance == "greater"


def pass_probability(kind: str, die: int | None, value: int | None, x: int, phantoms: int,
                     blood_chance: str = "at_least") -> float:
    """The chance that a spell passes: 1 for an 'always' card, else min(N, D) / D (or
    min(N - 1, D) / D for a blood-paid spell under `blood_chance=greater`)."""
    if kind == "always" or die is None:
        return 1.0
    n = chance_number(kind, value, x, phantoms)
    strict = strict_chance(kind, blood_chance)
    return sum(1 for roll in range(1, die + 1) if passes(n, roll, strict)) / die
