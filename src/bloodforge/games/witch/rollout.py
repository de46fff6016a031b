"""A light playout policy for search rollouts: a weighted random choice that no player would
call foolish, at a few microseconds a decision.

*Why:* the searcher scores a line by playing on from it. Uniformly random play is the wrong
stand-in here: a random Soldier attacks his comrades (friendly fire is legal), a random Witch
pays a random price and manipulates minions into each other, so every line in which the side to
move keeps acting looks worse than ending the turn at once (the search's Soldiers learnt to pass).
The greedy policy plays well but costs milliseconds a decision, a few hundred rollouts a second.
This policy never hits its own side, prefers attacks (on the Witch above all, and blows that
kill), steps towards the enemy (the Witch away from the Soldiers), pays the most it can for a
sure Zombify or Manipulate, and rarely ends a turn that still has something to do.

It reads only what every player sees (units, squares, blood, whose turn) and the legal actions,
of the state it is given: in a search, a determinization the searcher sampled itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from bloodforge.core import Action, Rng, State

from .board import Square
from .model import SOLDIERS, WITCH, Position

#: Relative weights of the kinds of choice (a weighted random draw among the legal actions).
ATTACK = 8.0
ATTACK_WITCH = 12.0
KILL = 6.0
MOVE_CLOSER = 2.0
MOVE = 0.6
CAST = 3.0
END = 0.4
DONE = 0.3

#: Effects aimed at the other side, and those meant for one's own.
HOSTILE = {"damage", "drain", "zombify", "bind"}
FRIENDLY = {"heal"}


def _dist(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class LightRollout:
    """`choose(state, seat, rng)`: see the module docstring."""

    def __init__(self) -> None:
        self._squares: tuple[list[Square], list[Square]] = ([], [])
        self._nearest: dict[str, int] = {}

    def choose(self, state: State, seat: int, rng: Rng) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        weights = self.weights(state, seat, legal)
        total = sum(weights)
        if total <= 0:
            useful = [a for a in legal if a.kind not in ("cancel", "discard")] or legal
            return useful[rng.randbelow(len(useful))]
        pick = rng.random() * total
        for action, w in zip(legal, weights, strict=True):
            pick -= w
            if pick < 0:
                return action
        return legal[-1]

    def weights(self, state: State, seat: int, actions: Sequence[Action]) -> list[float]:
        """How much this policy likes each of `actions` (legal for `seat` now)."""
        position = cast(Position, state)  # a Blood Stone state is both
        # where each side's units stand, and each unit's distance to the nearest foe, once a decision
        self._squares = ([], [])
        for u in position.units.values():
            if u.square is not None and u.where == "board":
                self._squares[self._side(position, u.id)].append(u.square)
        self._nearest = {}
        return [self._weight(position, seat, a) for a in actions]

    # -- weights ------------------------------------------------------------------------------
    @staticmethod
    def _side(state: Position, uid: str) -> int:
        """Whose unit it is now: a zombified soldier serves the Witch."""
        if not state.units[uid].zombified and state.content.units[uid].kind == "soldier":
            return SOLDIERS
        return WITCH

    def _weight(self, state: Position, seat: int, action: Action) -> float:
        kind, args = action.kind, action.args
        if kind == "attack":
            attacker, target = args
            if self._side(state, target) == self._side(state, attacker):
                return 0.0
            w = ATTACK_WITCH if state.content.units[target].kind == "witch" else ATTACK
            return w + (KILL if state.units[target].blood <= 1 else 0.0)
        if kind == "move":
            return self._move_weight(state, args[0], state.content.squares_by_name[args[1]])
        if kind == "cast":
            return CAST
        if kind == "target":
            return self._target_weight(state, seat, args[0])
        if kind == "pay":
            return self._pay_weight(state, int(args[0]))
        if kind == "end":
            return END
        if kind == "done":
            return DONE
        if kind == "place":
            return 1.0
        return 0.0  # cancel, discard: never in a playout while anything else is legal

    def _move_weight(self, state: Position, uid: str, to: Square) -> float:
        here = state.units[uid].square
        foes = self._squares[1 - self._side(state, uid)]
        if here is None or not foes:
            return MOVE
        before = self._nearest.get(uid)
        if before is None:
            before = self._nearest[uid] = min(_dist(here, f) for f in foes)
        after = min(_dist(to, f) for f in foes)
        if state.content.units[uid].kind == "witch":
            return MOVE_CLOSER if after > before else MOVE * 0.5  # she keeps her distance
        return MOVE_CLOSER if after < before else MOVE * 0.5

    def _target_weight(self, state: Position, seat: int, word: str) -> float:
        pending = state.pending
        if pending is None or word not in state.units:
            return 1.0  # a square (Shadow Step): any
        effect = state.content.spells[pending.card].effect.kind
        enemy = self._side(state, word) != seat
        if effect in HOSTILE:
            return 4.0 if enemy else 0.2
        if effect in FRIENDLY:
            return 0.1 if enemy else 4.0
        return 1.0

    def _pay_weight(self, state: Position, x: int) -> float:
        """Blood buys certainty: pay the most (a sure pass at the die's size), unless the Witch
        is down to her last stones."""
        blood = state.units[state.content.witch_id].blood
        return float(x * x) if blood > 6 else 1.0 / x


def make_rollout_policy() -> LightRollout:
    return LightRollout()
