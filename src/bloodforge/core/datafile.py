"""Loading content data files (factions, maps, cards) through pydantic models.

Designers edit these files by hand, so every failure names the file, the field path and the
reason, and nothing half-loaded escapes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from .errors import DataFileError, format_validation_error

M = TypeVar("M", bound=BaseModel)


def read_structured(path: str | Path) -> Any:
    """Parse a JSON or YAML file, with the file name in any error."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise DataFileError(f"{p}: cannot read ({err.strerror or err})") from None
    try:
        if p.suffix.lower() in {".yaml", ".yml"}:
            return yaml.safe_load(text)
        return json.loads(text)
    except (json.JSONDecodeError, yaml.YAMLError) as err:
        raise DataFileError(f"{p}: not valid {p.suffix.lstrip('.').upper() or 'JSON'}: {err}") from None


def load_model(model: type[M], source: str | Path | dict[str, Any], label: str | None = None) -> M:
    """Validate `source` (a path or an already-parsed dict) against `model`."""
    data = source if isinstance(source, dict) else read_structured(source)
    name = label or (str(source) if not isinstance(source, dict) else model.__name__)
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise DataFileError(format_validation_error(err, name)) from None
