"""Request and response bodies of the JSON API (per resource: Create, Public, ...)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bloodforge.agents.levels import GameLevels

MAX_SEED = 2**63 - 1
#: Parameters one table may set (every game has far fewer; more is refused before validation).
MAX_PARAMS = 64


def _unencodable(value: Any, path: str = "body") -> str | None:
    """Where `value` holds text UTF-8 cannot store (lone surrogates from JSON escapes), if anywhere."""
    if isinstance(value, str):
        if value.isascii():
            return None
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _unencodable(key, path) or _unencodable(item, f"{path}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = _unencodable(item, f"{path}[{i}]")
            if found:
                return found
    return None


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _valid_text(cls, data: Any) -> Any:
        """Refuse text that could be neither stored nor sent back (clear 422, nothing changed),
        and objects with far more fields than the model has (one error, not one per field)."""
        if isinstance(data, dict) and len(data) > len(cls.model_fields) + 8:
            raise ValueError(f"{len(data)} fields; this object has at most {len(cls.model_fields)}")
        where = _unencodable(data)
        if where is not None:
            raise ValueError(f"{where} holds text that is not valid Unicode (a lone surrogate)")
        return data


class SeatCreate(_In):
    name: str = Field(default="", max_length=40, description="display name (escaped wherever shown)")
    kind: Literal["human", "agent"] = "human"
    agent: str | None = Field(default=None, max_length=40, description="agent name for AI seats: random, greedy, ...")
    strength: int | None = Field(default=None, ge=1, le=10, description="AI strength 1-10 (agents that support it)")


class TableCreate(_In):
    game: str | None = Field(default=None, max_length=40, description="game id; optional with a scenario")
    name: str = Field(default="", max_length=80)
    params: dict[str, Any] = Field(default_factory=dict, max_length=MAX_PARAMS,
                                   description="game parameters (see GET /api/games)")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED, description="omitted: a random seed")
    scenario: str | dict[str, Any] | None = Field(
        default=None, description="scenario as YAML/JSON text or an object; sets game, params and seed"
    )
    scenario_name: str | None = Field(
        default=None, max_length=120,
        description="the uploaded scenario's file name, for error messages only (the server opens no file)",
    )
    seats: list[SeatCreate] | None = Field(
        default=None, max_length=16, description="one per player; omitted: seat 0 human, the others greedy AI"
    )
    turn_clock: float | None = Field(
        default=None, ge=0.05, le=7 * 24 * 3600,
        description="seconds every human decision may take; when they run out the server records "
        "`timeout <seat>` and its AI plays that seat for the rest of the game (omitted: no clock)",
    )
    hints: bool = Field(
        default=False, description="human seats may ask what the strongest AI would play now and its "
        "estimated win chance (POST /api/tables/{id}/seats/{seat}/hint); off by default",
    )


class SeatPublic(BaseModel):
    seat: int
    name: str
    kind: str
    agent: str | None
    strength: int | None
    taken_over: bool = Field(default=False, description="a human seat whose turn clock ran out: the AI plays it now")
    claimed: bool = Field(
        default=False, description="a human seat whose link has been opened (claim-once); false: an open seat")


class TablePublic(BaseModel):
    id: str
    name: str
    game: str
    game_name: str
    params: dict[str, Any]
    players: int
    seats: list[SeatPublic]
    status: str
    ply: int
    to_move: int | None
    actors: list[int] = Field(description="every seat that may act now (several during simultaneous commitments)")
    turn_clock: float | None = Field(description="seconds per human decision, if the table has a clock")
    hints: bool = Field(default=False, description="human seats may ask for a hint (the table's option)")
    deadlines: dict[str, int] = Field(description="running clocks: seat -> deadline in unix milliseconds")
    created_at: datetime
    updated_at: datetime
    result: dict[str, Any] | None
    from_scenario: bool
    seed: int | None = Field(description="revealed once the game is over (it would reveal hidden tiles)")


class SeatLink(BaseModel):
    seat: int
    name: str
    token: str
    url: str


class TableCreated(BaseModel):
    table: TablePublic
    links: list[SeatLink]
    spectator_url: str
    host_token: str | None = Field(
        default=None, description="the creator's secret for POST /api/tables/{id}/seats/{seat}/invite (new links)")


class SeatClaimed(BaseModel):
    seat: int
    token: str = Field(description="this browser's own credential for the seat (the link's token is spent)")


class ActionSubmit(_In):
    seat: int = Field(ge=0, le=64)
    action: str = Field(min_length=1, max_length=200)
    version: int = Field(ge=0, description="the table version the client saw; refused if stale")


class ActionAccepted(BaseModel):
    version: int
    action: str


class GameDescription(BaseModel):
    id: str
    name: str
    summary: str
    min_players: int
    max_players: int
    version: int
    parameters: dict[str, Any]
    grammar: list[dict[str, Any]]
    agents: list[str]
    levels: GameLevels | None = Field(
        default=None, description="what the AI levels are worth here: Elo measured in the lab, random player = 0 "
        "(docs/lab.md, \"Strength levels\"); none when nobody measured this game")


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorBody


class HistoryEntry(BaseModel):
    ply: int
    seat: int | None = Field(description="the seat that acted; null: the game's own step or the server's timeout")
    action: str | None = Field(description="hidden (null) for other seats' actions while the game runs")


class Health(BaseModel):
    status: Literal["ok"]
    tables: int
    live_tables: int
