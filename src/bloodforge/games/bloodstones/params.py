"""Bloodstones parameters: who plays which faction, on which map, with which options."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from bloodforge.core.game import GameParams, data_file_field

#: Rulebook recommendations: Corsairs only with three or more players, the Chaos Horde only
#: with four or more (setup, "Choose factions", and both faction notes).
MIN_PLAYERS_FOR_FACTION = {"corsairs": 3, "chaos_horde": 4}


class BloodstonesParams(GameParams):
    players: int = Field(ge=2, le=6, description="number of players (2-6)")
    factions: list[str] | None = Field(
        default=None,
        description="faction id per seat; omitted: drawn by the seed within the recommendations",
    )
    choose_factions: bool = Field(
        default=False, description="players choose factions in turn order from the first player"
    )
    map: Literal["map1", "grand"] | None = Field(
        default=None, description="'map1' (published) or 'grand'; omitted: map1 up to 4 players, else grand"
    )
    map_file: str | None = data_file_field("path to a designer's map file (instead of a built-in map)")
    cutiecorn: bool = Field(default=False, description="use the optional Cutiecorn rules")
    allow_unrecommended: bool = Field(
        default=False, description="allow factions or maps outside the rulebook's player-count recommendations"
    )
    faction_data: str | None = data_file_field("path to a designer's copy of factions.json")
    max_rounds: int | None = Field(
        default=100, ge=1, description="house safety cap: the end is triggered after this many rounds"
    )

    @model_validator(mode="after")
    def _factions_consistent(self) -> BloodstonesParams:
        if self.map is not None and self.map_file is not None:
            raise ValueError("give either map (a built-in map) or map_file (a file), not both")
        if self.factions is not None:
            if self.choose_factions:
                raise ValueError("give either factions or choose_factions, not both")
            if len(self.factions) != self.players:
                raise ValueError(f"factions lists {len(self.factions)} factions for {self.players} players")
            if len(set(self.factions)) != len(self.factions):
                raise ValueError(f"each faction can be played by one player only: {self.factions}")
            if not self.allow_unrecommended:
                for f in self.factions:
                    need = MIN_PLAYERS_FOR_FACTION.get(f, 2)
                    if self.players < need:
                        raise ValueError(
                            f"the rulebook recommends {f} only with {need} or more players "
                            "(set allow_unrecommended=true to play it anyway)"
                        )
        return self
