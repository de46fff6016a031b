"""Parameters of BLOODSTONE arena (spec §3.9). Defaults: Free-For-All against Mal'varra."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from bloodforge.core.game import GameParams, data_file_field

CHAMPION_ORDER = ("vhrak", "ulwazi", "lienne", "cynwrig", "calvio", "maere")


class ArenaParams(GameParams):
    players: int = Field(default=2, ge=1, le=6, description="Human seats, each playing one Champion.")
    mode: Literal["ffa", "team"] = Field(
        default="ffa", description="'ffa': last combatant standing wins (R-MODE-1); 'team': last team (R-MODE-4)."
    )
    champions: list[str] | None = Field(
        default=None, description="Champion of each seat; default: Vhrak, Ulwazi, Lienne, Cynwrig, Calvio, Maere."
    )
    boss: str | None = Field(default="malvarra", description="Boss id, or null for no Boss (R-REC-2).")
    bosses: list[str] | None = Field(
        default=None,
        description="Several Bosses in one match (R-REC-2, A60), in place of `boss`; each brings its signature "
        "Environmental and its own decks; [] plays without a Boss.",
    )
    rivals: list[str] = Field(
        default_factory=list,
        description="Champions played as automated Rivals (R-NPC-9). Left out: one Rival when playing solo "
        "(the rulebook asks for one, R-MODE-7), none otherwise; 'none' plays solo without a Rival (a variant).",
        json_schema_extra={"default": None},
    )
    teams: list[int] | None = Field(
        default=None,
        description="Team mode: the team of each seat, then of each Rival; default alternates 0, 1.",
    )
    boss_team: int | None = Field(
        default=None, description="Team mode: a team for the Boss (every Boss); else each Boss is its own side."
    )
    environmental: str | None = Field(
        default=None, description="Environmental id; default: the Boss's signature one (R-REC-1), else none."
    )
    skirmish_from: str = Field(default="A", pattern=r"^[A-G]$", description="Skirmish deck = 12 letters from here.")
    max_rounds: int = Field(
        default=30, ge=1, le=1000,
        description="House limit for AI play: after this many rounds the match ends (see Rulings).",
    )
    supply_limits: bool = Field(default=True, description="Gaining a die the supply lacks does nothing (A13).")
    content: str | None = data_file_field(
        "Folder with a designer's copy of any content file (champions.json, bosses.json, ...)."
    )
    arena: str | None = data_file_field("An arena map file (hexes or radius, central zone, starts).")

    @model_validator(mode="before")
    @classmethod
    def _solo_rival(cls, data: Any) -> Any:
        """R-MODE-7 (issue 20 item 9): the default solo match includes a Rival, the first
        Champion nobody plays; `rivals: []` or ["none"] is the variant without one."""
        if not isinstance(data, dict):
            return data
        rivals = data.get("rivals")
        if rivals is None and int(data.get("players", 2)) == 1:
            taken = set(data.get("champions") or [])
            if not taken:
                taken = {CHAMPION_ORDER[0]}
            data = {**data, "rivals": [next(c for c in CHAMPION_ORDER if c not in taken)]}
        elif isinstance(rivals, list) and [str(r).lower() for r in rivals] == ["none"]:
            data = {**data, "rivals": []}
        return data

    @model_validator(mode="after")
    def _lineup(self) -> ArenaParams:
        champs = self.seat_champions()
        everyone = [*champs, *self.rivals]
        if len(set(everyone)) != len(everyone):
            raise ValueError(f"each Champion plays at most once (A64): {everyone}")
        if len(champs) != self.players:
            raise ValueError(f"champions lists {len(champs)} Champions for {self.players} seats")
        if self.bosses is not None and "boss" in self.model_fields_set and self.boss is not None:
            raise ValueError("give `boss` (one Boss) or `bosses` (a list), not both")
        boss_ids = self.boss_ids()
        if len(set(boss_ids)) != len(boss_ids):
            raise ValueError(f"each Boss plays at most once (one board each): {boss_ids}")
        combatants = len(everyone) + len(boss_ids)
        if combatants < 2:
            raise ValueError("a match needs at least 2 combatants (A66); add a boss or rivals")
        if self.mode == "team":
            teams = self.team_list()
            if len(teams) != len(everyone):
                raise ValueError(f"teams needs one entry per seat and Rival ({len(everyone)}), has {len(teams)}")
            boss_sides = [self.boss_team if self.boss_team is not None else -1 - i for i in range(len(boss_ids))]
            sides = set(teams) | set(boss_sides)
            if len(sides) < 2:
                raise ValueError("a Team match needs at least 2 sides")
        return self

    def boss_ids(self) -> list[str]:
        """The Bosses of the match: `bosses` when given, else `boss` (R-REC-2: one, or none)."""
        if self.bosses is not None:
            return list(self.bosses)
        return [self.boss] if self.boss is not None else []

    def seat_champions(self) -> list[str]:
        if self.champions is not None:
            return list(self.champions)
        free = [c for c in CHAMPION_ORDER if c not in self.rivals]
        return free[: self.players]

    def team_list(self) -> list[int]:
        n = self.players + len(self.rivals)
        return list(self.teams) if self.teams is not None else [i % 2 for i in range(n)]
