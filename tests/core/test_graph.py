"""Area graphs and square grids."""

import pytest

from bloodforge.core import AreaGraph, SquareGrid


def line(n: int) -> AreaGraph:
    return AreaGraph({i: [j for j in (i - 1, i + 1) if 0 <= j < n] for i in range(n)})


def test_distances_are_breadth_first() -> None:
    g = line(5)
    assert g.distances_from(0) == {0: 0, 1: 1, 2: 2, 3: 3, 4: 4}
    assert g.distance(4, 1) == 3


def test_asymmetric_border_is_refused() -> None:
    with pytest.raises(ValueError, match="listed by 0 but not by 1"):
        AreaGraph({0: [1], 1: []})


def test_unknown_and_self_borders_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown area"):
        AreaGraph({0: [5]})
    with pytest.raises(ValueError, match="itself"):
        AreaGraph({0: [0]})


def test_components() -> None:
    g = line(6)
    comps = sorted(sorted(c) for c in g.components([0, 1, 3, 4, 5]))
    assert comps == [[0, 1], [3, 4, 5]]


def test_cheapest_costs_respect_blocking_and_budget() -> None:
    g = line(6)
    costs = {0: 1, 1: 1, 2: 2, 3: 1, 4: 1, 5: 1}
    result = g.cheapest_costs(0, lambda a: costs[a], lambda a: a != 3, budget=None)
    assert result == {0: 0, 1: 1, 2: 3, 3: 4}  # 3 can be entered, not passed
    assert g.cheapest_costs(0, lambda a: costs[a], lambda a: True, budget=3) == {0: 0, 1: 1, 2: 3}
    assert g.cheapest_costs(0, lambda a: None if a == 2 else 1, lambda a: True) == {0: 0, 1: 1}


def test_square_grid_orthogonal_moves_avoid_blocked_and_occupied() -> None:
    grid = SquareGrid(4, 3, blocked=[(1, 0)])
    assert sorted(grid.orthogonal((0, 0))) == [(0, 1), (1, 0)]
    reach = grid.reachable((0, 0), 2, occupied=lambda sq: sq == (0, 1))
    assert reach == {(0, 0): 0}
    reach = grid.reachable((0, 2), 2, occupied=lambda sq: False)
    assert reach == {(0, 2): 0, (0, 1): 1, (1, 2): 1, (0, 0): 2, (1, 1): 2, (2, 2): 2}
    with pytest.raises(ValueError, match="off the"):
        SquareGrid(2, 2, blocked=[(5, 5)])
