"""What the AI levels of each game are worth: measured Elo per level, shipped as data.

`bloodforge lab levels GAME` plays a ladder of agents (random, greedy and the search at a few
strengths), fits Bradley-Terry ratings with the random player anchored at Elo 0 and writes one
`<game>.json` here. The server reads these files so that the lobby can say what "level 7" means
in this game ("Elo ~640"), and a newcomer can compare the levels of different AIs on one scale.

*Why data and not code:* the numbers come from a lab run (its command, date and sample sizes are
inside the file) and change only when someone measures again; a level nobody measured and no
measured level brackets has no entry, so nothing shows an Elo that was not earned in games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

#: Where the shipped files live (package data: `agents/levels/*.json`).
LEVELS_DIR = Path(__file__).resolve().parent


class LevelEntry(BaseModel):
    """One level of one agent on the game's Elo scale (random = 0)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    level: int = Field(ge=1, le=10, description="the lobby's strength 1-10")
    seconds: float | None = Field(None, description="search time per decision (the search agent), else none")
    elo: int = Field(description="Bradley-Terry Elo, random player = 0")
    low: int = Field(description="lower end of the 95% interval")
    high: int = Field(description="upper end of the 95% interval")
    measured: bool = Field(description="played in the lab run (else interpolated between measured levels)")
    games: int = Field(ge=0, description="games this level played in the run (0 when interpolated)")
    pooled_with: list[int] = Field(default_factory=list, description=(
        "other measured levels of this AI the games could not tell apart from this one: they would have come out "
        "in reverse order, and a higher level is taken as not weaker (docs/lab.md), so they share one Elo"))

    @model_validator(mode="after")
    def _ordered(self) -> LevelEntry:
        if not self.low <= self.elo <= self.high:
            raise ValueError(f"level {self.level}: Elo {self.elo} outside its interval [{self.low}, {self.high}]")
        if self.measured != (self.games > 0):
            raise ValueError(f"level {self.level}: a measured level has games, an interpolated one none")
        return self


class PairRecord(BaseModel):
    """One rung pair of the ladder: the score of `a` against `b`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    a: str
    b: str
    games: int = Field(ge=1)
    score: float = Field(ge=0, description="a's wins, draws counting half")
    result: str | None = Field(None, description="the result document of another lab run these games come from "
                               "(`--include`); none: the levels run itself")


class SeatAdvantage(BaseModel):
    """What sitting in seat 1 is worth over seat 0 between two equal agents (two-player games)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    between: str = Field(description="the pairs this term is for, in words (e.g. two searching agents)")
    elo: int = Field(description="Elo of seat 1 over seat 0 (negative: seat 0 is favoured)")
    low: int
    high: int


class GameLevels(BaseModel):
    """A game's levels file (`agents/levels/<game>.json`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: str
    players: int = Field(ge=2, description="the table size the ladder was played at")
    scale: Literal["bradley-terry-elo"] = "bradley-terry-elo"
    anchor: Literal["random"] = Field("random", description="the agent whose Elo is 0 by definition")
    interval: str = Field(description="how the intervals were computed, in words")
    interpolation: str = Field(description="how unmeasured levels were filled in, in words")
    command: str = Field(description="the command that reproduces the run")
    date: str = Field(description="the day of the run (UTC, YYYY-MM-DD)")
    seed: int
    games: int = Field(ge=1, description="games in the fit: the run's and those included from other runs")
    result: str = Field(description="the lab's result document of the run (path in the repository)")
    pairs: list[PairRecord]
    agents: dict[str, list[LevelEntry]] = Field(
        description="agent name -> its levels (only measured levels and those between two measured ones)")
    model: str | None = Field(None, description="how the Elo were fitted, in words (none: the plain Bradley-Terry "
                              "of the files before the seat term)")
    seats: list[SeatAdvantage] = Field(default_factory=list, description=(
        "the fit's seat terms with their 95% intervals (two players; none in files before the seat term)"))
    search: dict[str, Any] | None = Field(None, description=(
        "the settings the search's levels played with (the game's `search_options()` at the run, with any option "
        "the ladder's search rungs gave themselves); the search's Elo hold only while the game's settings are "
        "these (`for_play`). None: the file names no settings (no search rung, or written before the field)"))

    @model_validator(mode="after")
    def _levels_unique(self) -> GameLevels:
        for agent, entries in self.agents.items():
            levels = [e.level for e in entries]
            if len(set(levels)) != len(levels) or levels != sorted(levels):
                raise ValueError(f"{agent}: levels must be distinct and in order, got {levels}")
        return self

    def entry(self, agent: str, level: int) -> LevelEntry | None:
        return next((e for e in self.agents.get(agent, []) if e.level == level), None)


#: The agent whose levels the `search` settings describe (the lobby's "AI (search)").
SEARCH_AGENT = "mcts"


def for_play(levels: GameLevels | None, search_options: dict[str, Any]) -> GameLevels | None:
    """The levels as a table of this game plays them today: the search's levels are dropped when
    the file says they were measured with other settings than the game's `search_options()` now.

    *Why:* a level's Elo is the Elo of the agent that played the ladder. When a game's search
    settings change (Kingdoms' `rollout_turns`, 2026-11-27), the lobby's "Level 7" is another
    player than the one measured; showing the old number would be a claim no games back, so the
    search's levels show no Elo until a lab run measures the new settings. Greedy's and random's
    levels do not depend on these settings and stay."""
    if levels is None or levels.search is None or levels.search == search_options:
        return levels
    agents = {name: entries for name, entries in levels.agents.items() if name != SEARCH_AGENT}
    return levels.model_copy(update={"agents": agents})


def levels_path(game_id: str, directory: Path | None = None) -> Path:
    return (directory or LEVELS_DIR) / f"{game_id}.json"


def load_levels(game_id: str, directory: Path | None = None) -> GameLevels | None:
    """The game's shipped levels, or None when nobody measured them. A file that does not
    validate is an error naming it (a broken data file must not silently hide the levels)."""
    path = levels_path(game_id, directory)
    if not path.is_file():
        return None
    try:
        levels = GameLevels.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as err:
        raise ValueError(f"{path}: not a valid levels file: {err}") from None
    if levels.game != game_id:
        raise ValueError(f"{path}: holds the levels of {levels.game!r}, not {game_id!r}")
    return levels


__all__ = ["LEVELS_DIR", "SEARCH_AGENT", "GameLevels", "LevelEntry", "PairRecord", "SeatAdvantage", "for_play",
           "levels_path", "load_levels"]
