"""Unit and mercenary-card statistics: the shapes static_info carries and battle queries read.

They live with the exported queries (the greedy policy rebuilds them from static_info), and the
content loader validates the data files against them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ID = r"^[a-z][a-z0-9_]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitData(_Strict):
    name: str
    cls: Literal["land", "air", "sea", "common"]
    cost: int = Field(ge=0)
    attack: int = Field(ge=0, le=6)
    defence: int = Field(ge=0, le=6)
    move: int = Field(ge=0, le=8)
    supply: int = Field(ge=0)
    pool: int = Field(ge=0)


class CardData(_Strict):
    id: str = Field(pattern=ID)
    name: str
    copies: int = Field(ge=1, le=20)
    timing: Literal["battle", "instant"]
    text: str
    attacker_only: bool = False
    add_infantry: int = Field(default=0, ge=0, le=6)
    add_cavalry: int = Field(default=0, ge=0, le=6)
    first_round_bonus: int = Field(default=0, ge=0, le=3)
    silence_fortifications: bool = False
    ignore_first_hits: int = Field(default=0, ge=0, le=6)
    mage_dice: int = Field(default=0, ge=0, le=6)
    mage_value: int = Field(default=0, ge=0, le=6)
    crowns: int = Field(default=0, ge=0)
    deserters: int = Field(default=0, ge=0, le=3)
    spies: bool = False
