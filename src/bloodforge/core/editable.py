"""A game's editable content: its data files as JSON, checked by the game's own models.

*Why in core:* the designer's workbench (lab, server) edits any game's numbers without knowing
the game; each game that designers edit says here how its packaged data files are read, checked
and written back (`Game.editable_content()`), so nothing outside the game names its files.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, create_model

from .datafile import read_structured


@dataclass(frozen=True)
class ContentSource:
    """How one game's content is read, checked and written.

    `model` is a pydantic model whose fields are the game's data files (each validated by the
    engine's own model of that file); `base()` reads the packaged files; `write(content, dir)`
    writes them into `dir` and returns the game parameters that make the game load them.
    """

    game: str
    model: type[BaseModel]
    base: Callable[[], dict[str, Any]]
    write: Callable[[dict[str, Any], Path], dict[str, str]]

    def files(self) -> list[str]:
        return list(self.model.model_fields)

    def schemas(self) -> dict[str, Any]:
        """The JSON Schema of each data file (with the definitions it refers to)."""
        whole = self.model.model_json_schema()
        defs = whole.get("$defs", {})
        return {name: {**whole["properties"][name], "$defs": defs} for name in self.files()}


def dump_json(path: Path, data: Any) -> None:
    """Write a data file whole or not at all (a reader never meets half a file)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def files_source(game: str, files: dict[str, tuple[type[BaseModel], Path, str]]) -> ContentSource:
    """The usual shape: each data file `name -> (its model, its packaged path, the game
    parameter that names a designer's copy)`. The content is one JSON value per file, checked
    by the file's own model; writing puts `name.json` in the folder and names it in the game
    parameter, the same route a designer's copy given on the command line takes."""
    fields: dict[str, Any] = {name: (model, ...) for name, (model, _, _) in files.items()}
    whole = create_model(f"{game.capitalize()}Content", **fields)

    def base() -> dict[str, Any]:
        return {name: read_structured(path) for name, (_, path, _) in files.items()}

    def write(content: dict[str, Any], folder: Path) -> dict[str, str]:
        params: dict[str, str] = {}
        for name, (_, _, param) in files.items():
            path = folder / f"{name}.json"
            dump_json(path, content[name])
            params[param] = str(path)
        return params

    return ContentSource(game, whole, base, write)
