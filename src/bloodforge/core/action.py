"""Actions: immutable values with a stable text form, the same for every game.

An action is a verb (`kind`) and positional word arguments, printed as `kind arg1 arg2`. The text
is what logs, replays, the HTTP API and tests carry, so it must never change for a given action
(think UCI in chess). Arguments are kept as the exact words of the text; games convert them.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The verb every game uses to drop a partial compound choice (undo before commit).
CANCEL = "cancel"

#: The host's verb (`timeout <seat>`): a seat's clock ran out. Never in a seat's legal actions;
#: recorded in the history like any action so that replays reproduce what it caused.
TIMEOUT = "timeout"

#: Argument types a UI knows how to pick on a board or in a hand; anything else is a word.
ARG_TYPES = ("area", "square", "hex", "unit", "card", "tile", "seat", "number", "word")


@dataclass(frozen=True, slots=True, order=True)
class Action:
    kind: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.kind, *self.args)) if self.args else self.kind

    @staticmethod
    def of(kind: str, *args: object) -> Action:
        return Action(kind, tuple(map(str, args)))

    @property
    def is_cancel(self) -> bool:
        return self.kind == CANCEL


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """Grammar of one verb: how many words follow it and what they mean (for help and errors).

    `types` gives each argument's type (one of ARG_TYPES) so a generic UI can let people pick
    it on the board (an area, a square, a hex) or in a hand (a unit, a card); by default an
    argument whose name is a type has that type, any other is a `word`. `label` is a template
    for people, e.g. "Move {unit} from {area}", filled with the arguments by name.
    `host`: only the host may play it (`timeout`).
    """

    kind: str
    args: tuple[str, ...] = ()
    help: str = ""
    optional_args: int = 0
    types: tuple[str, ...] | None = None
    label: str = ""
    host: bool = False

    def __post_init__(self) -> None:
        if self.types is not None:
            if len(self.types) != len(self.args):
                raise ValueError(f"{self.kind}: {len(self.types)} types for {len(self.args)} arguments")
            unknown = [t for t in self.types if t not in ARG_TYPES]
            if unknown:
                raise ValueError(f"{self.kind}: unknown argument types {unknown}; known: {ARG_TYPES}")

    def arg_types(self) -> tuple[str, ...]:
        if self.types is not None:
            return self.types
        return tuple(a if a in ARG_TYPES else "word" for a in self.args)

    def describe(self) -> dict[str, object]:
        """JSON form for UIs and the API."""
        return {
            "kind": self.kind, "args": list(self.args), "types": list(self.arg_types()),
            "optional_args": self.optional_args, "help": self.help, "label": self.label,
            "host": self.host,
        }

    @property
    def min_arity(self) -> int:
        return len(self.args) - self.optional_args

    @property
    def max_arity(self) -> int:
        return len(self.args)

    def usage(self) -> str:
        words = [self.kind]
        for i, name in enumerate(self.args):
            optional = i >= self.min_arity
            words.append(f"[{name}]" if optional else f"<{name}>")
        return " ".join(words)
