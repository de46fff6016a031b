"""Learn to play: a guided first game per game, built on the scenario format (issue 18).

A game ships `games/<id>/tutorial/tutorial.yaml` (validated by `Tutorial`, extra keys refused)
beside the scenario it starts from. The lobby creates a table from that scenario with seat 0
human and every other seat an AI (`POST /api/tutorials/{game}`); the table page's coach panel
asks `GET /api/tables/{id}/tutorial` which step the player is on. Progress is read from the
table's own history (the seat's actions, in order), so it survives reloads and restarts and no
client state can disagree with the game. After the last step the game simply goes on: it is a
real game against the AI from the tutorial's position.

The server opens only the game package's own files here, never a path a client names: the
request carries a game id, and the folder is the one beside the game's registered module.
"""

from __future__ import annotations

import asyncio
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

import yaml
from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

import bloodforge
from bloodforge.core.errors import format_validation_error

from .api import ERRORS, Live, Manager, SeatQuery, Token, create_table
from .errors import ApiError
from .schemas import SeatCreate, TableCreate, TableCreated
from .tables import TableManager

#: The seat a tutorial's player takes; every other seat is an AI.
PLAYER_SEAT = 0
#: Where a highlight points: a board cell, a piece, an item of the hand, an action button.
HIGHLIGHT = re.compile(r"(cell|unit|hand|action):\S(.*\S)?")


class TutorialStep(BaseModel):
    """One thing to do: what and why (`text`), the rule it teaches (`rule`, citing the
    rulebook's section in words), the action that completes it and what to highlight."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=600, description="what to do and why, for a newcomer")
    rule: str = Field(default="", max_length=600, description="the rule in words: 'Rulebook, Movement: ...'")
    expect: str = Field(min_length=1, max_length=200, description="the action text (or a regex with pattern)")
    pattern: bool = Field(default=False, description="expect is a regular expression the action must fully match")
    highlight: list[str] = Field(
        default_factory=list, max_length=8,
        description="in click order: cell:<id>, unit:<id>, hand:<id>, action:<verb or action text>",
    )

    @field_validator("highlight")
    @classmethod
    def _targets(cls, value: list[str]) -> list[str]:
        bad = [h for h in value if not HIGHLIGHT.fullmatch(h)]
        if bad:
            raise ValueError(f"{bad[0]!r} is not cell:<id>, unit:<id>, hand:<id> or action:<text>")
        return value

    @model_validator(mode="after")
    def _pattern_compiles(self) -> TutorialStep:
        if self.pattern:
            try:
                re.compile(self.expect)
            except re.error as err:
                raise ValueError(f"expect {self.expect!r} is not a regular expression: {err}") from None
        return self

    def matches(self, action: str) -> bool:
        """Does the played action text complete this step?"""
        if self.pattern:
            return re.fullmatch(self.expect, action) is not None
        return action == self.expect


class Tutorial(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1, max_length=80)
    intro: str = Field(min_length=1, max_length=800, description="shown above the first step")
    scenario: str = Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.ya?ml$", description="a file in the same folder")
    steps: list[TutorialStep] = Field(min_length=1, max_length=12)
    outro: str = Field(min_length=1, max_length=800, description="shown after the last step: play on")


@dataclass(frozen=True)
class LoadedTutorial:
    game: str
    game_name: str
    tutorial: Tutorial
    #: the scenario mapping (game, params, seed, position, rig) the table is created from
    scenario: dict[str, Any]


@dataclass(frozen=True)
class Progress:
    step: int  # index of the step to do now; == len(steps) when every step is done
    off_script: str | None  # the player's last action that was not the step's, since the last step done


class TutorialError(ValueError):
    """A tutorial file that cannot be used (names the file and the reason)."""


@lru_cache(maxsize=64)
def game_folder(game_id: str) -> Path | None:
    """The folder of a registered game's package (`games/<id>/`), found from its module
    (cached: building a game to ask it reads its data files)."""
    info = next((g for g in bloodforge.list_games() if g["id"] == game_id), None)
    if info is None:
        return None
    game = bloodforge.load_game(game_id, players=info["min_players"])
    module = sys.modules.get(type(game).__module__)
    if module is None or not module.__file__:
        return None
    return Path(module.__file__).resolve().parent


def tutorial_games() -> list[str]:
    """Ids of the registered games that ship a tutorial, in the registry's order."""
    out = []
    for g in bloodforge.list_games():
        folder = game_folder(g["id"])
        if folder is not None and (folder / "tutorial" / "tutorial.yaml").is_file():
            out.append(str(g["id"]))
    return out


def read_tutorial(folder: Path) -> tuple[Tutorial, dict[str, Any]]:
    """A tutorial folder's `tutorial.yaml`, validated, and the scenario mapping it names."""
    path = folder / "tutorial.yaml"
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise TutorialError(f"{path}: {err}") from None
    try:
        tutorial = Tutorial.model_validate(raw)
    except ValidationError as err:
        raise TutorialError(format_validation_error(err, str(path))) from None
    scenario_path = folder / tutorial.scenario
    try:
        scenario = yaml.safe_load(scenario_path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise TutorialError(f"{scenario_path}: {err}") from None
    if not isinstance(scenario, dict):
        raise TutorialError(f"{scenario_path}: a scenario must be a mapping with game, params, position")
    return tutorial, scenario


@lru_cache(maxsize=16)
def load_tutorial(game_id: str) -> LoadedTutorial:
    """The tutorial of `game_id` (cached: files of the installed package do not change)."""
    info = next((g for g in bloodforge.list_games() if g["id"] == game_id), None)
    folder = game_folder(game_id)
    if info is None or folder is None or not (folder / "tutorial" / "tutorial.yaml").is_file():
        raise ApiError(404, "tutorial/not_found", f"no tutorial for game {game_id[:40]!r}")
    tutorial, scenario = read_tutorial(folder / "tutorial")
    if scenario.get("game") != game_id:
        raise TutorialError(f"{folder / 'tutorial' / tutorial.scenario}: the scenario is for {scenario.get('game')!r}")
    return LoadedTutorial(game=game_id, game_name=str(info["name"]), tutorial=tutorial, scenario=scenario)


def progress(tutorial: Tutorial, entries: list[tuple[int | None, str]], seat: int = PLAYER_SEAT) -> Progress:
    """Where the player is: the seat's actions are matched against the steps in order; an
    action that is not the next step's is remembered (the page says so) until a step is done."""
    step = 0
    off: str | None = None
    for who, text in entries:
        if who != seat or step >= len(tutorial.steps):
            continue
        if tutorial.steps[step].matches(text):
            step += 1
            off = None
        else:
            off = text
    return Progress(step=step, off_script=off)


# -- HTTP --------------------------------------------------------------------------------------
router = APIRouter(prefix="/api", responses=ERRORS)
GameId = Annotated[str, PathParam(max_length=40, pattern=r"^[a-z0-9_]+$", description="game id")]


class TutorialListed(BaseModel):
    game: str
    game_name: str
    title: str
    steps: int


class TutorialCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=40, description="the player's name (escaped wherever shown)")


@router.get("/tutorials", response_model=list[TutorialListed])
async def list_tutorials() -> list[TutorialListed]:
    """Every game with a guided first game ("Learn to play")."""
    def build() -> list[TutorialListed]:
        out = []
        for game_id in tutorial_games():
            t = load_tutorial(game_id)
            out.append(TutorialListed(game=game_id, game_name=t.game_name, title=t.tutorial.title,
                                      steps=len(t.tutorial.steps)))
        return out
    return await asyncio.to_thread(build)


@router.post("/tutorials/{game_id}", status_code=201, response_model=TableCreated)
async def create_tutorial(
    game_id: GameId, manager: Manager, request: Request, body: TutorialCreate | None = None,
) -> TableCreated:
    """A table from the game's tutorial scenario: seat 0 is you, every other seat the AI.
    Goes through the same creation (checks, limits, AI seats) as `POST /api/tables`."""
    loaded = await asyncio.to_thread(load_tutorial, game_id)
    players = bloodforge.load_scenario(loaded.scenario).game.num_players
    seats = [SeatCreate(kind="human", name=body.name if body else "")] + [
        SeatCreate(kind="agent", agent="greedy") for _ in range(players - 1)
    ]
    create = TableCreate(name=f"{loaded.game_name}: learn to play", scenario=dict(loaded.scenario), seats=seats)
    return await create_table(create, manager, request)


@router.get("/tables/{table_id}/tutorial")
async def table_tutorial(live: Live, token: Token, seat: SeatQuery = None) -> dict[str, Any]:
    """The tutorial of a table created from one (404 otherwise): its steps, and for the
    player's own seat (with its token) the step to do now, an action played off the guide and
    whether the step's action is possible now."""
    viewer = TableManager.authenticate(live, seat, token)
    loaded = await asyncio.to_thread(_tutorial_of, live.game.id, live.record.scenario)
    t = loaded.tutorial
    out: dict[str, Any] = {
        "game": loaded.game, "title": t.title, "intro": t.intro, "outro": t.outro,
        "seat": PLAYER_SEAT,
        "steps": [{"text": s.text, "rule": s.rule, "highlight": s.highlight,
                   "expect": None if s.pattern else s.expect} for s in t.steps],
        "step": None, "off_script": None, "possible": None,
    }
    if viewer != PLAYER_SEAT:
        return out
    # No table lock: an AI seat thinking holds it for seconds, and the coach must not wait. The
    # live state is replaced, never changed in place, so this one object is a consistent position.
    state = live.state
    entries = list(zip(state.history_seats, state.history, strict=True))
    now = progress(t, entries)
    possible = None
    if now.step < len(t.steps) and PLAYER_SEAT in state.actors():
        step = t.steps[now.step]
        possible = any(step.matches(str(a)) for a in state.legal_actions(PLAYER_SEAT))
    out.update(step=now.step, off_script=now.off_script, possible=possible)
    return out


def _tutorial_of(game_id: str, scenario: dict[str, Any] | None) -> LoadedTutorial:
    """The tutorial this table was created from: its stored scenario is the tutorial's."""
    if scenario is None or game_id not in tutorial_games():
        raise ApiError(404, "tutorial/not_found", "this table is not a tutorial")
    loaded = load_tutorial(game_id)
    if scenario != loaded.scenario:
        raise ApiError(404, "tutorial/not_found", "this table is not a tutorial")
    return loaded
