"""Parameters of Blood Stone. Defaults are the rulebook as ruled in docs/games/witch.md."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bloodforge.core.game import GameParams, data_file_field


class WitchParams(GameParams):
    players: int = 2
    content: str | None = data_file_field(
        "Path to a content file (board, unit cards, spells); default: the packaged house content."
    )
    blood_spells_per_turn: int = Field(
        default=2,
        ge=1,
        le=3,
        description="Blood Spells the Witch may use per turn. The rulebook says both 'once' "
        "and 'TWO'; the ruling is 2 (see Rulings), 1 plays the other reading.",
    )
    blood_payment_cap: int | None = Field(
        default=None,
        ge=1,
        description="Variant (lab study): the most blood X the Witch may pay for one spell; "
        "default: the die's size (Ruling 3), so X = die is a certain success.",
    )
    blood_chance: Literal["at_least", "greater"] = Field(
        default="at_least",
        description="Variant (lab study): 'at_least' passes X > dN when X >= the roll (Ruling 2, the "
        "worked example); 'greater' when X > the roll (the symbol), so no payment is certain.",
    )
    max_turns: int = Field(
        default=100,
        ge=2,
        le=10_000,
        description="House rule: after this many turns (both sides' turns counted) "
        "the game is a draw.",
    )
    setup: Literal["place", "preset"] = Field(
        default="place",
        description="'place': each player places their pieces on their start tiles (rulebook); "
        "'preset': the content file's suggested layout.",
    )
