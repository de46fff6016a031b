"""Variants of a designer's data file: a copy with some numbers changed, by JSON path.

A path is dot-separated keys and `[i]` list indices, and `[key=value]` picks the list element
whose `key` equals `value` (data files list cards and units by id, and an id survives edits to
the list's order where an index does not): `spells[id=manipulate].chance.die`. A path that does
not lead to an existing value is an error naming the file, the path and the step that failed:
a sweep over a misspelt field would otherwise silently measure nothing.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path
from typing import Any

_STEP = re.compile(r"([^.\[\]]+)|\[([^\]]+)\]")


class DataPathError(ValueError):
    """A JSON path that does not name a value of the data file."""


def parse_path(path: str) -> list[str | int | tuple[str, str]]:
    steps: list[str | int | tuple[str, str]] = []
    pos = 0
    text = path.strip()
    while pos < len(text):
        if text[pos] == ".":
            pos += 1
            continue
        m = _STEP.match(text, pos)
        if m is None:
            raise DataPathError(f"path {path!r}: cannot read at {text[pos:]!r}")
        key, bracket = m.group(1), m.group(2)
        if key is not None:
            steps.append(key)
        elif "=" in bracket:
            k, v = bracket.split("=", 1)
            steps.append((k.strip(), v.strip()))
        elif bracket.strip().lstrip("-").isdigit():
            steps.append(int(bracket))
        else:
            raise DataPathError(f"path {path!r}: [{bracket}] is neither an index nor key=value")
        pos = m.end()
    if not steps:
        raise DataPathError(f"path {path!r} is empty")
    return steps


def set_path(data: Any, path: str, value: Any, source: str = "data") -> Any:
    """A copy of `data` with the value at `path` replaced by `value`."""
    out = copy.deepcopy(data)
    steps = parse_path(path)
    node = out
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        where = f"{source}: path {path!r}, step {i + 1}"
        if isinstance(step, tuple):
            if not isinstance(node, list):
                raise DataPathError(f"{where}: [{step[0]}={step[1]}] needs a list, found {type(node).__name__}")
            matches = [j for j, item in enumerate(node) if isinstance(item, dict) and str(item.get(step[0])) == step[1]]
            if len(matches) != 1:
                raise DataPathError(f"{where}: {len(matches)} elements have {step[0]}={step[1]}")
            key: str | int = matches[0]
        elif isinstance(step, int):
            if not isinstance(node, list) or not -len(node) <= step < len(node):
                raise DataPathError(f"{where}: no list element [{step}]")
            key = step
        else:
            if not isinstance(node, dict) or step not in node:
                known = ", ".join(sorted(node)) if isinstance(node, dict) else type(node).__name__
                raise DataPathError(f"{where}: no field {step!r} (there: {known})")
            key = step
        if last:
            node[key] = value
        else:
            node = node[key]
    return out


def write_variant(base: Path, changes: dict[str, Any], out_dir: Path) -> Path:
    """Write a copy of `base` with `changes` (path -> value) into `out_dir`; the file name
    carries a hash of the changes, so the same variant is written once and named stably."""
    try:
        data = json.loads(base.read_text(encoding="utf-8"))
    except OSError as err:
        raise DataPathError(f"{base}: cannot read ({err.strerror or err})") from None
    except json.JSONDecodeError as err:
        raise DataPathError(f"{base}: not JSON ({err})") from None
    for path, value in changes.items():
        data = set_path(data, path, value, str(base))
    tag = hashlib.sha256(json.dumps(changes, sort_keys=True).encode()).hexdigest()[:10]
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{base.stem}-{tag}{base.suffix}"
    target.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    return target.resolve()
