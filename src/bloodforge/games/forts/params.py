"""Parameters of Five Forts. Defaults are the rulebook as ruled in docs/games/forts.md."""

from __future__ import annotations

from pydantic import Field

from bloodforge.core.game import GameParams, data_file_field


class FortsParams(GameParams):
    players: int = Field(default=4, ge=2, le=4)
    content: str | None = data_file_field(
        "Path to a content file (map, hero deck, numbers); default: the packaged house content."
    )
    planning_seconds: int = Field(
        default=60,
        ge=0,
        le=3600,
        description="The planning clock (rulebook: one minute). The host runs it and records "
        "`timeout <seat>` when it runs out, which opens bribery; 0 = no clock.",
    )
    chronicles: bool = Field(
        default=False,
        description="The optional chronicle module (rulebook: named once, L115; house content): "
        "one round event drawn at the start of every round.",
    )
    max_rounds: int = Field(
        default=40,
        ge=1,
        le=1000,
        description="House cap: after this many rounds the player with most forts wins "
        "(then most army strength; else shared).",
    )
