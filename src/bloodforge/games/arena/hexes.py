"""Hex geometry in axial coordinates (spec §2.1): ids, neighbours, distances.

Hex ids are the words action texts use (`"0,-1"`), so parsing and printing live here and
nowhere else. Anything off the arena map is a wall (R-MOV-3).
"""

from __future__ import annotations

import re
from functools import lru_cache

Hex = tuple[int, int]

#: The six axial directions, in the fixed order every canonical ordering uses.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

_HEX_RE = re.compile(r"^(-?\d+),(-?\d+)$")


def hex_id(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def parse_hex(text: str) -> Hex | None:
    """`"q,r"` to a hex, or None when the word is not a hex id."""
    m = _HEX_RE.match(text.strip())
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2))


def canonical_hex(text: str) -> str:
    """Normalise spelling (`"+01,-0"` is not accepted; `"01,-02"` becomes `"1,-2"`)."""
    h = parse_hex(text)
    return text if h is None else hex_id(h)


@lru_cache(maxsize=65536)
def distance(a: Hex, b: Hex) -> int:
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def hexagon(radius: int, centre: Hex = (0, 0)) -> list[Hex]:
    """Every hex within `radius` of `centre`, sorted by (q, r)."""
    out = []
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
            out.append((centre[0] + q, centre[1] + r))
    return sorted(out)


def rotate(h: Hex, pivot: Hex, steps: int) -> Hex:
    """`h` turned about `pivot` by `steps` sixths of a turn (positive: clockwise on screen)."""
    q, r = h[0] - pivot[0], h[1] - pivot[1]
    s = -q - r
    for _ in range(steps % 6):
        q, r, s = -r, -s, -q
    return q + pivot[0], r + pivot[1]


def to_pixel(h: Hex) -> tuple[float, float]:
    """Centre of a pointy-top hex of size 1 (for static board geometry)."""
    q, r = h
    return 3**0.5 * (q + r / 2), 1.5 * r
