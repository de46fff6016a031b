"""The clock rule of server/clocks.py, on plain entries: a rules clock spans the seat's own
decisions while the rules keep giving it (Five Forts' planning minute), a turn clock restarts."""

from __future__ import annotations

from typing import Any

from bloodforge.server.clocks import RULE, TURN, Deadline, next_deadlines


class FakeState:
    """Only what next_deadlines reads: who acts, and the rules clock of each seat."""

    def __init__(self, actors: list[int], rule: float | None) -> None:
        self._actors = actors
        self._rule = rule

    def is_terminal(self) -> bool:
        return False

    def actors(self) -> list[int]:
        return self._actors

    def rule_clock(self, seat: int) -> float | None:
        del seat
        return self._rule


def _next(old: dict[int, Deadline], state: Any, entries: list[tuple[int | None, str]], turn: float | None) -> Any:
    return next_deadlines(old, state, entries, {0, 1}, turn, now=10_000)


def test_rules_clock_keeps_running_across_the_seats_own_actions() -> None:
    old = {0: Deadline(5_000, RULE)}
    assert _next(old, FakeState([0], 60.0), [(0, "recruit 3 infantry")], None) == old


def test_rules_clock_restarts_after_the_games_own_steps_and_after_a_timeout() -> None:
    old = {0: Deadline(5_000, RULE)}
    assert _next(old, FakeState([0], 60.0), [(None, "reveal")], None) == {0: Deadline(70_000, RULE)}
    assert _next(old, FakeState([0], 60.0), [(None, "timeout 0")], None) == {0: Deadline(70_000, RULE)}


def test_turn_clock_restarts_after_each_own_action() -> None:
    old = {0: Deadline(5_000, TURN)}
    assert _next(old, FakeState([0], None), [(0, "move 1 2")], 30.0) == {0: Deadline(40_000, TURN)}


def test_a_clock_keeps_running_while_only_others_commit() -> None:
    old = {0: Deadline(5_000, TURN)}
    assert _next(old, FakeState([0], None), [(1, "bid 3")], 30.0) == old
