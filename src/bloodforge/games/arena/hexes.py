"""Hex geometry in axial coordinates (spec §2.1) for the rules: the exported basics (ids,
distance, neighbours) come from `queries`; spelling, shapes, rotation and drawing live here."""

from __future__ import annotations

from .queries import DIRECTIONS, Hex, distance, hex_id, neighbours, parse_hex

__all__ = ["DIRECTIONS", "Hex", "canonical_hex", "distance", "hex_id", "hexagon", "neighbours", "parse_hex",
           "rotate", "to_pixel"]


def canonical_hex(text: str) -> str:
    """Normalise spelling (`"+01,-0"` is not accepted; `"01,-02"` becomes `"1,-2"`)."""
    h = parse_hex(text)
    return text if h is None else hex_id(h)


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
