"""The rule queries the arena exports to agents (the policy may import only this module): the
hex geometry every decision needs, as pure functions of hex ids and coordinates.

Hex ids are the words action texts use (`"0,-1"`); anything off the arena map is a wall.
"""

from __future__ import annotations

import re
from functools import lru_cache

Hex = tuple[int, int]

#: The six axial directions, in the fixed order every canonical ordering uses.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

_HEX_RE = re.compile(r"^(-?\d+),(-?\d+)$")


def hex_id(h: Hex) -> str:
    """`"q,r"`, kept per hex (the rules write the same few dozen ids into log lines, routes
    and actions all game: the format was ~1 % of a solo playout; issue 23)."""
    text = _IDS.get(h)
    if text is None:
        text = f"{h[0]},{h[1]}"
        if len(_IDS) > 4096:
            _IDS.clear()
        _IDS[h] = text
    return text


_IDS: dict[Hex, str] = {}


def parse_hex(text: str) -> Hex | None:
    """`"q,r"` to a hex, or None when the word is not a hex id (remembered: the rules read
    the same few dozen ids back from action texts all game)."""
    if text in _PARSED:
        return _PARSED[text]
    m = _HEX_RE.match(text.strip())
    h = None if m is None else (int(m.group(1)), int(m.group(2)))
    if len(_PARSED) > 4096:
        _PARSED.clear()
    _PARSED[text] = h
    return h


_PARSED: dict[str, Hex | None] = {}


@lru_cache(maxsize=65536)
def distance(a: Hex, b: Hex) -> int:
    """Hex distance in axial coordinates (spec §2.1): what Range and Movement count."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]
