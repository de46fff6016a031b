"""Exported rule queries: what a spell's chance is, as pure functions of static information.

Spell cards (rulebook: Spells - Chance) decide by a die: "X > dN" passes when the number, X
blood paid, P Phantoms in the Realm or a fixed value, is at least the roll. The rules
(`spells.py`) and the heuristic policy both call these, so the policy never re-implements the
rule. This module imports nothing of the game (docs/architecture.md).
"""

from __future__ import annotations

__all__ = ["chance_number", "pass_probability", "passes"]


def chance_number(kind: str, value: int | None, x: int, phantoms: int) -> int:
    """The number a chance compares with its die: blood paid, Phantoms, or the card's value."""
    if kind == "blood":
        return x
    if kind == "phantoms":
        return phantoms
    return value or 0


def passes(number: int, roll: int) -> bool:
    """"N > dD" passes when N is at least the roll."""
    return number >= roll


def pass_probability(kind: str, die: int | None, value: int | None, x: int, phantoms: int) -> float:
    """The chance that a spell passes: 1 for an 'always' card, else min(N, D) / D."""
    if kind == "always" or die is None:
        return 1.0
    n = chance_number(kind, value, x, phantoms)
    return sum(1 for roll in range(1, die + 1) if passes(n, roll)) / die
