"""The action texts of Blood Stone: verbs, their words, and what a well-formed word is.

Squares are written `c5`: column letter from `a` at the left, row number from 1 at the Soldiers'
edge. Units and cards are written by their content ids (`archer`, `minion2`, `manipulate`).
A text that no action of this game could ever have (an unknown unit, a square off the board,
`pay two`) is an ActionSyntaxError; a well-formed text the rules refuse now is an IllegalAction.
"""

from __future__ import annotations

from collections.abc import Iterable

from bloodforge.core import Action, ActionSpec, ActionSyntaxError

from .content import Content

GRAMMAR: tuple[ActionSpec, ...] = (
    ActionSpec("place", ("unit", "square"), "setup: put a piece on a free start tile of its side",
               label="Place {unit} on {square}"),
    ActionSpec(
        "move", ("unit", "square"), "Act: move a unit up to its movement in orthogonal steps",
        label="Move {unit} to {square}",
    ),
    ActionSpec(
        "attack", ("unit", "target"), "Act: attack a unit in the attacker's range (1 blood stone)",
        types=("unit", "unit"), label="{unit} attacks {target}",
    ),
    ActionSpec("cast", ("card",), "start using a spell card from your hand", label="Cast {card}"),
    ActionSpec("target", ("unit_or_square",), "choose the unit or square the spell affects",
               label="Target {unit_or_square}"),
    ActionSpec("pay", ("x",), "pay X blood from the Witch, roll the Chance and resolve the spell",
               types=("number",), label="Pay {x} blood"),
    ActionSpec("discard", ("card",), "discard a spell card from your hand", label="Discard {card}"),
    ActionSpec("done", (), "stop Acting with the units a spell let you Act with", label="Done acting"),
    ActionSpec("end", (), "end your turn", label="End turn"),
)

_UNIT_VERBS = {"place", "move", "attack"}


def canonical(content: Content, action: Action) -> Action:
    """Lower-case every word, `pay 02` -> `pay 2`, and refuse words that can never be valid."""
    kind = action.kind
    args = tuple(a.lower() for a in action.args)
    text = str(Action(kind, args))
    if kind in _UNIT_VERBS:
        _unit(content, args[0], text)
        if kind == "attack":
            _unit(content, args[1], text)
        else:
            _square(content, args[1], text)
    elif kind in {"cast", "discard"}:
        if args[0] not in content.spells:
            raise ActionSyntaxError(
                f"{text!r}: no spell card called {args[0]!r}; cards: {_listed(content.spells)}"
            )
    elif kind == "target":
        if args[0] not in content.units and args[0] not in content.squares_by_name:
            raise ActionSyntaxError(
                f"{text!r}: {args[0]!r} is neither a unit ({_listed(content.units)}) "
                "nor a square of the board"
            )
    elif kind == "pay":
        word = args[0]
        if not word.isdigit() or int(word) < 1:
            raise ActionSyntaxError(
                f"{text!r}: X must be a whole number of blood stones, at least 1"
            )
        args = (str(int(word)),)
    return Action(kind, args)


def _unit(content: Content, word: str, text: str) -> None:
    if word not in content.units:
        raise ActionSyntaxError(
            f"{text!r}: no unit called {word!r}; units: {_listed(content.units)}"
        )


def _square(content: Content, word: str, text: str) -> None:
    if word not in content.squares_by_name:
        b = content.data.board
        last = f"{chr(96 + b.width)}{b.height}"
        raise ActionSyntaxError(
            f"{text!r}: {word!r} is not a square of the board (a1 to {last}, like c5)"
        )


def _listed(names: Iterable[str]) -> str:
    return ", ".join(sorted(names))
