"""Unit Cards - Attack Range: the range shapes a designer can put on a card."""

from __future__ import annotations

import pytest

from bloodforge.core.graph import SquareGrid
from bloodforge.games.witch.board import square_name
from bloodforge.games.witch.content import (
    AdjacentShape,
    LineShape,
    OffsetsShape,
    WithinShape,
    compile_reach,
    parse_square_name,
)

GRID = SquareGrid(9, 9, [(3, 3)])  # d4 darkened
CENTRE = (4, 4)  # e5


def hit(shape: object, at: dict[tuple[int, int], str] | None = None) -> set[str]:
    reach = compile_reach(shape, GRID)  # type: ignore[arg-type]
    units = at if at is not None else {sq: square_name(sq) for sq in GRID.squares() if sq != CENTRE}
    return set(reach.units(CENTRE, units, GRID.blocked))


def test_square_names_are_column_letter_and_row_from_the_soldiers_edge() -> None:
    assert square_name((0, 0)) == "a1"
    assert square_name((4, 8)) == "e9"
    assert parse_square_name("c5") == (2, 4)


def test_adjacent_shape_four_or_eight_squares() -> None:
    assert hit(AdjacentShape(shape="adjacent", diagonals=False)) == {"e6", "f5", "e4", "d5"}
    assert len(hit(AdjacentShape(shape="adjacent", diagonals=True))) == 8


def test_within_shape_manhattan_and_chebyshev() -> None:
    assert len(hit(WithinShape(shape="within", max=2))) == 12
    assert len(hit(WithinShape(shape="within", max=2, metric="chebyshev"))) == 24
    assert len(hit(WithinShape(shape="within", min=2, max=2))) == 8


def test_offsets_shape_rotates_a_pattern_like_a_knight() -> None:
    knight = OffsetsShape(shape="offsets", offsets=((1, 2),), rotate=True)
    assert hit(knight) == {"f7", "g4", "d3", "c6"}
    fixed = OffsetsShape(shape="offsets", offsets=((0, 1), (0, 2)), rotate=False)
    assert hit(fixed) == {"e6", "e7"}


def test_blocked_line_hits_only_the_first_unit_and_stops_at_darkened_squares() -> None:
    line = LineShape(shape="line", min=1, max=4, diagonals=True, blocked=True)
    units = {(4, 6): "north", (4, 7): "behind", (2, 2): "past_dark", (6, 6): "diag"}
    assert hit(line, units) == {"north", "diag"}
    open_line = LineShape(shape="line", min=2, max=3, blocked=False)
    assert hit(open_line, {(4, 5): "near", (4, 6): "far"}) == {"far"}


def test_range_shapes_refuse_impossible_values() -> None:
    with pytest.raises(ValueError, match="min 3 exceeds max 2"):
        LineShape(shape="line", min=3, max=2)
    with pytest.raises(ValueError, match=r"\[0, 0\]"):
        OffsetsShape(shape="offsets", offsets=((0, 0),))
