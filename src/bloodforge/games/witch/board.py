"""Board geometry: square names and the range patterns of unit cards and spells.

A range is compiled once per content file into, for every square, the rays it reaches. A ray is
walked outwards at play time, so lines that stop at the first unit (the archer's arrows) and
patterns that ignore what stands between (the spearman's reach) share one representation: an
unblocked pattern is simply a set of one-square rays.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

Square = tuple[int, int]

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))


def square_name(sq: Square) -> str:
    """`c5`: column letter from a (the left edge), row number from 1 (the Soldiers' edge)."""
    return f"{chr(97 + sq[0])}{sq[1] + 1}"


@dataclass(frozen=True)
class Reach:
    """Per origin square, the rays of (square, may_be_hit) that a pattern covers, nearest first."""

    blocked: bool
    rays: Mapping[Square, tuple[tuple[tuple[Square, bool], ...], ...]]
    #: unblocked patterns only: per origin, each square it hits -> its place in ray order. A
    #: board holds a few units and a pattern covers up to fifty squares, so the units are
    #: looked up in the pattern rather than the pattern walked.
    order: Mapping[Square, Mapping[Square, int]] = field(default_factory=dict)

    def __reduce__(
        self,
    ) -> tuple[type[Reach], tuple[bool, Mapping[Square, tuple[tuple[tuple[Square, bool], ...], ...]],
                                   Mapping[Square, Mapping[Square, int]]]]:
        """Pickled by its constructor's arguments: the server pickles each table's game, whose
        content holds its compiled ranges, for the search workers, and in the compiled build
        (README, "Compiled build") a compiled frozen dataclass does not unpickle by filling in
        its fields; both builds write and read the same thing."""
        return (Reach, (self.blocked, self.rays, self.order))

    def units(
        self, origin: Square, at: Mapping[Square, str], blocked_squares: frozenset[Square]
    ) -> list[str]:
        """Ids of the units this pattern can hit from `origin` (never the unit on `origin`),
        ray by ray, nearest first (a list: legal actions ask this for every unit and spell)."""
        out: list[str] = []
        rays = self.rays.get(origin)
        if rays is None:
            return out
        if self.blocked:
            for ray in rays:
                for sq, hittable in ray:
                    if sq in blocked_squares:
                        break
                    uid = at.get(sq)
                    if uid is not None:
                        if hittable:
                            out.append(uid)
                        break
        else:
            order = self.order.get(origin)
            if order is not None:
                found = sorted((order[sq], uid) for sq, uid in at.items() if sq in order)
                return [uid for _, uid in found]
            for ray in rays:
                for sq, hittable in ray:
                    if hittable:
                        uid = at.get(sq)
                        if uid is not None:
                            out.append(uid)
        return out

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
