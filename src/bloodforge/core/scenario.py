"""The scenario envelope shared by all games: a position plus what chance will do.

The envelope (game, params, seed, position, rig) is checked here; the `position` and `rig`
contents are checked by the game, which knows what they mean.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .datafile import read_structured
from .errors import DataFileError, ScenarioError, format_validation_error


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    params: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    description: str = ""
    position: dict[str, Any] = Field(default_factory=dict)
    rig: dict[str, Any] | None = None


def read_scenario(source: str | Path | Mapping[str, Any]) -> Scenario:
    if isinstance(source, Mapping):
        data: Any = dict(source)
        label = "scenario"
    else:
        label = str(source)
        try:
            data = read_structured(source)
        except DataFileError as err:
            raise ScenarioError(str(err)) from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{label}: a scenario must be a mapping with game, params, position")
    try:
        return Scenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(format_validation_error(err, label)) from None
