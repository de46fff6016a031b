"""A game's content as data: its data files as JSON, their JSON Schemas, and writing them back.

The workbench edits content, never paths: a client sends the content of every data file as
JSON, it is validated with the same pydantic models the engine loads the files with, and the
lab writes it into a private folder of its own to hand the game the file parameter it reads
(the same route as a `files:` variant of `lab run`). Each game that designers edit offers a
`ContentSource` (`Game.editable_content()`, core/editable.py); others have no editable content.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bloodforge.core import game_class, registered_ids
from bloodforge.core.editable import ContentSource


class ContentError(ValueError):
    """Content that the game's models refuse: `errors` lists each field path and reason."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        super().__init__("; ".join(f"{e['path'] or 'content'}: {e['message']}" for e in errors[:10]))
        self.errors = errors


def content_hash(content: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def validate_content(source: ContentSource, content: Any) -> dict[str, Any]:
    """The content as given (so a diff shows only what the designer changed) once the game's
    models accept it, or ContentError with every field path and reason."""
    if not isinstance(content, dict):
        raise ContentError([{"path": "", "message": "content must be an object of data files"}])
    try:
        source.model.model_validate(content)
    except ValidationError as err:
        raise ContentError([
            {"path": ".".join(str(x) for x in e.get("loc", ())), "message": str(e.get("msg", "invalid"))}
            for e in err.errors()
        ]) from None
    return copy.deepcopy(content)


def write_content(game: str, content: dict[str, Any], work_dir: Path) -> dict[str, str]:
    """Write `content` under `work_dir` (a folder named by its hash, so the same content is
    written once and games that cache loaded files by path never see two contents at one path)
    and return the file parameters that load it."""
    source = content_source(game)
    folder = work_dir / f"content-{content_hash(content)[:16]}"
    folder.mkdir(parents=True, exist_ok=True)
    return source.write(copy.deepcopy(content), folder.resolve())


_SOURCES: dict[str, ContentSource] = {}


def content_games() -> list[str]:
    """Games whose content the workbench can edit (those whose game class offers it)."""
    return [g for g in registered_ids() if game_class(g).editable_content() is not None]


def content_source(game: str) -> ContentSource:
    if game not in _SOURCES:
        source = game_class(game).editable_content() if game in registered_ids() else None
        if source is None:
            raise KeyError(f"game {game!r} has no editable content; games with content: "
                           f"{', '.join(content_games())}")
        _SOURCES[game] = source
    return _SOURCES[game]


# -- differences -------------------------------------------------------------------------------
def diff_content(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """Every changed value from `old` to `new` as {path, old, new}, with paths in the lab's
    JSON-path syntax (`units[id=soldier].hp`): list elements with an `id` are matched by it, so
    reordering a list is not a change of every element."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[dict[str, Any]] = []
        for key in list(old) + [k for k in new if k not in old]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in new:
                out.append({"path": sub, "old": old[key], "new": None})
            elif key not in old:
                out.append({"path": sub, "old": None, "new": new[key]})
            else:
                out += diff_content(old[key], new[key], sub)
        return out
    if isinstance(old, list) and isinstance(new, list):
        if _ids(old) is not None and _ids(new) is not None:
            old_by = {str(x["id"]): x for x in old}
            new_by = {str(x["id"]): x for x in new}
            out = []
            for key in list(old_by) + [k for k in new_by if k not in old_by]:
                sub = f"{path}[id={key}]"
                if key not in new_by:
                    out.append({"path": sub, "old": old_by[key], "new": None})
                elif key not in old_by:
                    out.append({"path": sub, "old": None, "new": new_by[key]})
                else:
                    out += diff_content(old_by[key], new_by[key], sub)
            return out
        if len(old) == len(new):
            out = []
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                out += diff_content(a, b, f"{path}[{i}]")
            return out
    return [] if old == new else [{"path": path, "old": old, "new": new}]


def _ids(items: list[Any]) -> list[str] | None:
    if not items or not all(isinstance(x, dict) and "id" in x for x in items):
        return None
    ids = [str(x["id"]) for x in items]
    return ids if len(set(ids)) == len(ids) else None
