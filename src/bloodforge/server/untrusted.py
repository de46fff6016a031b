"""Bounded parsing of data a client sends (scenario YAML/JSON, parameter objects).

*Why:* YAML anchors and aliases let a few hundred bytes describe a tree of billions of nodes
(an "alias bomb": ten lists of ten references to the list before, seven levels deep), which
building, validating or storing expands while holding the GIL, stopping every other request.
Deep nesting makes PyYAML's (and the game loaders') recursive code fail with RecursionError or
worse (libyaml's constructor crashes the process on very deep flow collections). So untrusted
YAML is first read as a stream of events, in which every node is counted before anything is
built: anchors and aliases are refused outright (a scenario never needs them), and so is a
tree deeper than `MAX_DEPTH`, with more than `MAX_NODES` nodes, or whose reading takes longer
than `PARSE_SECONDS` (a cooperative deadline, checked as the events stream in). Only a document
that passes is built, by the safe loader. Objects that arrive already parsed (JSON bodies) get
the same node and depth bounds, walked without recursion.

Callers run these in a worker thread, never on the event loop.
"""

from __future__ import annotations

import time
from typing import Any

import yaml

from .errors import ApiError

#: Nesting a scenario or parameter object may have (a real scenario nests 5-6 levels).
MAX_DEPTH = 32
#: Nodes (mappings, lists, scalars, keys included) in one document.
MAX_NODES = 50_000
#: Seconds the reading of one document may take before it is refused.
PARSE_SECONDS = 2.0

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(
    text: str, label: str, *, max_nodes: int = MAX_NODES, max_depth: int = MAX_DEPTH,
    seconds: float = PARSE_SECONDS,
) -> Any:
    """The document in `text`, built only after its events passed every bound; a clear 4xx
    (`scenario/invalid` 422, `scenario/too_large` 413) otherwise. `label` names the source."""
    deadline = time.monotonic() + seconds
    depth = nodes = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent) or (
                isinstance(event, yaml.NodeEvent) and getattr(event, "anchor", None) is not None
            ):
                raise ApiError(422, "scenario/invalid",
                               f"{label}: YAML anchors and aliases (& and *) are not accepted; write the data out")
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > max_depth:
                    raise ApiError(422, "scenario/invalid", f"{label}: nested deeper than {max_depth} levels")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            if isinstance(event, yaml.NodeEvent):
                nodes += 1
                if nodes > max_nodes:
                    raise ApiError(413, "scenario/too_large", f"{label}: more than {max_nodes} values")
                if nodes % 1024 == 0 and time.monotonic() > deadline:
                    raise ApiError(413, "scenario/too_large", f"{label}: took over {seconds:g} s to read")
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as err:
        raise ApiError(422, "scenario/invalid", f"{label} is not valid YAML or JSON: {_short(str(err))}") from None


def check_shape(value: Any, label: str, *, code: str = "scenario/invalid", max_nodes: int = MAX_NODES,
                max_depth: int = MAX_DEPTH) -> None:
    """Refuse an already parsed object (a JSON body's scenario or parameters) that nests deeper
    than `max_depth` or has more than `max_nodes` nodes; walked with a stack, never recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise ApiError(413, "scenario/too_large" if code.startswith("scenario") else "request/too_large",
                           f"{label}: more than {max_nodes} values")
        if isinstance(item, dict | list):
            if depth > max_depth:
                raise ApiError(422, code, f"{label}: nested deeper than {max_depth} levels")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
            if isinstance(item, dict):
                nodes += len(item)  # keys count too


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
