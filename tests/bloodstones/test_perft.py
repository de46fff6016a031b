"""Perft-style regression counts: legal actions and 2-/3-ply action sequences from fixed positions.

The counts in perft.json were produced by the rules as they are; a change in any rule that
alters what is legal shows up here. On a mismatch the test prints the count per first action
(perft "divide"), so the difference can be traced to one action.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .perft import divide, perft, position

DATA = json.loads((Path(__file__).parent / "perft.json").read_text())


@pytest.mark.parametrize("entry", DATA, ids=[e["name"] for e in DATA])
def test_perft_counts(entry: dict[str, Any]) -> None:
    st = position(entry)
    for depth, expected in enumerate(entry["counts"], start=1):
        got = perft(st, depth)
        if got != expected:
            per_action = divide(st, depth)
            lines = "\n".join(f"  {a}: {n}" for a, n in sorted(per_action.items()))
            pytest.fail(f"{entry['name']}: depth {depth} gives {got}, expected {expected}\n{lines}")
