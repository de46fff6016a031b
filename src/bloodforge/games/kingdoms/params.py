"""Parameters of Kingdoms of Blood; defaults are the rulebook as ruled in docs/games/kingdoms.md."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bloodforge.core.game import GameParams, data_file_field


class KingdomsParams(GameParams):
    players: int = Field(default=4, ge=2, le=4)
    teams: bool = Field(
        default=False,
        description="Four-faction games only (4 players, or any `seating`): play as two teams "
        "(Elves+Dwarves v Humans+Undead), 9 gems combined "
        "win (L229). 2 and 3 players always play teams (L231-233).",
    )
    team_vision: bool = Field(default=True, description="Seats see their team-mates' pieces face up.")
    team_hold_round: bool = Field(
        default=False, description="Variant: a team must also hold its 9 gems for an entire round (A38)."
    )
    fog: bool = Field(default=True, description="Fog of war (L113); false shows every piece.")
    first: Literal["random", "elves", "humans", "dwarves", "undead"] = Field(
        default="random", description="The faction that takes the first turn (house rule: drawn by the seed)."
    )
    seating: str = Field(
        default="", max_length=80, pattern=r"^[a-z+/ ]*$",
        description="Who plays which factions in a four-faction game (rulebook line 10: one player may run "
        "several factions), one seat after another separated by '/', e.g. 'elves+dwarves/humans/undead' for 3 "
        "players. The four-faction rules apply: free for all, or two teams with `teams`. Empty: the "
        "rulebook's seating for the number of players (2 and 3 players play teams).",
    )
    max_rounds: int = Field(
        default=45, ge=1, le=1000,
        description="House cap (A40): after this many rounds the most gems wins, then income, else shared. "
        "45: in 200 greedy 4-player games 96% then end by the rules' 7-gem hold (30 rounds: 63%).",
    )
    map: str | None = data_file_field("Map data file; default: the packaged house map.")
    units: str | None = data_file_field("Unit chart, pools and starting units; default: packaged.")
    mercenaries: str | None = data_file_field("Mercenary deck; default: the packaged house deck.")
