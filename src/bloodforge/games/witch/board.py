"""Board geometry: square names and the range patterns of unit cards and spells.

A range is compiled once per content file into, for every square, the rays it reaches. A ray is
walked outwards at play time, so lines that stop at the first unit (the archer's arrows) and
patterns that ignore what stands between (the spearman's reach) share one representation: an
unblocked pattern is simply a set of one-square rays.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bloodforge.core.graph import SquareGrid

if TYPE_CHECKING:
    from .content import PatternShape

Square = tuple[int, int]

_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))


def square_name(sq: Square) -> str:
    """`c5`: column letter from a (the left edge), row number from 1 (the Soldiers' edge)."""
    return f"{chr(97 + sq[0])}{sq[1] + 1}"


@dataclass(frozen=True)
class Reach:
    """Per origin square, the rays of (square, may_be_hit) that a pattern covers, nearest first."""

    blocked: bool
    rays: Mapping[Square, tuple[tuple[tuple[Square, bool], ...], ...]]

    def units(
        self, origin: Square, at: Mapping[Square, str], blocked_squares: frozenset[Square]
    ) -> Iterator[str]:
        """Ids of the units this pattern can hit from `origin` (never the unit on `origin`)."""
        for ray in self.rays.get(origin, ()):
            for sq, hittable in ray:
                if self.blocked and sq in blocked_squares:
                    break
                uid = at.get(sq)
                if uid is not None:
                    if hittable:
                        yield uid
                    if self.blocked:
                        break

    def free_squares(
        self, origin: Square, at: Mapping[Square, str], blocked_squares: frozenset[Square]
    ) -> Iterator[Square]:
        """Empty, passable squares the pattern reaches from `origin`."""
        for ray in self.rays.get(origin, ()):
            for sq, hittable in ray:
                if sq in blocked_squares:
                    if self.blocked:
                        break
                    continue
                if sq in at:
                    if self.blocked:
                        break
                    continue
                if hittable:
                    yield sq


def _pattern_offsets(shape: PatternShape) -> list[tuple[int, int]]:
    from .content import AdjacentShape, OffsetsShape, WithinShape

    if isinstance(shape, AdjacentShape):
        return list(_ORTHOGONAL + (_DIAGONAL if shape.diagonals else ()))
    if isinstance(shape, WithinShape):
        out = []
        for dx in range(-shape.max, shape.max + 1):
            for dy in range(-shape.max, shape.max + 1):
                d = abs(dx) + abs(dy) if shape.metric == "manhattan" else max(abs(dx), abs(dy))
                if (dx, dy) != (0, 0) and shape.min <= d <= shape.max:
                    out.append((dx, dy))
        return out
    assert isinstance(shape, OffsetsShape)
    offsets = set(shape.offsets)
    if shape.rotate:
        for dx, dy in list(offsets):
            offsets |= {(dy, -dx), (-dx, -dy), (-dy, dx)}
    return sorted(offsets)


def compile_reach(shape: PatternShape, grid: SquareGrid) -> Reach:
    """Rays of `shape` from every square of `grid`, clipped to the board."""
    from .content import LineShape

    rays: dict[Square, tuple[tuple[tuple[Square, bool], ...], ...]] = {}
    for origin in grid.squares():
        c, r = origin
        out: list[tuple[tuple[Square, bool], ...]] = []
        if isinstance(shape, LineShape):
            dirs = _ORTHOGONAL + (_DIAGONAL if shape.diagonals else ())
            for dx, dy in dirs:
                ray = []
                for step in range(1, shape.max + 1):
                    sq = (c + dx * step, r + dy * step)
                    if not grid.on_board(sq):
                        break
                    if shape.blocked or step >= shape.min:
                        ray.append((sq, step >= shape.min))
                if ray:
                    if shape.blocked:
                        out.append(tuple(ray))
                    else:
                        out.extend((item,) for item in ray)
            rays[origin] = tuple(out)
            continue
        for dx, dy in _pattern_offsets(shape):
            sq = (c + dx, r + dy)
            if grid.on_board(sq):
                out.append(((sq, True),))
        rays[origin] = tuple(out)
    blocked = isinstance(shape, LineShape) and shape.blocked
    return Reach(blocked=blocked, rays=rays)
